package io.github.gatlingllm.image;

import java.util.List;
import java.util.Objects;

/**
 * The images one prompt carries, in the order it sends them around its text: first the {@code
 * shared} images of its prefix group (before the text, in the group's shared prefix), then the
 * text, then the rest (unique to the request).
 *
 * @param images the images, never null nor empty
 * @param shared how many of the first images are the group's, 0 to {@code images.size()}
 * @param tokens the rule counting their prompt tokens, never null
 */
public record PromptImages(List<Image> images, int shared, ImageTokens tokens) {

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException if there are no images or {@code shared} is out of range
   */
  public PromptImages {
    images = List.copyOf(Objects.requireNonNull(images, "images"));
    Objects.requireNonNull(tokens, "tokens");
    if (images.isEmpty()) {
      throw new IllegalArgumentException("a prompt's images: got none, expected at least 1");
    }
    if (shared < 0 || shared > images.size()) {
      throw new IllegalArgumentException(
          "shared images: got " + shared + ", expected 0 to " + images.size());
    }
  }

  /**
   * How many.
   *
   * @return at least 1
   */
  public int count() {
    return images.size();
  }

  /**
   * Their encoded bytes, summed (before base64).
   *
   * @return bytes
   */
  public long bytes() {
    long sum = 0;
    for (Image i : images) {
      sum += i.bytes();
    }
    return sum;
  }

  /**
   * The images before the text (the group's).
   *
   * @return a view, never null
   */
  public List<Image> before() {
    return images.subList(0, shared);
  }

  /**
   * The images after the text (the request's own).
   *
   * @return a view, never null
   */
  public List<Image> after() {
    return images.subList(shared, images.size());
  }

  /**
   * All their prompt tokens by {@link #tokens()}'s rule.
   *
   * @return tokens, or null while the rule has learnt nothing
   */
  public Integer planned() {
    return sum(images.size());
  }

  /**
   * The prompt tokens of the shared images.
   *
   * @return tokens (0 when none is shared), or null while the rule has learnt nothing
   */
  public Integer sharedPlanned() {
    return sum(shared);
  }

  private Integer sum(int first) {
    int sum = 0;
    for (int i = 0; i < first; i++) {
      Image image = images.get(i);
      Integer t = tokens.tokens(image.width(), image.height());
      if (t == null) {
        return null;
      }
      sum += t;
    }
    return sum;
  }
}
