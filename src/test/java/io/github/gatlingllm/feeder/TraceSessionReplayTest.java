package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.prompt.TraceBlocks;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The replay of trace sessions: a later row waits for its session's previous row (issue 32). */
class TraceSessionReplayTest {

  @TempDir Path dir;

  private TraceReplay replay(double scale, String... lines) throws IOException {
    Path p = dir.resolve("t.jsonl");
    Files.write(p, List.of(lines));
    return new TraceReplay(
        Trace.read(p, 4), new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 4), scale, "c");
  }

  private static String row(String extra) {
    return "{" + extra + "\"input_length\": 4, \"output_length\": 2, \"hash_ids\": [1]}";
  }

  @Test
  void aRowIsDueAtItsDelayAfterThePreviousRowEndedWhenThatIsLater() {
    assertEquals(1_700L, TraceReplay.sessionDueNanos(1_000L, 1_200L, 500L));
  }

  @Test
  void aRowIsDueAtItsTimestampWhenThatIsLater() {
    assertEquals(2_000L, TraceReplay.sessionDueNanos(2_000L, 1_200L, 500L));
  }

  @Test
  void aRowWithoutDelayIsDueWhenThePreviousRowEnded() {
    assertEquals(1_200L, TraceReplay.sessionDueNanos(1_000L, 1_200L, 0L));
  }

  @Test
  void theRuleHoldsAcrossTheNanoTimeWrap() {
    assertEquals(
        Long.MIN_VALUE + 9L,
        TraceReplay.sessionDueNanos(Long.MAX_VALUE - 10L, Long.MAX_VALUE, 10L));
  }

  @Test
  void theDelayIsScaledLikeTheTimestamps() throws IOException {
    TraceReplay r =
        replay(
            2.0,
            row("\"session_id\": \"a\", \"timestamp\": 0, "),
            row("\"session_id\": \"a\", \"delay\": 500, "),
            row("\"session_id\": \"a\", "));
    assertEquals(250_000_000L, r.delayNanos(1));
    assertEquals(0L, r.delayNanos(2));
  }

  @Test
  void rowsWithoutSessionAndFirstRowsWaitForNothing() throws IOException {
    TraceReplay r =
        replay(
            1.0,
            row("\"timestamp\": 0, "),
            row("\"session_id\": \"a\", \"timestamp\": 10, "),
            row("\"timestamp\": 20, \"delay\": 30, "));
    List<Long> resumed = new ArrayList<>();
    assertFalse(r.afterPrevious(0, Shard.SINGLE, resumed::add));
    assertFalse(r.afterPrevious(1, Shard.SINGLE, resumed::add));
    assertFalse(r.afterPrevious(2, Shard.SINGLE, resumed::add));
    assertEquals(List.of(), resumed);
  }

  @Test
  void aLaterRowResumesWhenItsPreviousRowEndsPlusItsDelay() throws IOException {
    TraceReplay r =
        replay(
            1.0,
            row("\"session_id\": \"a\", \"timestamp\": 0, "),
            row("\"session_id\": \"b\", \"timestamp\": 10, "),
            row("\"session_id\": \"a\", \"delay\": 500, "));
    List<Long> resumed = new ArrayList<>();
    assertTrue(r.afterPrevious(2, Shard.SINGLE, resumed::add));
    r.rowEnded(1, 7_000_000L); // another session's row: not this one's previous
    assertEquals(List.of(), resumed);
    r.rowEnded(0, 9_000_000L);
    assertEquals(List.of(509_000_000L), resumed);
    r.rowEnded(0, 12_000_000L); // a second ending of one row: counted once
    assertEquals(List.of(509_000_000L), resumed);
  }

  @Test
  void aLaterRowWhosePreviousRowEndedAlreadyResumesAtOnce() throws IOException {
    TraceReplay r =
        replay(
            1.0,
            row("\"session_id\": 7, \"timestamp\": 0, "),
            row("\"session_id\": 7, \"delay\": 40, "),
            row("\"session_id\": 7, \"delay\": 5, "));
    List<Long> resumed = new ArrayList<>();
    r.rowEnded(0, 1_000L);
    assertTrue(r.afterPrevious(1, Shard.SINGLE, resumed::add));
    assertEquals(List.of(40_001_000L), resumed);
    assertTrue(r.afterPrevious(2, Shard.SINGLE, resumed::add));
    r.rowEnded(1, 50_000_000L);
    assertEquals(List.of(40_001_000L, 55_000_000L), resumed);
  }

  @Test
  void aRowWhosePreviousRowIsAnotherShardsGoesAtItsTimestamp() throws IOException {
    TraceReplay r =
        replay(
            1.0,
            row("\"session_id\": \"a\", \"timestamp\": 0, "),
            row("\"session_id\": \"a\", \"delay\": 500, "),
            row("\"session_id\": \"a\", \"delay\": 500, "));
    List<Long> resumed = new ArrayList<>();
    // shard 1/2 sends row 1; row 0 is shard 0's
    assertFalse(r.afterPrevious(1, new Shard(1, 2), resumed::add));
    // shard 0/2 sends rows 0 and 2, but row 2's previous row (1) is shard 1's
    assertFalse(r.afterPrevious(2, new Shard(0, 2), resumed::add));
    assertEquals(List.of(), resumed);
  }

  @Test
  void eachUserStartsByTheEarliestDueTimeOfItsRowAndTheRowsAfterIt() throws IOException {
    TraceReplay r =
        replay(
            1.0,
            row("\"session_id\": \"a\", \"timestamp\": 0, "),
            row("\"session_id\": \"b\", \"timestamp\": 3000, "),
            row("\"session_id\": \"a\", \"delay\": 2000, "),
            row("\"session_id\": \"c\", \"timestamp\": 5000, "));
    // Row 2 is due at 2000 ms: the second user (row 1's, due at 3000) starts by then.
    List<long[]> w = r.arrivalWindows(Shard.SINGLE);
    assertEquals(
        List.of(List.of(0L, 1L), List.of(1000L, 2L), List.of(4000L, 1L)),
        w.stream().map(x -> List.of(x[0], x[1])).toList());
  }
}
