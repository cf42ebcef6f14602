package io.github.gatlingllm.simulator;

import java.util.Objects;

/**
 * One piece of planned output: {@code tokens} output tokens whose text is {@code text}, produced
 * {@code atNanos} after the request was admitted. Streamed, it becomes one SSE event.
 *
 * @param atNanos when the chunk is produced, in nanoseconds after admission, at least 0
 * @param tokens output tokens in the chunk, at least 0
 * @param text the chunk's text, never null
 * @param reasoning whether the chunk's tokens are reasoning (sent as {@code reasoning_content} in a
 *     chat stream, inside {@code <think>...</think>} in a completion's text) rather than answer
 */
public record PlannedChunk(long atNanos, int tokens, String text, boolean reasoning) {

  /**
   * An answer chunk.
   *
   * @param atNanos when the chunk is produced, in nanoseconds after admission, at least 0
   * @param tokens output tokens in the chunk, at least 0
   * @param text the chunk's text, never null
   * @throws IllegalArgumentException if {@code atNanos} or {@code tokens} is negative
   * @throws NullPointerException if {@code text} is null
   */
  public PlannedChunk(long atNanos, int tokens, String text) {
    this(atNanos, tokens, text, false);
  }

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException if {@code atNanos} or {@code tokens} is negative
   * @throws NullPointerException if {@code text} is null
   */
  public PlannedChunk {
    if (atNanos < 0) {
      throw new IllegalArgumentException("atNanos must be >= 0 (nanoseconds), got " + atNanos);
    }
    if (tokens < 0) {
      throw new IllegalArgumentException("tokens must be >= 0, got " + tokens);
    }
    Objects.requireNonNull(text, "text");
  }
}
