package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.api.ChatMessage;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ConversationWorkload}, its {@link Conversation}s and feeder, without Gatling. */
class ConversationWorkloadTest {

  private final List<ConversationWorkload> made = new ArrayList<>();

  @AfterEach
  void close() {
    made.forEach(ConversationWorkload::close);
  }

  /** 3 turns of 8-token user messages after a 12-token system prompt (2 groups), seed 7. */
  private ConversationWorkload workload(long budget, long warmup, Integer maxContext) {
    ConversationSource source =
        new ConversationSource(
            EstimatedTokenCounter.INSTANCE, 7, "conv-test", "measured", 8, 12, 2, 3, 3, 0, 0);
    ConversationWorkload w =
        new ConversationWorkload("chat", source, budget, warmup, Shard.SINGLE, maxContext, false);
    made.add(w);
    return w;
  }

  private static RequestRecord ok(int prompt, int completion) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(1_000)
        .promptTokens(prompt)
        .promptTokensExact(true)
        .cachedTokens(0)
        .completionTokens(completion)
        .completionTokensExact(true)
        .ttftMs(5.0)
        .timeToFirstEventMs(5.0)
        .tpotMs(1.0)
        .e2eMs(20.0)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  private static RequestRecord failed() {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(1_000)
        .e2eMs(3.0)
        .httpStatus(400)
        .status(RequestStatus.HTTP_ERROR)
        .error("400")
        .build();
  }

  private static Conversation conversation(Map<String, Object> record) {
    return (Conversation) record.get(ConversationFeeder.CONVERSATION);
  }

  @Test
  void handsOutWarmupThenMeasuredConversationsThenDone() {
    ConversationWorkload w = workload(2, 1, null);
    ConversationFeeder feeder = new ConversationFeeder(w);
    assertEquals("warmup 0", phaseIndex(conversation(feeder.next())));
    assertEquals("measured 0", phaseIndex(conversation(feeder.next())));
    assertEquals("measured 1", phaseIndex(conversation(feeder.next())));
    Map<String, Object> done = feeder.next();
    assertEquals(true, done.get(ConversationFeeder.DONE));
    assertNull(done.get(ConversationFeeder.CONVERSATION));
    assertTrue(feeder.hasNext());
    assertFalse(w.spent());
  }

  private static String phaseIndex(Conversation c) {
    return c.phase() + " " + c.index();
  }

  @Test
  void eachTurnSendsTheSystemPromptEveryEarlierMessageAndReplyThenTheNewMessage() {
    ConversationWorkload w = workload(1, 0, null);
    Conversation c = conversation(w.next());
    Prompt first = c.nextUserMessage();
    assertEquals(1, c.nextTurn());
    assertEquals(12, c.contextTokens());
    assertEquals(20, c.plannedTokens(first));
    assertEquals(
        List.of("system", "user"), c.messagesWith(first).stream().map(ChatMessage::role).toList());
    c.sending(1_000);
    c.answered(first, ok(24, 5), "the model is running in");
    Prompt second = c.nextUserMessage();
    assertEquals(2, c.nextTurn());
    assertEquals(28, c.contextTokens());
    assertTrue(c.exactContext());
    assertEquals(37, c.plannedTokens(second));
    List<ChatMessage> messages = c.messagesWith(second);
    assertEquals(
        List.of("system", "user", "assistant", "user"),
        messages.stream().map(ChatMessage::role).toList());
    assertEquals(first.text(), messages.get(1).content());
    assertEquals("the model is running in", messages.get(2).content());
    assertEquals(second.text(), messages.get(3).content());
    assertFalse(c.over());
  }

  @Test
  void aConversationCompletesAtItsLastTurnAndItsDigestJoinsThePhase() {
    ConversationWorkload w = workload(1, 0, null);
    Conversation c = conversation(w.next());
    List<String> digests = new ArrayList<>();
    for (int turn = 1; turn <= 3; turn++) {
      Prompt user = c.nextUserMessage();
      digests.add(user.digest());
      c.sending(1_000);
      c.answered(user, ok(20 * turn, 5), "reply " + turn);
    }
    assertTrue(c.over());
    assertEquals(Conversation.End.COMPLETED, c.end());
    assertEquals(0, c.thinkMs());
    assertEquals(digests, c.userDigests());
    assertTrue(w.spent());
    Conversations.Phase measured = w.toRecord().measured();
    assertEquals(1L, measured.conversations());
    assertEquals(3L, measured.turns());
    assertEquals(1L, measured.completed());
    assertEquals(ConversationSource.conversationDigest(digests), conversationDigest(w, digests));
  }

  private static String conversationDigest(ConversationWorkload w, List<String> digests) {
    ConversationSource fresh = w.measured().forPhase("measured");
    fresh.ended(0, digests);
    assertEquals(fresh.digest(), w.measured().digest());
    return ConversationSource.conversationDigest(digests);
  }

  @Test
  void aTurnBeyondTheContextWindowEndsTheConversationUnsent() {
    // Turn 2's prompt: 24 + 5 tokens of turn 1, 8 new, 16 of template, and 16 max_tokens = 69.
    ConversationWorkload w = workload(1, 0, 68);
    Conversation c = conversation(w.next());
    Prompt first = c.nextUserMessage();
    assertFalse(c.exceeds(first, 16, 68));
    c.answered(first, ok(24, 5), "reply");
    Prompt second = c.nextUserMessage();
    assertTrue(c.exceeds(second, 16, 68));
    assertFalse(c.exceeds(second, 15, 68));
    assertFalse(c.exceeds(second, 16, null));
    c.endByContextLimit(2_000);
    assertTrue(c.over());
    assertEquals(Conversation.End.CONTEXT_LIMIT, c.end());
    assertEquals(List.of(first.digest()), c.userDigests());
    Conversations.Phase measured = w.toRecord().measured();
    assertEquals(1L, measured.endedByContextLimit());
    assertEquals(1L, measured.turns());
    assertTrue(w.spent());
  }

  @Test
  void aFailedTurnEndsTheConversation() {
    ConversationWorkload w = workload(1, 0, null);
    Conversation c = conversation(w.next());
    c.answered(c.nextUserMessage(), failed(), null);
    assertEquals(Conversation.End.ERROR, c.end());
    Conversations.Phase measured = w.toRecord().measured();
    assertEquals(1L, measured.endedByError());
  }

  @Test
  void measuredConversationsWaitForTheWarmupOnesAndSystemPromptsAreSentOncePerGroup() {
    ConversationWorkload w = workload(1, 1, null);
    Conversation warm = conversation(w.next());
    Conversation measured = conversation(w.next());
    AtomicInteger released = new AtomicInteger();
    assertTrue(w.holdUntilWarmedUp(released::incrementAndGet));
    assertEquals(0, w.sendSystem(warm).sentLead());
    assertEquals(1, w.sendSystem(warm).sentLead());
    assertEquals(0, w.sendSystem(measured).sentLead());
    warm.failed(1_000);
    assertEquals(1, released.get());
    assertFalse(w.holdUntilWarmedUp(released::incrementAndGet));
  }

  @Test
  void thinkTimesAreTheSourcesDrawsAfterEachAnsweredTurn() {
    ConversationSource source =
        new ConversationSource(
            EstimatedTokenCounter.INSTANCE, 7, "conv-test", "measured", 8, 12, 3, 4, 4, 100, 500);
    ConversationWorkload w =
        new ConversationWorkload("chat", source, 1, 0, Shard.SINGLE, null, false);
    made.add(w);
    Conversation c = conversation(w.next());
    assertEquals(0, c.thinkMs());
    c.answered(c.nextUserMessage(), ok(20, 5), "r");
    assertEquals(391, c.thinkMs());
    assertEquals(391, ConversationFeeder.thinkMs(c));
    assertTrue(ConversationFeeder.goesOn(true, false, c));
    assertTrue(ConversationFeeder.goesOn(true, true, null));
    assertTrue(ConversationFeeder.goesOn(false, null, null));
  }

  @Test
  void anOverConversationEndsItsLoopButEntersANewOneOnceToBeRefused() {
    ConversationSource source =
        new ConversationSource(
            EstimatedTokenCounter.INSTANCE, 7, "conv-test", "measured", 8, 0, 1, 1, 1, 0, 0);
    ConversationWorkload w =
        new ConversationWorkload("chat", source, 1, 0, Shard.SINGLE, null, false);
    made.add(w);
    Conversation c = conversation(w.next());
    assertTrue(ConversationFeeder.goesOn(true, false, c, true));
    c.answered(c.nextUserMessage(), ok(20, 5), "r");
    assertTrue(c.over());
    assertFalse(ConversationFeeder.goesOn(true, false, c, false));
    assertTrue(ConversationFeeder.goesOn(true, false, c, true));
  }
}
