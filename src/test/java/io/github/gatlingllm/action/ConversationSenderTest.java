package io.github.gatlingllm.action;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.function.Predicate;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ConversationSender}: its answers at the gate, one test per answer, and its warning. */
class ConversationSenderTest {

  private static final Runnable NO_RESUME =
      () -> {
        throw new AssertionError("resumed");
      };

  private static final Predicate<String> NOT_ASKED =
      s -> {
        throw new AssertionError("asked");
      };

  private final List<ConversationWorkload> made = new ArrayList<>();
  private final List<ConversationWorkload> joined = new ArrayList<>();

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

  private static Conversation conversation(Map<String, Object> record) {
    return (Conversation) record.get(ConversationFeeder.CONVERSATION);
  }

  private ConversationSender sender(Predicate<String> userEndedByBudget) {
    return new ConversationSender(
        new TurnSender.Parts(
            "chat",
            null,
            RequestSettings.streaming(WireApi.CHAT, "m", 16),
            null,
            null,
            ServerHistory.OFF),
        joined::add,
        userEndedByBudget);
  }

  @Test
  void aUserWithoutAConversationStopsTheRunAsACrash() {
    assertEquals(
        new Gate.StopRun(
            "conversation(llm(\"chat\")...): the virtual user holds no conversation: feed a"
                + " conversations() feeder before it"
                + " (feed(conversations()...).exec(conversation(llm(\"chat\")...)))",
            true),
        sender(NOT_ASKED).admit(null, null, null, "scn", NO_RESUME));
  }

  @Test
  void aSpentUserEndsAfterASecondWhileOtherScenariosRunOn() {
    assertEquals(
        new Gate.EndUser(1_000),
        sender(s -> false).admit(workload(1, 0, null), true, null, "scn", NO_RESUME));
  }

  @Test
  void theLastSpentUserStopsTheRunAsNoCrash() {
    assertEquals(
        new Gate.StopRun("gatling-llm: every prompt budget is spent", false),
        sender(s -> true).admit(workload(1, 0, null), true, null, "scn", NO_RESUME));
  }

  @Test
  void aFedConversationGoesAndItsWorkloadJoinsTheRecord() {
    ConversationWorkload w = workload(1, 0, null);
    Conversation c = conversation(w.next());

    assertSame(Gate.GO, sender(NOT_ASKED).admit(w, false, c, "scn", NO_RESUME));
    assertEquals(List.of(w), joined);
  }

  @Test
  void aFirstTurnThatCannotFitTheContextStopsTheRunAsACrash() {
    ConversationWorkload w = workload(1, 0, 40);
    Conversation c = conversation(w.next());

    assertEquals(
        new Gate.StopRun("conversations chat, llm(\"chat\"): " + w.contextMisfit(16), true),
        sender(NOT_ASKED).admit(w, false, c, "scn", NO_RESUME));
    assertEquals(
        "llm.maxContextTokens: got 40, expected at least 52 (the first turn's system prompt 12 +"
            + " user message 8 + template allowance 16 + max_tokens 16), or no conversation gets"
            + " past its first turn",
        w.contextMisfit(16));
  }

  @Test
  void aConversationThatHasEndedStopsTheRunAsACrash() {
    ConversationWorkload w = workload(1, 0, null);
    Conversation c = conversation(w.next());
    c.failed(0);

    assertEquals(
        new Gate.StopRun(
            "conversation(llm(\"chat\")...): the fed conversation has ended already (a"
                + " conversation(...) before this one ran it), so this one would send nothing:"
                + " feed a conversation before each conversation(...)"
                + " (feed(conversations()...).exec(conversation(llm(\"chat\")...)))",
            true),
        sender(NOT_ASKED).admit(w, false, c, "scn", NO_RESUME));
  }

  @Test
  void aMeasuredConversationsFirstTurnIsHeldUntilTheWarmupEndsThenResumed() {
    ConversationWorkload w = workload(1, 1, null);
    Conversation warmup = conversation(w.next());
    Conversation measured = conversation(w.next());
    AtomicInteger resumed = new AtomicInteger();
    ConversationSender sender = sender(NOT_ASKED);

    assertSame(Gate.GO, sender.admit(w, false, warmup, "scn", NO_RESUME));
    assertSame(Gate.HELD, sender.admit(w, false, measured, "scn", resumed::incrementAndGet));
    assertEquals(0, resumed.get());
    warmup.failed(0);
    assertEquals(1, resumed.get());
  }

  @Test
  void theContextLimitWarningNamesTheWorkloadTheConversationAndTheBound() {
    assertEquals(
        "workload conversations: measured conversation 3 ends before turn 4 of 6: its prompt of"
            + " about 7900 tokens (16 of them the template allowance) and max_tokens 512 (8412"
            + " tokens in all) would exceed llm.maxContextTokens=8192; the turn is not sent (each such end is counted in llm-run.json's conversations,"
            + " ended_by_context_limit; this is said once)",
        ConversationSender.contextLimitMessage(
            "conversations", "measured", 3, 4, 6, 7900, 16, 512, 8192));
  }

  @Test
  void aLaterServerHistoryTurnNamesThePreviousReply() {
    assertEquals("resp_1", ConversationSender.previousId("resp_1", 2));
  }

  @Test
  void aLaterServerHistoryTurnWithoutThePreviousReplysIdIsNotSent() {
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> ConversationSender.previousId(null, 3));
    assertEquals(
        "llm.responses.history=server: turn 3 must name the previous reply's id"
            + " (previous_response_id), but that reply gave none (no response.created with"
            + " response.id, nor an id in its body)",
        e.getMessage());
  }
}
