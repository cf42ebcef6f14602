package io.github.gatlingllm.simulator;

import java.util.Objects;

/**
 * What a {@link ResponseStrategy} knows of an admitted request.
 *
 * @param id the request id, as in {@link ServedRequest#id()}
 * @param endpoint the endpoint called, never null
 * @param stream whether the client asked for a streamed (SSE) answer
 * @param promptTokens prompt tokens, at least 0
 * @param cachedTokens prompt tokens served from the prefix cache, between 0 and {@code
 *     promptTokens}
 * @param maxTokens output tokens asked for ({@code max_completion_tokens}, else {@code max_tokens},
 *     else the configured default), at least 1
 */
public record GenerationRequest(
    long id,
    ServedEndpoint endpoint,
    boolean stream,
    int promptTokens,
    int cachedTokens,
    int maxTokens) {

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException if a count is out of range; the message names it
   * @throws NullPointerException if {@code endpoint} is null
   */
  public GenerationRequest {
    Objects.requireNonNull(endpoint, "endpoint");
    if (promptTokens < 0) {
      throw new IllegalArgumentException("promptTokens must be >= 0, got " + promptTokens);
    }
    if (cachedTokens < 0 || cachedTokens > promptTokens) {
      throw new IllegalArgumentException(
          "cachedTokens must be between 0 and promptTokens ("
              + promptTokens
              + "), got "
              + cachedTokens);
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
    }
  }

  /**
   * Prompt tokens that must be computed: {@code promptTokens - cachedTokens}.
   *
   * @return uncached prompt tokens, at least 0
   */
  public int uncachedTokens() {
    return promptTokens - cachedTokens;
  }
}
