package io.github.gatlingllm.simulator;

import java.util.Objects;

/**
 * One piece of planned output: {@code tokens} output tokens whose text is {@code text}, produced
 * {@code atNanos} after the request was admitted. Streamed, it becomes one SSE event.
 *
 * @param atNanos when the chunk is produced, in nanoseconds after admission, at least 0
 * @param tokens output tokens in the chunk, at least 0
 * @param text the chunk's text, never null
 */
public record PlannedChunk(long atNanos, int tokens, String text) {

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
