package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import org.junit.jupiter.api.Test;

class RequestStatusTest {

  private static final String SSE = "text/event-stream";

  @Test
  void wireNames() {
    assertEquals(
        "ok, http_error, rejected, timeout, stream_error, connect_error, cut_by_run_end,"
            + " cancelled",
        RequestStatus.allowed());
  }

  @Test
  void fromWireName() {
    assertEquals(RequestStatus.STREAM_ERROR, RequestStatus.fromWireName("stream_error"));
  }

  @Test
  void unknownWireNameIsRejected() {
    assertEquals(
        "request status must be one of ok, http_error, rejected, timeout, stream_error,"
            + " connect_error, cut_by_run_end, cancelled, got \"OK\"",
        assertThrows(IllegalArgumentException.class, () -> RequestStatus.fromWireName("OK"))
            .getMessage());
  }

  @Test
  void completeStreamIsOk() {
    assertEquals(
        RequestStatus.OK,
        RequestStatus.classify(
            200, "text/event-stream; charset=utf-8", true, false, false, StreamOutcome.COMPLETE));
  }

  @Test
  void connectFailureWinsOverEverything() {
    assertEquals(
        RequestStatus.CONNECT_ERROR, RequestStatus.classify(null, null, true, true, true, null));
  }

  @Test
  void noStatusIsAConnectError() {
    assertEquals(
        RequestStatus.CONNECT_ERROR,
        RequestStatus.classify(null, null, true, false, false, StreamOutcome.NO_DONE));
  }

  @Test
  void timeoutWinsOverAPartialStream() {
    assertEquals(
        RequestStatus.TIMEOUT,
        RequestStatus.classify(200, SSE, true, false, true, StreamOutcome.NO_DONE));
  }

  @Test
  void tooManyRequestsIsRejected() {
    assertEquals(
        RequestStatus.REJECTED,
        RequestStatus.classify(429, "application/json", true, false, false, null));
  }

  @Test
  void serviceUnavailableIsRejected() {
    assertEquals(
        RequestStatus.REJECTED, RequestStatus.classify(503, null, false, false, false, null));
  }

  @Test
  void badRequestIsAnHttpError() {
    assertEquals(
        RequestStatus.HTTP_ERROR,
        RequestStatus.classify(400, "application/json", true, false, false, null));
  }

  @Test
  void serverErrorIsAnHttpError() {
    assertEquals(
        RequestStatus.HTTP_ERROR, RequestStatus.classify(500, null, true, false, false, null));
  }

  @Test
  void jsonAnswerToAStreamingRequestIsAStreamError() {
    assertEquals(
        RequestStatus.STREAM_ERROR,
        RequestStatus.classify(
            200, "application/json", true, false, false, StreamOutcome.COMPLETE));
  }

  @Test
  void jsonAnswerToANonStreamingRequestIsOk() {
    assertEquals(
        RequestStatus.OK,
        RequestStatus.classify(
            200, "application/json", false, false, false, StreamOutcome.COMPLETE));
  }

  @Test
  void unknownContentTypeIsNotChecked() {
    assertEquals(
        RequestStatus.OK,
        RequestStatus.classify(200, null, true, false, false, StreamOutcome.COMPLETE));
  }

  @Test
  void errorEventIsAStreamError() {
    assertEquals(
        RequestStatus.STREAM_ERROR,
        RequestStatus.classify(200, SSE, true, false, false, StreamOutcome.ERROR_EVENT));
  }

  @Test
  void malformedDataIsAStreamError() {
    assertEquals(
        RequestStatus.STREAM_ERROR,
        RequestStatus.classify(200, SSE, true, false, false, StreamOutcome.MALFORMED));
  }

  @Test
  void missingDoneIsAStreamError() {
    assertEquals(
        RequestStatus.STREAM_ERROR,
        RequestStatus.classify(200, SSE, true, false, false, StreamOutcome.NO_DONE));
  }
}
