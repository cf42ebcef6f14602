package io.github.gatlingllm.internal;

import java.util.prefs.Preferences;

/**
 * Prints what Gatling's check for a newer release finds ({@code GatlingVersion.LatestRelease}) and
 * the last check's time it keeps, for {@link NoVersionCheckTest}, in a JVM of its own.
 */
public final class LatestReleaseProbe {

  private LatestReleaseProbe() {}

  /**
   * Prints {@code LatestRelease lastCheckTimestamp} on one line.
   *
   * @param args none
   */
  public static void main(String[] args) {
    Object latest = io.gatling.commons.util.GatlingVersion$.MODULE$.LatestRelease();
    long lastCheck =
        Preferences.userRoot().node(NoVersionCheck.NODE).getLong("lastCheckTimestamp", 0);
    System.out.println(latest + " " + lastCheck);
  }
}
