package io.github.gatlingllm.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import org.junit.jupiter.api.Test;

class ConversationPlanTest {

  /** llama.cpp with the Qwen3 template: one-token granularity, a 3-token lead, exact counts. */
  private static final CachePlan.Server LLAMA = new CachePlan.Server(3, true, 1, true);

  /** The embedded simulator under the estimate: 16-token blocks, a 1-word lead. */
  private static final CachePlan.Server SIMULATOR = new CachePlan.Server(1, true, 16, true);

  @Test
  void aLaterTurnPlansThePreviousPromptAndReplyLessTheReplysLastToken() {
    // Turn 1: 52 prompt and 16 completion tokens; turn 2's context is 52 + 16 - 1.
    CachePlan plan = ConversationPlan.later(LLAMA, 67, true, 96);
    assertEquals(new CachePlan(67, CacheOutcome.HIT, 3, 16, 1, 3, 67), plan);
    assertEquals(CacheOutcome.HIT, plan.outcome(67));
    assertEquals(CacheOutcome.HIT, plan.outcome(66));
    assertEquals(CacheOutcome.PARTIAL, plan.outcome(52));
    assertEquals(CacheOutcome.MISS, plan.outcome(3));
    assertEquals(CacheOutcome.HIT, plan.outcome(72));
    assertEquals(CacheOutcome.UNPLANNED_HIT, plan.outcome(84));
  }

  @Test
  void aLaterTurnRoundsDownToTheBlock() {
    CachePlan plan = ConversationPlan.later(SIMULATOR, 674, true, 773);
    assertEquals(672, plan.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, plan.outcome(672));
    assertEquals(CacheOutcome.HIT, plan.outcome(656));
    assertEquals(CacheOutcome.PARTIAL, plan.outcome(640));
    assertEquals(CacheOutcome.MISS, plan.outcome(0));
  }

  @Test
  void theContextNeverCountsPastAllButTheLastPromptToken() {
    assertEquals(299, ConversationPlan.later(LLAMA, 500, true, 300).plannedCachedTokens());
    assertEquals(500, ConversationPlan.later(LLAMA, 500, true, null).plannedCachedTokens());
  }

  @Test
  void aContextNotCountedByTheServerGetsTheInexactShareEitherWay() {
    CachePlan plan = ConversationPlan.later(SIMULATOR, 200, false, 300);
    // 192 planned, beyond the 0 of the template: ceil(0.2 * 192) = 39 tokens of slack.
    assertEquals(new CachePlan(192, CacheOutcome.HIT, 0, 16 + 39, 16 + 39, 0, 200), plan);
    CachePlan unknownTemplate =
        ConversationPlan.later(new CachePlan.Server(0, false, 16, false), 200, true, 300);
    assertEquals(
        new CachePlan(192, CacheOutcome.HIT, 0, 16 + 39, 16 + 39, 32, 200), unknownTemplate);
  }

  @Test
  void theFirstTurnIsPlannedAsAUniquePromptOrAGroupPrefix() {
    assertEquals(
        new CachePlan(0, CacheOutcome.MISS, 0, 16, 16, 0, 1),
        ConversationPlan.first(SIMULATOR, null, false, 96, false, 97));
    // The group's first conversation plans a miss; a same-group one sent just after it may reach
    // the server first, so finding the system prompt is no warm start.
    CachePlan first = ConversationPlan.first(SIMULATOR, 512, false, 608, false, 611);
    assertEquals(new CachePlan(0, CacheOutcome.MISS, 0, 16, 16, 0, 513), first);
    assertEquals(false, first.warmStart(521));
    assertEquals(true, first.warmStart(600));
    assertEquals(
        new CachePlan(512, CacheOutcome.HIT, 0, 16, 16, 0, 513),
        ConversationPlan.first(SIMULATOR, 512, true, 608, false, 611));
  }

  @Test
  void aNegativeContextIsRefused() {
    assertEquals(
        "context tokens: got -1, expected >= 0",
        assertThrows(
                IllegalArgumentException.class, () -> ConversationPlan.later(LLAMA, -1, true, 10))
            .getMessage());
  }

  @Test
  void aFirstTurnWithToolsTakesItsSharedPrefixFromTheServersPromptTokens() {
    // 48-token system prompt and 3 tools of 24 tokens (our count: 120), a 64-token task; the
    // server's template renders the tools with ~170 tokens of instructions: 580 prompt tokens.
    assertEquals(497, ConversationPlan.toolsPrefix(LLAMA, 120, 64, 580));
    CachePlan plan = ConversationPlan.first(LLAMA, 497, true, 184, false, 580);
    // the server found 503 (its rendered system prompt and tools, the user header): a hit as
    // planned
    assertEquals(500, plan.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, plan.outcome(503));
    assertEquals(false, plan.warmStart(503));
    // the planned count alone would call the same 503 an unplanned hit
    CachePlan fromOurCount = ConversationPlan.first(LLAMA, 120, true, 184, false, 580);
    assertEquals(CacheOutcome.UNPLANNED_HIT, fromOurCount.outcome(503));
  }

  @Test
  void aFirstTurnWithToolsKeepsThePlannedPrefixWithoutTheServersExactCount() {
    assertEquals(120, ConversationPlan.toolsPrefix(LLAMA, 120, 64, null));
    CachePlan.Server estimated = new CachePlan.Server(3, true, 1, false);
    assertEquals(120, ConversationPlan.toolsPrefix(estimated, 120, 64, 580));
    // a template that renders the tools in fewer tokens than our count: the server's count wins
    assertEquals(61, ConversationPlan.toolsPrefix(LLAMA, 120, 64, 144));
    assertEquals(0, ConversationPlan.toolsPrefix(LLAMA, 120, 64, 70));
  }
}
