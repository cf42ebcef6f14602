package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import org.junit.jupiter.api.Test;

class ServerHistoryTest {

  /** The record's error of llama.cpp's answer (b11669). */
  private static final String LLAMA =
      "HTTP 400: invalid_request_error (400): llama.cpp does not support 'previous_response_id'.";

  private static RequestRecord record(Integer http, RequestStatus status, String error) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .httpStatus(http)
        .status(status)
        .error(error)
        .build();
  }

  @Test
  void aFirstTurnRefusedWithA4xxIsTheServersRefusal() {
    ServerHistory history = new ServerHistory(true);
    history.ended(record(400, RequestStatus.HTTP_ERROR, LLAMA));
    assertEquals(
        "llm.responses.history=server: the server refused previous_response_id on its first use"
            + " (HTTP 400: invalid_request_error (400): llama.cpp does not support"
            + " 'previous_response_id'.), so it keeps no conversation history for later turns: set"
            + " llm.responses.history=client (the default) to send each turn's whole history",
        history.refusal());
  }

  @Test
  void anErrorWithoutTheStatusIsGivenIt() {
    ServerHistory history = new ServerHistory(true);
    history.ended(record(404, RequestStatus.HTTP_ERROR, "Not Found"));
    assertEquals(
        "llm.responses.history=server: the server refused previous_response_id on its first use"
            + " (HTTP 404: Not Found), so it keeps no conversation history for later turns: set"
            + " llm.responses.history=client (the default) to send each turn's whole history",
        history.refusal());
  }

  @Test
  void aLater4xxAfterOneAnsweredTurnIsNoRefusal() {
    ServerHistory history = new ServerHistory(true);
    history.ended(record(200, RequestStatus.OK, null));
    history.ended(record(400, RequestStatus.HTTP_ERROR, "Previous response not found."));
    assertNull(history.refusal());
  }

  @Test
  void aServerErrorIsNoRefusal() {
    ServerHistory history = new ServerHistory(true);
    history.ended(record(503, RequestStatus.HTTP_ERROR, "overloaded"));
    assertNull(history.refusal());
  }

  @Test
  void aRateLimitIsNoRefusal() {
    ServerHistory history = new ServerHistory(true);
    history.ended(record(429, RequestStatus.REJECTED, "rate limited"));
    assertNull(history.refusal());
  }

  @Test
  void aStreamErrorIsNoRefusal() {
    ServerHistory history = new ServerHistory(true);
    history.ended(record(200, RequestStatus.STREAM_ERROR, "error event"));
    assertNull(history.refusal());
  }
}
