package io.github.gatlingllm.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.stats.JsonForm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run's cache figures: ratios, outcomes, warm start, verdict, latency by outcome. */
class CacheAggregatorTest {

  private static RequestRecord record(
      String workload,
      String phase,
      Integer group,
      int prompt,
      Integer cached,
      int planned,
      CacheOutcome expected,
      CacheOutcome outcome,
      double ttft) {
    return record(
        workload, phase, group, prompt, cached, planned, expected, outcome, ttft, RequestStatus.OK);
  }

  private static RequestRecord record(
      String workload,
      String phase,
      Integer group,
      int prompt,
      Integer cached,
      int planned,
      CacheOutcome expected,
      CacheOutcome outcome,
      double ttft,
      RequestStatus status) {
    return RequestRecord.builder()
        .request("chat")
        .phase(phase)
        .index(0L)
        .prefixGroup(group)
        .startMs(1000)
        .promptTokens(prompt)
        .promptTokensExact(true)
        .cachedTokens(cached)
        .completionTokens(4)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .tpotMs(1.0)
        .e2eMs(ttft + 3)
        .finishReason("length")
        .httpStatus(200)
        .status(status)
        .workload(workload)
        .plannedCachedTokens(planned)
        .cachePlanned(expected)
        .cache(outcome)
        .cacheWarmStart(expected == CacheOutcome.MISS && outcome == CacheOutcome.UNPLANNED_HIT)
        .build();
  }

  private static RequestRecord hit(String workload, Integer group, double ttft) {
    return record(
        workload, "measured", group, 100, 48, 48, CacheOutcome.HIT, CacheOutcome.HIT, ttft);
  }

  private static RequestRecord miss(String workload, Integer group, double ttft) {
    return record(
        workload, "measured", group, 100, 0, 0, CacheOutcome.MISS, CacheOutcome.MISS, ttft);
  }

  @Test
  void ratiosAndOutcomesAsPlanned() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(miss("s", 0, 10));
    a.add(hit("s", 0, 2));
    a.add(hit("s", 1, 3));
    a.add(miss("s", 1, 12));
    Map<String, Object> r = JsonForm.of(a.summary(null));
    assertEquals(4L, r.get("requests"));
    assertEquals(0.24, r.get("planned_hit_ratio"));
    assertEquals(0.24, r.get("observed_hit_ratio"));
    assertEquals(
        Map.of("hit", 2L, "partial", 0L, "miss", 2L, "unplanned_hit", 0L, "unknown", 0L),
        r.get("outcomes"));
    assertEquals(4L, r.get("as_planned"));
    assertEquals(false, r.get("warm_start"));
    assertEquals("as planned", r.get("verdict"));
    assertEquals("as planned", a.verdict());
  }

  @Test
  void belowPlanWhenPlannedHitsMiss() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(miss("s", 0, 10));
    a.add(record("s", "measured", 0, 100, 0, 48, CacheOutcome.HIT, CacheOutcome.MISS, 10));
    assertEquals("below plan", a.verdict());
  }

  @Test
  void aWarmStartsCacheKeepsTheRecordsKeyOrder() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(
        record(
            "u", "measured", null, 100, 96, 0, CacheOutcome.MISS, CacheOutcome.UNPLANNED_HIT, 2));
    CacheSummary.Parameters parameters = new CacheSummary.Parameters(16, null, false, true);
    assertEquals(
        List.of(
            "block_tokens",
            "template_tokens",
            "template_known",
            "exact_counts",
            "tolerance",
            "requests",
            "planned_hit_ratio",
            "observed_hit_ratio",
            "outcomes",
            "as_planned",
            "warm_start",
            "warm_start_requests",
            "warm_start_message",
            "verdict",
            "planned_requests",
            "latency_by_outcome",
            "workloads"),
        List.copyOf(JsonForm.of(a.summary(parameters)).keySet()));
  }

  @Test
  void aboveAndWarmStartWhenPlannedMissesHit() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(
        record("u", "warmup", null, 100, 96, 0, CacheOutcome.MISS, CacheOutcome.UNPLANNED_HIT, 2));
    a.add(
        record(
            "u", "measured", null, 100, 96, 0, CacheOutcome.MISS, CacheOutcome.UNPLANNED_HIT, 2));
    a.add(miss("u", null, 10));
    CacheSummary summary = a.summary(new CacheSummary.Parameters(16, null, false, true));
    Map<String, Object> r = JsonForm.of(summary);
    assertEquals(16, summary.parameters().blockTokens());
    assertEquals(2L, a.warmStarts());
    assertEquals(true, r.get("warm_start"));
    assertEquals(2L, r.get("warm_start_requests"));
    assertEquals(
        "the server's cache already held 2 of this run's prompts (a run with the same seed"
            + " before?): change llm.seed (llm.seed=auto picks a fresh one) or reset the server's"
            + " cache",
        r.get("warm_start_message"));
    assertEquals(2L, r.get("requests"));
    assertEquals("above plan", r.get("verdict"));
  }

  @Test
  void withinTheToleranceIsAsPlanned() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(record("s", "measured", 0, 100, 44, 48, CacheOutcome.HIT, CacheOutcome.HIT, 2));
    assertEquals("as planned", a.verdict());
    CacheAggregator strict = new CacheAggregator(0.0);
    strict.add(record("s", "measured", 0, 100, 44, 48, CacheOutcome.HIT, CacheOutcome.HIT, 2));
    assertEquals("below plan", strict.verdict());
  }

  @Test
  void unknownWhenTheServerReportsNoCachedTokens() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(record("s", "measured", 0, 100, null, 48, CacheOutcome.HIT, CacheOutcome.UNKNOWN, 2));
    Map<String, Object> r = JsonForm.of(a.summary(null));
    assertEquals("unknown", r.get("verdict"));
    assertEquals(0.48, r.get("planned_hit_ratio"));
    assertNull(r.get("observed_hit_ratio"));
  }

  @Test
  void theServerReportingNoCachedTokensIsSaidInWords() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(record("s", "measured", 0, 100, null, 48, CacheOutcome.HIT, CacheOutcome.UNKNOWN, 2));
    assertEquals(
        "cache unknown: the server reported no cached tokens for the 1 measured request (planned"
            + " hit ratio 0.48)",
        a.describe());
    assertEquals(
        "the server reported no cached tokens", JsonForm.of(a.summary(null)).get("verdict_reason"));
  }

  @Test
  void noSuccessfulMeasuredRequestIsNoVerdictSaidInWords() {
    CacheAggregator a = new CacheAggregator(0.05);
    for (int i = 0; i < 4; i++) {
      a.add(
          record(
              "s",
              "measured",
              0,
              100,
              null,
              48,
              CacheOutcome.HIT,
              CacheOutcome.UNKNOWN,
              2,
              RequestStatus.CONNECT_ERROR));
    }
    Map<String, Object> r = JsonForm.of(a.summary(null));

    assertEquals(
        "cache: no verdict: none of the 4 measured requests with a cache plan succeeded (4"
            + " failed), so no cache hit was observed",
        a.describe());
    assertEquals("unknown", r.get("verdict"));
    assertEquals(4L, r.get("planned_requests"));
    assertEquals(0L, r.get("requests"));
    assertNull(r.get("observed_hit_ratio"));
    assertEquals(
        "none of the 4 measured requests with a cache plan succeeded (4 failed), so no cache hit"
            + " was observed",
        r.get("verdict_reason"));
  }

  @Test
  void cutRequestsAreNamedApartFromFailedOnes() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(
        record(
            "s",
            "measured",
            0,
            100,
            null,
            48,
            CacheOutcome.HIT,
            CacheOutcome.UNKNOWN,
            2,
            RequestStatus.TIMEOUT));
    a.add(
        record(
            "s",
            "measured",
            0,
            100,
            null,
            48,
            CacheOutcome.HIT,
            CacheOutcome.UNKNOWN,
            2,
            RequestStatus.CUT_BY_RUN_END));
    assertEquals(
        "cache: no verdict: none of the 2 measured requests with a cache plan succeeded (1 failed,"
            + " 1 cut by the run's end), so no cache hit was observed",
        a.describe());
  }

  private static RequestRecord failed(RequestStatus status) {
    return record(
        "s", "measured", 0, 100, null, 48, CacheOutcome.HIT, CacheOutcome.UNKNOWN, 2, status);
  }

  @Test
  void aRunWhoseRequestsMostlyFailedIsAsPlannedNowhere() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(hit("s", 0, 2)); // the one success is as planned on its own
    a.add(failed(RequestStatus.CONNECT_ERROR));
    a.add(failed(RequestStatus.CUT_BY_RUN_END));
    Map<String, Object> r = JsonForm.of(a.summary(null));

    assertEquals("unknown", a.verdict());
    assertEquals("unknown", r.get("verdict"));
    assertEquals(
        "most measured requests with a cache plan did not succeed (2 of 3: 1 failed, 1 cut by the"
            + " run's end), so the 1 that did is too few to judge the cache",
        r.get("verdict_reason"));
    assertEquals("unknown", ((Map<?, ?>) ((List<?>) r.get("workloads")).get(0)).get("verdict"));
    assertEquals(
        "cache unknown: most measured requests with a cache plan did not succeed (2 of 3: 1"
            + " failed, 1 cut by the run's end), so the 1 that did is too few to judge the cache",
        a.describe());
  }

  @Test
  void halfTheRequestsFailedStillGetsAVerdict() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(hit("s", 0, 2));
    a.add(failed(RequestStatus.HTTP_ERROR));
    Map<String, Object> r = JsonForm.of(a.summary(null));

    assertEquals("as planned", a.verdict());
    assertEquals("as planned", r.get("verdict"));
    assertNull(r.get("verdict_reason"));
  }

  @Test
  void aVerdictHasNoReason() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(hit("s", 0, 2));
    assertNull(JsonForm.of(a.summary(null)).get("verdict_reason"));
  }

  @Test
  void requestsWithoutAPlanAreLeftOut() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(
        RequestRecord.builder()
            .request("chat")
            .phase("measured")
            .index(0L)
            .startMs(1000)
            .promptTokens(100)
            .promptTokensExact(true)
            .cachedTokens(96)
            .completionTokens(4)
            .completionTokensExact(true)
            .ttftMs(2.0)
            .timeToFirstEventMs(2.0)
            .tpotMs(1.0)
            .e2eMs(5.0)
            .finishReason("length")
            .httpStatus(200)
            .status(RequestStatus.OK)
            .build());
    assertNull(a.describe());
    assertEquals(0L, JsonForm.of(a.summary(null)).get("requests"));
  }

  @Test
  void seriesAreNeverPooledAcrossWorkloads() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(hit("repeat", null, 2));
    a.add(miss("unique", null, 10));
    List<?> series = (List<?>) JsonForm.of(a.summary(null)).get("workloads");
    assertEquals(2, series.size());
    Map<?, ?> repeat = (Map<?, ?>) series.get(0);
    Map<?, ?> unique = (Map<?, ?>) series.get(1);
    assertEquals("repeat", repeat.get("workload"));
    assertEquals(0.48, repeat.get("observed_hit_ratio"));
    assertEquals("unique", unique.get("workload"));
    assertEquals(0.0, unique.get("observed_hit_ratio"));
  }

  @Test
  void latencyByOutcomeAndPerPrefixGroup() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(hit("s", 0, 2));
    a.add(hit("s", 0, 4));
    a.add(miss("s", 1, 10));
    CacheSummary summary = a.summary(null);
    Map<String, Object> r = JsonForm.of(summary);
    Map<?, ?> latency = (Map<?, ?>) r.get("latency_by_outcome");
    assertEquals(List.of("hit", "miss"), List.copyOf(latency.keySet()));
    Map<?, ?> hitTtft = (Map<?, ?>) ((Map<?, ?>) latency.get("hit")).get("ttft_ms");
    assertEquals(2L, hitTtft.get("count"));
    assertEquals(2.0, hitTtft.get("p50"));
    assertEquals(4.0, hitTtft.get("max"));
    Map<?, ?> missE2e = (Map<?, ?>) ((Map<?, ?>) latency.get("miss")).get("e2e_ms");
    assertEquals(13.0, missE2e.get("p50"));
    Map<?, ?> series = (Map<?, ?>) ((List<?>) r.get("workloads")).get(0);
    List<?> groups = (List<?>) series.get("prefix_groups");
    Map<?, ?> g0 = (Map<?, ?>) groups.get(0);
    assertEquals(0, summary.workloads().get(0).prefixGroups().get(0).group());
    assertEquals(2L, g0.get("requests"));
    assertEquals(0.48, g0.get("observed_hit_ratio"));
    assertEquals(3.0, ((Map<?, ?>) g0.get("ttft_ms")).get("mean"));
    Map<?, ?> g1 = (Map<?, ?>) groups.get(1);
    assertEquals(1, summary.workloads().get(0).prefixGroups().get(1).group());
    assertEquals(0.0, g1.get("observed_hit_ratio"));
  }

  @Test
  void describesTheVerdictInOneLine() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(hit("s", 0, 2));
    a.add(miss("s", 0, 10));
    assertEquals(
        "cache as planned: observed hit ratio 0.24, planned 0.24 (tolerance 0.05); 1 hit, 1 miss"
            + " of 2 measured requests",
        a.describe());
  }

  @Test
  void aPlannedHitThatFoundItsWholePromptIsAWarmStartToo() {
    CacheAggregator a = new CacheAggregator(0.05);
    a.add(
        RequestRecord.builder()
            .request("chat")
            .phase("measured")
            .index(0L)
            .prefixGroup(0)
            .sharedPrefixTokens(48)
            .startMs(1000)
            .promptTokens(100)
            .promptTokensExact(true)
            .cachedTokens(96)
            .completionTokens(4)
            .completionTokensExact(true)
            .ttftMs(2.0)
            .timeToFirstEventMs(2.0)
            .tpotMs(1.0)
            .e2eMs(5.0)
            .finishReason("length")
            .httpStatus(200)
            .status(RequestStatus.OK)
            .workload("s")
            .plannedCachedTokens(48)
            .cachePlanned(CacheOutcome.HIT)
            .cache(CacheOutcome.UNPLANNED_HIT)
            .cacheWarmStart(true)
            .build());
    assertEquals(1L, a.warmStarts());
  }
}
