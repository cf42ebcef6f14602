package io.github.gatlingllm.internal;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * For internal use only. The Gatling versions this extension runs on, and the check at a run's
 * start: the extension reaches into Gatling's internals (this package), pinned to what 3.16 has, so
 * a user's project on another Gatling line stops with one message naming both versions rather than
 * failing later in an obscure way.
 *
 * <p>The running version is read from the manifest of the jar holding Gatling's core ({@code
 * Implementation-Version} of {@code io.gatling.core}, {@code 3.16.0} in gatling-core 3.16.0).
 */
public final class GatlingVersions {

  /** The oldest Gatling supported, inclusive. */
  public static final String SUPPORTED_FROM = "3.16.0";

  /** The first Gatling line not supported, exclusive. */
  public static final String SUPPORTED_BELOW = "3.17.0";

  /** The supported range, in words. */
  public static final String SUPPORTED = "3.16.x (from 3.16.0, below 3.17.0)";

  private static final Pattern VERSION = Pattern.compile("(\\d+)\\.(\\d+)\\.(\\d+).*");

  private GatlingVersions() {}

  /**
   * The running Gatling's version, from its core jar's manifest.
   *
   * @return e.g. {@code 3.16.0}, or null when the manifest does not say (classes not from a jar)
   */
  public static String running() {
    Package p = io.gatling.core.CoreComponents.class.getPackage();
    return p == null ? null : p.getImplementationVersion();
  }

  /**
   * Checks the running Gatling.
   *
   * @throws IllegalStateException naming the running and the supported versions when the running
   *     one is outside {@link #SUPPORTED}
   */
  public static void requireSupported() {
    check(running());
  }

  /**
   * Checks a Gatling version.
   *
   * @param version the version, or null when unknown (accepted: nothing to judge)
   * @throws IllegalStateException naming the version and the supported range when it is outside
   */
  static void check(String version) {
    if (version == null) {
      return;
    }
    if (!supported(version)) {
      throw new IllegalStateException(
          "gatling-llm runs on Gatling "
              + SUPPORTED
              + ", this run uses Gatling "
              + version
              + ": set your build's Gatling version (io.gatling.highcharts:gatling-charts-highcharts,"
              + " or the Gradle plugin's) to "
              + SUPPORTED_FROM
              + " or a later 3.16 release");
    }
  }

  /**
   * Whether a version is in the supported range.
   *
   * @param version e.g. {@code 3.16.0} or {@code 3.16.1-SNAPSHOT}
   * @return false for a version outside it or not of the form {@code MAJOR.MINOR.PATCH...}
   */
  static boolean supported(String version) {
    return compare(version, SUPPORTED_FROM) >= 0 && compare(version, SUPPORTED_BELOW) < 0;
  }

  private static int compare(String a, String b) {
    int[] x = parse(a);
    int[] y = parse(b);
    if (x == null) {
      return -1;
    }
    for (int i = 0; i < 3; i++) {
      if (x[i] != y[i]) {
        return Integer.compare(x[i], y[i]);
      }
    }
    return 0;
  }

  private static int[] parse(String version) {
    Matcher m = VERSION.matcher(version.strip());
    if (!m.matches()) {
      return null;
    }
    return new int[] {
      Integer.parseInt(m.group(1)), Integer.parseInt(m.group(2)), Integer.parseInt(m.group(3))
    };
  }
}
