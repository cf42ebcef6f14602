package io.github.gatlingllm.compare;

import io.github.gatlingllm.record.Machine;
import java.util.Locale;

/**
 * Whether two runs' machines differ enough to explain a change: the machine rule of a single pair's
 * verdicts.
 *
 * <p>The rule: a run's <em>free CPU</em> is 1 less the share of the machine's CPU that other
 * processes and the hypervisor took over it ({@link Machine#takenShare()}), at least {@value
 * #LEAST_FREE}. The busier run (less free CPU) had {@code x = free(quieter) / free(busier)} times
 * less CPU to share with its load; when {@code x >= }{@value #DIFFERS} the machines differ, and a
 * change that the busier run's shortage could make (a latency up to {@code x} times longer, a
 * throughput down to {@code 1/x}, an SLO attainment lower) is not called better or worse on one
 * pair: its verdict is {@code unclear}, with the reason. A change the other way (the busier run
 * faster) is not explained by the machine and keeps its verdict; so does the cache-hit ratio. A
 * local inference server's own CPU counts among the other processes, so the rule is not applied
 * when the runs' loads differ (the server's own work then differs by design).
 */
public final class MachineDifference {

  /** The free-CPU ratio from which two machines differ: 1.10. */
  public static final double DIFFERS = 1.10;

  /** The least free CPU a run is taken to have had: 0.05 (so the ratio stays finite). */
  static final double LEAST_FREE = 0.05;

  private final String busier;
  private final double factor;
  private final double freeA;
  private final double freeB;

  private MachineDifference(String busier, double factor, double freeA, double freeB) {
    this.busier = busier;
    this.factor = factor;
    this.freeA = freeA;
    this.freeB = freeB;
  }

  /**
   * The difference of two runs' machines.
   *
   * @param a A's machine block, or null
   * @param b B's machine block, or null
   * @return null when either has no CPU figures
   */
  public static MachineDifference of(Machine a, Machine b) {
    if (a == null || b == null || a.takenShare() == null || b.takenShare() == null) {
      return null;
    }
    double fa = Math.max(LEAST_FREE, 1 - a.takenShare());
    double fb = Math.max(LEAST_FREE, 1 - b.takenShare());
    return fa >= fb
        ? new MachineDifference("B", fa / fb, fa, fb)
        : new MachineDifference("A", fb / fa, fa, fb);
  }

  /**
   * Whether the machines differ enough to explain a change.
   *
   * @return true when the free-CPU ratio is at least {@value #DIFFERS}
   */
  public boolean differs() {
    return factor >= DIFFERS;
  }

  /**
   * The free-CPU ratio, at least 1.
   *
   * @return {@code free(quieter) / free(busier)}
   */
  public double factor() {
    return factor;
  }

  /**
   * The warning, naming the figures.
   *
   * @return e.g. {@code the machine was busier during B: 55% of its CPU free against 80% in A
   *     (other processes and steal), 1.45 times less, enough to explain a latency up to +45% or a
   *     throughput down to -31%}
   */
  public String line() {
    String quieter = busier.equals("A") ? "B" : "A";
    return String.format(
        Locale.ROOT,
        "the machine was busier during %s: %.0f%% of its CPU free against %.0f%% in %s (other"
            + " processes and steal), %.2f times less, enough to explain a latency up to %+.0f%% or"
            + " a throughput down to %+.0f%%",
        busier,
        (busier.equals("A") ? freeA : freeB) * 100,
        (busier.equals("A") ? freeB : freeA) * 100,
        quieter,
        factor,
        (factor - 1) * 100,
        (1 / factor - 1) * 100);
  }

  /**
   * Whether the busier run's shortage of CPU could have made a change: the change goes the way a
   * busier run goes (slower, less throughput, lower attainment) and, for a latency or throughput,
   * the nearer end of its interval lies within what the factor could make. False when the machines
   * do not {@link #differs() differ}, for the cache-hit ratio, and for a change the other way.
   *
   * @param metric the metric's name
   * @param ci the change's 95% interval, percent, or null
   * @param verdict the verdict before this rule
   * @param lowerIsBetter whether lower is better
   * @return true when the verdict must be {@code unclear}
   */
  public boolean explains(
      String metric, double[] ci, ChangeVerdict verdict, boolean lowerIsBetter) {
    if (!differs() || ci == null || metric.equals("cache_hit_ratio")) {
      return false;
    }
    // The verdict as seen from the busier run: worse when it is worse there.
    boolean busierWorse =
        busier.equals("B") ? verdict == ChangeVerdict.WORSE : verdict == ChangeVerdict.BETTER;
    if (!busierWorse) {
      return false;
    }
    if (metric.equals("slo_attainment")) {
      return true;
    }
    // The change from the quieter run to the busier one, at the interval's end nearest no change.
    double up;
    double down;
    if (busier.equals("B")) {
      up = ci[0];
      down = ci[1];
    } else {
      // B/A - 1 = c  =>  A/B - 1 = 1/(1 + c) - 1: the bounds swap.
      up = 1 / (1 + ci[1] / 100) * 100 - 100;
      down = 1 / (1 + ci[0] / 100) * 100 - 100;
    }
    return lowerIsBetter ? up <= (factor - 1) * 100 : down >= (1 / factor - 1) * 100;
  }
}
