package io.github.gatlingllm.settings;

/**
 * Not API. Request cancellation ({@code llm.cancelRate}, {@code llm.cancelAfterMs}): which share of
 * the requests the client cancels, and how long after each is fully written.
 *
 * <p>Which requests: a request is cancelled when {@link #chosen} says so, a pure function of the
 * run's seed ({@code llm.seed}), the request name, its phase and its index in the phase (so the
 * same requests are cancelled in every run with the same seed and workload, whatever the timing; no
 * {@code Random}). Over many requests the share tends to {@code rate}.
 *
 * @param rate the share of requests to cancel, in [0, 1]; 0 turns cancellation off
 * @param afterMs the delay from the moment a request is fully written to its cancellation, in
 *     milliseconds, at least 0 (0: cancel at once, during the prefill, as AIPerf's {@code
 *     --request-cancellation-delay 0})
 */
public record CancelSettings(double rate, double afterMs) {

  /** No cancellation. */
  public static final CancelSettings NONE = new CancelSettings(0, 0);

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming {@code llm.cancelRate} or {@code llm.cancelAfterMs},
   *     the value and what is allowed
   */
  public CancelSettings {
    if (!(rate >= 0 && rate <= 1)) {
      throw new IllegalArgumentException(
          "llm.cancelRate: got "
              + rate
              + ", expected a share of the requests in [0, 1], e.g. 0.25");
    }
    if (!(afterMs >= 0 && Double.isFinite(afterMs))) {
      throw new IllegalArgumentException(
          "llm.cancelAfterMs: got "
              + afterMs
              + ", expected a delay in milliseconds >= 0, e.g. 100 (0 cancels during the"
              + " prefill)");
    }
  }

  /**
   * Whether any request is cancelled.
   *
   * @return true when {@code rate > 0}
   */
  public boolean isSet() {
    return rate > 0;
  }

  /**
   * Whether one request is to be cancelled: the request's own uniform draw in [0, 1), from
   * SplitMix64 over the seed, the name, the phase and the index, is below {@code rate}.
   *
   * @param seed the run's seed ({@code llm.seed})
   * @param request the request name, never null
   * @param phase the phase, or null
   * @param index the request's index in its phase
   * @return true to cancel it
   */
  public boolean chosen(long seed, String request, String phase, long index) {
    if (rate <= 0) {
      return false;
    }
    if (rate >= 1) {
      return true;
    }
    long h = mix(seed ^ 0x6A09E667F3BCC909L);
    h = mix(h ^ request.hashCode());
    h = mix(h ^ (phase == null ? 0 : phase.hashCode()));
    h = mix(h ^ index);
    double u = (h >>> 11) * 0x1.0p-53;
    return u < rate;
  }

  private static long mix(long z) {
    z += 0x9E3779B97F4A7C15L;
    z = (z ^ (z >>> 30)) * 0xBF58476D1CE4E5B9L;
    z = (z ^ (z >>> 27)) * 0x94D049BB133111EBL;
    return z ^ (z >>> 31);
  }
}
