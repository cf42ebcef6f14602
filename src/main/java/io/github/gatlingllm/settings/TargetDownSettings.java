package io.github.gatlingllm.settings;

/**
 * Not API. When a target that stopped answering is judged down, when a target that went silent is
 * said to be, and what the run does then ({@code llm.stopWhenTargetDown}, {@code
 * llm.targetDown.afterMs}, {@code llm.targetDown.minErrors}, {@code llm.silentSeconds}).
 *
 * <p>The target is judged down when no request has been answered (any HTTP response) for {@code
 * afterMs} milliseconds while at least {@code minErrors} requests failed to connect (refused, reset
 * or closed before any response, DNS or TLS failure) in that time. Timeouts and HTTP errors are
 * answers or neither: an overloaded server that times requests out or refuses them with 429 or 503
 * is measured, never judged down.
 *
 * @param stop {@code llm.stopWhenTargetDown}: whether the run stops by itself once the target is
 *     judged down (default true); false keeps it running (fault-injection tests), still saying when
 *     the target went down and when it answered again
 * @param afterMs {@code llm.targetDown.afterMs}: how long no request may be answered while requests
 *     fail to connect before the target is judged down, milliseconds, in [100, 600000]; default
 *     2000
 * @param minErrors {@code llm.targetDown.minErrors}: the least number of requests that failed to
 *     connect in that time, at least 1; default 10
 * @param silentSeconds {@code llm.silentSeconds}: how long no byte (response head or body chunk of
 *     any request) may come from the target while streamed requests are in flight before the target
 *     is said to be silent (and, with {@code stop}, the run stops), whole seconds in [1, 3600], or
 *     0 for never; default 10
 */
public record TargetDownSettings(boolean stop, long afterMs, int minErrors, int silentSeconds) {

  /** The defaults: stop, after 2,000 ms and at least 10 connect errors, or 10 s of silence. */
  public static final TargetDownSettings DEFAULT = new TargetDownSettings(true, 2_000, 10, 10);

  /** The most seconds of silence {@code llm.silentSeconds} may wait for: an hour. */
  public static final int MAX_SILENT_SECONDS = 3_600;

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming {@code llm.targetDown.afterMs}, {@code
   *     llm.targetDown.minErrors} or {@code llm.silentSeconds}, the value and what is allowed
   */
  public TargetDownSettings {
    if (afterMs < 100 || afterMs > 600_000) {
      throw SettingValues.bad(
          "targetDown.afterMs",
          afterMs,
          "a whole number of milliseconds in [100, 600000], e.g. 2000");
    }
    if (minErrors < 1) {
      throw SettingValues.bad(
          "targetDown.minErrors", minErrors, "a whole number of requests >= 1, e.g. 10");
    }
    if (silentSeconds < 0 || silentSeconds > MAX_SILENT_SECONDS) {
      throw SettingValues.bad(
          "silentSeconds",
          silentSeconds,
          "a whole number of seconds in [1, "
              + MAX_SILENT_SECONDS
              + "], e.g. 10, or 0 to never say a silent target");
    }
  }
}
