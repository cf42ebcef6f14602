package io.github.gatlingllm.simulator;

/**
 * A generation request, read and tokenized.
 *
 * @param endpoint the endpoint called
 * @param stream whether to answer with SSE
 * @param includeUsage whether {@code stream_options.include_usage} is true
 * @param maxTokens output tokens to produce
 * @param tokens the prompt tokens (for chat: of the templated messages)
 */
record ParsedRequest(
    ServedEndpoint endpoint,
    boolean stream,
    boolean includeUsage,
    int maxTokens,
    PromptTokenizer.Tokens tokens) {}
