package io.github.gatlingllm.cache;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.prompt.PromptMode;
import org.junit.jupiter.api.Test;

/** The per-request cache plan: each mode, the granularity, first of a group, and the outcomes. */
class CachePlanTest {

  /** The embedded simulator under the estimate: a 1-token ChatML lead, blocks of 16. */
  private static final CachePlan.Server SIMULATOR = new CachePlan.Server(1, true, 16, true);

  /** llama.cpp with the Qwen3 tokenizer: a 3-token lead, reuse at one token's granularity. */
  private static final CachePlan.Server LLAMA = new CachePlan.Server(3, true, 1, true);

  private static CachePlan plan(
      CachePlan.Server server, PromptMode mode, boolean before, Integer shared, Integer prompt) {
    return CachePlan.of(server, new CachePlan.Sent(mode, before, shared, 512), prompt);
  }

  @Test
  void uniquePlansTheTemplateOnlyRoundedDownToTheBlock() {
    CachePlan simulator = plan(SIMULATOR, PromptMode.UNIQUE, false, null, 514);
    assertEquals(0, simulator.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, simulator.expected());
    CachePlan llama = plan(LLAMA, PromptMode.UNIQUE, false, null, 520);
    assertEquals(3, llama.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, llama.expected());
  }

  @Test
  void uniqueNeverPlansMoreEvenWhenAPromptWithTheSameKeyWasSent() {
    assertEquals(0, plan(SIMULATOR, PromptMode.UNIQUE, true, null, 514).plannedCachedTokens());
  }

  @Test
  void sharedPrefixFirstOfItsGroupPlansTheTemplateOnly() {
    CachePlan p = plan(SIMULATOR, PromptMode.SHARED_PREFIX, false, 256, 514);
    assertEquals(0, p.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, p.expected());
  }

  @Test
  void sharedPrefixAfterItsGroupsFirstPlansTemplateAndPrefixInWholeBlocks() {
    // 1 + 256 = 257 tokens: 16 whole blocks.
    CachePlan p = plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 256, 514);
    assertEquals(256, p.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, p.expected());
    // 1 + 250 = 251 tokens: 15 whole blocks.
    assertEquals(
        240, plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 250, 514).plannedCachedTokens());
  }

  @Test
  void sharedPrefixAtOneTokensGranularityPlansTemplateAndPrefixExactly() {
    assertEquals(
        3 + 261, plan(LLAMA, PromptMode.SHARED_PREFIX, true, 261, 530).plannedCachedTokens());
  }

  @Test
  void repeatFirstPlansAMissThenAllButTheLastToken() {
    assertEquals(0, plan(SIMULATOR, PromptMode.REPEAT, false, null, 514).plannedCachedTokens());
    // floor((514 - 1) / 16) * 16
    assertEquals(512, plan(SIMULATOR, PromptMode.REPEAT, true, null, 514).plannedCachedTokens());
    assertEquals(496, plan(SIMULATOR, PromptMode.REPEAT, true, null, 512).plannedCachedTokens());
    assertEquals(263, plan(LLAMA, PromptMode.REPEAT, true, null, 264).plannedCachedTokens());
  }

  @Test
  void repeatWithoutTheServersCountPlansFromOurs() {
    // 512 planned + 1 template token = 513; all but the last: 512.
    assertEquals(512, plan(SIMULATOR, PromptMode.REPEAT, true, null, null).plannedCachedTokens());
  }

  @Test
  void thePlanNeverReachesTheLastPromptToken() {
    // A group prefix as long as the prompt: capped at P - 1 = 63, 48 in whole blocks.
    assertEquals(
        48, plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 100, 64).plannedCachedTokens());
  }

  @Test
  void aCacheBlockLargerThanThePrefixPlansAMiss() {
    CachePlan.Server big = new CachePlan.Server(1, true, 512, true);
    CachePlan p = plan(big, PromptMode.SHARED_PREFIX, true, 256, 514);
    assertEquals(0, p.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, p.expected());
  }

  @Test
  void outcomeUnknownWithoutCachedTokens() {
    assertEquals(
        CacheOutcome.UNKNOWN, plan(SIMULATOR, PromptMode.REPEAT, true, null, 514).outcome(null));
  }

  @Test
  void hitWithinOneBlockOfThePlan() {
    CachePlan p = plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 256, 514);
    assertEquals(CacheOutcome.HIT, p.outcome(256));
    assertEquals(CacheOutcome.HIT, p.outcome(240));
    assertEquals(CacheOutcome.HIT, p.outcome(272));
  }

  @Test
  void partialBelowOneBlockUnderThePlan() {
    CachePlan p = plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 256, 514);
    assertEquals(CacheOutcome.PARTIAL, p.outcome(224));
    assertEquals(CacheOutcome.PARTIAL, p.outcome(16));
  }

  @Test
  void missWhenAPlannedHitFindsNothing() {
    assertEquals(
        CacheOutcome.MISS, plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 256, 514).outcome(0));
    // At one token's granularity, the template alone is a miss.
    assertEquals(
        CacheOutcome.MISS, plan(LLAMA, PromptMode.SHARED_PREFIX, true, 261, 530).outcome(3));
  }

  @Test
  void unplannedHitBeyondOneBlockOverThePlan() {
    CachePlan p = plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 256, 514);
    assertEquals(CacheOutcome.UNPLANNED_HIT, p.outcome(288));
    CachePlan miss = plan(SIMULATOR, PromptMode.UNIQUE, false, null, 514);
    assertEquals(CacheOutcome.MISS, miss.outcome(16));
    assertEquals(CacheOutcome.UNPLANNED_HIT, miss.outcome(32));
    assertEquals(CacheOutcome.UNPLANNED_HIT, miss.outcome(512));
  }

  @Test
  void atOneTokensGranularityANonceMayShareItsFirstDigitsByChance() {
    CachePlan unique = plan(LLAMA, PromptMode.UNIQUE, false, null, 264);
    // The template, the bracket and a few common hex digits: still a miss.
    assertEquals(CacheOutcome.MISS, unique.outcome(3 + 16));
    assertEquals(CacheOutcome.UNPLANNED_HIT, unique.outcome(3 + 17));
    // A second same-seed run: all but the last token.
    assertEquals(CacheOutcome.UNPLANNED_HIT, unique.outcome(263));
  }

  @Test
  void atOneTokensGranularityAHitMayMissThePrefixsLastToken() {
    CachePlan p = plan(LLAMA, PromptMode.SHARED_PREFIX, true, 261, 530);
    assertEquals(CacheOutcome.HIT, p.outcome(263));
    assertEquals(CacheOutcome.HIT, p.outcome(265));
    assertEquals(CacheOutcome.PARTIAL, p.outcome(262));
  }

  @Test
  void anUnknownTemplateToleratesItsLead() {
    CachePlan.Server vllm = new CachePlan.Server(0, false, 16, true);
    CachePlan unique = plan(vllm, PromptMode.UNIQUE, false, null, 530);
    assertEquals(0, unique.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, unique.outcome(48));
    assertEquals(CacheOutcome.UNPLANNED_HIT, unique.outcome(64));
    CachePlan shared = plan(vllm, PromptMode.SHARED_PREFIX, true, 256, 530);
    assertEquals(256, shared.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, shared.outcome(272));
    assertEquals(CacheOutcome.MISS, shared.outcome(32));
  }

  @Test
  void inexactCountsScaleThePrefixToTheServersTokens() {
    // 512 words counted, 700 server tokens: the 256-word prefix is planned as 350 tokens.
    CachePlan.Server estimate = new CachePlan.Server(1, true, 16, false);
    CachePlan p = plan(estimate, PromptMode.SHARED_PREFIX, true, 256, 700);
    assertEquals(336, p.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, p.outcome(368));
    assertEquals(CacheOutcome.HIT, p.outcome(290));
    assertEquals(CacheOutcome.PARTIAL, p.outcome(200));
  }

  @Test
  void asPlannedIsTheExpectedOutcome() {
    CachePlan hit = plan(SIMULATOR, PromptMode.REPEAT, true, null, 514);
    assertTrue(hit.asPlanned(CacheOutcome.HIT));
    assertFalse(hit.asPlanned(CacheOutcome.PARTIAL));
    CachePlan miss = plan(SIMULATOR, PromptMode.REPEAT, false, null, 514);
    assertTrue(miss.asPlanned(CacheOutcome.MISS));
    assertFalse(miss.asPlanned(CacheOutcome.UNPLANNED_HIT));
  }

  @Test
  void aServerNeedsABlockOfAtLeastOneToken() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new CachePlan.Server(0, true, 0, true));
    assertEquals("blockTokens: got 0, expected >= 1", e.getMessage());
  }

  @Test
  void outcomesReadBackFromTheirWireNames() {
    for (CacheOutcome o : CacheOutcome.values()) {
      assertEquals(o, CacheOutcome.fromWireName(o.wireName()));
    }
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> CacheOutcome.fromWireName("warm"));
    assertEquals(
        "cache outcome: got \"warm\", expected one of hit, partial, miss, unplanned_hit, unknown",
        e.getMessage());
  }

  @Test
  void aWarmStartIsMoreThanAnyRequestOfTheTestCouldHaveLeft() {
    // Unique: a hit into the nonce and beyond.
    CachePlan unique = plan(SIMULATOR, PromptMode.UNIQUE, false, null, 514);
    assertFalse(unique.warmStart(16));
    assertTrue(unique.warmStart(512));
    assertFalse(unique.warmStart(null));
    // A group's first request finding its prefix, on one machine.
    CachePlan first = plan(SIMULATOR, PromptMode.SHARED_PREFIX, false, 256, 514);
    assertTrue(first.warmStart(256));
    // A later request of the group finding its whole prompt.
    CachePlan later = plan(SIMULATOR, PromptMode.SHARED_PREFIX, true, 256, 514);
    assertFalse(later.warmStart(272));
    assertTrue(later.warmStart(512));
    // The first repeat request finding the prompt; a later one always may.
    assertTrue(plan(SIMULATOR, PromptMode.REPEAT, false, null, 514).warmStart(512));
    assertFalse(plan(SIMULATOR, PromptMode.REPEAT, true, null, 514).warmStart(512));
  }

  @Test
  void onSeveralMachinesAnotherShardMayHaveSentTheGroupOrRepeatPromptFirst() {
    CachePlan.Sent group = new CachePlan.Sent(PromptMode.SHARED_PREFIX, false, 256, 512, true);
    CachePlan first = CachePlan.of(SIMULATOR, group, 514);
    assertEquals(CacheOutcome.MISS, first.expected());
    assertFalse(first.warmStart(256));
    assertTrue(first.warmStart(512));
    CachePlan.Sent repeat = new CachePlan.Sent(PromptMode.REPEAT, false, null, 512, true);
    assertFalse(CachePlan.of(SIMULATOR, repeat, 514).warmStart(512));
    CachePlan.Sent unique = new CachePlan.Sent(PromptMode.UNIQUE, false, null, 512, true);
    assertTrue(CachePlan.of(SIMULATOR, unique, 514).warmStart(512));
  }

  @Test
  void aGroupsFirstRequestFindingAPrefixSentInFlightWithItIsAnUnplannedHitNotAWarmStart() {
    // Issue 29: on a 1-slot llama.cpp, measured requests 0 and 1 of a group went out 3 ms apart,
    // the slot served 1 first and 0 found the group prefix (3 template + 128 prefix tokens).
    CachePlan.Sent first = new CachePlan.Sent(PromptMode.SHARED_PREFIX, false, 128, 256);
    CachePlan alone = CachePlan.of(LLAMA, first, 262);
    CachePlan inFlight = CachePlan.of(LLAMA, first.withSentInFlight(), 262);
    assertEquals(CacheOutcome.MISS, inFlight.expected());
    assertEquals(CacheOutcome.UNPLANNED_HIT, inFlight.outcome(131));
    assertFalse(inFlight.warmStart(131));
    assertTrue(alone.warmStart(131));
  }

  @Test
  void aGroupsFirstRequestWithAnotherInFlightStillRevealsAWarmStartBeyondThePrefix() {
    // The other request shares the prefix, not this prompt's own nonce and text.
    CachePlan.Sent first =
        new CachePlan.Sent(PromptMode.SHARED_PREFIX, false, 128, 256).withSentInFlight();
    assertTrue(CachePlan.of(LLAMA, first, 262).warmStart(261));
  }

  @Test
  void theFirstRepeatRequestWithAnotherInFlightMayFindThePrompt() {
    CachePlan.Sent first = new CachePlan.Sent(PromptMode.REPEAT, false, null, 512);
    assertTrue(CachePlan.of(SIMULATOR, first, 514).warmStart(512));
    assertFalse(CachePlan.of(SIMULATOR, first.withSentInFlight(), 514).warmStart(512));
  }

  @Test
  void aUniquePromptWithARequestInFlightStillRevealsAWarmStart() {
    CachePlan.Sent unique =
        new CachePlan.Sent(PromptMode.UNIQUE, false, null, 512).withSentInFlight();
    assertTrue(CachePlan.of(SIMULATOR, unique, 514).warmStart(512));
  }

  /** A group prefix of 445 tokens sent by requests all still in prefill (the agent example's). */
  private static CachePlan inPrefill(CachePlan.Server server, Integer cached) {
    return CachePlan.of(
        server,
        new CachePlan.Sent(PromptMode.SHARED_PREFIX, true, 445, 573).withReadyPrefixTokens(0),
        583,
        cached);
  }

  @Test
  void aRequestSentWhileItsPrefixWasInPrefillThatFoundNothingIsAPlannedMiss() {
    // Before: planned 432 (a hit), found 0: a miss, short of the plan by 432 tokens.
    CachePlan p = inPrefill(SIMULATOR, 0);
    assertEquals(0, p.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, p.expected());
    assertEquals(CacheOutcome.MISS, p.outcome(0));
    assertTrue(p.asPlanned(p.outcome(0)));
    assertFalse(p.warmStart(0));
  }

  @Test
  void aRequestSentWhileItsPrefixWasInPrefillThatFoundItIsAPlannedHit() {
    // Queued behind the prefill (llama.cpp with one slot): the prefix, as after it.
    CachePlan p = inPrefill(SIMULATOR, 448);
    assertEquals(432, p.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, p.expected());
    assertEquals(CacheOutcome.HIT, p.outcome(448));
  }

  @Test
  void aRequestSentWhileItsPrefixWasInPrefillThatFoundPartOfItPlansThatPart() {
    CachePlan p = inPrefill(SIMULATOR, 208);
    assertEquals(208, p.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, p.outcome(208));
  }

  @Test
  void aRequestSentWhileItsPrefixWasInPrefillFindingLittleBeyondTheTemplateIsAMiss() {
    // Within a nonce's tolerance of the ready part: no part of the prefix found.
    CachePlan p = inPrefill(SIMULATOR, 16);
    assertEquals(0, p.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, p.outcome(16));
  }

  @Test
  void aRequestSentWhileItsPrefixWasInPrefillStillHasTheWholePrefixAsItsCeiling() {
    CachePlan p = inPrefill(LLAMA, 582);
    assertEquals(448, p.plannedCachedTokens());
    assertEquals(CacheOutcome.UNPLANNED_HIT, p.outcome(582));
  }

  @Test
  void aRequestSentWhileItsPrefixWasInPrefillWithoutCachedTokensExpectsTheReadyPart() {
    CachePlan p = inPrefill(SIMULATOR, null);
    assertEquals(0, p.plannedCachedTokens());
    assertEquals(CacheOutcome.UNKNOWN, p.outcome(null));
  }

  @Test
  void aRequestWhosePrefixWasReadyStillPlansTheHitWhateverItFound() {
    CachePlan p =
        CachePlan.of(
            SIMULATOR, new CachePlan.Sent(PromptMode.SHARED_PREFIX, true, 445, 573), 583, 0);
    assertEquals(432, p.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, p.outcome(0));
    assertFalse(p.asPlanned(p.outcome(0)));
  }

  @Test
  void aRepeatPromptSentWhileItsFirstWasInPrefillPlansWhatItFound() {
    CachePlan.Sent sent =
        new CachePlan.Sent(PromptMode.REPEAT, true, null, 512).withReadyPrefixTokens(0);
    assertEquals(0, CachePlan.of(SIMULATOR, sent, 514, 0).plannedCachedTokens());
    assertEquals(512, CachePlan.of(SIMULATOR, sent, 514, 512).plannedCachedTokens());
  }

  @Test
  void aTraceRowExpectsItsReadyBlocksAndTakesWhatItFoundOfTheRest() {
    // Blocks of 512: the first ready, the second sent by a row still in prefill.
    CachePlan.Sent sent =
        new CachePlan.Sent(PromptMode.TRACE, true, 1024, 2000).withReadyPrefixTokens(512);
    CachePlan none = CachePlan.of(LLAMA, sent, 2003, 515);
    assertEquals(515, none.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, none.outcome(515));
    CachePlan both = CachePlan.of(LLAMA, sent, 2003, 1027);
    assertEquals(1027, both.plannedCachedTokens());
    // Short of the ready block: a shortfall, as any.
    CachePlan shortOfIt = CachePlan.of(LLAMA, sent, 2003, 100);
    assertEquals(515, shortOfIt.plannedCachedTokens());
    assertEquals(CacheOutcome.PARTIAL, shortOfIt.outcome(100));
  }

  @Test
  void aNegativeReadyPartIsRefused() {
    CachePlan.Sent sent = new CachePlan.Sent(PromptMode.SHARED_PREFIX, true, 445, 573);
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> sent.withReadyPrefixTokens(-1));
    assertEquals("readyPrefixTokens: got -1, expected >= 0 or null", e.getMessage());
  }
}
