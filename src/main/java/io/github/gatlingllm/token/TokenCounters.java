package io.github.gatlingllm.token;

import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Objects;

/** Token counters by name, as the settings and the command line give them. */
public final class TokenCounters {

  /** The setting that selects the {@link EstimatedTokenCounter}. */
  public static final String ESTIMATE = "estimate";

  private static final java.util.concurrent.ConcurrentHashMap<String, TokenCounter> SHARED =
      new java.util.concurrent.ConcurrentHashMap<>();

  private TokenCounters() {}

  /**
   * As {@link #of(String)}, loaded once per JVM and setting: the prompt feeders and the LLM
   * protocol of one simulation share one loaded tokenizer (DJL loads an 11 MB tokenizer.json in
   * 1.5-2 s). The counter lives as long as the JVM; do not close it.
   *
   * @param setting {@code "estimate"} or a local path, never null
   * @return the shared counter
   * @throws IllegalArgumentException as {@link #of(String)}
   */
  public static TokenCounter shared(String setting) {
    Objects.requireNonNull(setting, "tokenizer setting");
    TokenCounter counter = SHARED.get(setting.strip());
    if (counter == null) {
      counter = SHARED.computeIfAbsent(setting.strip(), TokenCounters::of);
    }
    return counter;
  }

  /**
   * The counter a setting names: {@code "estimate"} for {@link EstimatedTokenCounter}, anything
   * else a path to a Hugging Face {@code tokenizer.json} or a folder holding one.
   *
   * @param setting {@code "estimate"} or a local path, never null
   * @return the counter; a {@link HuggingFaceTokenCounter} holds native memory until closed
   * @throws IllegalArgumentException if the setting is blank, or names a path that does not exist,
   *     cannot be read or is not a tokenizer; the message names the path and what was expected
   */
  public static TokenCounter of(String setting) {
    Objects.requireNonNull(setting, "tokenizer setting");
    String trimmed = setting.strip();
    if (trimmed.isEmpty()) {
      throw new IllegalArgumentException(
          "tokenizer setting is empty: expected \"estimate\" or the path of a tokenizer.json");
    }
    if (trimmed.equals(ESTIMATE)) {
      return EstimatedTokenCounter.INSTANCE;
    }
    Path path;
    try {
      path = Path.of(trimmed);
    } catch (InvalidPathException e) {
      throw new IllegalArgumentException(
          "tokenizer \""
              + setting
              + "\" is not a valid path: expected \"estimate\" or the path of a tokenizer.json",
          e);
    }
    return HuggingFaceTokenCounter.load(path);
  }
}
