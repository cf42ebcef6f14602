package io.github.gatlingllm.settings;

import java.nio.file.Path;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Not API. The prompts-file settings of a {@code prompts()} builder, resolved: each {@code -Dllm.*}
 * property over the builder's value, each checked with a message naming the setting, the value and
 * what is allowed.
 *
 * @param file {@code llm.promptsFile}: the prompts file to replay, or null for generated prompts
 * @param column {@code llm.promptsColumn}: the CSV column holding the prompts, or in a JSONL or
 *     JSON file the field holding the text (default {@code prompt})
 * @param shuffle {@code llm.promptsOrder=shuffle}: hand the rows out in a shuffle seeded by {@code
 *     llm.seed} rather than in file order ({@code index}, the default)
 * @param wrap {@code llm.promptsWrap}: start again from the first row once every row is handed out
 *     (default false: a budget larger than the file is refused)
 */
public record PromptFileSettings(Path file, String column, boolean shuffle, boolean wrap) {

  /** The setting names, without {@code llm.}. */
  public static final List<String> NAMES =
      List.of("promptsFile", "promptsColumn", "promptsOrder", "promptsWrap");

  /** The values of {@code llm.promptsOrder}. */
  public static final List<String> ORDERS = List.of("index", "shuffle");

  /**
   * The settings from system properties over a builder's values.
   *
   * @param values setting name (without {@code llm.}) to value, never null
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public static PromptFileSettings fromSystemProperties(Map<String, String> values) {
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
  public static PromptFileSettings from(Properties properties, Map<String, String> values) {
    Function<String, String> get =
        name -> {
          String v = properties.getProperty(LlmSettings.PREFIX + name);
          return v != null ? v.strip() : values.get(name);
        };
    String file = SettingValues.emptyToNull(get.apply("promptsFile"));
    String column = SettingValues.orDefault(get.apply("promptsColumn"), "prompt");
    if (column.isBlank()) {
      throw SettingValues.bad("promptsColumn", column, "the name of a CSV column or JSON field");
    }
    String order =
        SettingValues.orDefault(get.apply("promptsOrder"), "index").toLowerCase(Locale.ROOT);
    if (!ORDERS.contains(order)) {
      throw SettingValues.bad("promptsOrder", get.apply("promptsOrder"), "index or shuffle");
    }
    boolean wrap = SettingValues.bool(get, "promptsWrap", false);
    Path path;
    try {
      path = file == null ? null : Path.of(file);
    } catch (java.nio.file.InvalidPathException e) {
      throw SettingValues.bad("promptsFile", file, "the path of a JSONL, CSV or JSON file");
    }
    return new PromptFileSettings(path, column, order.equals("shuffle"), wrap);
  }
}
