package io.github.gatlingllm.api;

/**
 * The {@code usage} object of a response or stream chunk, as far as it was reported.
 *
 * <p>Servers differ: with {@code stream_options.include_usage} OpenAI, vLLM and llama.cpp send it
 * once near the end of the stream (chat: on a chunk with {@code "choices": []}; llama.cpp
 * completions: on the chunk with {@code finish_reason}); vLLM with {@code continuous_usage_stats}
 * sends it on every chunk, {@code completion_tokens} then counting the tokens so far.
 *
 * @param promptTokens {@code usage.prompt_tokens}, or null if absent
 * @param completionTokens {@code usage.completion_tokens} (cumulative, tokens generated so far), or
 *     null if absent
 * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens}: prompt tokens served from
 *     the server's prefix cache, or null if absent
 * @param reasoningTokens {@code usage.completion_tokens_details.reasoning_tokens}: the part of
 *     {@code completionTokens} a reasoning model spent thinking (OpenAI, vLLM with a reasoning
 *     parser, SGLang), or null if absent
 */
public record Usage(
    Integer promptTokens, Integer completionTokens, Integer cachedTokens, Integer reasoningTokens) {

  /**
   * A usage without reasoning tokens.
   *
   * @param promptTokens {@code usage.prompt_tokens}, or null
   * @param completionTokens {@code usage.completion_tokens}, or null
   * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens}, or null
   * @throws IllegalArgumentException if a count is negative
   */
  public Usage(Integer promptTokens, Integer completionTokens, Integer cachedTokens) {
    this(promptTokens, completionTokens, cachedTokens, null);
  }

  /**
   * Checks the counts.
   *
   * @throws IllegalArgumentException if a count is negative
   */
  public Usage {
    check("promptTokens", promptTokens);
    check("completionTokens", completionTokens);
    check("cachedTokens", cachedTokens);
    check("reasoningTokens", reasoningTokens);
  }

  private static void check(String field, Integer value) {
    if (value != null && value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0 or null, got " + value);
    }
  }
}
