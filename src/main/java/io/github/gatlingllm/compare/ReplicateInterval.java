package io.github.gatlingllm.compare;

import org.apache.commons.math3.distribution.TDistribution;

/**
 * The between-run 95% interval of a change: a Student's t interval over per-run values (each run a
 * replicate, as a benchmark harness treats its forks), so the variation between runs (a neighbour
 * busy during one run, a JVM warming up differently) widens it.
 *
 * <p>The definition (Welch's two-sample t interval, B. L. Welch, "The generalization of Student's
 * problem when several different population variances are involved", Biometrika 34, 1947; the same
 * Student's t that JMH's score error uses over its iterations): with {@code mA}, {@code sA²},
 * {@code nA} the mean, sample variance and count of A's per-run values (B's alike), the difference
 * {@code mB - mA} has the standard error {@code se = sqrt(sA²/nA + sB²/nB)} and {@code df = se⁴ /
 * ((sA²/nA)²/(nA-1) + (sB²/nB)²/(nB-1))} degrees of freedom (Welch-Satterthwaite); the interval is
 * {@code mB - mA ± t(0.975, df) se}, in percent of {@code mA}. With one run on a side (a run
 * against several baseline runs) that side's spread is taken to be the other's: {@code se = s
 * sqrt(1/nA + 1/nB)}, {@code df = n - 1} of the side with several. {@code mA} is taken as known, so
 * the interval is of the difference scaled, not of the ratio: fine for the changes a comparison
 * cares about, a little narrow when A's own spread is large against its mean.
 */
public final class ReplicateInterval {

  private ReplicateInterval() {}

  /**
   * The 95% interval of the change from A's runs to B's in percent of A's mean.
   *
   * @param a A's per-run values, finite, never null
   * @param b B's per-run values, finite, never null
   * @return {@code [lo, hi]} in percent; null when a side has no value, both sides have one each,
   *     or A's mean is not positive
   */
  public static double[] changePct(double[] a, double[] b) {
    int na = a.length;
    int nb = b.length;
    if (na == 0 || nb == 0 || na + nb < 3) {
      return null;
    }
    double ma = mean(a);
    double mb = mean(b);
    if (!(ma > 0)) {
      return null;
    }
    double va = na > 1 ? variance(a, ma) : Double.NaN;
    double vb = nb > 1 ? variance(b, mb) : Double.NaN;
    double se;
    double df;
    if (na == 1) {
      se = Math.sqrt(vb * (1.0 / na + 1.0 / nb));
      df = nb - 1;
    } else if (nb == 1) {
      se = Math.sqrt(va * (1.0 / na + 1.0 / nb));
      df = na - 1;
    } else {
      double qa = va / na;
      double qb = vb / nb;
      se = Math.sqrt(qa + qb);
      double denominator = qa * qa / (na - 1) + qb * qb / (nb - 1);
      df = denominator > 0 ? (qa + qb) * (qa + qb) / denominator : na + nb - 2;
    }
    double diff = mb - ma;
    double half = se > 0 ? t975(df) * se : 0;
    return new double[] {(diff - half) / ma * 100, (diff + half) / ma * 100};
  }

  /**
   * The 97.5th percentile of Student's t distribution (Apache Commons Math's {@link
   * TDistribution}).
   *
   * @param df degrees of freedom, positive (not necessarily whole)
   * @return e.g. 4.303 for 2, 2.776 for 4
   */
  static double t975(double df) {
    return new TDistribution(null, df).inverseCumulativeProbability(0.975);
  }

  static double mean(double[] x) {
    double s = 0;
    for (double v : x) {
      s += v;
    }
    return s / x.length;
  }

  private static double variance(double[] x, double mean) {
    double s = 0;
    for (double v : x) {
      s += (v - mean) * (v - mean);
    }
    return s / (x.length - 1);
  }
}
