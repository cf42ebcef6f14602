package io.github.gatlingllm.settings;

/**
 * Not API. When a target that stopped answering is judged down, and what the run does then ({@code
 * llm.stopWhenTargetDown}, {@code llm.targetDown.afterMs}, {@code llm.targetDown.minErrors}).
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
 */
public record TargetDownSettings(boolean stop, long afterMs, int minErrors) {

  /** The defaults: stop, after 2,000 ms and at least 10 connect errors. */
  public static final TargetDownSettings DEFAULT = new TargetDownSettings(true, 2_000, 10);

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming {@code llm.targetDown.afterMs} or {@code
   *     llm.targetDown.minErrors}, the value and what is allowed
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
  }
}
