package io.github.gatlingllm.metrics;

import io.github.gatlingllm.api.ErrorBody;
import io.github.gatlingllm.metrics.Exchange.Ending;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.math.BigDecimal;
import java.math.RoundingMode;

/**
 * Works out a request's status and error text from what happened to it ({@link Exchange}). Pure,
 * stateless and thread-safe; the messages are the ones the README's "When requests fail" table
 * documents.
 */
public final class RequestClassifier {

  private RequestClassifier() {}

  /**
   * Classifies one finished request. The first rule that applies wins:
   *
   * <ol>
   *   <li>{@link Ending#CONNECT_FAILED}: {@code connect_error}, the failure text;
   *   <li>{@link Ending#TIMED_OUT} without a response head: {@code timeout}, {@code no response
   *       within llm.timeout (60000 ms)};
   *   <li>429 or 503: {@code rejected}; another status outside 200-299: {@code http_error} ({@link
   *       RequestStatus#classify}); the text {@code HTTP 429: } and {@link ErrorBody#describe} of
   *       the body, e.g. {@code HTTP 502: 502 Bad Gateway}, or {@code HTTP 500} alone without a
   *       body; a body that did not arrive whole says so: {@code HTTP 500 (body cut: connection
   *       closed by the server): ...};
   *   <li>streamed, 2xx, a content type that is not {@code text/event-stream}: {@code
   *       stream_error}, {@code content type application/json, not text/event-stream: ...} and an
   *       excerpt of the body;
   *   <li>the content is whole ({@link StreamOutcome#COMPLETE}: {@code [DONE]} arrived, or the
   *       non-streamed body is a completion): {@code ok}, however the connection ended after it;
   *   <li>an error event or error body ({@link StreamOutcome#ERROR_EVENT}), or a malformed stream
   *       event: {@code stream_error}, {@link RequestTimings#streamError()} ({@code error event:
   *       server_error (500): ...}, {@code error body: ...}, {@code invalid data (...): ...});
   *   <li>streamed, no {@code [DONE]}: {@link Ending#COMPLETE}: {@code stream_error}, {@code stream
   *       ended without [DONE] (2 tokens received)}; {@link Ending#BROKEN}: {@code stream_error},
   *       {@code connection closed by the server before [DONE] (1 token received)} ({@code
   *       connection reset by the server (TCP RST) before ...} and the like: the words of {@link
   *       Exchange#failure()} when set); {@link Ending#TIMED_OUT}: {@code timeout}, {@code no
   *       [DONE] within llm.timeout (60000 ms)};
   *   <li>non-streamed, an unreadable body: {@link Ending#BROKEN}: {@code stream_error}, {@code
   *       connection closed by the server before the end of the response body}; {@link
   *       Ending#TIMED_OUT}: {@code timeout}, {@code response body not complete within llm.timeout
   *       (60000 ms)}; cut at the caller's bound: {@code stream_error}, {@code response body cut at
   *       the read limit: ...}; otherwise {@code stream_error}, {@link
   *       RequestTimings#streamError()} ({@code invalid data (...): ...}, {@code not a completion
   *       body: empty}).
   * </ol>
   *
   * Then a request found {@code ok} whose E2E exceeds {@code timeoutMs} is a {@code timeout},
   * {@code ended after llm.timeout (592 ms > 200 ms)} (E2E in whole milliseconds, with up to 3
   * decimals where whole milliseconds would read as the limit itself).
   *
   * <p>The error text is one line of at most {@link ErrorText#MAX_CHARS} chars ({@link
   * ErrorText#shorten}); credentials are masked by {@link RequestRecord}.
   *
   * @param e what happened, never null
   * @return the verdict, never null
   * @throws NullPointerException if {@code e} is null
   */
  public static Verdict classify(Exchange e) {
    Verdict v = content(e);
    if (v.status() == RequestStatus.OK && e.timings().e2eMs() > e.timeoutMs()) {
      // llm.timeout counts from the request's own start, whoever's timer fired late.
      return failed(
          RequestStatus.TIMEOUT,
          "ended after llm.timeout ("
              + millis(e.timings().e2eMs(), e.timeoutMs())
              + " ms > "
              + e.timeoutMs()
              + " ms)");
    }
    return v;
  }

  private static Verdict content(Exchange e) {
    if (e.ending() == Ending.CONNECT_FAILED) {
      return failed(
          RequestStatus.CONNECT_ERROR, e.failure() == null ? "connection failed" : e.failure());
    }
    if (e.httpStatus() == null) {
      return failed(RequestStatus.TIMEOUT, "no response within " + limit(e));
    }
    // The head alone: REJECTED or HTTP_ERROR for the status, STREAM_ERROR for a streamed 2xx
    // answer that is not text/event-stream, OK otherwise.
    RequestStatus head =
        RequestStatus.classify(
            e.httpStatus(), e.contentType(), e.streamed(), false, false, StreamOutcome.COMPLETE);
    if (head == RequestStatus.REJECTED || head == RequestStatus.HTTP_ERROR) {
      return failed(head, httpError(e));
    }
    if (head == RequestStatus.STREAM_ERROR) {
      return failed(head, wrongContentType(e));
    }
    RequestTimings t = e.timings();
    return switch (t.outcome()) {
      case COMPLETE -> Verdict.OK;
      case ERROR_EVENT -> failed(RequestStatus.STREAM_ERROR, streamError(t));
      // A stream's events reach the timer whole: a malformed one arrived and was unreadable. A
      // non-streamed body may be unreadable because it was cut.
      case MALFORMED ->
          e.streamed() ? failed(RequestStatus.STREAM_ERROR, streamError(t)) : unreadableBody(e);
      case NO_DONE -> e.streamed() ? noDone(e) : unreadableBody(e);
    };
  }

  /** A streamed 2xx {@code text/event-stream} answer without {@code [DONE]} or an error event. */
  private static Verdict noDone(Exchange e) {
    Integer n = e.timings().completionTokens();
    int tokens = n == null ? 0 : n;
    String received = " (" + tokens + (tokens == 1 ? " token" : " tokens") + " received)";
    return switch (e.ending()) {
      case BROKEN ->
          failed(RequestStatus.STREAM_ERROR, connection(e) + " before [DONE]" + received);
      case TIMED_OUT -> failed(RequestStatus.TIMEOUT, "no [DONE] within " + limit(e));
      default -> failed(RequestStatus.STREAM_ERROR, "stream ended without [DONE]" + received);
    };
  }

  /** A non-streamed 2xx answer whose body is not a completion nor an error object. */
  private static Verdict unreadableBody(Exchange e) {
    return switch (e.ending()) {
      case BROKEN ->
          failed(
              RequestStatus.STREAM_ERROR, connection(e) + " before the end of the response body");
      case TIMED_OUT ->
          failed(RequestStatus.TIMEOUT, "response body not complete within " + limit(e));
      default ->
          e.bodyCut()
              ? failed(
                  RequestStatus.STREAM_ERROR, withBody("response body cut at the read limit", e))
              : failed(RequestStatus.STREAM_ERROR, streamError(e.timings()));
    };
  }

  /** {@code HTTP 400: invalid_request_error (400): max_tokens is too large} and the like. */
  private static String httpError(Exchange e) {
    return withBody("HTTP " + e.httpStatus(), e);
  }

  /** {@code content type application/json, not text/event-stream: {"choices":...}}. */
  private static String wrongContentType(Exchange e) {
    return withBody("content type " + e.contentType() + ", not text/event-stream", e);
  }

  /** The text, then why the body did not arrive whole if so, then the body's description. */
  private static String withBody(String text, Exchange e) {
    StringBuilder sb = new StringBuilder(text);
    String cut = incomplete(e);
    if (cut != null) {
      sb.append(" (").append(cut).append(')');
    }
    String body = ErrorBody.describe(e.body(), e.contentType());
    return body == null ? sb.toString() : sb.append(": ").append(body).toString();
  }

  /** Why the body did not arrive whole, or null when it did. */
  private static String incomplete(Exchange e) {
    return switch (e.ending()) {
      case BROKEN -> "body cut: " + connection(e);
      case TIMED_OUT -> "body cut: not complete within " + limit(e);
      default -> null;
    };
  }

  /**
   * What happened to a connection that broke after the head: {@code connection closed by the
   * server} without a failure text, else {@code connection } and the failure's words ({@code reset
   * by the server (TCP RST)}, {@code broken (SSLException: ...)}).
   */
  private static String connection(Exchange e) {
    return "connection " + (e.failure() == null ? "closed by the server" : e.failure());
  }

  /** The timer's description; a bare name of the outcome if the caller's timings have none. */
  private static String streamError(RequestTimings t) {
    return t.streamError() != null ? t.streamError() : "outcome " + t.outcome();
  }

  private static String limit(Exchange e) {
    return "llm.timeout (" + e.timeoutMs() + " ms)";
  }

  /** Whole milliseconds, unless they would read as the limit itself: then up to 3 decimals. */
  private static String millis(double ms, long limitMs) {
    long whole = Math.round(ms);
    if (whole > limitMs) {
      return Long.toString(whole);
    }
    return BigDecimal.valueOf(ms)
        .setScale(3, RoundingMode.HALF_UP)
        .stripTrailingZeros()
        .toPlainString();
  }

  private static Verdict failed(RequestStatus status, String error) {
    return new Verdict(status, ErrorText.shorten(error, ErrorText.MAX_CHARS));
  }
}
