package io.github.gatlingllm.session;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.SessionSummary;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SessionAggregatorTest {

  private static RequestRecord turn(
      long startMs, double e2eMs, Integer prompt, Integer cached, Integer planned, int completion) {
    return RequestRecord.builder()
        .request("agent")
        .phase("measured")
        .status(RequestStatus.OK)
        .startMs(startMs)
        .e2eMs(e2eMs)
        .promptTokens(prompt)
        .cachedTokens(cached)
        .plannedCachedTokens(planned)
        .completionTokens(completion)
        .build();
  }

  private static SessionResult session(
      SessionEnd end,
      int requests,
      long startMs,
      long durationMs,
      Double planned,
      Double observed) {
    return new SessionResult(
        end,
        requests,
        requests - 1,
        0,
        startMs,
        durationMs,
        1000L * requests,
        20L * requests,
        planned,
        observed);
  }

  @Test
  void aTallySumsItsTurnsAndTimesFirstSendToLastReply() {
    SessionTally tally = new SessionTally();
    tally.sending(1_000);
    tally.turn(turn(1_000, 200.4, 500, 0, 0, 30), 1, 0);
    tally.sending(1_450);
    tally.turn(turn(1_450, 100.0, 900, 528, 528, 20), 2, 1);
    tally.sending(1_700);
    tally.turn(turn(1_700, 50.0, 1400, 1120, 1136, 10), 0, 0);
    SessionResult r = tally.finish(SessionEnd.COMPLETED, 1_750);
    assertEquals(
        new SessionResult(
            SessionEnd.COMPLETED, 3, 3, 1, 1_000, 750, 2800, 60, 1664 / 2800.0, 1648 / 2800.0),
        r);
    assertEquals(2860, r.tokens());
  }

  @Test
  void aTurnWithoutCachedTokensLeavesTheObservedRatioUnknown() {
    SessionTally tally = new SessionTally();
    tally.sending(0);
    tally.turn(turn(0, 10.0, 100, 0, 0, 5), 1, 0);
    tally.turn(turn(20, 10.0, 200, null, 96, 5), 0, 0);
    SessionResult r = tally.finish(SessionEnd.COMPLETED, 30);
    assertNull(r.observedCacheRatio());
    assertEquals(96 / 300.0, r.plannedCacheRatio());
  }

  @Test
  void aSessionEndedBeforeSendingHasNoDuration() {
    SessionResult r = new SessionTally().finish(SessionEnd.CONTEXT_LIMIT, 5_000);
    assertEquals(-1, r.durationMs());
    assertEquals(-1, r.startMs());
    assertEquals(0, r.requests());
    assertNull(r.plannedCacheRatio());
  }

  @Test
  void aSessionEndedByTheContextLimitLastsUntilTheRefusal() {
    SessionTally tally = new SessionTally();
    tally.sending(100);
    tally.turn(turn(100, 50.0, 100, 0, 0, 5), 1, 0);
    assertEquals(400, tally.finish(SessionEnd.CONTEXT_LIMIT, 500).durationMs());
  }

  @Test
  void malformedAboveCallsRefused() {
    SessionTally tally = new SessionTally();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> tally.turn(turn(0, 1.0, 1, 0, 0, 1), 1, 2));
    assertEquals(
        "tool calls: got 1 with 2 malformed, expected 0 <= malformed <= calls", e.getMessage());
  }

  @Test
  void countsEndsAndDurations() {
    SessionAggregator a = new SessionAggregator();
    a.add(session(SessionEnd.COMPLETED, 3, 0, 1_000, 0.5, 0.5));
    a.add(session(SessionEnd.COMPLETED, 4, 500, 2_000, 0.6, 0.4));
    a.add(session(SessionEnd.LOOP_LIMIT, 5, 1_000, 3_000, 0.7, 0.7));
    a.add(session(SessionEnd.ERROR, 1, 2_000, 500, null, null));
    SessionSummary s = a.summary();
    assertEquals(4, s.count());
    assertEquals(2, s.completed());
    Map<String, Long> ended = new LinkedHashMap<>();
    ended.put("completed", 2L);
    ended.put("loop_limit", 1L);
    ended.put("context_limit", 0L);
    ended.put("error", 1L);
    assertEquals(ended, s.ended());
    assertEquals(new SessionSummary.Spread(4L, 1625.0, 1000L, 3000L, 3000L, 3000L), s.durationMs());
    assertEquals(new SessionSummary.Spread(4L, 3.25, 3L, 5L, 5L, 5L), s.requestsPerSession());
    assertEquals(9L, s.toolCalls());
  }

  @Test
  void longDurationsHaveThreeSignificantDigitsAndAnExactMeanAndMax() {
    SessionAggregator a = new SessionAggregator();
    for (int i = 1; i <= 100; i++) {
      a.add(session(SessionEnd.COMPLETED, 2, 0, 100L * i, null, null));
    }
    // 9,900 ms lies in a bucket of 8 ms (8,192 to 16,383 at 3 digits): its lowest value is 9,896
    assertEquals(
        new SessionSummary.Spread(100L, 5050.0, 5000L, 9000L, 9896L, 10000L),
        a.summary().durationMs());
  }

  @Test
  void sessionsPerHourCountsAllButErrorsOverTheWindow() {
    SessionAggregator a = new SessionAggregator();
    // window: 0 to 4,000 ms; 3 sessions not in error: 3 * 3600000 / 4000 = 2700 an hour
    a.add(session(SessionEnd.COMPLETED, 3, 0, 1_000, 0.5, 0.5));
    a.add(session(SessionEnd.LOOP_LIMIT, 4, 500, 2_000, 0.5, 0.5));
    a.add(session(SessionEnd.CONTEXT_LIMIT, 5, 1_000, 3_000, 0.5, 0.5));
    a.add(session(SessionEnd.ERROR, 1, 2_000, 500, 0.5, 0.5));
    assertEquals(2700.0, a.summary().sessionsPerHour());
  }

  @Test
  void cacheRatiosPlannedAndObservedOverSessionsThatHaveThem() {
    SessionAggregator a = new SessionAggregator();
    a.add(session(SessionEnd.COMPLETED, 3, 0, 1_000, 0.8, 0.75));
    a.add(session(SessionEnd.COMPLETED, 3, 0, 1_000, 0.9, 0.25));
    a.add(session(SessionEnd.COMPLETED, 3, 0, 1_000, 0.7, null));
    SessionSummary s = a.summary();
    // planned: (2400 + 2700 + 2100) / 9000; observed: (2250 + 750) / 6000
    assertEquals(
        new SessionSummary.Ratios(3L, 0.8, 0.8, 0.7, 9000L, 7200L, 0.8),
        s.cacheHitRatio().planned());
    assertEquals(
        new SessionSummary.Ratios(2L, 0.5, 0.25, 0.25, 6000L, 3000L, 0.5),
        s.cacheHitRatio().observed());
  }

  @Test
  void tokensPerSession() {
    SessionAggregator a = new SessionAggregator();
    a.add(session(SessionEnd.COMPLETED, 2, 0, 1_000, null, null));
    a.add(session(SessionEnd.COMPLETED, 4, 0, 1_000, null, null));
    SessionSummary s = a.summary();
    assertEquals(
        new SessionSummary.Tokens(2L, 3060.0, 2040L, 4080L, 4080L, 4080L, 3000.0, 60.0),
        s.tokensPerSession());
  }

  @Test
  void noSessionsNoFigures() {
    SessionSummary s = new SessionAggregator().summary();
    assertEquals(0, s.count());
    assertEquals(new SessionSummary.Spread(0L, null, null, null, null, null), s.durationMs());
    assertNull(s.sessionsPerHour());
    assertNull(s.tokensPerSession().promptMean());
    assertEquals(
        new SessionSummary.Ratios(0L, null, null, null, 0L, 0L, null),
        s.cacheHitRatio().observed());
  }

  @Test
  void theRecordBlockNamesItsFields() throws Exception {
    SessionAggregator a = new SessionAggregator();
    a.add(session(SessionEnd.COMPLETED, 2, 0, 1_000, 0.5, 0.5));
    JsonNode record = new ObjectMapper().valueToTree(a.summary());
    List<String> names = new ArrayList<>();
    record.fieldNames().forEachRemaining(names::add);
    assertEquals(
        List.of(
            "count",
            "completed",
            "ended",
            "requests_per_session",
            "duration_ms",
            "tokens_per_session",
            "tool_calls",
            "malformed_tool_calls",
            "sessions_per_hour",
            "cache_hit_ratio"),
        names);
    assertEquals(
        "{\"count\":1,\"mean\":1000.0,\"p50\":1000,\"p90\":1000,\"p99\":1000,\"max\":1000}",
        record.get("duration_ms").toString());
    assertEquals(
        "{\"planned\":{\"sessions\":1,\"mean\":0.5,\"p50\":0.5,\"min\":0.5,"
            + "\"prompt_tokens\":2000,\"cached_tokens\":1000,\"overall\":0.5},"
            + "\"observed\":{\"sessions\":1,\"mean\":0.5,\"p50\":0.5,\"min\":0.5,"
            + "\"prompt_tokens\":2000,\"cached_tokens\":1000,\"overall\":0.5}}",
        record.get("cache_hit_ratio").toString());
    assertEquals(3600.0, record.get("sessions_per_hour").asDouble());
  }
}
