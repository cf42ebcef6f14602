package io.github.gatlingllm.image;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The images each generated prompt carries: how many, how many of them its prefix group shares,
 * their size (fixed, or a seeded draw in a range) and format.
 *
 * @param count {@code llm.images.count}: images per prompt, at least 0 (0: text-only prompts)
 * @param shared {@code llm.images.shared}: how many of those are the prompt's group's (the same
 *     bytes for every request of the group, placed in its shared prefix), 0 to {@code count}
 * @param minWidth the smallest width, in pixels, 1 to {@value #MAX_SIDE}
 * @param maxWidth the largest width, in pixels, {@code minWidth} to {@value #MAX_SIDE}
 * @param minHeight the smallest height, in pixels, 1 to {@value #MAX_SIDE}
 * @param maxHeight the largest height, in pixels, {@code minHeight} to {@value #MAX_SIDE}
 * @param format the encoding, never null
 */
public record ImageSpec(
    int count,
    int shared,
    int minWidth,
    int maxWidth,
    int minHeight,
    int maxHeight,
    ImageFormat format) {

  /** The largest side generated, in pixels. */
  public static final int MAX_SIDE = 8192;

  /** The most images a prompt may carry. */
  public static final int MAX_COUNT = 64;

  /** Text-only prompts. */
  public static final ImageSpec NONE = new ImageSpec(0, 0, 512, 512, 512, 512, ImageFormat.PNG);

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming the setting, the value and what is allowed
   */
  public ImageSpec {
    Objects.requireNonNull(format, "llm.images.format");
    if (count < 0 || count > MAX_COUNT) {
      throw new IllegalArgumentException(
          "llm.images.count: got " + count + ", expected 0 to " + MAX_COUNT);
    }
    if (shared < 0 || shared > count) {
      throw new IllegalArgumentException(
          "llm.images.shared: got " + shared + ", expected 0 to llm.images.count (" + count + ")");
    }
    side("llm.images.width", minWidth, maxWidth);
    side("llm.images.height", minHeight, maxHeight);
  }

  private static void side(String name, int min, int max) {
    if (min < 1 || max > MAX_SIDE || min > max) {
      throw new IllegalArgumentException(
          name
              + ": got "
              + (min == max ? String.valueOf(min) : min + "-" + max)
              + ", expected pixels from 1 to "
              + MAX_SIDE
              + ", or a range MIN-MAX of them");
    }
  }

  /**
   * Whether prompts carry images.
   *
   * @return {@code count > 0}
   */
  public boolean any() {
    return count > 0;
  }

  /**
   * The record form, in {@code llm-run.json}'s {@code prompts.spec.images}: {@code count}, {@code
   * shared}, {@code width} and {@code height} (a number, or {@code "MIN-MAX"}), {@code format}.
   *
   * @return an ordered map of JSON-ready values
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("count", count);
    r.put("shared", shared);
    r.put("width", minWidth == maxWidth ? (Object) minWidth : minWidth + "-" + maxWidth);
    r.put("height", minHeight == maxHeight ? (Object) minHeight : minHeight + "-" + maxHeight);
    r.put("format", format.wireName());
    return r;
  }
}
