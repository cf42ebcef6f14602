package io.github.gatlingllm.compare;

import java.util.Locale;

/**
 * A verdict on one metric, from the 95% interval of its change and the minimum effect that counts;
 * direction-aware (lower latency is better; higher throughput, attainment and cache-hit ratio are
 * better).
 */
public enum ChangeVerdict {
  /** B is better than A by more than the minimum effect, with 95% confidence. */
  BETTER,
  /** B is worse than A by more than the minimum effect, with 95% confidence. */
  WORSE,
  /** B is within the minimum effect of A, with 95% confidence. */
  SAME,
  /** Neither: the interval straddles the minimum effect, or there is none. */
  UNCLEAR;

  /**
   * The name in the output.
   *
   * @return e.g. {@code worse}
   */
  public String wireName() {
    return name().toLowerCase(Locale.ROOT);
  }

  /**
   * The verdict of an interval: {@code better} or {@code worse} when the whole interval lies beyond
   * the minimum effect on that side, {@code same} when it lies within plus or minus the minimum
   * effect, {@code unclear} otherwise or without an interval.
   *
   * @param ci the 95% interval of the change in percent, {@code [lo, hi]}, or null
   * @param minEffectPct the least change that counts, percent, at least 0
   * @param lowerIsBetter whether a lower value is better
   * @return the verdict, never null
   */
  public static ChangeVerdict of(double[] ci, double minEffectPct, boolean lowerIsBetter) {
    return of(null, null, ci, minEffectPct, 0, lowerIsBetter);
  }

  /**
   * The verdict on one metric of two runs:
   *
   * <ul>
   *   <li>{@code same} when A's and B's values are identical (with or without an interval);
   *   <li>{@code better} or {@code worse} when the whole interval lies beyond both the minimum
   *       effect and the noise floor on that side;
   *   <li>{@code same} when the whole interval lies within plus or minus the minimum effect;
   *   <li>{@code unclear} otherwise, or without an interval.
   * </ul>
   *
   * <p>The noise floor is the change the runs' own variation over time could make (see {@link
   * RunComparison}): a change smaller than it is not called better or worse, however narrow its
   * interval, because a 95% interval from within the runs does not cover the variation between
   * runs.
   *
   * @param a A's value, or null
   * @param b B's value, or null
   * @param ci the 95% interval of the change in percent, {@code [lo, hi]}, or null
   * @param minEffectPct the least change that counts, percent, at least 0
   * @param noiseFloorPct the noise floor, percent, at least 0 (0 for none)
   * @param lowerIsBetter whether a lower value is better
   * @return the verdict, never null
   */
  public static ChangeVerdict of(
      Double a,
      Double b,
      double[] ci,
      double minEffectPct,
      double noiseFloorPct,
      boolean lowerIsBetter) {
    if (a != null && a.equals(b)) {
      return SAME;
    }
    if (ci == null) {
      return UNCLEAR;
    }
    double lo = ci[0];
    double hi = ci[1];
    double bar = Math.max(minEffectPct, noiseFloorPct);
    if (lo > bar) {
      return lowerIsBetter ? WORSE : BETTER;
    }
    if (hi < -bar) {
      return lowerIsBetter ? BETTER : WORSE;
    }
    if (lo >= -minEffectPct && hi <= minEffectPct) {
      return SAME;
    }
    return UNCLEAR;
  }

  /**
   * A verdict and why, when a rule beyond the interval and the floors made it.
   *
   * @param verdict the verdict, never null
   * @param reason the rule that made it, one sentence, or null for the plain rule of {@link
   *     #of(Double, Double, double[], double, double, boolean)}
   */
  public record Judged(ChangeVerdict verdict, String reason) {}

  /**
   * The verdict on one metric with the floor rule: as {@link #of(Double, Double, double[], double,
   * double, boolean)} with the larger of the two floors, except that a change left {@code unclear}
   * by that floor alone is called better or worse when
   *
   * <ul>
   *   <li>its whole interval lies beyond the other run's (smaller) floor and the minimum effect,
   *       and
   *   <li>the run with the larger floor has it from one stretch apart: left out the stretch whose
   *       leaving out makes the rest agree best, its other stretches agree within that same bar
   *       (largest over smallest, less 1), and
   *   <li>those other stretches lie beyond every stretch of the other run, by more than the bar
   *       (for an increase the least of B's over the most of A's, less 1; for a decrease the most
   *       of B's over the least of A's).
   * </ul>
   *
   * <p>A run's floor is its largest stretch over its smallest; one stretch made apart (a warm start
   * found prompts in a cache, a neighbour's burst) inflates it however small the rest are. If even
   * the run's stretch nearest the other run shows the change, that stretch cannot have made it.
   *
   * @param a A's value, or null
   * @param b B's value, or null
   * @param ci the 95% interval of the change in percent, or null
   * @param minEffectPct the least change that counts, percent, at least 0
   * @param floorA A's noise floor, percent, or null
   * @param floorB B's noise floor, percent, or null
   * @param stretchesA A's value in each of its stretches (every run's), never null
   * @param stretchesB B's alike, never null
   * @param lowerIsBetter whether a lower value is better
   * @return the verdict and, when the floor rule made it, its reason
   */
  public static Judged judge(
      Double a,
      Double b,
      double[] ci,
      double minEffectPct,
      Double floorA,
      Double floorB,
      double[] stretchesA,
      double[] stretchesB,
      boolean lowerIsBetter) {
    double larger = Math.max(floorA == null ? 0 : floorA, floorB == null ? 0 : floorB);
    ChangeVerdict plain = of(a, b, ci, minEffectPct, larger, lowerIsBetter);
    if (plain != UNCLEAR || ci == null || floorA == null || floorB == null) {
      return new Judged(plain, null);
    }
    boolean aSmaller = floorA <= floorB;
    double smaller = aSmaller ? floorA : floorB;
    double bar = Math.max(minEffectPct, smaller);
    boolean up = ci[0] > bar;
    boolean down = ci[1] < -bar;
    if (!up && !down || stretchesA.length == 0 || stretchesB.length == 0) {
      return new Judged(plain, null);
    }
    // The inflated run's stretches without the one apart: the rest must agree within the bar.
    double[] rest = withoutOutlier(aSmaller ? stretchesB : stretchesA);
    if (rest.length == 0 || (max(rest) / min(rest) - 1) * 100 > bar) {
      return new Judged(plain, null);
    }
    double[] sa = aSmaller ? stretchesA : rest;
    double[] sb = aSmaller ? rest : stretchesB;
    if (!(min(sa) > 0)) {
      return new Judged(plain, null);
    }
    double nearest = up ? (min(sb) / max(sa) - 1) * 100 : (max(sb) / min(sa) - 1) * 100;
    if (up ? nearest <= bar : nearest >= -bar) {
      return new Judged(plain, null);
    }
    ChangeVerdict v = up == lowerIsBetter ? WORSE : BETTER;
    return new Judged(
        v,
        String.format(
            Locale.ROOT,
            "floor rule: the whole interval lies beyond %s's floor %.1f%%; %s's floor %.1f%% comes"
                + " from one stretch apart (its other stretches agree within %.1f%%), and they lie"
                + " %s every stretch of %s (nearest %+.1f%%), so that stretch cannot have made the"
                + " change",
            aSmaller ? "A" : "B",
            smaller,
            aSmaller ? "B" : "A",
            larger,
            (max(rest) / min(rest) - 1) * 100,
            up == aSmaller ? "above" : "below",
            aSmaller ? "A" : "B",
            aSmaller ? nearest : (1 / (1 + nearest / 100) - 1) * 100));
  }

  /** The values without the one whose leaving out makes the rest's spread least. */
  private static double[] withoutOutlier(double[] values) {
    if (values.length < 3) {
      return new double[0];
    }
    double[] sorted = values.clone();
    java.util.Arrays.sort(sorted);
    double[] low = java.util.Arrays.copyOfRange(sorted, 1, sorted.length);
    double[] high = java.util.Arrays.copyOfRange(sorted, 0, sorted.length - 1);
    return max(low) / min(low) <= max(high) / min(high) ? low : high;
  }

  private static double min(double[] values) {
    double m = Double.POSITIVE_INFINITY;
    for (double v : values) {
      m = Math.min(m, v);
    }
    return m;
  }

  private static double max(double[] values) {
    double m = Double.NEGATIVE_INFINITY;
    for (double v : values) {
      m = Math.max(m, v);
    }
    return m;
  }
}
