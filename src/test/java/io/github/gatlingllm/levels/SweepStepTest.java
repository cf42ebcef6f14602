package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.cache.WorkingSetSweepSummary;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link SweepStep} and {@link WorkingSetSweepSummary}: a step's figures and the cliff. */
class SweepStepTest {

  /** A successful measured request of a group: 100 prompt tokens, a 80-token group prefix. */
  private static RequestRecord request(
      String phase, long startMs, int group, Integer cached, double ttft) {
    return RequestRecord.builder()
        .request("chat")
        .phase(phase)
        .prefixGroup(group)
        .sharedPrefixTokens(80)
        .plannedTokens(100)
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .cachedTokens(cached)
        .completionTokens(4)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .itlMs(List.of())
        .tpotMs(1.0)
        .e2eMs(ttft + 3)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  @Test
  void everyRequestButTheFirstOfItsGroupCanReuseThePrefix() {
    SweepStep step = new SweepStep("working-set g2", "c1_in100_out4_g2", 2);
    // Group 0: first at 0, then at 5 (sent during the first's prefill: it missed), then at 20.
    step.add(request("measured", 0, 0, 0, 10));
    step.add(request("measured", 5, 0, 0, 10));
    step.add(request("measured", 20, 0, 80, 2));
    // Group 1: first at 30, then at 50 which the cache served only in part.
    step.add(request("measured", 30, 1, 0, 10));
    step.add(request("measured", 50, 1, 48, 4));
    // Warmup requests are left out.
    step.add(request("warmup", 60, 1, 96, 1));
    Map<String, Object> r = step.toRecord();
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("groups", 2);
    expected.put("workload", "working-set g2");
    expected.put("case_id", "c1_in100_out4_g2");
    expected.put("requests", 5L);
    expected.put("ok", 5L);
    expected.put("prefix_tokens", 80L);
    expected.put("working_set_tokens", 160L);
    expected.put("prompt_tokens", 500L);
    expected.put("cached_tokens", 128L);
    expected.put("reusable_tokens", 240L);
    expected.put("hit_ratio", 0.256);
    expected.put("expected_hit_ratio", 0.48);
    expected.put("retained", 0.5333);
    expected.put("ttft_p50_ms", 10.0);
    expected.put("ttft_p99_ms", 10.0);
    expected.put("ttft_mean_ms", 7.2);
    expected.put("e2e_p50_ms", 13.0);
    assertEquals(expected, r);
  }

  @Test
  void withoutCachedTokensInUsageNothingIsJudged() {
    SweepStep step = new SweepStep("w", null, 1);
    step.add(request("measured", 0, 0, null, 10));
    step.add(request("measured", 20, 0, null, 10));
    Map<String, Object> r = step.toRecord();
    assertNull(r.get("hit_ratio"));
    assertNull(r.get("retained"));
    assertEquals(
        "not judged: no step had cached tokens in its usage and a prefix it could reuse",
        WorkingSetSweepSummary.toRecord("w", List.of(r), null, null).get("summary"));
  }

  private static Map<String, Object> step(int groups, Double retained, long prefix) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("groups", groups);
    m.put("prefix_tokens", prefix);
    m.put("working_set_tokens", groups * prefix);
    m.put("retained", retained);
    return m;
  }

  @Test
  void theCliffIsTheFirstStepThatLostItsWorkingSet() {
    List<Map<String, Object>> steps =
        List.of(
            step(1, 0.99, 230),
            step(2, 1.0, 230),
            step(4, 0.97, 230),
            // Below 90% of the best before it, 1.0.
            step(8, 0.89, 230),
            step(16, 0.9, 230));
    Map<String, Object> r = WorkingSetSweepSummary.toRecord("working-set", steps, 1536L, "sim");
    Map<String, Object> cliff = new LinkedHashMap<>();
    cliff.put("groups", 8);
    cliff.put("after_groups", 4);
    cliff.put("working_set_tokens", List.of(920L, 1840L));
    assertEquals(cliff, r.get("cliff"));
    assertEquals(1536L, r.get("capacity_tokens"));
    assertEquals(6.68, r.get("predicted_cliff_groups"));
    assertEquals(
        "the cache starts evicting between 4 and 8 groups: its room for prefixes is between 920"
            + " and 1,840 tokens; the server's 1,536-token cache holds 6.7 prefixes of 230 tokens",
        r.get("summary"));
  }

  @Test
  void noCliff() {
    Map<String, Object> r =
        WorkingSetSweepSummary.toRecord(
            "s", List.of(step(1, 0.6, 100), step(2, 0.55, 100)), null, null);
    assertNull(r.get("cliff"));
    assertNull(r.get("capacity_tokens"));
    assertEquals("no eviction up to 2 groups (working set 200 prefix tokens)", r.get("summary"));
  }

  @Test
  void stepsThatGotMoreThanTheRunCachedAreWarm() {
    Map<String, Object> r =
        WorkingSetSweepSummary.toRecord(
            "s", List.of(step(1, 1.0, 100), step(2, 1.5, 100)), null, null);
    assertEquals(List.of(2), r.get("warm_steps"));
    assertEquals(
        "no eviction up to 2 groups (working set 200 prefix tokens); the steps of 2 groups got"
            + " more from the cache than an unbounded cache filled by this run could give: the"
            + " server held their prefixes before (a run with the same seed?), so their figures"
            + " understate eviction",
        r.get("summary"));
  }

  @Test
  void evictingFromTheFirstStep() {
    List<Map<String, Object>> steps = new ArrayList<>();
    steps.add(step(1, 0.49, 100));
    steps.add(step(2, 0.0, 100));
    Map<String, Object> r = WorkingSetSweepSummary.toRecord("s", steps, null, null);
    Map<String, Object> cliff = new LinkedHashMap<>();
    cliff.put("groups", 1);
    cliff.put("after_groups", null);
    List<Object> bounds = new ArrayList<>();
    bounds.add(null);
    bounds.add(100L);
    cliff.put("working_set_tokens", bounds);
    assertEquals(cliff, r.get("cliff"));
    assertEquals(
        "evicting from the first step (1 group): the cache kept less than 50% of the reusable"
            + " prefix tokens (prefix caching off, or a cache smaller than 100 tokens)",
        r.get("summary"));
  }
}
