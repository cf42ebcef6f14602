package io.github.gatlingllm.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.record.SessionSummary;
import java.util.List;
import org.junit.jupiter.api.Test;

class SessionAggregatorMergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static SessionResult session(
      SessionEnd end,
      int requests,
      long startMs,
      long durationMs,
      long promptTokens,
      Double planned,
      Double observed) {
    return new SessionResult(
        end, requests, requests - 1, 0, startMs, durationMs, promptTokens, 20L, planned, observed);
  }

  private static SessionAggregator shardA() {
    SessionAggregator a = new SessionAggregator();
    a.add(session(SessionEnd.COMPLETED, 2, 1_000, 100, 1000, 0.5, 0.25));
    a.add(session(SessionEnd.COMPLETED, 3, 1_100, 200, 3000, 0.75, 0.5));
    return a;
  }

  private static SessionAggregator shardB() {
    SessionAggregator b = new SessionAggregator();
    b.add(session(SessionEnd.LOOP_LIMIT, 5, 1_050, 300, 2000, 0.5, null));
    b.add(session(SessionEnd.ERROR, 1, 2_000, 1900, 4000, 0.0, 0.0));
    return b;
  }

  private static SessionAggregator all() {
    SessionAggregator all = new SessionAggregator();
    all.add(session(SessionEnd.COMPLETED, 2, 1_000, 100, 1000, 0.5, 0.25));
    all.add(session(SessionEnd.COMPLETED, 3, 1_100, 200, 3000, 0.75, 0.5));
    all.add(session(SessionEnd.LOOP_LIMIT, 5, 1_050, 300, 2000, 0.5, null));
    all.add(session(SessionEnd.ERROR, 1, 2_000, 1900, 4000, 0.0, 0.0));
    return all;
  }

  /** Written to llm-run.json and read back by Jackson, as a merge of folders does. */
  private static SessionSummary reread(SessionSummary block) throws Exception {
    return JSON.readValue(JSON.writeValueAsString(block), SessionSummary.class);
  }

  private static SessionSummary merged() throws Exception {
    return SessionSummary.merge(List.of(reread(shardA().toRecord()), reread(shardB().toRecord())));
  }

  @Test
  void twoShardsMergedFromTheirRecordsAreTheOneRunOfAllSessions() throws Exception {
    // A histogram's bytes hold its range as well, which a resize may have set otherwise.
    assertEquals(all().summary(), merged().withoutState());
  }

  @Test
  void aMergedRecordMergesAgain() throws Exception {
    assertEquals(all().summary(), SessionSummary.merge(List.of(reread(merged()))).withoutState());
  }

  @Test
  void mergedPercentilesComeFromTheHistogramsNotAveraged() throws Exception {
    // 100, 200 | 300, 1900: the shards' p90s averaged would be 1050
    assertEquals(
        new SessionSummary.Spread(4L, 625.0, 200L, 1900L, 1900L, 1900L), merged().durationMs());
  }

  @Test
  void mergedOverallCacheRatioIsSummedCachedOverSummedPromptTokens() throws Exception {
    SessionSummary.CacheHitRatio cache = merged().cacheHitRatio();

    // planned: (500 + 2250 + 1000 + 0) / (1000 + 3000 + 2000 + 4000)
    assertEquals(10_000L, cache.planned().promptTokens());
    assertEquals(3_750L, cache.planned().cachedTokens());
    assertEquals(0.375, cache.planned().overall());
    // observed: shard B's loop-limit session reported none: (250 + 1500 + 0) / (1000 + 3000 + 4000)
    assertEquals(8_000L, cache.observed().promptTokens());
    assertEquals(1_750L, cache.observed().cachedTokens());
    assertEquals(0.219, cache.observed().overall());
  }

  @Test
  void mergedSessionsPerHourSpanTheUnionOfTheWindows() throws Exception {
    // 3 sessions not in error over 1,000 ms .. 3,900 ms
    assertEquals(3724.138, merged().sessionsPerHour());
  }

  @Test
  void anEmptyPhaseMergesToNothing() throws Exception {
    SessionSummary empty = reread(new SessionAggregator().toRecord());

    assertEquals(
        new SessionAggregator().summary(),
        SessionSummary.merge(List.of(empty, empty)).withoutState());
  }

  @Test
  void aBlockWithoutMergeStateIsRefusedNamingIt() throws Exception {
    SessionSummary block = reread(shardA().toRecord()).withoutState();

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SessionSummary.merge(List.of(block)));
    assertEquals("sessions: expected an object at merge_state, got null", e.getMessage());
  }
}
