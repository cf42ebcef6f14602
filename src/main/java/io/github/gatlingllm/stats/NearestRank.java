package io.github.gatlingllm.stats;

import java.util.Arrays;
import java.util.List;

/**
 * Nearest-rank percentiles (the definition of the run record's percentiles: the smallest value with
 * at least {@code p}% of the values at or below it), and the selection that finds one without
 * sorting all the values.
 */
public final class NearestRank {

  private NearestRank() {}

  /**
   * The nearest rank of percentile {@code p} among {@code n} values, 0-based: {@code ceil(p / 100 *
   * n) - 1}, and 0 for a percentile at or below {@code 100 / n}.
   *
   * @param p the percentile, in [0, 100]
   * @param n how many values, at least 1
   * @return the index of the percentile in the values sorted ascending, in [0, n - 1]
   */
  public static int rank(double p, int n) {
    return (int) Math.max(1, Math.ceil(p / 100.0 * n)) - 1;
  }

  /**
   * The {@code k}-th smallest (0-based) of the first {@code len} values (Hoare's selection, about
   * {@code 2 len} comparisons on average); reorders those values.
   *
   * @param a the values, never null; NaN is not allowed among the first {@code len}
   * @param len how many of them to select from, at least 1
   * @param k the rank wanted, in [0, len - 1]
   * @return the value of that rank
   * @throws ArrayIndexOutOfBoundsException when {@code len} or {@code k} is out of range
   */
  public static double select(double[] a, int len, int k) {
    int lo = 0;
    int hi = len - 1;
    while (lo < hi) {
      double pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          double tmp = a[i];
          a[i] = a[j];
          a[j] = tmp;
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return a[k];
      }
    }
    return a[k];
  }

  /**
   * Percentile {@code p} of the first {@code len} values: {@link #select} of {@link #rank}.
   *
   * @param a the values, never null; reordered
   * @param len how many of them, at least 1
   * @param p the percentile, in [0, 100]
   * @return the nearest-rank percentile
   */
  public static double percentile(double[] a, int len, double p) {
    return select(a, len, rank(p, len));
  }

  /**
   * Several nearest-rank percentiles of the same values, from one sorted copy.
   *
   * @param values the values, never null nor empty; left as they are
   * @param percentiles the percentiles, each in [0, 100]
   * @return each percentile's value, in the order of {@code percentiles}
   */
  public static double[] percentiles(double[] values, List<Double> percentiles) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    double[] out = new double[percentiles.size()];
    for (int i = 0; i < out.length; i++) {
      double p = percentiles.get(i);
      out[i] = sorted[p == 0 ? 0 : rank(p, sorted.length)];
    }
    return out;
  }
}
