package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.prompt.TraceBlocks;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceReplayTest {

  @TempDir Path dir;

  private TraceReplay replay(double scale, String... lines) throws IOException {
    Path p = dir.resolve("t.jsonl");
    Files.write(p, List.of(lines));
    Trace t = Trace.read(p, 4);
    return new TraceReplay(t, new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 4), scale, "c");
  }

  private static String row(long ts, int input, String ids) {
    return "{\"timestamp\": "
        + ts
        + ", \"input_length\": "
        + input
        + ", \"output_length\": 3, \"hash_ids\": "
        + ids
        + "}";
  }

  @Test
  void rowsAreDueFromTheFirstTimestampDividedByTheTimeScale() throws IOException {
    TraceReplay r = replay(2.0, row(1000, 4, "[1]"), row(1500, 4, "[2]"), row(4000, 4, "[3]"));

    assertEquals(0, r.dueNanos(0));
    assertEquals(250_000_000L, r.dueNanos(1));
    assertEquals(1_500_000_000L, r.dueNanos(2));
  }

  @Test
  void arrivalWindowsStartEachRowNoLaterThanItIsDue() throws IOException {
    TraceReplay r =
        replay(1.0, row(0, 4, "[1]"), row(300, 4, "[2]"), row(1200, 4, "[3]"), row(3100, 4, "[4]"));

    // Each user starts at least 250 ms before its row is due (but not before the start).
    List<long[]> w = r.arrivalWindows(Shard.SINGLE);
    assertEquals(2, w.size());
    assertArrayEquals(new long[] {0, 3}, w.get(0));
    assertArrayEquals(new long[] {2000, 1}, w.get(1));
  }

  @Test
  void aShardStartsItsOwnRowsOnly() throws IOException {
    TraceReplay r =
        replay(1.0, row(0, 4, "[1]"), row(300, 4, "[2]"), row(1200, 4, "[3]"), row(3100, 4, "[4]"));

    List<long[]> w = r.arrivalWindows(new Shard(1, 2));
    assertEquals(2, w.size());
    assertArrayEquals(new long[] {0, 1}, w.get(0));
    assertArrayEquals(new long[] {2000, 1}, w.get(1));
  }

  @Test
  void theRecordSaysTheLengthsTheRowsAsk() throws IOException {
    Path p = dir.resolve("lengths.jsonl");
    Files.write(
        p,
        List.of(
            "{\"timestamp\": 0, \"input_length\": 6, \"output_length\": 8, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 5, \"input_length\": 3, \"output_length\": 2, \"hash_ids\": [3]}",
            "{\"timestamp\": 9, \"input_length\": 4, \"output_length\": 5, \"hash_ids\": [1]}"));
    TraceReplay r =
        new TraceReplay(
            Trace.read(p, 4), new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 4), 1.0, "c");

    Map<String, Object> record = r.toRecord(3, Shard.SINGLE, null);
    assertEquals(3, record.get("input_length_min"));
    assertEquals(6, record.get("input_length_max"));
    assertEquals(2, record.get("output_length_min"));
    assertEquals(8, record.get("output_length_max"));
  }

  @Test
  void sentBeforeCountsLeadingBlocksOnly() throws IOException {
    TraceReplay r = replay(1.0, row(0, 4, "[1]"));

    assertEquals(0, r.tokens(r.send(new long[] {1, 2, 3}).sentLead(), 3, 10));
    assertEquals(8, r.tokens(r.send(new long[] {1, 2, 9}).sentLead(), 3, 12));
    assertEquals(0, r.tokens(r.send(new long[] {5, 1, 2}).sentLead(), 3, 12));
    assertEquals(11, r.tokens(r.send(new long[] {1, 2, 9}).sentLead(), 3, 11));
    assertEquals(4, r.requestsSent());
  }

  @Test
  void blocksSentByARowStillInPrefillAreSentButNotReady() throws IOException {
    TraceReplay r = replay(1.0, row(0, 4, "[1]"));
    // row A sends blocks 1, 2, 3 at once; row B shares 1, 2 before A's first token
    PrefixLedger.Ticket a = r.send(new long[] {1, 2, 3});
    PrefixLedger.Ticket b = r.send(new long[] {1, 2, 7});
    assertEquals(2, b.sentLead());
    assertEquals(0, b.readyLead());
    // A's first token: its blocks are ready for row C, sent after it
    a.prefillEnded();
    PrefixLedger.Ticket c = r.send(new long[] {1, 2, 3, 8});
    assertEquals(3, c.sentLead());
    assertEquals(3, c.readyLead());
    // B's block 7 is still in prefill for row D
    PrefixLedger.Ticket d = r.send(new long[] {1, 2, 7});
    assertEquals(3, d.sentLead());
    assertEquals(2, d.readyLead());
    assertEquals(8, r.tokens(d.readyLead(), 3, 10));
    assertEquals(10, r.tokens(d.sentLead(), 3, 10));
  }

  @Test
  void theWarmPrefixIsWhatAnyOtherRowShares() throws IOException {
    TraceReplay r =
        replay(
            1.0,
            row(0, 12, "[1, 2, 3]"),
            row(1, 8, "[1, 2]"),
            row(2, 6, "[5, 1]"),
            row(3, 10, "[1, 2, 4]"));

    // Row 1's ids are all in other rows (a later one included): all of its 8 tokens.
    assertEquals(8, r.warmPrefixTokens(0));
    assertEquals(8, r.warmPrefixTokens(1));
    assertEquals(0, r.warmPrefixTokens(2));
    assertEquals(8, r.warmPrefixTokens(3));
  }

  @Test
  void aWorkloadHandsOutEachRowOnceWithItsKeys() throws IOException {
    TraceReplay r = replay(1.0, row(0, 6, "[1, 2]"), row(10, 3, "[1]"));
    Workload w = new Workload("trace", r, Shard.SINGLE);
    try {
      Map<String, Object> first = w.next();
      Map<String, Object> second = w.next();
      Map<String, Object> done = w.next();

      assertEquals(0, first.get(TraceReplay.ROW));
      assertEquals(1, second.get(TraceReplay.ROW));
      assertEquals(3, first.get(TraceReplay.OUTPUT_TOKENS));
      assertEquals(6, first.get(PromptFeeder.PLANNED_TOKENS));
      assertEquals(10_000_000L, second.get(TraceReplay.DUE_NANOS));
      assertArrayEquals(new long[] {1, 2}, (long[]) first.get(TraceReplay.HASH_IDS));
      assertEquals(true, done.get(PromptFeeder.DONE));
      assertEquals(2, w.measured().handedOut());
    } finally {
      w.close();
    }
  }

  @Test
  void aTimeScaleThatStretchesTheReplayPastThirtyDaysIsRefused() throws IOException {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> replay(1e-300, row(0, 4, "[1]"), row(30_000, 4, "[2]")));

    assertEquals(
        "llm.trace.timeScale: got 1.0E-300, but the trace's 30000 ms from its first to its last"
            + " timestamp (line 2) would take 3.0E304 ms to replay; expected a replay of at most"
            + " 2592000000 ms (30 days): a larger llm.trace.timeScale, or timestamps in"
            + " milliseconds",
        e.getMessage());
  }

  @Test
  void timestampsYearsApartAreRefused() throws IOException {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> replay(1.0, row(0, 4, "[1]"), row(1_000_000_000_000_000L, 4, "[2]")));

    assertEquals(
        "llm.trace.timeScale: got 1.0, but the trace's 1000000000000000 ms from its first to its"
            + " last timestamp (line 2) would take 1.0E15 ms to replay; expected a replay of at"
            + " most 2592000000 ms (30 days): a larger llm.trace.timeScale, or timestamps in"
            + " milliseconds",
        e.getMessage());
  }
}
