package io.github.gatlingllm.settings;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Not API. The settings of a {@code TraceFeederBuilder}, resolved: each {@code -Dllm.*} property
 * over the builder's value, each checked with a message naming the setting, the value and what is
 * allowed. {@code llm.seed}, {@code llm.caseId} and {@code llm.tokenizer} are {@link
 * LlmSettings}'s, shared with {@code prompts()}.
 *
 * @param path the trace file ({@code llm.trace}), never blank
 * @param blockTokens the tokens of one hash id's block ({@code llm.trace.blockTokens}, default 512,
 *     Mooncake's), at least 1
 * @param timeScale the replay speed ({@code llm.trace.timeScale}, default 1.0; 2.0 replays twice as
 *     fast), above 0
 * @param caseId the case id: {@code llm.caseId} when set, else {@code trace_<file name>}
 * @param seed the seed of the blocks' text ({@code llm.seed}, {@code auto} from the clock)
 * @param seedAuto whether the seed came from the clock
 * @param tokenizer {@code estimate} or a tokenizer path ({@code llm.tokenizer})
 */
public record TraceSettings(
    String path,
    int blockTokens,
    double timeScale,
    String caseId,
    long seed,
    boolean seedAuto,
    String tokenizer) {

  /** The setting names a trace builder holds, without {@code llm.}. */
  public static final List<String> NAMES = List.of("trace", "trace.blockTokens", "trace.timeScale");

  /** The shared settings a trace builder also holds. */
  static final List<String> SHARED = List.of("seed", "caseId", "tokenizer");

  /**
   * The settings from system properties over a builder's values.
   *
   * @param values setting name (without {@code llm.}) to value
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public static TraceSettings fromSystemProperties(Map<String, String> values) {
    return from(System.getProperties(), values);
  }

  /**
   * The settings from properties over a builder's values.
   *
   * @param properties where {@code llm.*} values are looked up first
   * @param values setting name (without {@code llm.}) to value
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  static TraceSettings from(Properties properties, Map<String, String> values) {
    Function<String, String> get =
        name -> {
          String v = properties.getProperty(LlmSettings.PREFIX + name);
          return v != null ? v.strip() : values.get(name);
        };
    Map<String, String> shared = new LinkedHashMap<>();
    for (String name : SHARED) {
      if (values.containsKey(name)) {
        shared.put(name, values.get(name));
      }
    }
    LlmSettings llm = LlmSettings.fromBesidePrompts(properties, shared, System::getenv);
    String path = get.apply("trace");
    if (path == null || path.isBlank()) {
      throw bad("trace", path == null ? "" : path, "the path of a Mooncake-format JSONL trace");
    }
    String blockText = get.apply("trace.blockTokens");
    int block = 512;
    if (blockText != null && !blockText.isEmpty()) {
      try {
        long b = Long.parseLong(blockText);
        if (b < 1 || b > 1_048_576) {
          throw bad("trace.blockTokens", blockText, "a whole number of tokens from 1 to 1048576");
        }
        block = (int) b;
      } catch (NumberFormatException e) {
        throw bad("trace.blockTokens", blockText, "a whole number of tokens from 1 to 1048576");
      }
    }
    String scaleText = get.apply("trace.timeScale");
    double scale = 1.0;
    if (scaleText != null && !scaleText.isEmpty()) {
      try {
        scale = Double.parseDouble(scaleText);
      } catch (NumberFormatException e) {
        throw bad("trace.timeScale", scaleText, "a number above 0 (2.0 replays twice as fast)");
      }
      if (!(scale > 0) || Double.isInfinite(scale)) {
        throw bad("trace.timeScale", scaleText, "a number above 0 (2.0 replays twice as fast)");
      }
    }
    String caseId = get.apply("caseId");
    if (caseId == null || caseId.isEmpty()) {
      String file = java.nio.file.Path.of(path).getFileName().toString();
      caseId = "trace_" + file;
    }
    return new TraceSettings(
        path, block, scale, caseId, llm.seed(), llm.seedAuto(), llm.tokenizer());
  }

  private static IllegalArgumentException bad(String name, String value, String allowed) {
    return new IllegalArgumentException(
        LlmSettings.PREFIX + name + ": got \"" + value + "\", expected " + allowed);
  }
}
