package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.protocol.TargetWatch.Back;
import io.github.gatlingllm.protocol.TargetWatch.Decision;
import io.github.gatlingllm.protocol.TargetWatch.Down;
import io.github.gatlingllm.protocol.TargetWatch.Kind;
import io.github.gatlingllm.settings.TargetDownSettings;
import java.time.ZoneOffset;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetWatchTest {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private static final String REFUSED = "Connection refused: /127.0.0.1:9";

  /** 2,000 ms, 10 errors; the run started at epoch 0 (00:00:00 UTC). */
  private static TargetWatch watch(boolean stop) {
    return new TargetWatch(new TargetDownSettings(stop, 2_000, 10, 10), 0, ZoneOffset.UTC);
  }

  /** {@code n} connect errors, one every {@code everyMs} from {@code fromMs}; the last change. */
  private static TargetWatch.Change refused(TargetWatch w, int n, long fromMs, long everyMs) {
    TargetWatch.Change last = null;
    for (int i = 0; i < n; i++) {
      TargetWatch.Change c = w.ended(Kind.NO_CONNECTION, REFUSED, fromMs + i * everyMs);
      if (c != null) {
        last = c;
      }
    }
    return last;
  }

  @Test
  void aRefusedConnectionIsEvidence() {
    assertEquals(Kind.NO_CONNECTION, TargetWatch.kind(RequestStatus.CONNECT_ERROR, null));
  }

  @Test
  void aConnectionBrokenAfterTheHeadIsNeither() {
    assertEquals(Kind.NEUTRAL, TargetWatch.kind(RequestStatus.CONNECT_ERROR, 200));
  }

  @Test
  void okHttpErrorsAndRejectionsAreAnswers() {
    assertEquals(Kind.ANSWERED, TargetWatch.kind(RequestStatus.OK, 200));
    assertEquals(Kind.ANSWERED, TargetWatch.kind(RequestStatus.HTTP_ERROR, 400));
    assertEquals(Kind.ANSWERED, TargetWatch.kind(RequestStatus.HTTP_ERROR, 429));
    assertEquals(Kind.ANSWERED, TargetWatch.kind(RequestStatus.HTTP_ERROR, 501));
    assertEquals(Kind.ANSWERED, TargetWatch.kind(RequestStatus.REJECTED, 429));
  }

  @Test
  void aServerErrorIsEvidence() {
    // a crashed engine answers 500, a gateway whose server is gone 502, 503 or 504
    assertEquals(Kind.NO_CONNECTION, TargetWatch.kind(RequestStatus.HTTP_ERROR, 500));
    assertEquals(Kind.NO_CONNECTION, TargetWatch.kind(RequestStatus.HTTP_ERROR, 502));
    assertEquals(Kind.NO_CONNECTION, TargetWatch.kind(RequestStatus.REJECTED, 503));
    assertEquals(Kind.NO_CONNECTION, TargetWatch.kind(RequestStatus.HTTP_ERROR, 504));
  }

  @Test
  void serverErrorsWithAServedRequestBetweenThemAreNoStreak() {
    TargetWatch w = watch(true);
    for (int i = 0; i < 40; i++) {
      // one request in two served: 5% faults or 50%, the target serves
      Kind k = i % 2 == 0 ? Kind.NO_CONNECTION : Kind.ANSWERED;
      assertNull(w.ended(k, "HTTP 500", i * 100L));
    }
    assertEquals(Decision.GO, w.gate());
  }

  @Test
  void timeoutsBrokenStreamsCancelsAndCutsAreNeither() {
    assertEquals(Kind.NEUTRAL, TargetWatch.kind(RequestStatus.TIMEOUT, null));
    assertEquals(Kind.NEUTRAL, TargetWatch.kind(RequestStatus.STREAM_ERROR, 200));
    assertEquals(Kind.NEUTRAL, TargetWatch.kind(RequestStatus.CANCELLED, 200));
    assertEquals(Kind.NEUTRAL, TargetWatch.kind(RequestStatus.CUT_BY_RUN_END, null));
  }

  @Test
  void connectErrorsForTheWholeWindowMakeTheTargetDown() {
    TargetWatch w = watch(true);
    // 11 errors 200 ms apart: the 11th is 2,000 ms after the first
    assertEquals(new Down(1_000, 3_000, 11, REFUSED), refused(w, 11, 1_000, 200));
  }

  @Test
  void connectErrorsShorterThanTheWindowAreAHiccup() {
    TargetWatch w = watch(true);
    assertNull(refused(w, 1_000, 1_000, 1));
    assertEquals(Decision.WAIT, w.gate());
    assertNull(w.ended(Kind.ANSWERED, null, 2_500));
    assertEquals(Decision.GO, w.gate());
    // a streak starts again from the next error
    assertNull(refused(w, 10, 2_600, 100));
    assertNull(w.toRecord(5_000));
  }

  @Test
  void tooFewErrorsOverTheWindowAreNotEnough() {
    TargetWatch w = watch(true);
    assertNull(refused(w, 9, 0, 1_000));
    assertEquals(new Down(0, 9_000, 10, REFUSED), refused(w, 1, 9_000, 0));
  }

  @Test
  void anAnswerInTheWindowStartsTheWindowAgain() {
    TargetWatch w = watch(true);
    assertNull(refused(w, 10, 0, 150));
    assertNull(w.ended(Kind.ANSWERED, null, 1_500));
    assertNull(refused(w, 10, 1_600, 150));
    assertEquals(new Down(1_600, 3_600, 11, REFUSED), refused(w, 1, 3_600, 0));
  }

  @Test
  void timeoutsInTheWindowNeitherJudgeNorClear() {
    TargetWatch w = watch(true);
    assertNull(refused(w, 5, 0, 100));
    for (int i = 0; i < 100; i++) {
      assertNull(w.ended(Kind.NEUTRAL, "timed out", 500 + i * 10));
    }
    assertEquals(new Down(0, 2_000, 10, REFUSED), refused(w, 5, 1_600, 100));
  }

  @Test
  void onlyNeutralEndingsNeverMakeTheTargetDown() {
    TargetWatch w = watch(true);
    for (int i = 0; i < 10_000; i++) {
      assertNull(w.ended(Kind.NEUTRAL, "timed out", i));
    }
    assertEquals(Decision.GO, w.gate());
  }

  @Test
  void downIsSaidOnceAndTheRunStopsOnce() {
    TargetWatch w = watch(true);
    assertEquals(Decision.GO, w.gate());
    refused(w, 11, 0, 200);
    assertNull(refused(w, 100, 2_100, 10));
    assertEquals(Decision.STOP_RUN, w.gate());
    assertEquals(Decision.END_USER, w.gate());
    // an answer after the stop does not bring the run back
    w.ended(Kind.ANSWERED, null, 4_000);
    assertEquals(Decision.END_USER, w.gate());
  }

  @Test
  void withTheStopOffTheTargetComesBackAndUsersWait() {
    TargetWatch w = watch(false);
    refused(w, 11, 0, 200);
    assertEquals(Decision.WAIT_DOWN, w.gate());
    refused(w, 4, 2_100, 100);
    Back back = (Back) w.ended(Kind.ANSWERED, null, 8_000);
    assertEquals(new Back(8_000, new Down(0, 2_000, 11, REFUSED), 15), back);
    assertEquals(Decision.GO, w.gate());
    assertEquals(
        "TARGET BACK at 00:00:08 (8.0 s into the run): a request was answered again 8.0 s after"
            + " the first failure; 15 requests failed to connect or got a server error meanwhile",
        w.backText(back));
  }

  @Test
  void theGatesDecision() {
    assertEquals(Decision.GO, TargetWatch.decide(false, true, false, false));
    assertEquals(Decision.WAIT, TargetWatch.decide(false, true, false, true));
    assertEquals(Decision.STOP_RUN, TargetWatch.decide(true, true, false, true));
    assertEquals(Decision.END_USER, TargetWatch.decide(true, true, true, true));
    assertEquals(Decision.WAIT_DOWN, TargetWatch.decide(true, false, false, true));
    assertEquals(Decision.WAIT_DOWN, TargetWatch.decide(true, false, false, false));
  }

  @Test
  void suspectAfterMinErrorsOnly() {
    TargetWatch w = watch(true);
    refused(w, 9, 0, 1);
    assertEquals(Decision.GO, w.gate());
    refused(w, 1, 10, 0);
    assertEquals(Decision.WAIT, w.gate());
  }

  @Test
  void theDownLineSaysWhenAndWhy() {
    TargetWatch w =
        new TargetWatch(new TargetDownSettings(true, 2_000, 10, 10), 1_000, ZoneOffset.UTC);
    assertEquals(
        "TARGET DOWN at 00:00:18 (17.2 s into the run): 250 requests failed to connect or got a server error over 2.1 s"
            + " since 00:00:16 and none was served (Connection refused: /127.0.0.1:9) - stopping"
            + " the run (llm.stopWhenTargetDown=false keeps it going)",
        w.downText(new Down(16_100, 18_200, 250, REFUSED)));
  }

  @Test
  void theRunsTimeIsCountedFromItsFirstRequest() {
    TargetWatch w = watch(true);
    w.firstSent(5_000);
    w.firstSent(6_000);
    assertEquals(
        "TARGET DOWN at 00:00:08 (3.0 s into the run): 10 requests failed to connect or got a server error over 2.0 s"
            + " since 00:00:06 and none was served - stopping the run"
            + " (llm.stopWhenTargetDown=false keeps it going)",
        w.downText(new Down(6_000, 8_000, 10, null)));
  }

  @Test
  void theDownLineWithTheStopOffSaysTheRunGoesOn() {
    TargetWatch w = watch(false);
    assertEquals(
        "TARGET DOWN at 00:00:02 (2.0 s into the run): 10 requests failed to connect or got a server error over 2.0 s"
            + " since 00:00:00 and none was served - the run goes on"
            + " (llm.stopWhenTargetDown=false)",
        w.downText(new Down(0, 2_000, 10, null)));
  }

  @Test
  void theRecordHoldsTheFirstEpisodeAndEveryFailure() {
    TargetWatch w = watch(false);
    refused(w, 11, 0, 200);
    refused(w, 4, 2_100, 100);
    w.ended(Kind.ANSWERED, null, 8_000);
    refused(w, 21, 9_000, 100);
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("at", "1970-01-01T00:00:02Z");
    expected.put("since", "1970-01-01T00:00:00Z");
    expected.put("after_run_start_s", 2.0);
    expected.put("connect_errors", 11);
    expected.put("error", REFUSED);
    expected.put("stopped", false);
    expected.put("back_at", "1970-01-01T00:00:08Z");
    expected.put("episodes", 2);
    expected.put("failed_requests", 36L);
    expected.put(
        "message",
        "TARGET DOWN at 00:00:02 (2.0 s into the run): 11 requests failed to connect or got a server error over 2.0 s"
            + " since 00:00:00 and none was served (Connection refused: /127.0.0.1:9) - the run"
            + " goes on (llm.stopWhenTargetDown=false)");
    // The block as the file holds it: its keys, order aside, and each value's JSON type.
    assertEquals(expected, JSON.convertValue(w.toRecord(12_000), LinkedHashMap.class));
  }
}
