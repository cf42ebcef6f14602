package io.github.gatlingllm.metrics;

/**
 * The reasoning and answer phases of one request, as {@link RequestTimer#answer} tells them apart.
 * Durations in milliseconds rounded to the microsecond, as every {@link RequestTimer} duration;
 * null means not measured.
 *
 * <p>A reasoning model first thinks (tokens sent as {@code reasoning_content} or {@code reasoning}
 * deltas, or inside {@code <think>...</think>} in the content), then answers (content, text or tool
 * calls). TTFT is the first token of either kind (vLLM, AIPerf); TTFO, the time to first output
 * token (AIPerf, GuideLLM), is the first answer token. For a model that does not reason the two are
 * the same and {@code reasoningTokens} is 0.
 *
 * @param ttfoMs time to first output token: start to the first event carrying answer text that is
 *     not only whitespace, or a tool call (whitespace right after the reasoning, such as Qwen3's
 *     {@code "\n\n"} after {@code </think>}, is not the answer's first token); null when the reply
 *     never answered (all its tokens were reasoning) or the request was not streamed
 * @param reasoningTokens output tokens spent reasoning, at least 0; null when unknown (a
 *     non-streamed reply without usage details and without a token counter)
 * @param reasoningTokensSource how {@code reasoningTokens} was obtained: {@link #SOURCE_USAGE}
 *     ({@code usage.completion_tokens_details.reasoning_tokens}, exact), {@link #SOURCE_TOKENIZER}
 *     (the reasoning text counted with the run's token counter) or {@link #SOURCE_CHUNKS}
 *     (reasoning-phase token-bearing events, one token each); null when {@code reasoningTokens} is
 * @param answerTokens output tokens of the answer: {@code completion_tokens - reasoningTokens} when
 *     the server reported {@code completion_tokens}, else the answer's token-bearing events; null
 *     when unknown
 * @param reasoningTpotMs time per reasoning token: {@code (ttfo - ttft) / reasoningTokens} (the
 *     gaps from the first reasoning token to the first answer token), or {@code (e2e - ttft) /
 *     (reasoningTokens - 1)} for a reply that never answered; null without reasoning
 * @param answerTpotMs time per answer token after the first: {@code (e2e - ttfo) / (answerTokens -
 *     1)}, with at least 2 answer tokens; the speed a user reads the answer at
 * @param answerItlFrom the index in the request's ITL list where the answer phase's gaps begin
 *     (every gap before it ends at a reasoning-phase event or at the first answer token); null when
 *     the reply never answered or was not streamed
 */
public record AnswerTimings(
    Double ttfoMs,
    Integer reasoningTokens,
    String reasoningTokensSource,
    Integer answerTokens,
    Double reasoningTpotMs,
    Double answerTpotMs,
    Integer answerItlFrom) {

  /** {@code reasoningTokensSource}: the server's {@code usage}. */
  public static final String SOURCE_USAGE = "usage";

  /** {@code reasoningTokensSource}: the reasoning text counted with the run's token counter. */
  public static final String SOURCE_TOKENIZER = "tokenizer";

  /** {@code reasoningTokensSource}: one token per reasoning-phase token-bearing event. */
  public static final String SOURCE_CHUNKS = "chunks";

  /** Nothing known: a request that was not measured. */
  public static final AnswerTimings NONE =
      new AnswerTimings(null, null, null, null, null, null, null);

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException if a count is negative, a source is not one of the three, or a
   *     source is given without a count; the message names the field and the value
   */
  public AnswerTimings {
    if (reasoningTokens != null && reasoningTokens < 0) {
      throw new IllegalArgumentException(
          "reasoning_tokens must be >= 0 or null, got " + reasoningTokens);
    }
    if (answerTokens != null && answerTokens < 0) {
      throw new IllegalArgumentException("answer_tokens must be >= 0 or null, got " + answerTokens);
    }
    if (answerItlFrom != null && answerItlFrom < 0) {
      throw new IllegalArgumentException(
          "answer_itl_from must be >= 0 or null, got " + answerItlFrom);
    }
    if (reasoningTokensSource != null
        && !reasoningTokensSource.equals(SOURCE_USAGE)
        && !reasoningTokensSource.equals(SOURCE_TOKENIZER)
        && !reasoningTokensSource.equals(SOURCE_CHUNKS)) {
      throw new IllegalArgumentException(
          "reasoning_tokens_source must be usage, tokenizer, chunks or null, got \""
              + reasoningTokensSource
              + "\"");
    }
    if ((reasoningTokensSource == null) != (reasoningTokens == null)) {
      throw new IllegalArgumentException(
          "reasoning_tokens and reasoning_tokens_source must both be set or both null, got "
              + reasoningTokens
              + " and "
              + reasoningTokensSource);
    }
  }
}
