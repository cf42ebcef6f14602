package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

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
                    new RequestRecord(
                        "r",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        0,
                        null,
                        false,
                        null,
                        null,
                        false,
                        -1.0,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        RequestStatus.OK,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null))
            .getMessage());
  }

  @Test
  void exactFlagWithoutCountIsRejected() {
    assertEquals(
        "prompt_tokens_exact is true but prompt_tokens is null",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    new RequestRecord(
                        "r",
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        0,
                        null,
                        true,
                        null,
                        null,
                        false,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        RequestStatus.OK,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null,
                        null))
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
        new RequestRecord(
            "chat",
            "warmup",
            2L,
            "p",
            "d",
            null,
            null,
            100,
            7,
            10,
            true,
            0,
            3,
            false,
            2.0,
            1.0,
            List.of(3.0),
            4.0,
            5.0,
            600.0,
            "stop",
            200,
            RequestStatus.STREAM_ERROR,
            "error event via https://***@h/ (Bearer ***)",
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null),
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
