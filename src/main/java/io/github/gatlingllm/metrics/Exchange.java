package io.github.gatlingllm.metrics;

import java.util.Objects;

/**
 * What happened to one request, as the request action saw it on the wire: the response head (if
 * any), the body it read, what {@link RequestTimer} measured and how the exchange ended. The input
 * of {@link RequestClassifier#classify(Exchange)}.
 *
 * @param streamed whether the request asked for {@code stream: true}
 * @param httpStatus the response status (100-599), or null when no response head arrived; null with
 *     {@link Ending#CONNECT_FAILED}, set with {@link Ending#COMPLETE} and {@link Ending#BROKEN},
 *     either with {@link Ending#TIMED_OUT}
 * @param contentType the {@code Content-Type} header value (parameters allowed), or null when
 *     absent or no head arrived
 * @param body the body text read from this answer (never from a second request) for a non-2xx
 *     answer, an answer to a streamed request that is not {@code text/event-stream}, or a
 *     non-streamed request; possibly partial (see {@code ending}) and cut by the caller to its read
 *     bound; null otherwise or when no byte arrived
 * @param bodyCut whether the caller cut {@code body} at its read bound; false when {@code body} is
 *     null
 * @param timings what {@link RequestTimer} measured (for a non-streamed request {@link
 *     RequestTimer#nonStreaming}, from {@code body}), never null
 * @param ending how the exchange ended, never null
 * @param failure for {@link Ending#CONNECT_FAILED}, the exception's description (for example {@code
 *     java.net.ConnectException: Connection refused}); for {@link Ending#BROKEN}, what happened to
 *     the connection as the words that complete "connection ..." ({@code closed by the server},
 *     {@code reset by the server (TCP RST)}, {@code broken (SSLException: ...)}); or null (for
 *     BROKEN: closed by the server); always null for the other endings
 * @param timeoutMs {@code llm.timeout} in milliseconds, > 0
 */
public record Exchange(
    boolean streamed,
    Integer httpStatus,
    String contentType,
    String body,
    boolean bodyCut,
    RequestTimings timings,
    Ending ending,
    String failure,
    long timeoutMs) {

  /** How an exchange ended. */
  public enum Ending {
    /** The whole body arrived (the last chunk, or the declared length, or the close ending it). */
    COMPLETE,
    /** The connection closed or was reset after the response head, before the body's end. */
    BROKEN,
    /**
     * No response head arrived: refused, reset before an answer, DNS or TLS failure, or the server
     * closed the connection before answering.
     */
    CONNECT_FAILED,
    /**
     * {@code llm.timeout}, counted from the request's own start, fired before the end (with or
     * without a response head).
     */
    TIMED_OUT
  }

  /**
   * Checks the fields against each other.
   *
   * @throws NullPointerException if {@code timings} or {@code ending} is null
   * @throws IllegalArgumentException if {@code httpStatus} is outside 100-599, or does not fit
   *     {@code ending}; if {@code failure} is set for an ending other than {@link
   *     Ending#CONNECT_FAILED} and {@link Ending#BROKEN}; if {@code bodyCut} is true without a
   *     {@code body}; if {@code timeoutMs} is not positive. The message names the field, its value
   *     and what is allowed.
   */
  public Exchange {
    Objects.requireNonNull(timings, "timings");
    Objects.requireNonNull(ending, "ending");
    if (httpStatus != null && (httpStatus < 100 || httpStatus > 599)) {
      throw new IllegalArgumentException("httpStatus must be null or 100-599, got " + httpStatus);
    }
    if (ending == Ending.CONNECT_FAILED && httpStatus != null) {
      throw new IllegalArgumentException(
          "httpStatus must be null when ending is CONNECT_FAILED (no response head), got "
              + httpStatus);
    }
    if ((ending == Ending.COMPLETE || ending == Ending.BROKEN) && httpStatus == null) {
      throw new IllegalArgumentException(
          "httpStatus must be 100-599 when ending is " + ending + " (a head arrived), got null");
    }
    if (failure != null && ending != Ending.CONNECT_FAILED && ending != Ending.BROKEN) {
      throw new IllegalArgumentException(
          "failure must be null when ending is "
              + ending
              + " (allowed with CONNECT_FAILED and BROKEN only), got \""
              + failure
              + "\"");
    }
    if (bodyCut && body == null) {
      throw new IllegalArgumentException("bodyCut must be false when body is null, got true");
    }
    if (timeoutMs <= 0) {
      throw new IllegalArgumentException("timeoutMs must be > 0, got " + timeoutMs);
    }
  }
}
