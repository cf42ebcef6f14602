package io.github.gatlingllm.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.prompt.PromptMode;
import org.junit.jupiter.api.Test;

/** The plan of a trace row: its leading blocks sent before, the template, the server's block. */
class TraceCachePlanTest {

  private static final CachePlan.Server SIMULATOR = new CachePlan.Server(2, true, 16, true);

  @Test
  void aRowWhoseLeadingBlocksWereSentPlansThemAsAHit() {
    CachePlan plan =
        CachePlan.of(
            SIMULATOR,
            new CachePlan.Sent(PromptMode.TRACE, true, 1024, 1200, false, 1024, false, null),
            1202);

    assertEquals(1024, plan.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, plan.expected());
    assertEquals(CacheOutcome.HIT, plan.outcome(1024));
    assertEquals(CacheOutcome.PARTIAL, plan.outcome(512));
  }

  @Test
  void aRowWithNothingSentBeforePlansTheTemplateOnly() {
    CachePlan plan =
        CachePlan.of(
            SIMULATOR,
            new CachePlan.Sent(PromptMode.TRACE, false, 0, 1200, false, null, false, null),
            1202);

    assertEquals(0, plan.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, plan.expected());
    assertTrue(plan.warmStart(512));
  }

  @Test
  void blocksAnotherRowHoldsAreNoWarmStart() {
    // Sent a moment after a row sharing its first 512 tokens, it reached the server second.
    CachePlan plan =
        CachePlan.of(
            SIMULATOR,
            new CachePlan.Sent(PromptMode.TRACE, false, 0, 1200, false, 512, false, null),
            1202);

    assertEquals(0, plan.plannedCachedTokens());
    assertEquals(CacheOutcome.UNPLANNED_HIT, plan.outcome(512));
    assertFalse(plan.warmStart(512));
    assertTrue(plan.warmStart(1024));
  }
}
