package io.github.gatlingllm.token;

import java.util.Objects;

/**
 * A token count and where it came from.
 *
 * <p>As the reference generator's {@code TokenCount}: {@code value} tokens, counted by {@code
 * source} ({@code "estimated"} or {@code "huggingface"}), {@code exact} when the count comes from
 * the model's own tokenizer rather than an estimate or a plan.
 *
 * @param value the number of tokens, never negative
 * @param source the counter that produced the count, never null
 * @param exact whether the count is exact for the tokenizer named by {@code source}
 */
public record TokenCount(int value, String source, boolean exact) {

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException if {@code value} is negative
   * @throws NullPointerException if {@code source} is null
   */
  public TokenCount {
    if (value < 0) {
      throw new IllegalArgumentException(
          "token count value must be >= 0, got " + value + " (source " + source + ")");
    }
    Objects.requireNonNull(source, "token count source must not be null");
  }
}
