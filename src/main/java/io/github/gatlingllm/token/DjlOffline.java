package io.github.gatlingllm.token;

/** Puts DJL in offline mode before its first use, so it never reaches for the network. */
final class DjlOffline {

  private DjlOffline() {}

  static void ensure() {
    if (System.getProperty("ai.djl.offline") == null) {
      System.setProperty("ai.djl.offline", "true");
    }
  }
}
