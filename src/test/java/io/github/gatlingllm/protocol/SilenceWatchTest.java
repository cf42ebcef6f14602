package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.protocol.SilenceWatch.Change;
import io.github.gatlingllm.protocol.SilenceWatch.Silent;
import io.github.gatlingllm.protocol.SilenceWatch.Spoke;
import io.github.gatlingllm.record.TargetSilent;
import java.time.ZoneOffset;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The silence of a target (issue 40, item 5), on literal clocks: {@code nanoTime} 0 is epoch 0
 * (00:00:00 UTC), the run's first request went at 1 s, checks every 250 ms.
 */
class SilenceWatchTest {
  private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
      new com.fasterxml.jackson.databind.ObjectMapper();

  private static final long S = 1_000_000_000L;
  private static final long TICK = 250_000_000L;

  private static SilenceWatch watch(int silentSeconds, boolean stop) {
    return new SilenceWatch(silentSeconds, stop, 0, 0, () -> 1_000, ZoneOffset.UTC);
  }

  /** Checks from {@code fromNanos} (exclusive) to {@code toNanos} (inclusive); the changes. */
  private static List<Change> ticks(SilenceWatch w, long fromNanos, long toNanos, int inFlight) {
    List<Change> changes = new ArrayList<>();
    for (long t = fromNanos + TICK; t <= toNanos; t += TICK) {
      Change c = w.tick(t, inFlight);
      if (c != null) {
        changes.add(c);
      }
    }
    return changes;
  }

  @Test
  void noByteForTheBoundWithRequestsInFlightIsSaidOnce() {
    SilenceWatch w = watch(10, true);
    w.tick(0, 4);
    w.arrived(1 * S);
    // within a millisecond of the stamp: the stamp stays
    w.arrived(1 * S + 500_000);
    List<Change> changes = ticks(w, 1 * S, 30 * S, 4);
    assertEquals(List.of(new Silent(1 * S, 11 * S, 4)), changes);
  }

  @Test
  void aByteEndsTheEpisode() {
    SilenceWatch w = watch(10, true);
    w.tick(0, 4);
    w.arrived(1 * S);
    ticks(w, 1 * S, 11 * S, 4);
    assertEquals(List.of(), ticks(w, 11 * S, 13 * S, 4));
    w.arrived(13 * S);
    assertEquals(
        List.of(new Spoke(new Silent(1 * S, 11 * S, 4), 13 * S)), ticks(w, 13 * S, 14 * S, 4));
  }

  @Test
  void timeWithNothingInFlightIsNotSilence() {
    // an open loop's gap of 29 s after the last answer, then a request the target never answers
    SilenceWatch w = watch(10, true);
    w.tick(0, 1);
    w.arrived(1 * S);
    assertEquals(List.of(), ticks(w, 1 * S, 30 * S, 0));
    assertEquals(List.of(new Silent(30 * S, 40 * S, 1)), ticks(w, 30 * S, 45 * S, 1));
  }

  @Test
  void aSlowFirstTokenUnderTheBoundIsNotSilence() {
    // one request at a time, each 9.75 s to its first byte (a long prefill), then 1 s of tokens
    SilenceWatch w = watch(10, true);
    w.tick(0, 1);
    List<Change> changes = new ArrayList<>();
    long t = 0;
    for (int request = 0; request < 6; request++) {
      for (int i = 0; i < 39; i++) {
        t += TICK;
        changes.add(w.tick(t, 1));
      }
      for (int i = 0; i < 4; i++) {
        t += TICK;
        w.arrived(t);
        changes.add(w.tick(t, 1));
      }
    }
    assertEquals(258, changes.size());
    assertEquals(java.util.Collections.nCopies(258, null), changes);
  }

  @Test
  void requestsThatTimeOutAndAreReplacedKeepTheSilenceGoing() {
    // 6 s in flight, a check with none (every request timed out), then their replacements
    SilenceWatch w = watch(10, true);
    w.tick(0, 8);
    assertEquals(List.of(), ticks(w, 0, 6 * S, 8));
    assertNull(w.tick(6 * S + TICK, 0));
    // 10 s in flight counted (the check with none left out): said at 10.25 s
    assertEquals(List.of(new Silent(TICK, 10 * S + TICK, 8)), ticks(w, 6 * S + TICK, 12 * S, 8));
  }

  @Test
  void zeroSecondsNeverSaysIt() {
    SilenceWatch w = watch(0, true);
    w.tick(0, 4);
    assertEquals(List.of(), ticks(w, 0, 120 * S, 4));
    assertNull(w.toRecord(120 * S));
  }

  @Test
  void theLineSaysWhenForHowLongAndHowManyAndThatTheRunStops() {
    SilenceWatch w = watch(10, true);
    assertEquals(
        "TARGET SILENT at 00:00:11 (10.0 s into the run): no byte from the target for 10.0 s"
            + " (since 00:00:01) with 4 requests in flight - stopping the run"
            + " (llm.stopWhenTargetDown=false keeps it going; llm.silentSeconds=10)",
        w.silentText(new Silent(1 * S, 11 * S, 4)));
  }

  @Test
  void withTheStopOffTheLineSaysTheRunGoesOnAndTheEndIsSaid() {
    SilenceWatch w = watch(5, false);
    Silent silent = new Silent(2 * S, 7 * S + 2 * TICK, 1);
    assertEquals(
        "TARGET SILENT at 00:00:07 (6.5 s into the run): no byte from the target for 5.5 s"
            + " (since 00:00:02) with 1 request in flight - the run goes on"
            + " (llm.stopWhenTargetDown=false; llm.silentSeconds=5)",
        w.silentText(silent));
    assertEquals(
        "TARGET SILENT ENDED at 00:00:12 (11.0 s into the run): a byte came again after 10.0 s of"
            + " silence",
        w.spokeText(new Spoke(silent, 12 * S)));
  }

  @Test
  void theRecordHoldsEachEpisode() {
    SilenceWatch w = watch(10, false);
    w.tick(0, 4);
    w.arrived(1 * S);
    ticks(w, 1 * S, 11 * S, 4);
    ticks(w, 11 * S, 13 * S, 4);
    w.arrived(13 * S);
    ticks(w, 13 * S, 30 * S, 2);
    Map<String, Object> first = new LinkedHashMap<>();
    first.put("since", "1970-01-01T00:00:01Z");
    first.put("at", "1970-01-01T00:00:11Z");
    first.put("after_run_start_s", 10.0);
    first.put("silent_s", 12.0);
    first.put("in_flight", 4);
    first.put("ended", "bytes");
    Map<String, Object> second = new LinkedHashMap<>();
    second.put("since", "1970-01-01T00:00:13Z");
    second.put("at", "1970-01-01T00:00:23Z");
    second.put("after_run_start_s", 22.0);
    second.put("silent_s", 19.5);
    second.put("in_flight", 2);
    second.put("ended", "run_end");
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("silent_seconds", 10);
    expected.put("stopped", false);
    expected.put("episode_count", 2);
    expected.put("episodes", List.of(first, second));
    expected.put(
        "message",
        "TARGET SILENT at 00:00:11 (10.0 s into the run): no byte from the target for 10.0 s"
            + " (since 00:00:01) with 4 requests in flight - the run goes on"
            + " (llm.stopWhenTargetDown=false; llm.silentSeconds=10)");
    // The block as the file holds it: its keys, order aside, and each value's JSON type.
    assertEquals(expected, JSON.convertValue(w.toRecord(32 * S + 2 * TICK), LinkedHashMap.class));
  }

  @Test
  void aTargetNeverSilentHasNoRecord() {
    SilenceWatch w = watch(10, true);
    w.tick(0, 4);
    for (long t = TICK; t < 60 * S; t += TICK) {
      w.arrived(t - 1_000);
      assertNull(w.tick(t, 4));
    }
    assertNull(w.toRecord(60 * S));
  }

  @Test
  void theStopIsInTheRecord() {
    SilenceWatch w = watch(2, true);
    w.tick(0, 3);
    ticks(w, 0, 3 * S, 3);
    w.stopping();
    assertEquals(true, w.toRecord(3 * S).stopped());
    assertEquals(
        List.of(
            new TargetSilent.Episode(
                "1970-01-01T00:00:00Z", "1970-01-01T00:00:02Z", 1.0, 3.0, 3, "run_end")),
        w.toRecord(3 * S).episodes());
  }
}
