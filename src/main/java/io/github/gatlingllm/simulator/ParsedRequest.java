package io.github.gatlingllm.simulator;

import java.util.List;

/**
 * A generation request, read and tokenized.
 *
 * @param endpoint the endpoint called
 * @param stream whether to answer with SSE
 * @param includeUsage whether {@code stream_options.include_usage} is true
 * @param maxTokens output tokens to produce
 * @param tokens the prompt tokens (for chat: of the templated messages)
 * @param toolCalls the tool calls the reply makes ({@link ToolTurns}), empty for a text answer
 */
record ParsedRequest(
    ServedEndpoint endpoint,
    boolean stream,
    boolean includeUsage,
    int maxTokens,
    PromptTokenizer.Tokens tokens,
    List<ToolTurns.Call> toolCalls) {}
