package io.github.gatlingllm.settings;

import io.github.gatlingllm.image.ImageFormat;
import io.github.gatlingllm.image.ImageSpec;
import io.github.gatlingllm.image.ImageTokens;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * Not API. The image settings of a {@code prompts()} builder, resolved: each {@code -Dllm.images.*}
 * property over the builder's value, each checked with a message naming the setting, the value and
 * what is allowed.
 *
 * @param spec {@code llm.images.count} (default 0), {@code llm.images.shared} (default 0), {@code
 *     llm.images.width} and {@code llm.images.height} (pixels, or a seeded range {@code MIN-MAX};
 *     default 512), {@code llm.images.format} ({@code png}, the default, or {@code jpeg})
 * @param tokens {@code llm.images.tokens}: a processor name ({@code qwen2-vl}, {@code qwen3-vl},
 *     {@code llava}, {@code gemma3}), a number of tokens an image, or {@code server} (the default:
 *     learnt from the server's count after the first request with images)
 */
public record ImageSettings(ImageSpec spec, String tokens) {

  /** The setting names, without {@code llm.}. */
  public static final List<String> NAMES =
      List.of(
          "images.count",
          "images.shared",
          "images.width",
          "images.height",
          "images.format",
          "images.tokens");

  /** The default side, in pixels. */
  public static final int DEFAULT_SIDE = 512;

  /**
   * A new token rule of {@link #tokens()} (a {@code server} rule learns per workload).
   *
   * @return never null
   */
  public ImageTokens tokenRule() {
    return ImageTokens.of(tokens);
  }

  /**
   * The settings from system properties over a builder's values.
   *
   * @param values setting name (without {@code llm.}) to value, never null
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public static ImageSettings fromSystemProperties(Map<String, String> values) {
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
  public static ImageSettings from(Properties properties, Map<String, String> values) {
    Function<String, String> get =
        name -> {
          String v = properties.getProperty(LlmSettings.PREFIX + name);
          return v != null ? v.strip() : values.get(name);
        };
    int count = SettingValues.integer(get, "images.count", 0);
    if (count < 0 || count > ImageSpec.MAX_COUNT) {
      throw SettingValues.bad(
          "images.count",
          get.apply("images.count"),
          "a whole number from 0 to " + ImageSpec.MAX_COUNT);
    }
    int shared = SettingValues.integer(get, "images.shared", 0);
    if (shared < 0 || shared > count) {
      throw SettingValues.bad(
          "images.shared",
          get.apply("images.shared"),
          "a whole number from 0 to llm.images.count (" + count + ")");
    }
    int[] width = side(get, "images.width");
    int[] height = side(get, "images.height");
    String formatText = get.apply("images.format");
    ImageFormat format;
    try {
      format =
          formatText == null || formatText.isEmpty()
              ? ImageFormat.PNG
              : ImageFormat.fromWireName(formatText);
    } catch (IllegalArgumentException e) {
      throw SettingValues.bad("images.format", formatText, "png or jpeg");
    }
    String tokens = SettingValues.emptyToNull(get.apply("images.tokens"));
    ImageTokens.of(tokens); // checked now, made per workload
    return new ImageSettings(
        new ImageSpec(count, shared, width[0], width[1], height[0], height[1], format), tokens);
  }

  /** A side's pixels, {@code N} or {@code MIN-MAX}. */
  private static int[] side(Function<String, String> get, String name) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return new int[] {DEFAULT_SIDE, DEFAULT_SIDE};
    }
    String allowed =
        "pixels from 1 to " + ImageSpec.MAX_SIDE + ", or a seeded range MIN-MAX of them";
    try {
      int dash = value.indexOf('-');
      int min = Integer.parseInt((dash < 0 ? value : value.substring(0, dash)).strip());
      int max = dash < 0 ? min : Integer.parseInt(value.substring(dash + 1).strip());
      if (min < 1 || max > ImageSpec.MAX_SIDE || min > max) {
        throw SettingValues.bad(name, value, allowed);
      }
      return new int[] {min, max};
    } catch (NumberFormatException e) {
      throw SettingValues.bad(name, value, allowed);
    }
  }

  /**
   * Refuses {@code -Dllm.images.count} for a workload that carries no generated images yet
   * (conversations, agent sessions, traces): images there are not built, and a setting silently
   * ignored would send a run other than the one asked for.
   *
   * @param dsl the workload's DSL call, e.g. {@code conversations()}
   * @throws IllegalArgumentException naming the setting and the workload, when it is above 0
   */
  public static void refuseOutsidePrompts(String dsl) {
    int count =
        fromSystemProperties(Map.of("images.count", "0", "images.shared", "0")).spec().count();
    if (count > 0) {
      throw new IllegalArgumentException(
          "llm.images.count: got "
              + count
              + ", but "
              + dsl
              + " carries no generated images (only prompts() does so far); expected it unset"
              + " for this simulation");
    }
  }
}
