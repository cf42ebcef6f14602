package io.github.gatlingllm.simulator;

import java.util.List;

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
 * @param clientRequestId the request's {@code X-Request-Id} header (as vLLM reads it), or null
 * @param sentNanos with {@link SimulatorConfig#recordSendTimes()}, for a streamed request: when
 *     each chunk that holds tokens was written to the connection, in nanoseconds after arrival, in
 *     order (the events due at one moment are flushed together right after); else empty. Never
 *     null, unmodifiable
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
    boolean completed,
    String clientRequestId,
    List<Long> sentNanos) {

  /**
   * Copies the send times, so the record cannot change.
   *
   * @throws NullPointerException if {@code sentNanos} is null or holds null
   */
  public ServedRequest {
    sentNanos = List.copyOf(sentNanos);
  }
}
