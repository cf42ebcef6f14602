package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestRecordTest {

  @Test
  void negativeTimeIsRejected() {
    assertEquals(
        "ttft_ms must be a finite number >= 0 or null, got -1.0",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RequestRecord.builder()
                        .request("r")
                        .startMs(0)
                        .ttftMs(-1.0)
                        .status(RequestStatus.OK)
                        .build())
            .getMessage());
  }

  @Test
  void exactFlagWithoutCountIsRejected() {
    assertEquals(
        "prompt_tokens_exact is true but prompt_tokens is null",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RequestRecord.builder()
                        .request("r")
                        .startMs(0)
                        .promptTokensExact(true)
                        .status(RequestStatus.OK)
                        .build())
            .getMessage());
  }

  @Test
  void ofTakesIdentityAndTimingsAndScrubsTheError() {
    RequestTimings t =
        new RequestTimings(
            7,
            1.0,
            2.0,
            List.of(3.0),
            4.0,
            5.0,
            600.0,
            10,
            true,
            0,
            3,
            false,
            "stop",
            StreamOutcome.ERROR_EVENT,
            "x");
    RequestIdentity id = new RequestIdentity("chat", "warmup", 2L, "p", "d", null, null, 100);
    assertEquals(
        RequestRecord.builder()
            .request("chat")
            .phase("warmup")
            .index(2L)
            .promptId("p")
            .digest("d")
            .plannedTokens(100)
            .startMs(7)
            .promptTokens(10)
            .promptTokensExact(true)
            .cachedTokens(0)
            .completionTokens(3)
            .ttftMs(2.0)
            .timeToFirstEventMs(1.0)
            .itlMs(List.of(3.0))
            .tpotMs(4.0)
            .e2eMs(5.0)
            .outputTokensPerS(600.0)
            .finishReason("stop")
            .httpStatus(200)
            .status(RequestStatus.STREAM_ERROR)
            .error("error event via https://***@h/ (Bearer ***)")
            .build(),
        RequestRecord.of(
            id, t, 200, RequestStatus.STREAM_ERROR, "error event via https://u:p@h/ (Bearer abc)"));
  }

  @Test
  void identityOfNameAndPhase() {
    assertEquals(
        new RequestIdentity("chat", "measured", null, null, null, null, null, null),
        RequestIdentity.of("chat", "measured"));
  }
}
