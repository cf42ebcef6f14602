package io.github.gatlingllm.simulator;

import java.util.List;

/**
 * A generation request, read and tokenized.
 *
 * @param endpoint the endpoint called
 * @param stream whether to answer with SSE
 * @param includeUsage whether {@code stream_options.include_usage} is true
 * @param maxTokens output tokens to produce
 * @param tokens the prompt tokens (for chat, Responses and Messages: of the templated messages)
 * @param previous the stored response a Responses request named in {@code previous_response_id}, or
 *     null
 * @param added the messages a Responses request adds to its conversation (its input), kept with its
 *     reply when it completes; null for other endpoints
 * @param reasoningSummary whether a Responses request asked for a reasoning summary ({@code
 *     reasoning.summary}): its reasoning streams as {@code response.reasoning_summary_text.delta}
 *     (OpenAI's events), else as {@code response.reasoning_text.delta} (vLLM's)
 * @param toolCalls the tool calls the reply makes ({@link ToolTurns}), empty for a text answer
 */
record ParsedRequest(
    ServedEndpoint endpoint,
    boolean stream,
    boolean includeUsage,
    int maxTokens,
    PromptTokenizer.Tokens tokens,
    StoredResponses.Stored previous,
    java.util.List<PromptTokenizer.Message> added,
    boolean reasoningSummary,
    List<ToolTurns.Call> toolCalls) {

  /** A chat or completions request, its reply making these tool calls (or none). */
  ParsedRequest(
      ServedEndpoint endpoint,
      boolean stream,
      boolean includeUsage,
      int maxTokens,
      PromptTokenizer.Tokens tokens,
      List<ToolTurns.Call> toolCalls) {
    this(endpoint, stream, includeUsage, maxTokens, tokens, null, null, false, toolCalls);
  }
}
