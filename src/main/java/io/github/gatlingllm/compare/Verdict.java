package io.github.gatlingllm.compare;

import java.util.Locale;

/**
 * A verdict on one metric, from the 95% interval of its change and the minimum effect that counts;
 * direction-aware (lower latency is better; higher throughput, attainment and cache-hit ratio are
 * better).
 */
public enum Verdict {
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
  public static Verdict of(double[] ci, double minEffectPct, boolean lowerIsBetter) {
    if (ci == null) {
      return UNCLEAR;
    }
    double lo = ci[0];
    double hi = ci[1];
    if (lo > minEffectPct) {
      return lowerIsBetter ? WORSE : BETTER;
    }
    if (hi < -minEffectPct) {
      return lowerIsBetter ? BETTER : WORSE;
    }
    if (lo >= -minEffectPct && hi <= minEffectPct) {
      return SAME;
    }
    return UNCLEAR;
  }
}
