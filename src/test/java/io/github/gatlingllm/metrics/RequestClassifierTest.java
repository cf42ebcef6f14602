package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.metrics.Exchange.Ending;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * One test per case of the fault corpus ({@code gatling/FaultCorpus}, run end to end by {@code
 * FaultCorpusTest}), each with the {@link Exchange} the request action sees for it, then one test
 * per rule the corpus does not reach.
 */
class RequestClassifierTest {

  private static final long START = 1_000;
  private static final long TIMEOUT_MS = 2_000;
  private static final String SSE = "text/event-stream";

  private static final String ROLE =
      "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\"}}]}";
  private static final String FINISH =
      "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"stop\"}]}";
  private static final String DONE = "[DONE]";

  /** The failure words of a connection reset after the head (GatlingHttp.brokenBy). */
  private static final String RESET = "reset by the server (TCP RST)";

  /** The failure words of a clean close after the head (GatlingHttp.brokenBy). */
  private static final String CLOSED = "closed by the server";

  private static final String COMPLETION =
      "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"a b\"},"
          + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2}}";

  private static String content(String text) {
    return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}";
  }

  private static String usage(int prompt, int completion) {
    return "{\"choices\":[],\"usage\":{\"prompt_tokens\":"
        + prompt
        + ",\"completion_tokens\":"
        + completion
        + "}}";
  }

  private static String jsonError(int status, String message) {
    return "{\"error\":{\"message\":\""
        + message
        + "\",\"type\":\"test_error\",\"code\":"
        + status
        + "}}";
  }

  private static String html(int status, String reason) {
    return "<html>\r\n<head><title>"
        + status
        + " "
        + reason
        + "</title></head>\r\n<body>\r\n<center><h1>"
        + status
        + " "
        + reason
        + "</h1></center>\r\n<hr><center>nginx/1.27.0</center>\r\n</body>\r\n</html>\r\n";
  }

  /** A timer fed SSE events (their {@code data}) 10 ms apart, from 10 ms after the start. */
  private static RequestTimer fed(String... data) {
    RequestTimer timer = new RequestTimer(START, ns(START));
    long at = START;
    for (String d : data) {
      at += 10;
      timer.onEvent(ns(at), StreamEvent.parse(d));
    }
    return timer;
  }

  /** The timings of a stream that ended (or was cut) at its last event. */
  private static RequestTimings stream(String... data) {
    RequestTimer timer = fed(data);
    return timer.finish(timer.lastEventNanos(), 128);
  }

  /** The timings of a stream that got {@code data} and was still open at llm.timeout. */
  private static RequestTimings streamTimedOut(String... data) {
    return fed(data).finish(ns(START + TIMEOUT_MS), 128);
  }

  /** The timings of a non-streamed request whose body (possibly partial) ended after 40 ms. */
  private static RequestTimings plain(String body) {
    return RequestTimer.nonStreaming(
        START, ns(START), ns(START + 40), StreamEvent.parseResponse(body), 128, null);
  }

  /** A streamed request answered 200 {@code text/event-stream}. */
  private static Exchange sse(RequestTimings timings, Ending ending, String failure) {
    return new Exchange(true, 200, SSE, null, false, timings, ending, failure, TIMEOUT_MS);
  }

  /** A streamed request answered with a whole, non-SSE body. */
  private static Exchange answer(int status, String contentType, String body) {
    return new Exchange(
        true, status, contentType, body, false, stream(), Ending.COMPLETE, null, TIMEOUT_MS);
  }

  /** A complete stream with an E2E of {@code e2eMs} and llm.timeout {@code timeoutMs}. */
  private static Exchange sse(double e2eMs, long timeoutMs) {
    RequestTimings timings =
        new RequestTimings(
            START,
            1.0,
            1.0,
            List.of(),
            null,
            e2eMs,
            1000 / e2eMs,
            10,
            true,
            null,
            1,
            true,
            "stop",
            StreamOutcome.COMPLETE,
            null);
    return new Exchange(true, 200, SSE, null, false, timings, Ending.COMPLETE, null, timeoutMs);
  }

  // The fault corpus, case by case, in its order.

  /** Milliseconds as the timer's nanoseconds. */
  private static long ns(long ms) {
    return ms * 1_000_000L;
  }

  @Test
  void corpusRoleOnlyFirstEvent() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE, content("a"), content(" b"), content(" c"), FINISH, usage(10, 3), DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusEmptyContentEvents() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE,
                    content(""),
                    content(""),
                    content("a"),
                    content(""),
                    content(" b"),
                    FINISH,
                    usage(10, 2),
                    DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusReasoningOnly() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE,
                    "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"think\"}}]}",
                    "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\" more\"}}]}",
                    FINISH,
                    usage(10, 2),
                    DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusToolCallDeltas() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE,
                    "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                        + "\"id\":\"call_1\",\"type\":\"function\",\"function\":{\"name\":\"f\","
                        + "\"arguments\":\"\"}}]}}]}",
                    "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
                        + "\"function\":{\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}",
                    "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"tool_calls\"}]}",
                    DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusUsageOnLastContentEvent() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE,
                    content("a"),
                    "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\" b\"},"
                        + "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":12,"
                        + "\"completion_tokens\":2,\"prompt_tokens_details\":{\"cached_tokens\":8}}}",
                    DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusUsageOnSeparateEventWithEmptyChoices() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("a"), content(" b"), FINISH, usage(11, 2), DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusUsageMissing() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(stream(ROLE, content("a"), content(" b"), FINISH, DONE), Ending.COMPLETE, null)));
  }

  /**
   * The server closes the connection (FIN) after its last event without the chunked body's last
   * chunk: the body did not end, so the action sees BROKEN. Today's SSE client called it "stream
   * ended without [DONE]".
   */
  @Test
  void corpusDoneMissingCleanClose() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection closed by the server before [DONE] (2 tokens received)"),
        RequestClassifier.classify(
            sse(stream(ROLE, content("a"), content(" b"), FINISH), Ending.BROKEN, CLOSED)));
  }

  /** The half event before the reset never reaches the timer: the SSE parser drops it. */
  @Test
  void corpusCutMidEvent() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection reset by the server (TCP RST) before [DONE] (1 token received)"),
        RequestClassifier.classify(sse(stream(ROLE, content("a")), Ending.BROKEN, RESET)));
  }

  @Test
  void corpusInvalidJson() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "invalid data (Unexpected end-of-input: expected close marker for Object):"
                + " {\"choices\":[{\"delta\":{\"content\":\"b\"}"),
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("a"), "{\"choices\":[{\"delta\":{\"content\":\"b\"}", DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusDataSplitOverLines() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(
                    "{\"choices\":[{\"index\":0,\n\"delta\":{\"content\":\"a\"}}]}",
                    content(" b"),
                    FINISH,
                    usage(10, 2),
                    DONE),
                Ending.COMPLETE,
                null)));
  }

  /** Comment lines make no event. */
  @Test
  void corpusCommentLines() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("a"), content(" b"), FINISH, usage(10, 2), DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusCrlfLineEnds() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("a"), content(" b"), FINISH, usage(10, 2), DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusCrLineEnds() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("a"), content(" b"), FINISH, usage(10, 2), DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusErrorEventMidStream() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "error event: server_error (500): the engine died"),
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE,
                    content("a"),
                    "{\"error\":{\"message\":\"the engine died\",\"type\":\"server_error\","
                        + "\"code\":500}}",
                    DONE),
                Ending.COMPLETE,
                null)));
  }

  @Test
  void corpusHttp400Json() {
    assertEquals(
        new Verdict(
            RequestStatus.HTTP_ERROR, "HTTP 400: test_error (400): max_tokens is too large"),
        RequestClassifier.classify(
            answer(400, "application/json", jsonError(400, "max_tokens is too large"))));
  }

  @Test
  void corpusHttp401Json() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 401: test_error (401): invalid api key"),
        RequestClassifier.classify(
            answer(401, "application/json", jsonError(401, "invalid api key"))));
  }

  @Test
  void corpusHttp404Json() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 404: test_error (404): model does not exist"),
        RequestClassifier.classify(
            answer(404, "application/json", jsonError(404, "model does not exist"))));
  }

  @Test
  void corpusHttp429Json() {
    assertEquals(
        new Verdict(RequestStatus.REJECTED, "HTTP 429: test_error (429): rate limit reached"),
        RequestClassifier.classify(
            answer(429, "application/json", jsonError(429, "rate limit reached"))));
  }

  @Test
  void corpusHttp500Json() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 500: test_error (500): engine crashed"),
        RequestClassifier.classify(
            answer(500, "application/json", jsonError(500, "engine crashed"))));
  }

  @Test
  void corpusHttp503Json() {
    assertEquals(
        new Verdict(RequestStatus.REJECTED, "HTTP 503: test_error (503): server is overloaded"),
        RequestClassifier.classify(
            answer(503, "application/json", jsonError(503, "server is overloaded"))));
  }

  @Test
  void corpusHttp400Html() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 400: 400 Bad Request"),
        RequestClassifier.classify(answer(400, "text/html", html(400, "Bad Request"))));
  }

  @Test
  void corpusHttp401Html() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 401: 401 Unauthorized"),
        RequestClassifier.classify(answer(401, "text/html", html(401, "Unauthorized"))));
  }

  @Test
  void corpusHttp404Html() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 404: 404 Not Found"),
        RequestClassifier.classify(answer(404, "text/html", html(404, "Not Found"))));
  }

  @Test
  void corpusHttp429Html() {
    assertEquals(
        new Verdict(RequestStatus.REJECTED, "HTTP 429: 429 Too Many Requests"),
        RequestClassifier.classify(answer(429, "text/html", html(429, "Too Many Requests"))));
  }

  @Test
  void corpusHttp500Html() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 500: 500 Internal Server Error"),
        RequestClassifier.classify(answer(500, "text/html", html(500, "Internal Server Error"))));
  }

  @Test
  void corpusHttp503Html() {
    assertEquals(
        new Verdict(RequestStatus.REJECTED, "HTTP 503: 503 Service Unavailable"),
        RequestClassifier.classify(answer(503, "text/html", html(503, "Service Unavailable"))));
  }

  @Test
  void corpusTextPlainReply() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "content type text/plain; charset=utf-8, not text/event-stream: streaming is disabled"
                + " here"),
        RequestClassifier.classify(
            answer(200, "text/plain; charset=utf-8", "streaming is disabled here")));
  }

  @Test
  void corpusApplicationJsonReply() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "content type application/json, not text/event-stream: {\"choices\":[{\"index\":0,"
                + "\"message\":{\"role\":\"assistant\",\"content\":\"a b\"},"
                + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,"
                + "\"completion_tokens\":2}}"),
        RequestClassifier.classify(answer(200, "application/json", COMPLETION)));
  }

  /** Known at once from the reset: today's SSE client needed CutStreams to notice it. */
  @Test
  void corpusResetAfterHeaders() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection reset by the server (TCP RST) before [DONE] (0 tokens received)"),
        RequestClassifier.classify(sse(stream(), Ending.BROKEN, RESET)));
  }

  /** A close after the head, as the listener words it, reads as it always did. */
  @Test
  void aCloseAfterTheHeadIsClosedByTheServer() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection closed by the server before [DONE] (0 tokens received)"),
        RequestClassifier.classify(sse(stream(), Ending.BROKEN, CLOSED)));
  }

  /** Another transport error after the head names its exception. */
  @Test
  void anotherTransportErrorAfterTheHeadNamesIt() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection broken (SSLException: Tag mismatch) before [DONE] (0 tokens received)"),
        RequestClassifier.classify(
            sse(stream(), Ending.BROKEN, "broken (SSLException: Tag mismatch)")));
  }

  @Test
  void corpusHeadersThenSilence() {
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "no [DONE] within llm.timeout (2000 ms)"),
        RequestClassifier.classify(sse(streamTimedOut(), Ending.TIMED_OUT, null)));
  }

  @Test
  void corpusSlowTrickle() {
    RequestTimer timer = new RequestTimer(START, ns(START));
    timer.onEvent(ns(START + 5), StreamEvent.parse(ROLE));
    for (int i = 0; i < 10; i++) {
      timer.onEvent(ns(START + 105 + 100 * i), StreamEvent.parse(content("t" + i)));
    }
    timer.onEvent(ns(START + 1_006), StreamEvent.parse(FINISH));
    timer.onEvent(ns(START + 1_006), StreamEvent.parse(usage(10, 10)));
    timer.onEvent(ns(START + 1_006), StreamEvent.parse(DONE));
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(timer.finish(timer.lastEventNanos(), 128), Ending.COMPLETE, null)));
  }

  @Test
  void corpusOneMegabyteEvent() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("x".repeat(1 << 20)), FINISH, usage(10, 1), DONE),
                Ending.COMPLETE,
                null)));
  }

  /** 0xff 0xfe 0xc3 before {@code b} decode as three replacement chars. */
  @Test
  void corpusNonUtf8Bytes() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(
                stream(ROLE, content("a\uFFFD\uFFFD\uFFFDb"), FINISH, usage(10, 1), DONE),
                Ending.COMPLETE,
                null)));
  }

  /** FaultCorpusTest's own run against a closed port. */
  @Test
  void corpusConnectionRefused() {
    assertEquals(
        new Verdict(
            RequestStatus.CONNECT_ERROR,
            "io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused:"
                + " /127.0.0.1:39215"),
        RequestClassifier.classify(
            new Exchange(
                true,
                null,
                null,
                null,
                false,
                stream(),
                Ending.CONNECT_FAILED,
                "io.netty.channel.AbstractChannel$AnnotatedConnectException: Connection refused:"
                    + " /127.0.0.1:39215",
                TIMEOUT_MS)));
  }

  // Connect failures and timeouts before a head.

  @Test
  void connectFailureTextBecomesOneLine() {
    assertEquals(
        new Verdict(
            RequestStatus.CONNECT_ERROR,
            "javax.net.ssl.SSLHandshakeException: PKIX path building failed: unable to find"
                + " certificate"),
        RequestClassifier.classify(
            new Exchange(
                true,
                null,
                null,
                null,
                false,
                stream(),
                Ending.CONNECT_FAILED,
                "javax.net.ssl.SSLHandshakeException: PKIX path building failed:\r\n\tunable to"
                    + " find certificate\n",
                TIMEOUT_MS)));
  }

  @Test
  void connectFailureWithoutTextSaysConnectionFailed() {
    assertEquals(
        new Verdict(RequestStatus.CONNECT_ERROR, "connection failed"),
        RequestClassifier.classify(
            new Exchange(
                false,
                null,
                null,
                null,
                false,
                plain(null),
                Ending.CONNECT_FAILED,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void streamedTimeoutBeforeAHeadIsNoResponse() {
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "no response within llm.timeout (2000 ms)"),
        RequestClassifier.classify(
            new Exchange(
                true, null, null, null, false, streamTimedOut(), Ending.TIMED_OUT, null, 2_000)));
  }

  @Test
  void nonStreamedTimeoutBeforeAHeadIsNoResponse() {
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "no response within llm.timeout (60000 ms)"),
        RequestClassifier.classify(
            new Exchange(
                false, null, null, null, false, plain(null), Ending.TIMED_OUT, null, 60_000)));
  }

  // Error answers.

  @Test
  void rejectedWithoutABodySaysTheStatusOnly() {
    assertEquals(
        new Verdict(RequestStatus.REJECTED, "HTTP 429"),
        RequestClassifier.classify(answer(429, null, null)));
  }

  @Test
  void httpErrorWithABlankBodySaysTheStatusOnly() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 500"),
        RequestClassifier.classify(
            new Exchange(
                false,
                500,
                "text/plain",
                " \r\n",
                false,
                plain(" \r\n"),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void informationalStatusIsAnHttpError() {
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 101"),
        RequestClassifier.classify(answer(101, null, null)));
  }

  @Test
  void errorAnswerCutByTheServerSaysSo() {
    assertEquals(
        new Verdict(
            RequestStatus.HTTP_ERROR,
            "HTTP 502 (body cut: connection reset by the server (TCP RST)): 502 Bad Gateway"),
        RequestClassifier.classify(
            new Exchange(
                true,
                502,
                "text/html",
                "<html><head><title>502 Bad Gateway</title></head><bo",
                false,
                stream(),
                Ending.BROKEN,
                RESET,
                TIMEOUT_MS)));
  }

  /** The status the server gave wins over the timeout that cut its body. */
  @Test
  void errorAnswerCutByTheTimeoutIsStillAnHttpError() {
    assertEquals(
        new Verdict(
            RequestStatus.HTTP_ERROR,
            "HTTP 500 (body cut: not complete within llm.timeout (2000 ms)): {\"error\":{\"mess"),
        RequestClassifier.classify(
            new Exchange(
                false,
                500,
                "application/json",
                "{\"error\":{\"mess",
                false,
                plain("{\"error\":{\"mess"),
                Ending.TIMED_OUT,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void errorAnswerCutAtTheReadBoundGivesItsExcerpt() {
    assertEquals(
        new Verdict(
            RequestStatus.HTTP_ERROR,
            "HTTP 400: {\"error\":{\"message\":\"" + "a".repeat(136) + "..."),
        RequestClassifier.classify(
            new Exchange(
                true,
                400,
                "application/json",
                "{\"error\":{\"message\":\"" + "a".repeat(300),
                true,
                stream(),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  // Streamed 200 answers that are not event streams.

  @Test
  void wrongContentTypeCutByTheServerSaysSo() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "content type application/json, not text/event-stream (body cut: connection reset by"
                + " the server (TCP RST)): {\"choices\":[{\"ind"),
        RequestClassifier.classify(
            new Exchange(
                true,
                200,
                "application/json",
                "{\"choices\":[{\"ind",
                false,
                stream(),
                Ending.BROKEN,
                RESET,
                TIMEOUT_MS)));
  }

  @Test
  void wrongContentTypeWithAnEmptyBodySaysTheTypeOnly() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "content type text/html, not text/event-stream"),
        RequestClassifier.classify(answer(200, "text/html", "")));
  }

  // Streamed 200 event streams.

  @Test
  void eventStreamWithParametersIsAStream() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            new Exchange(
                true,
                200,
                "Text/Event-Stream; charset=utf-8",
                null,
                false,
                stream(ROLE, content("a"), DONE),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void missingContentTypeIsReadAsAStream() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            new Exchange(
                true,
                200,
                null,
                null,
                false,
                stream(ROLE, content("a"), DONE),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void streamEndedWithoutAnyEvent() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "stream ended without [DONE] (0 tokens received)"),
        RequestClassifier.classify(sse(stream(), Ending.COMPLETE, null)));
  }

  @Test
  void streamEndedWithoutDoneAfterOneToken() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "stream ended without [DONE] (1 token received)"),
        RequestClassifier.classify(sse(stream(ROLE, content("a")), Ending.COMPLETE, null)));
  }

  /** The server's usage counts, as in the record's completion_tokens. */
  @Test
  void tokensReceivedAreTheServersCountWhenReported() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection reset by the server (TCP RST) before [DONE] (5 tokens received)"),
        RequestClassifier.classify(
            sse(stream(content("a"), content(" b"), usage(10, 5)), Ending.BROKEN, RESET)));
  }

  @Test
  void timeoutAfterSomeTokensIsATimeout() {
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "no [DONE] within llm.timeout (2000 ms)"),
        RequestClassifier.classify(
            sse(streamTimedOut(ROLE, content("a"), content(" b")), Ending.TIMED_OUT, null)));
  }

  /** [DONE] ends the answer: a close before the body's last chunk takes nothing from it. */
  @Test
  void doneThenBrokenIsOk() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(stream(ROLE, content("a"), FINISH, DONE), Ending.BROKEN, RESET)));
  }

  @Test
  void doneThenTimedOutIsOk() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            sse(stream(ROLE, content("a"), FINISH, DONE), Ending.TIMED_OUT, null)));
  }

  @Test
  void errorEventThenBrokenIsTheErrorEvent() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "error event: overloaded: busy"),
        RequestClassifier.classify(
            sse(
                stream(ROLE, "{\"error\":\"busy\",\"error_type\":\"overloaded\"}"),
                Ending.BROKEN,
                RESET)));
  }

  @Test
  void errorEventThenTimedOutIsTheErrorEvent() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "error event: overloaded: busy"),
        RequestClassifier.classify(
            sse(
                streamTimedOut(ROLE, "{\"error\":\"busy\",\"error_type\":\"overloaded\"}"),
                Ending.TIMED_OUT,
                null)));
  }

  @Test
  void malformedEventThenBrokenIsTheMalformedEvent() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "invalid data (not a JSON object): [1,2]"),
        RequestClassifier.classify(sse(stream(ROLE, "[1,2]"), Ending.BROKEN, RESET)));
  }

  @Test
  void longErrorIsCutTo300Chars() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "error event: server_error (500): "
                + "x".repeat(ErrorText.MAX_CHARS - "error event: server_error (500): ".length() - 3)
                + "..."),
        RequestClassifier.classify(
            sse(
                stream(
                    ROLE,
                    "{\"error\":{\"message\":\""
                        + "x".repeat(400)
                        + "\",\"type\":\"server_error\",\"code\":500}}"),
                Ending.COMPLETE,
                null)));
  }

  // llm.timeout counted from the request's start.

  @Test
  void okRequestThatEndedAfterTheTimeoutIsATimeout() {
    RequestTimer timer = new RequestTimer(START, ns(START));
    timer.onEvent(ns(START + 300), StreamEvent.parse(content("a")));
    timer.onEvent(ns(START + 592), StreamEvent.parse(DONE));
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "ended after llm.timeout (592 ms > 200 ms)"),
        RequestClassifier.classify(
            new Exchange(
                true,
                200,
                SSE,
                null,
                false,
                timer.finish(timer.lastEventNanos(), null),
                Ending.COMPLETE,
                null,
                200)));
  }

  @Test
  void okRequestThatEndedAtTheTimeoutIsOk() {
    RequestTimer timer = new RequestTimer(START, ns(START));
    timer.onEvent(ns(START + 200), StreamEvent.parse(DONE));
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            new Exchange(
                true,
                200,
                SSE,
                null,
                false,
                timer.finish(timer.lastEventNanos(), null),
                Ending.COMPLETE,
                null,
                200)));
  }

  @Test
  void overrunIsRoundedToWholeMilliseconds() {
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "ended after llm.timeout (593 ms > 200 ms)"),
        RequestClassifier.classify(sse(592.6, 200)));
  }

  @Test
  void overrunUnderHalfAMillisecondKeepsItsDecimals() {
    assertEquals(
        new Verdict(RequestStatus.TIMEOUT, "ended after llm.timeout (200.004 ms > 200 ms)"),
        RequestClassifier.classify(sse(200.004, 200)));
  }

  /** Only an ok request becomes a timeout by its E2E: a failed one keeps its own error. */
  @Test
  void failedRequestThatEndedAfterTheTimeoutKeepsItsError() {
    RequestTimer timer = new RequestTimer(START, ns(START));
    timer.onEvent(ns(START + 592), StreamEvent.parse(content("a")));
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "stream ended without [DONE] (1 token received)"),
        RequestClassifier.classify(
            new Exchange(
                true,
                200,
                SSE,
                null,
                false,
                timer.finish(timer.lastEventNanos(), null),
                Ending.COMPLETE,
                null,
                200)));
  }

  // Non-streamed requests.

  @Test
  void nonStreamedCompletionIsOk() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                COMPLETION,
                false,
                plain(COMPLETION),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  /** A non-streamed request's content type is not checked: its body decides. */
  @Test
  void nonStreamedCompletionOfAnyContentTypeIsOk() {
    assertEquals(
        Verdict.OK,
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "text/plain",
                COMPLETION,
                false,
                plain(COMPLETION),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedErrorObjectOn200IsAStreamError() {
    String body = "{\"error\":{\"message\":\"the engine died\",\"type\":\"server_error\"}}";
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "error body: server_error: the engine died"),
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                body,
                false,
                plain(body),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedUnreadableBodyIsAStreamError() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "invalid data (not a JSON object): \"hello\""),
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                "\"hello\"",
                false,
                plain("\"hello\""),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedEmptyBodyIsAStreamError() {
    assertEquals(
        new Verdict(RequestStatus.STREAM_ERROR, "not a completion body: empty"),
        RequestClassifier.classify(
            new Exchange(
                false, 200, null, "", false, plain(""), Ending.COMPLETE, null, TIMEOUT_MS)));
  }

  @Test
  void nonStreamedBodyCutByTheServerIsAStreamError() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "connection reset by the server (TCP RST) before the end of the response body"),
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                "{\"choices\":[{\"ind",
                false,
                plain("{\"choices\":[{\"ind"),
                Ending.BROKEN,
                RESET,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedBodyCutByTheTimeoutIsATimeout() {
    assertEquals(
        new Verdict(
            RequestStatus.TIMEOUT, "response body not complete within llm.timeout (2000 ms)"),
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                "{\"choices\":[{\"ind",
                false,
                plain("{\"choices\":[{\"ind"),
                Ending.TIMED_OUT,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedTimeoutBeforeAnyBodyByteIsATimeout() {
    assertEquals(
        new Verdict(
            RequestStatus.TIMEOUT, "response body not complete within llm.timeout (2000 ms)"),
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                null,
                false,
                plain(null),
                Ending.TIMED_OUT,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedBodyCutAtTheReadBoundIsNotCalledInvalid() {
    assertEquals(
        new Verdict(
            RequestStatus.STREAM_ERROR,
            "response body cut at the read limit: {\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\""
                + "a".repeat(93)
                + "..."),
        RequestClassifier.classify(
            new Exchange(
                false,
                200,
                "application/json",
                "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\""
                    + "a".repeat(200),
                true,
                plain(
                    "{\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\""
                        + "a".repeat(200)),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  @Test
  void nonStreamedHttpErrorKeepsTheServersMessage() {
    String body =
        "{\"error\":{\"message\":\"bad\",\"type\":\"invalid_request_error\",\"code\":400}}";
    assertEquals(
        new Verdict(RequestStatus.HTTP_ERROR, "HTTP 400: invalid_request_error (400): bad"),
        RequestClassifier.classify(
            new Exchange(
                false,
                400,
                "application/json",
                body,
                false,
                plain(body),
                Ending.COMPLETE,
                null,
                TIMEOUT_MS)));
  }

  // Validation.

  @Test
  void httpStatusOutOfRangeIsRefused() {
    assertEquals(
        "httpStatus must be null or 100-599, got 42",
        assertThrows(
                IllegalArgumentException.class,
                () -> new Exchange(true, 42, SSE, null, false, stream(), Ending.COMPLETE, null, 1))
            .getMessage());
  }

  @Test
  void connectFailureWithAStatusIsRefused() {
    assertEquals(
        "httpStatus must be null when ending is CONNECT_FAILED (no response head), got 200",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new Exchange(
                        true, 200, SSE, null, false, stream(), Ending.CONNECT_FAILED, "x", 1))
            .getMessage());
  }

  @Test
  void brokenWithoutAStatusIsRefused() {
    assertEquals(
        "httpStatus must be 100-599 when ending is BROKEN (a head arrived), got null",
        assertThrows(
                IllegalArgumentException.class,
                () -> new Exchange(true, null, null, null, false, stream(), Ending.BROKEN, "x", 1))
            .getMessage());
  }

  @Test
  void failureOfACompleteExchangeIsRefused() {
    assertEquals(
        "failure must be null when ending is COMPLETE (allowed with CONNECT_FAILED and BROKEN"
            + " only), got \"boom\"",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new Exchange(true, 200, SSE, null, false, stream(), Ending.COMPLETE, "boom", 1))
            .getMessage());
  }

  @Test
  void bodyCutWithoutABodyIsRefused() {
    assertEquals(
        "bodyCut must be false when body is null, got true",
        assertThrows(
                IllegalArgumentException.class,
                () -> new Exchange(true, 200, SSE, null, true, stream(), Ending.COMPLETE, null, 1))
            .getMessage());
  }

  @Test
  void nonPositiveTimeoutIsRefused() {
    assertEquals(
        "timeoutMs must be > 0, got 0",
        assertThrows(
                IllegalArgumentException.class,
                () -> new Exchange(true, 200, SSE, null, false, stream(), Ending.COMPLETE, null, 0))
            .getMessage());
  }

  @Test
  void missingTimingsAreRefused() {
    assertEquals(
        "timings",
        assertThrows(
                NullPointerException.class,
                () -> new Exchange(true, 200, SSE, null, false, null, Ending.COMPLETE, null, 1))
            .getMessage());
  }

  @Test
  void okVerdictWithAnErrorIsRefused() {
    assertEquals(
        "error must be null when status is ok, got \"boom\"",
        assertThrows(IllegalArgumentException.class, () -> new Verdict(RequestStatus.OK, "boom"))
            .getMessage());
  }

  @Test
  void failedVerdictWithoutAnErrorIsRefused() {
    assertEquals(
        "error must be a non-blank text when status is timeout, got null",
        assertThrows(IllegalArgumentException.class, () -> new Verdict(RequestStatus.TIMEOUT, null))
            .getMessage());
  }
}
