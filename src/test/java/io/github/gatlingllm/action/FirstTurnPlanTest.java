package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.AgentFeeder;
import io.github.gatlingllm.feeder.AgentSession;
import io.github.gatlingllm.feeder.AgentWorkload;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.AgentSpec;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The cache plan of a session's first turn (an agent session's, a conversation's), whose group
 * prefix another session sent: expected once that session had its first token before this turn was
 * sent; sent while it was still in prefill, the turn takes what the server found (issue 40:
 * AgentSessionSimulation warned "cache below plan" against the embedded simulator, whose first
 * turns sent together with their group's first were planned hits and found nothing).
 *
 * <p>Literal figures of the agent example on the embedded simulator (a 1-token lead, blocks of 16):
 * a 256-token system prompt and 4 tools of 48-token descriptions, 445 tokens shared, 583 prompt
 * tokens in all; a hit finds 448.
 */
class FirstTurnPlanTest {

  private static final CachePlan.Server SIMULATOR = new CachePlan.Server(1, true, 16, true);

  private final List<AgentWorkload> agents = new ArrayList<>();
  private final List<ConversationWorkload> chats = new ArrayList<>();

  @AfterEach
  void close() {
    agents.forEach(AgentWorkload::close);
    chats.forEach(ConversationWorkload::close);
  }

  private AgentWorkload agents(int systemTokens, int tools, int warmup) {
    AgentSource source =
        new AgentSource(
            new AgentSpec(tools, 48, 128, systemTokens, 1, 192, 4, 0, 0, "auto", 8192),
            EstimatedTokenCounter.INSTANCE,
            7,
            "agent-plan",
            "measured");
    AgentWorkload w = new AgentWorkload("agents", source, 6, warmup, Shard.SINGLE);
    agents.add(w);
    return w;
  }

  private static AgentSession session(AgentWorkload w) {
    return (AgentSession) w.next().get(AgentFeeder.SESSION);
  }

  private static RequestRecord answered(String request, int prompt, int cached) {
    return RequestRecord.builder()
        .request(request)
        .phase("measured")
        .index(0L)
        .status(RequestStatus.OK)
        .startMs(1_000)
        .e2eMs(150.0)
        .promptTokens(prompt)
        .promptTokensExact(true)
        .cachedTokens(cached)
        .completionTokens(10)
        .completionTokensExact(true)
        .build();
  }

  private static RequestRecord agentTurn(
      AgentWorkload w, AgentSession s, PrefixLedger.Ticket prefix, int cached) {
    return new AgentSender.AgentTurn(w, s, prefix, false, null, 0)
        .complete(answered("agent", 583, cached), SIMULATOR, 0);
  }

  @Test
  void anAgentsFirstTurnSentWhileItsGroupsFirstWasInPrefillAndFindingNothingIsAPlannedMiss() {
    AgentWorkload w = agents(256, 4, 0);
    AgentSession first = session(w);
    AgentSession second = session(w);
    w.sendPrefix(first); // sent, no first token yet
    PrefixLedger.Ticket during = w.sendPrefix(second);

    RequestRecord r = agentTurn(w, second, during, 0);

    assertEquals(0, r.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, r.cachePlanned());
    assertEquals(CacheOutcome.MISS, r.cache());
    assertTrue(r.cacheAsPlanned());
  }

  @Test
  void anAgentsFirstTurnSentWhileItsGroupsFirstWasInPrefillAndQueuedBehindItIsAPlannedHit() {
    AgentWorkload w = agents(256, 4, 0);
    AgentSession first = session(w);
    AgentSession second = session(w);
    w.sendPrefix(first);
    PrefixLedger.Ticket during = w.sendPrefix(second);

    RequestRecord r = agentTurn(w, second, during, 448);

    assertEquals(432, r.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, r.cache());
    assertTrue(r.cacheAsPlanned());
    assertFalse(r.warmStart());
  }

  @Test
  void anAgentsFirstTurnSentAfterItsGroupsFirstHadItsFirstTokenIsAPlannedHit() {
    AgentWorkload w = agents(256, 4, 0);
    AgentSession first = session(w);
    AgentSession second = session(w);
    PrefixLedger.Ticket leader = w.sendPrefix(first);
    leader.prefillEnded();
    PrefixLedger.Ticket after = w.sendPrefix(second);

    RequestRecord hit = agentTurn(w, second, after, 448);
    assertEquals(432, hit.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, hit.cache());

    // The same turn finding nothing is a shortfall: the prefix was there to find.
    RequestRecord lost = agentTurn(w, second, after, 0);
    assertEquals(432, lost.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, lost.cache());
    assertFalse(lost.cacheAsPlanned());
  }

  @Test
  void theGroupsFirstAgentTurnIsAPlannedMiss() {
    AgentWorkload w = agents(256, 4, 0);
    AgentSession first = session(w);
    RequestRecord r = agentTurn(w, first, w.sendPrefix(first), 0);
    assertEquals(0, r.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, r.cache());
    assertTrue(r.cacheAsPlanned());
  }

  @Test
  void theGroupsFirstAgentTurnWithAnotherSentDuringItsPrefillIsPlannedAsItFound() {
    // Before: the other reached the server first, this one found its prefix: an unplanned hit.
    AgentWorkload w = agents(256, 4, 0);
    AgentSession first = session(w);
    AgentSession second = session(w);
    PrefixLedger.Ticket leader = w.sendPrefix(first);
    w.sendPrefix(second);
    leader.prefillEnded();

    RequestRecord r = agentTurn(w, first, leader, 448);

    assertEquals(432, r.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, r.cache());
    assertTrue(r.cacheAsPlanned());
    assertFalse(r.warmStart());
  }

  @Test
  void withoutASystemPromptTheToolsAreSharedByTheWarmupAndMeasuredSessions() {
    // Before: the measured phase's first session planned a miss and found the warmup's tools.
    AgentWorkload w = agents(0, 4, 1);
    AgentSession warm = session(w);
    AgentSession measured = session(w);
    assertEquals("warmup", warm.phase());
    w.sendPrefix(warm).prefillEnded();
    PrefixLedger.Ticket prefix = w.sendPrefix(measured);

    assertEquals(1, prefix.sentLead());
    assertTrue(prefix.settled());
  }

  @Test
  void withASystemPromptEachPhaseHasItsOwnGroupPrefix() {
    AgentWorkload w = agents(256, 4, 1);
    AgentSession warm = session(w);
    AgentSession measured = session(w);
    w.sendPrefix(warm).prefillEnded();

    assertEquals(0, w.sendPrefix(measured).sentLead());
  }

  @Test
  void sessionsWithNeitherSystemPromptNorToolsShareNoPrefix() {
    AgentWorkload w = agents(0, 0, 0);
    assertEquals(null, w.sendPrefix(session(w)));
  }

  private ConversationWorkload chats() {
    ConversationSource source =
        new ConversationSource(
            EstimatedTokenCounter.INSTANCE, 7, "chat-plan", "measured", 96, 512, 1, 3, 3, 0, 0);
    ConversationWorkload w =
        new ConversationWorkload("chat", source, 4, 0, Shard.SINGLE, null, false);
    chats.add(w);
    return w;
  }

  private static Conversation conversation(ConversationWorkload w) {
    return (Conversation) w.next().get(ConversationFeeder.CONVERSATION);
  }

  private static RequestRecord chatTurn(
      ConversationWorkload w, Conversation c, PrefixLedger.Ticket system, int cached) {
    return new SentTurn(w, c, c.nextUserMessage(), system, null, 0)
        .complete(answered("chat", 611, cached), SIMULATOR, 0);
  }

  @Test
  void aConversationsFirstTurnSentWhileItsGroupsFirstWasInPrefillIsPlannedAsItFound() {
    ConversationWorkload w = chats();
    Conversation first = conversation(w);
    Conversation second = conversation(w);
    w.sendSystem(first);
    PrefixLedger.Ticket during = w.sendSystem(second);

    RequestRecord miss = chatTurn(w, second, during, 0);
    assertEquals(0, miss.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, miss.cache());
    assertTrue(miss.cacheAsPlanned());

    RequestRecord hit = chatTurn(w, second, during, 512);
    assertEquals(512, hit.plannedCachedTokens());
    assertEquals(CacheOutcome.HIT, hit.cache());
  }

  @Test
  void aConversationsFirstTurnSentAfterItsGroupsFirstHadItsFirstTokenIsAPlannedHit() {
    ConversationWorkload w = chats();
    Conversation first = conversation(w);
    Conversation second = conversation(w);
    w.sendSystem(first).prefillEnded();
    PrefixLedger.Ticket after = w.sendSystem(second);

    RequestRecord lost = chatTurn(w, second, after, 0);
    assertEquals(512, lost.plannedCachedTokens());
    assertEquals(CacheOutcome.MISS, lost.cache());
    assertFalse(lost.cacheAsPlanned());
  }
}
