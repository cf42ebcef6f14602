package io.github.gatlingllm.settings;

import java.time.Duration;

/**
 * Not API. The live metrics endpoint ({@code llm.prometheusPort}, {@code llm.prometheusLinger}):
 * whether the Gatling JVM serves Prometheus' {@code /metrics} during the run, on which TCP port,
 * and how long it keeps serving the final values after the run record is written.
 *
 * @param port {@code llm.prometheusPort}: the TCP port {@code /metrics} is served on (all
 *     interfaces), in [1, 65535], or null (the default) for no endpoint; a port already in use is
 *     refused when the run starts, before any load
 * @param linger {@code llm.prometheusLinger}: how long the endpoint keeps serving the final values
 *     once the run record is written, in [0 s, 10 min]; default 10 s, so that a scraper at a 1-5 s
 *     interval scrapes them at least once
 */
public record LiveSettings(Integer port, Duration linger) {

  /** The default of {@code llm.prometheusLinger}: 10 s, twice the longest usual scrape interval. */
  public static final Duration DEFAULT_LINGER = Duration.ofSeconds(10);

  /** The longest {@code llm.prometheusLinger}: 10 minutes. */
  public static final Duration MAX_LINGER = Duration.ofMinutes(10);

  /** No endpoint. */
  public static final LiveSettings NONE = new LiveSettings(null, DEFAULT_LINGER);

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming {@code llm.prometheusPort} or {@code
   *     llm.prometheusLinger}, the value and what is allowed
   */
  public LiveSettings {
    if (port != null && (port < 1 || port > 65_535)) {
      throw SettingValues.bad(
          "prometheusPort", port, "a TCP port in [1, 65535] that is free, e.g. 9464, or unset");
    }
    if (linger == null) {
      linger = DEFAULT_LINGER;
    }
    if (linger.isNegative() || linger.compareTo(MAX_LINGER) > 0) {
      throw SettingValues.bad(
          "prometheusLinger",
          linger.toMillis() + "ms",
          "a duration from 0s to 10m, e.g. 10s (how long the final values stay served)");
    }
  }

  /**
   * Whether the endpoint is on.
   *
   * @return true when a port is set
   */
  public boolean isSet() {
    return port != null;
  }
}
