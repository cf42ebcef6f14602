package io.github.gatlingllm.settings;

import io.github.gatlingllm.simulator.SimulatorConfig;
import java.util.List;
import java.util.Properties;

/**
 * Not API. The embedded simulator's {@code -Dllm.simulator.*} properties, applied over the
 * simulation's {@link SimulatorConfig}: each wins over the value the simulation set, as every
 * {@code llm.*} property does.
 */
public final class SimulatorSettings {

  /** The property names after {@code llm.simulator.}, as {@code bin/gatling-llm simulator}'s. */
  public static final List<String> NAMES =
      List.of(
          "zeroDelay",
          "baseTtftMs",
          "prefillUsPerToken",
          "decodeMsPerToken",
          "maxConcurrent",
          "blockSize",
          "cacheBlocks",
          "tokensPerChunk",
          "contextLength",
          "reasoningTokens");

  private SimulatorSettings() {}

  /**
   * The configuration with the properties that are set applied, {@code zeroDelay} first (then the
   * timing properties given with it still apply, as the command line's {@code --zero-delay}).
   *
   * @param config the simulation's configuration, never null
   * @param properties where {@code llm.simulator.*} are looked up
   * @return the configuration
   * @throws IllegalArgumentException naming the property, the value and what is allowed
   */
  public static SimulatorConfig apply(SimulatorConfig config, Properties properties) {
    SimulatorConfig c = config;
    String zero = value(properties, "zeroDelay");
    if (zero != null) {
      if (!zero.equals("true") && !zero.equals("false")) {
        throw bad("zeroDelay", zero, "true or false");
      }
      if (zero.equals("true")) {
        SimulatorConfig z = SimulatorConfig.zeroDelay();
        c =
            c.withBaseTtftMs(z.baseTtftMs())
                .withPrefillUsPerToken(z.prefillUsPerToken())
                .withDecodeMsPerToken(z.decodeMsPerToken());
      }
    }
    try {
      Double d;
      if ((d = decimal(properties, "baseTtftMs")) != null) {
        c = c.withBaseTtftMs(d);
      }
      if ((d = decimal(properties, "prefillUsPerToken")) != null) {
        c = c.withPrefillUsPerToken(d);
      }
      if ((d = decimal(properties, "decodeMsPerToken")) != null) {
        c = c.withDecodeMsPerToken(d);
      }
      Integer i;
      if ((i = whole(properties, "maxConcurrent")) != null) {
        c = c.withMaxConcurrent(i);
      }
      if ((i = whole(properties, "blockSize")) != null) {
        c = c.withBlockSize(i);
      }
      if ((i = whole(properties, "cacheBlocks")) != null) {
        c = c.withCacheBlocks(i);
      }
      if ((i = whole(properties, "tokensPerChunk")) != null) {
        c = c.withTokensPerChunk(i);
      }
      if ((i = whole(properties, "contextLength")) != null) {
        c = c.withContextLength(i);
      }
      if ((i = whole(properties, "reasoningTokens")) != null) {
        c = c.withReasoningTokens(i);
      }
    } catch (IllegalArgumentException e) {
      if (e.getMessage() != null && e.getMessage().startsWith("llm.simulator.")) {
        throw e;
      }
      throw new IllegalArgumentException("llm.simulator: " + e.getMessage(), e);
    }
    return c;
  }

  private static String value(Properties properties, String name) {
    String v = properties.getProperty("llm.simulator." + name);
    return v == null || v.isBlank() ? null : v.strip();
  }

  private static Double decimal(Properties properties, String name) {
    String v = value(properties, name);
    if (v == null) {
      return null;
    }
    try {
      return Double.parseDouble(v);
    } catch (NumberFormatException e) {
      throw bad(name, v, "a number");
    }
  }

  private static Integer whole(Properties properties, String name) {
    String v = value(properties, name);
    if (v == null) {
      return null;
    }
    try {
      return Integer.parseInt(v);
    } catch (NumberFormatException e) {
      throw bad(name, v, "a whole number");
    }
  }

  private static IllegalArgumentException bad(String name, String value, String allowed) {
    return new IllegalArgumentException(
        "llm.simulator." + name + ": got \"" + value + "\", expected " + allowed);
  }
}
