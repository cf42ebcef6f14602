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
}
