package io.github.gatlingllm.image;

import java.util.List;
import java.util.Locale;

/**
 * How many prompt tokens an image costs on a model's processor ({@code llm.images.tokens}): the
 * cache plan's and the embedded simulator's one rule.
 *
 * <ul>
 *   <li>{@code qwen2-vl} (also Qwen2.5-VL): 14-pixel patches merged 2x2, so one token a 28x28 tile:
 *       {@code ceil(h / 28) * ceil(w / 28)} (Qwen2-VL's image processor resizes to multiples of 28
 *       within its pixel bounds and its template adds the vision start and end tokens: the plan
 *       leaves both out, a difference the cache tolerance covers for small images);
 *   <li>{@code qwen3-vl}: 16-pixel patches merged 2x2, {@code ceil(h / 32) * ceil(w / 32)};
 *   <li>{@code llava}: 576 an image (LLaVA-1.5's CLIP ViT-L/14 at 336 pixels, 24x24 patches);
 *   <li>{@code gemma3}: 256 an image (Gemma 3's SigLIP, pooled to 16x16);
 *   <li>a number: that many an image;
 *   <li>{@code server} (or unset): unknown until the first request with images ends, then learnt
 *       from the server's {@code prompt_tokens} ({@link #learn}).
 * </ul>
 *
 * <p>Thread-safe: the learnt value is set once.
 */
public final class ImageTokens {

  /** The processor names {@link #of} takes. */
  public static final List<String> NAMES =
      List.of("qwen2-vl", "qwen3-vl", "llava", "gemma3", "server");

  /** The rule the embedded simulator counts with unless the run names another. */
  public static final ImageTokens QWEN2_VL = new ImageTokens("qwen2-vl", null, 28);

  private final String name;
  private final Integer fixed;
  private final int tile;
  private volatile Integer learnt;

  private ImageTokens(String name, Integer fixed, int tile) {
    this.name = name;
    this.fixed = fixed;
    this.tile = tile;
  }

  /**
   * The rule of a setting's value.
   *
   * @param value a processor name of {@link #NAMES} (any case), a whole number of tokens an image
   *     (at least 1), or null or blank for {@code server}
   * @return a new rule (a {@code server} rule learns on its own)
   * @throws IllegalArgumentException naming {@code llm.images.tokens}, the value and what is
   *     allowed
   */
  public static ImageTokens of(String value) {
    String v = value == null ? "" : value.strip().toLowerCase(Locale.ROOT);
    switch (v) {
      case "":
      case "server":
        return new ImageTokens("server", null, 0);
      case "qwen2-vl":
      case "qwen2.5-vl":
        return new ImageTokens("qwen2-vl", null, 28);
      case "qwen3-vl":
        return new ImageTokens("qwen3-vl", null, 32);
      case "llava":
        return new ImageTokens("llava", 576, 0);
      case "gemma3":
        return new ImageTokens("gemma3", 256, 0);
      default:
        try {
          int n = Integer.parseInt(v);
          if (n >= 1) {
            return new ImageTokens(Integer.toString(n), n, 0);
          }
        } catch (NumberFormatException e) {
          // refused below
        }
        throw new IllegalArgumentException(
            "llm.images.tokens: got \""
                + value
                + "\", expected one of "
                + String.join(", ", NAMES)
                + " or a whole number of tokens an image (at least 1)");
    }
  }

  /**
   * The rule's name as the record writes it: a processor name, the number, or {@code server}.
   *
   * @return never null
   */
  public String name() {
    return name;
  }

  /**
   * Whether the rule learns from the server rather than knowing.
   *
   * @return true for {@code server}
   */
  public boolean learns() {
    return fixed == null && tile == 0;
  }

  /**
   * The tokens of one image.
   *
   * @param width the image's width, in pixels
   * @param height the image's height, in pixels
   * @return the tokens, or null while a {@code server} rule has learnt nothing
   */
  public Integer tokens(int width, int height) {
    if (fixed != null) {
      return fixed;
    }
    if (tile > 0) {
      return ceilDiv(height, tile) * ceilDiv(width, tile);
    }
    return learnt;
  }

  /**
   * What a {@code server} rule learns from a request's counts: its images' tokens are the server's
   * prompt tokens less the chat template's and the text's, shared equally. The first request that
   * teaches a positive value sets it; later ones are ignored. A rule that knows learns nothing.
   *
   * @param promptTokens the server's {@code prompt_tokens}
   * @param otherTokens the template's and the text's tokens, in the same tokens
   * @param images the request's images, at least 1
   * @return the tokens an image now known, or null
   */
  public Integer learn(int promptTokens, int otherTokens, int images) {
    if (learns() && learnt == null && images > 0 && promptTokens - otherTokens >= images) {
      synchronized (this) {
        if (learnt == null) {
          learnt = (promptTokens - otherTokens) / images;
        }
      }
    }
    return learns() ? learnt : null;
  }

  private static int ceilDiv(int a, int b) {
    return (a + b - 1) / b;
  }

  @Override
  public String toString() {
    return "ImageTokens[" + name + (learnt != null ? ", learnt " + learnt : "") + "]";
  }
}
