package io.github.gatlingllm.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
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

  /** Written to llm-run.json and read back by Jackson, as a merge of folders does. */
  @SuppressWarnings("unchecked")
  private static Map<String, Object> reread(SessionAggregator a) throws Exception {
    return JSON.readValue(JSON.writeValueAsString(a.toRecord()), LinkedHashMap.class);
  }

  @Test
  void twoShardsMergedFromTheirRecordsAreTheOneRunOfAllSessions() throws Exception {
    SessionAggregator all = shardA();
    all.merge(shardB());
    SessionAggregator merged = SessionAggregator.fromRecord(reread(shardA()));
    merged.merge(SessionAggregator.fromRecord(reread(shardB())));

    assertEquals(all.summary(), merged.summary());
    Map<String, Object> expected = all.toRecord();
    Map<String, Object> got = merged.toRecord();
    // A histogram's bytes hold its range as well, which a resize may have set otherwise.
    expected.remove("merge_state");
    got.remove("merge_state");
    assertEquals(expected, got);
  }

  @Test
  void aMergedRecordMergesAgain() throws Exception {
    SessionAggregator all = shardA();
    all.merge(shardB());
    SessionAggregator merged = SessionAggregator.fromRecord(reread(shardA()));
    merged.merge(SessionAggregator.fromRecord(reread(shardB())));

    assertEquals(all.summary(), SessionAggregator.fromRecord(reread(merged)).summary());
  }

  @Test
  void mergedPercentilesComeFromTheHistogramsNotAveraged() throws Exception {
    SessionAggregator merged = SessionAggregator.fromRecord(reread(shardA()));
    merged.merge(SessionAggregator.fromRecord(reread(shardB())));

    assertEquals(
        new SessionSummary.Spread(4, 625.0, 200L, 1900L, 1900L, 1900L),
        merged.summary().durationMs());
  }

  @Test
  void mergedOverallCacheRatioIsSummedCachedOverSummedPromptTokens() throws Exception {
    SessionAggregator merged = SessionAggregator.fromRecord(reread(shardA()));
    merged.merge(SessionAggregator.fromRecord(reread(shardB())));
    Map<?, ?> cache = (Map<?, ?>) merged.toRecord().get("cache_hit_ratio");

    // planned: (500 + 2250 + 1000 + 0) / (1000 + 3000 + 2000 + 4000)
    assertEquals(10_000L, ((Map<?, ?>) cache.get("planned")).get("prompt_tokens"));
    assertEquals(3_750L, ((Map<?, ?>) cache.get("planned")).get("cached_tokens"));
    assertEquals(0.375, ((Map<?, ?>) cache.get("planned")).get("overall"));
    // observed: shard B's loop-limit session reported none: (250 + 1500 + 0) / (1000 + 3000 + 4000)
    assertEquals(8_000L, ((Map<?, ?>) cache.get("observed")).get("prompt_tokens"));
    assertEquals(1_750L, ((Map<?, ?>) cache.get("observed")).get("cached_tokens"));
    assertEquals(0.219, ((Map<?, ?>) cache.get("observed")).get("overall"));
  }

  @Test
  void mergedSessionsPerHourSpanTheUnionOfTheWindows() throws Exception {
    SessionAggregator merged = SessionAggregator.fromRecord(reread(shardA()));
    merged.merge(SessionAggregator.fromRecord(reread(shardB())));

    // 3 sessions not in error over 1,000 ms .. 3,900 ms
    assertEquals(3724.138, merged.summary().sessionsPerHour());
  }

  @Test
  void anEmptyPhaseMergesToNothing() throws Exception {
    SessionAggregator merged = SessionAggregator.fromRecord(reread(new SessionAggregator()));
    merged.merge(SessionAggregator.fromRecord(reread(new SessionAggregator())));

    assertEquals(new SessionAggregator().summary(), merged.summary());
  }

  @Test
  void aBlockWithoutMergeStateIsRefusedNamingIt() throws Exception {
    Map<String, Object> block = reread(shardA());
    block.remove("merge_state");

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> SessionAggregator.fromRecord(block));
    assertEquals("sessions: expected an object at merge_state, got null", e.getMessage());
  }
}
