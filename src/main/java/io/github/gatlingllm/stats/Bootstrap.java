package io.github.gatlingllm.stats;

import java.util.Arrays;

/**
 * The percentile bootstrap of a change between two samples (Efron and Tibshirani, "An Introduction
 * to the Bootstrap", ch. 13): each sample resampled independently, the change {@code B / A - 1} of
 * each pair of replicates, its 2.5th and 97.5th percentiles the 95% interval; and the rule that
 * keeps a percentile of too few values from getting one.
 */
public final class Bootstrap {

  /** The fewest values above a percentile for its interval: {@value #MIN_TAIL}. */
  public static final int MIN_TAIL = 5;

  private Bootstrap() {}

  /**
   * Whether {@code n} values leave at least {@link #MIN_TAIL} above percentile {@code p}: below
   * that, the percentile is one of the few largest values, whose bootstrap is unreliable (it never
   * goes above the largest), so it gets no interval (p99 needs 500 values, p90 50).
   *
   * @param p the percentile, in [0, 100]
   * @param n how many values
   * @return true when the percentile may have an interval
   */
  public static boolean tailed(double p, long n) {
    return n * (100 - p) / 100 >= MIN_TAIL - 1e-9;
  }

  /**
   * The 95% interval of the change from A to B in percent: the 2.5th and 97.5th percentiles
   * (indices {@code floor(0.025 (k - 1))} and {@code ceil(0.975 (k - 1))} of the {@code k} sorted
   * changes) of {@code (b[i] / a[i] - 1) * 100} over the pairs of replicates whose A is positive
   * and both finite.
   *
   * @param a the replicates of A, never null
   * @param b the replicates of B, never null; pairs beyond the shorter array are ignored
   * @return {@code [lo, hi]} in percent; null when more than a tenth of the pairs have no change (a
   *     zero in A)
   */
  public static double[] interval(double[] a, double[] b) {
    int r = Math.min(a.length, b.length);
    double[] d = new double[r];
    int k = 0;
    for (int i = 0; i < r; i++) {
      if (a[i] > 0 && Double.isFinite(a[i]) && Double.isFinite(b[i])) {
        d[k++] = (b[i] / a[i] - 1) * 100;
      }
    }
    if (k < r * 0.9) {
      // Too many resamples without a value (a zero in A): no honest interval.
      return null;
    }
    Arrays.sort(d, 0, k);
    int lo = (int) Math.floor(0.025 * (k - 1));
    int hi = (int) Math.ceil(0.975 * (k - 1));
    return new double[] {d[lo], d[hi]};
  }
}
