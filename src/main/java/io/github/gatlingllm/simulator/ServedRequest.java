package io.github.gatlingllm.simulator;

/**
 * What the simulator did with one admitted generation request: the facts a test compares measured
 * timings and usage against. Times are the simulator's schedule, in nanoseconds after the request
 * arrived (was read and tokenized); the bytes leave at those times or slightly later.
 *
 * @param id the request id; the response id is {@link ServedEndpoint#responseId(long)} of it
 * @param endpoint the endpoint called
 * @param stream whether the answer was streamed
 * @param promptTokens prompt tokens ({@code usage.prompt_tokens})
 * @param cachedTokens prompt tokens served from the prefix cache ({@code
 *     usage.prompt_tokens_details.cached_tokens})
 * @param completionTokens output tokens produced ({@code usage.completion_tokens}); fewer than
 *     planned when the client left early
 * @param queueWaitNanos time spent waiting for a free sequence slot
 * @param firstTokenNanos when the first output token was scheduled: the time to first token
 * @param lastTokenNanos when the last output token was scheduled: the end-to-end latency
 * @param completed true if the answer was sent in full; false if the client disconnected first
 */
public record ServedRequest(
    long id,
    ServedEndpoint endpoint,
    boolean stream,
    int promptTokens,
    int cachedTokens,
    int completionTokens,
    long queueWaitNanos,
    long firstTokenNanos,
    long lastTokenNanos,
    boolean completed) {}
