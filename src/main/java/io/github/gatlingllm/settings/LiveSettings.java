package io.github.gatlingllm.settings;

import java.time.Duration;

/**
 * Not API. The live metrics endpoint ({@code llm.prometheusPort}, {@code llm.prometheusHost},
 * {@code llm.prometheusLinger}): whether the Gatling JVM serves Prometheus' {@code /metrics} during
 * the run, on which address and TCP port, and how long it keeps serving the final values after the
 * run record is written.
 *
 * @param port {@code llm.prometheusPort}: the TCP port {@code /metrics} is served on, in [1,
 *     65535], or null (the default) for no endpoint; a port already in use is refused when the run
 *     starts, before any load
 * @param linger {@code llm.prometheusLinger}: how long the endpoint keeps serving the final values
 *     once the run record is written, in [0 s, 10 min]; default 10 s, so that a scraper at a 1-5 s
 *     interval scrapes them at least once
 * @param host {@code llm.prometheusHost}: the address the endpoint binds, an IPv4 or IPv6 literal
 *     or {@code localhost}; default {@value #DEFAULT_HOST} (loopback: this machine only, as a load
 *     generator's figures are nobody else's business unless said); {@code 0.0.0.0} binds every
 *     interface (a Prometheus on another machine, Kubernetes' pod scrapes); null is the default
 */
public record LiveSettings(Integer port, Duration linger, String host) {

  /** The default of {@code llm.prometheusLinger}: 10 s, twice the longest usual scrape interval. */
  public static final Duration DEFAULT_LINGER = Duration.ofSeconds(10);

  /** The longest {@code llm.prometheusLinger}: 10 minutes. */
  public static final Duration MAX_LINGER = Duration.ofMinutes(10);

  /** The default of {@code llm.prometheusHost}: loopback, this machine only. */
  public static final String DEFAULT_HOST = "127.0.0.1";

  private static final java.util.regex.Pattern IPV4 =
      java.util.regex.Pattern.compile(
          "((25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])\\.){3}"
              + "(25[0-5]|2[0-4][0-9]|1[0-9][0-9]|[1-9]?[0-9])");

  /** No endpoint (declared after what its check reads). */
  public static final LiveSettings NONE = new LiveSettings(null, DEFAULT_LINGER);

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming {@code llm.prometheusPort}, {@code llm.prometheusHost}
   *     or {@code llm.prometheusLinger}, the value and what is allowed
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
    if (host == null || host.isBlank()) {
      host = DEFAULT_HOST;
    }
    host = host.strip();
    if (!address(host)) {
      throw SettingValues.bad(
          "prometheusHost",
          host,
          "an IP address of this machine to bind: 127.0.0.1 (this machine only, the default),"
              + " 0.0.0.0 (every interface: a Prometheus elsewhere, Kubernetes scrapes), an"
              + " interface's own address, an IPv6 literal such as ::1, or localhost");
    }
  }

  /**
   * An endpoint on loopback ({@value #DEFAULT_HOST}).
   *
   * @param port as {@link #port()}
   * @param linger as {@link #linger()}
   */
  public LiveSettings(Integer port, Duration linger) {
    this(port, linger, DEFAULT_HOST);
  }

  /** Whether a host is an address literal (or localhost): nothing here asks a name server. */
  private static boolean address(String host) {
    if (host.equalsIgnoreCase("localhost") || IPV4.matcher(host).matches()) {
      return true;
    }
    if (!host.contains(":")) {
      return false;
    }
    try {
      // A string with a colon is parsed as an IPv6 literal, never looked up.
      java.net.InetAddress.getByName(host.startsWith("[") ? host : "[" + host + "]");
      return true;
    } catch (java.net.UnknownHostException e) {
      return false;
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
