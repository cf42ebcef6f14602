package io.github.gatlingllm.metrics;

import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * How a request ended, as written in the run record ({@link #wireName()}): one of {@code ok},
 * {@code http_error}, {@code rejected}, {@code timeout}, {@code stream_error}, {@code
 * connect_error}, {@code cut_by_run_end}, {@code cancelled}.
 */
public enum RequestStatus {
  /** A 2xx response whose stream ended with {@code [DONE]} (or a readable non-streamed body). */
  OK("ok"),
  /** A non-2xx response other than 429 and 503; the record's {@code http_status} says which. */
  HTTP_ERROR("http_error"),
  /** 429 Too Many Requests or 503 Service Unavailable: the server refused the load. */
  REJECTED("rejected"),
  /** The client gave up waiting (connect, headers or stream): the caller's timeout flag. */
  TIMEOUT("timeout"),
  /**
   * The exchange succeeded at the HTTP level but the content did not: an error event, an unreadable
   * payload, a stream cut before {@code [DONE]}, or a 2xx streamed response whose content type is
   * not {@code text/event-stream}.
   */
  STREAM_ERROR("stream_error"),
  /** No response at all: connection refused, reset, DNS or TLS failure. */
  CONNECT_ERROR("connect_error"),
  /**
   * Sent, and still in flight when the run ended (Gatling's {@code maxDuration}, a saturation stop,
   * a target down, Ctrl+C or SIGTERM): recorded with what was measured until then (TTFT if the
   * first token came, the tokens received so far, E2E up to the cut); or a prompt handed out and
   * never sent (error {@code not sent: ...}, nothing measured, E2E 0). Never judged against the SLO
   * and left out of the distributions, as every request that is not {@link #OK}. Never the result
   * of {@link #classify}.
   */
  CUT_BY_RUN_END("cut_by_run_end"),
  /**
   * Cancelled on purpose by the client ({@code llm.cancelRate} and {@code llm.cancelAfterMs}): the
   * client closed the stream's connection after the chosen delay, as a user who presses stop or
   * closes the tab. Recorded with what was measured until then (TTFT if the first token came, the
   * tokens received, E2E up to the cancel). Not a failure: not judged against the SLO, not counted
   * as failed nor in Gatling's KO count (its row is {@code NAME CANCELLED}, OK), left out of the
   * distributions. Never the result of {@link #classify}.
   */
  CANCELLED("cancelled");

  private final String wireName;

  RequestStatus(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name in records: lowercase with underscores.
   *
   * @return for example {@code "stream_error"}, never null
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The status of a name.
   *
   * @param name a {@link #wireName()}
   * @return the status
   * @throws IllegalArgumentException if the name is none of them; the message lists them
   */
  public static RequestStatus fromWireName(String name) {
    for (RequestStatus s : values()) {
      if (s.wireName.equals(name)) {
        return s;
      }
    }
    throw new IllegalArgumentException(
        "request status must be one of " + allowed() + ", got \"" + name + "\"");
  }

  /**
   * The names of all statuses, comma-separated, for error messages.
   *
   * @return {@code "ok, http_error, rejected, timeout, stream_error, connect_error, cut_by_run_end,
   *     cancelled"}
   */
  public static String allowed() {
    return Arrays.stream(values()).map(RequestStatus::wireName).collect(Collectors.joining(", "));
  }

  /**
   * Classifies a finished request. The first rule that applies wins:
   *
   * <ol>
   *   <li>{@code connectFailed}: {@link #CONNECT_ERROR};
   *   <li>{@code timedOut}: {@link #TIMEOUT} (even if part of a stream arrived);
   *   <li>no status ({@code null}): {@link #CONNECT_ERROR};
   *   <li>429 or 503: {@link #REJECTED};
   *   <li>any other status outside 200-299: {@link #HTTP_ERROR};
   *   <li>streaming, and a content type is known that is not {@code text/event-stream}: {@link
   *       #STREAM_ERROR};
   *   <li>an outcome other than {@link StreamOutcome#COMPLETE}: {@link #STREAM_ERROR};
   *   <li>otherwise {@link #OK}.
   * </ol>
   *
   * @param httpStatus the response status, or null if none was received
   * @param contentType the response's {@code Content-Type} header value (parameters allowed), or
   *     null if unknown (then not checked)
   * @param streaming whether the request asked for a stream
   * @param connectFailed whether the connection could not be made or broke before a response
   * @param timedOut whether the client's timeout fired
   * @param outcome how the stream or body ended ({@link RequestTimer}); null counts as {@link
   *     StreamOutcome#NO_DONE}
   * @return the status, never null
   */
  public static RequestStatus classify(
      Integer httpStatus,
      String contentType,
      boolean streaming,
      boolean connectFailed,
      boolean timedOut,
      StreamOutcome outcome) {
    if (connectFailed) {
      return CONNECT_ERROR;
    }
    if (timedOut) {
      return TIMEOUT;
    }
    if (httpStatus == null) {
      return CONNECT_ERROR;
    }
    if (httpStatus == 429 || httpStatus == 503) {
      return REJECTED;
    }
    if (httpStatus < 200 || httpStatus > 299) {
      return HTTP_ERROR;
    }
    if (streaming && contentType != null && !isEventStream(contentType)) {
      return STREAM_ERROR;
    }
    return outcome == StreamOutcome.COMPLETE ? OK : STREAM_ERROR;
  }

  private static boolean isEventStream(String contentType) {
    int semi = contentType.indexOf(';');
    String mime = (semi < 0 ? contentType : contentType.substring(0, semi)).trim();
    return mime.toLowerCase(Locale.ROOT).equals("text/event-stream");
  }

  @Override
  public String toString() {
    return wireName;
  }
}
