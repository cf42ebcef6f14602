package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.cache.WorkingSetSweepSummary;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.WorkingSetSweep;
import java.util.ArrayList;
import java.util.List;
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
    WorkingSetSweep.Step r = step.toRecord();
    WorkingSetSweep.Step expected =
        new WorkingSetSweep.Step(
            2,
            "working-set g2",
            "c1_in100_out4_g2",
            5L,
            5L,
            80L,
            160L,
            500L,
            128L,
            240L,
            0.256,
            0.48,
            0.5333,
            10.0,
            10.0,
            7.2,
            13.0,
            null);
    assertEquals(expected, r);
  }

  @Test
  void withoutCachedTokensInUsageNothingIsJudged() {
    SweepStep step = new SweepStep("w", null, 1);
    step.add(request("measured", 0, 0, null, 10));
    step.add(request("measured", 20, 0, null, 10));
    WorkingSetSweep.Step r = step.toRecord();
    assertNull(r.hitRatio());
    assertNull(r.retained());
    assertEquals(
        "not judged: no step had cached tokens in its usage and a prefix it could reuse",
        WorkingSetSweepSummary.toRecord("w", List.of(r), null, null).summary());
  }

  private static WorkingSetSweep.Step step(int groups, Double retained, long prefix) {
    return new WorkingSetSweep.Step(
        groups,
        null,
        null,
        null,
        null,
        prefix,
        groups * prefix,
        null,
        null,
        null,
        null,
        null,
        retained,
        null,
        null,
        null,
        null,
        null);
  }

  @Test
  void theCliffIsTheFirstStepThatLostItsWorkingSet() {
    List<WorkingSetSweep.Step> steps =
        List.of(
            step(1, 0.99, 230),
            step(2, 1.0, 230),
            step(4, 0.97, 230),
            // Below 90% of the best before it, 1.0.
            step(8, 0.89, 230),
            step(16, 0.9, 230));
    WorkingSetSweep r = WorkingSetSweepSummary.toRecord("working-set", steps, 1536L, "sim");
    assertEquals(new WorkingSetSweep.Cliff(8, 4, List.of(920L, 1840L)), r.cliff());
    assertEquals(1536L, r.capacityTokens());
    assertEquals(6.68, r.predictedCliffGroups());
    assertEquals(
        "the cache starts evicting between 4 and 8 groups: its room for prefixes is between 920"
            + " and 1,840 tokens; the server's 1,536-token cache holds 6.7 prefixes of 230 tokens",
        r.summary());
  }

  @Test
  void noCliff() {
    WorkingSetSweep r =
        WorkingSetSweepSummary.toRecord(
            "s", List.of(step(1, 0.6, 100), step(2, 0.55, 100)), null, null);
    assertNull(r.cliff());
    assertNull(r.capacityTokens());
    assertEquals("no eviction up to 2 groups (working set 200 prefix tokens)", r.summary());
  }

  @Test
  void stepsThatGotMoreThanTheRunCachedAreWarm() {
    WorkingSetSweep r =
        WorkingSetSweepSummary.toRecord(
            "s", List.of(step(1, 1.0, 100), step(2, 1.5, 100)), null, null);
    assertEquals(List.of(2), r.warmSteps());
    assertEquals(
        "no eviction up to 2 groups (working set 200 prefix tokens); the steps of 2 groups got"
            + " more from the cache than an unbounded cache filled by this run could give: the"
            + " server held their prefixes before (a run with the same seed?), so their figures"
            + " understate eviction",
        r.summary());
  }

  @Test
  void evictingFromTheFirstStep() {
    List<WorkingSetSweep.Step> steps = new ArrayList<>();
    steps.add(step(1, 0.49, 100));
    steps.add(step(2, 0.0, 100));
    WorkingSetSweep r = WorkingSetSweepSummary.toRecord("s", steps, null, null);
    List<Long> bounds = new ArrayList<>();
    bounds.add(null);
    bounds.add(100L);
    assertEquals(new WorkingSetSweep.Cliff(1, null, bounds), r.cliff());
    assertEquals(
        "evicting from the first step (1 group): the cache kept less than 50% of the reusable"
            + " prefix tokens (prefix caching off, or a cache smaller than 100 tokens)",
        r.summary());
  }
}
