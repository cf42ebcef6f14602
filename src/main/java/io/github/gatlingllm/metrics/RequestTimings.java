package io.github.gatlingllm.metrics;

import java.util.List;
import java.util.Objects;

/**
 * What {@link RequestTimer} measured for one request. Every duration is in milliseconds with
 * microsecond precision (a whole number of microseconds, such as 2.517), measured on {@link
 * System#nanoTime()}; null means "not measured" (for example every stream timing of a non-streamed
 * request), never zero.
 *
 * @param startMs the request start, epoch milliseconds (wall clock; durations never use it)
 * @param timeToFirstEventMs start to the first SSE message of any kind (a role-only delta counts),
 *     or null if none arrived or the request was not streamed
 * @param ttftMs time to first token: start to the first event carrying a token, or null
 * @param itlMs inter-token latencies in arrival order, or null if not streamed (empty when fewer
 *     than two token-bearing events arrived); unmodifiable
 * @param tpotMs time per output token after the first, or null
 * @param e2eMs start to the end the caller gave, never negative
 * @param outputTokensPerS {@code completionTokens / (e2eMs / 1000)}, or null when unknown or e2e is
 *     0
 * @param promptTokens prompt tokens: the server's {@code usage.prompt_tokens}, else the caller's
 *     fallback count, else null
 * @param promptTokensExact whether {@code promptTokens} came from the server's usage
 * @param cachedTokens {@code usage.prompt_tokens_details.cached_tokens}, or null if not reported
 * @param completionTokens output tokens: the server's {@code usage.completion_tokens}, else the
 *     number of token-bearing events (streams) or the caller's fallback (non-streamed), else null
 * @param completionTokensExact whether {@code completionTokens} came from the server's usage
 * @param finishReason the last {@code finish_reason} reported, or null
 * @param outcome how the stream or body ended, never null
 * @param streamError a short description when {@code outcome} is not {@link
 *     StreamOutcome#COMPLETE}, else null
 */
public record RequestTimings(
    long startMs,
    Double timeToFirstEventMs,
    Double ttftMs,
    List<Double> itlMs,
    Double tpotMs,
    double e2eMs,
    Double outputTokensPerS,
    Integer promptTokens,
    boolean promptTokensExact,
    Integer cachedTokens,
    Integer completionTokens,
    boolean completionTokensExact,
    String finishReason,
    StreamOutcome outcome,
    String streamError) {

  /**
   * Checks the fields and makes {@code itlMs} unmodifiable (an {@link ItlList}).
   *
   * @throws NullPointerException if {@code outcome} or an ITL value is null
   */
  public RequestTimings {
    Objects.requireNonNull(outcome, "outcome");
    itlMs = itlMs == null ? null : ItlList.copyOf(itlMs);
  }

  /**
   * How a response stream (or a non-streamed response body) ended, as seen by {@link RequestTimer}.
   */
  public enum StreamOutcome {
    /** The stream ended with {@code [DONE]} (or the non-streamed body was a completion). */
    COMPLETE,
    /** The server sent an error payload ({@code {"error": ...}}) in the stream or as the body. */
    ERROR_EVENT,
    /** A payload could not be read (invalid JSON, not an object, empty non-streamed body). */
    MALFORMED,
    /** The stream ended (or was cut) without {@code [DONE]}; also when nothing arrived at all. */
    NO_DONE
  }
}
