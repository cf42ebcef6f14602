package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.function.Consumer;
import java.util.function.Predicate;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Sends a fed conversation's next turn (the system prompt, every earlier message and reply
 * as received, the new user message), or ends it without a request when the turn would exceed
 * {@code llm.maxContextTokens}, or ends the virtual user when the workload's budget is spent. A
 * measured conversation's first turn waits until every warmup conversation has ended.
 */
final class ConversationSender extends TurnSender {

  private static final Logger LOG = LoggerFactory.getLogger(ConversationSender.class);

  private final Consumer<ConversationWorkload> joined;
  private final Predicate<String> userEndedByBudget;

  /**
   * A sender of an action's conversation turns.
   *
   * @param parts what it works with, never null
   * @param joined the run's note that a conversation workload has a user ({@link
   *     RunContext#conversationStarted})
   * @param userEndedByBudget the run's answer to a user fed past its budget, by scenario ({@link
   *     RunContext#userEndedByBudget})
   */
  ConversationSender(
      Parts parts, Consumer<ConversationWorkload> joined, Predicate<String> userEndedByBudget) {
    super(parts, false);
    this.joined = joined;
    this.userEndedByBudget = userEndedByBudget;
  }

  @Override
  public Gate gate(Session session) {
    Gate refused = refusal(session);
    if (refused != null) {
      return refused;
    }
    scala.collection.immutable.Map<String, Object> attributes = session.attributes();
    return admit(
        (ConversationWorkload) attributes.get(ConversationFeeder.WORKLOAD).getOrElse(() -> null),
        attributes.get(ConversationFeeder.DONE).getOrElse(() -> null),
        (Conversation) attributes.get(ConversationFeeder.CONVERSATION).getOrElse(() -> null),
        session.scenario(),
        () -> session.eventLoop().execute(() -> send(session)));
  }

  /**
   * The answer for a user inside {@code conversation(...)}: the run stops when the user holds no
   * conversation, one that has ended already, or one whose first turn cannot fit the context; the
   * user ends when the workload's budget is spent; a measured conversation's first turn is held
   * until every warmup conversation has ended.
   *
   * @param workload the fed conversation workload, or null when none was fed
   * @param done the record's {@link ConversationFeeder#DONE}, or null
   * @param conversation the fed conversation (absent on a {@code DONE} record: then any)
   * @param scenario the user's scenario
   * @param resume sends the turn once the warmup has ended (when this returns {@link Gate#HELD})
   * @return never null
   */
  Gate admit(
      ConversationWorkload workload,
      Object done,
      Conversation conversation,
      String scenario,
      Runnable resume) {
    if (workload == null) {
      return new Gate.StopRun(
          "conversation(llm(\""
              + name
              + "\")...): the virtual user holds no conversation: feed a conversations() feeder"
              + " before it (feed(conversations()...).exec(conversation(llm(\""
              + name
              + "\")...)))",
          true);
    }
    if (Boolean.TRUE.equals(done)) {
      return LlmAction.spentUser(userEndedByBudget.test(scenario));
    }
    // In the record's conversations even if no turn is ever sent (every one ended by the window).
    joined.accept(workload);
    if (conversation.turnsSent() == 0 && !conversation.over()) {
      String misfit = workload.contextMisfit(settings.maxTokens());
      if (misfit != null) {
        return new Gate.StopRun(
            "conversations " + workload.name() + ", llm(\"" + name + "\"): " + misfit, true);
      }
    }
    if (conversation.over()) {
      // Only on entering a conversation(...) loop: the loop stops once its conversation is over.
      return new Gate.StopRun(
          "conversation(llm(\""
              + name
              + "\")...): the fed conversation has ended already (a conversation(...) before this"
              + " one ran it), so this one would send nothing: feed a conversation before each"
              + " conversation(...) (feed(conversations()...).exec(conversation(llm(\""
              + name
              + "\")...)))",
          true);
    }
    if (conversation.turnsSent() == 0
        && !Phase.isWarmup(conversation.phase())
        && workload.holdUntilWarmedUp(resume)) {
      // Held until the warmup ends: the wait is the test's own, not a schedule lag.
      return Gate.HELD;
    }
    return Gate.GO;
  }

  private static Conversation conversation(Session session) {
    return (Conversation) session.attributes().get(ConversationFeeder.CONVERSATION).get();
  }

  /**
   * The warning said once when a conversation ends before a turn that would not fit the context,
   * e.g. {@code workload chats: measured conversation 3 ends before turn 4 of 6: its prompt of
   * about 7900 tokens and max_tokens 512 would exceed llm.maxContextTokens=8192; ...}.
   */
  static String contextLimitMessage(
      String workload,
      String phase,
      long index,
      int turn,
      int turns,
      long promptTokens,
      int templateTokens,
      Integer maxTokens,
      Integer maxContextTokens) {
    return "workload "
        + workload
        + ": "
        + phase
        + " conversation "
        + index
        + " ends before turn "
        + turn
        + " of "
        + turns
        + ": its prompt of about "
        + promptTokens
        + " tokens ("
        + templateTokens
        + " of them the template allowance) and max_tokens "
        + maxTokens
        + " ("
        + (promptTokens + (maxTokens == null ? 0 : maxTokens))
        + " tokens in all) would exceed llm.maxContextTokens="
        + maxContextTokens
        + "; the turn is not sent (each such end is counted in llm-run.json's conversations,"
        + " ended_by_context_limit; this is said once)";
  }

  /**
   * Sends the conversation's next turn: the system prompt, every earlier message and reply as
   * received, the new user message; or ends the conversation without a request when the turn would
   * exceed {@code llm.maxContextTokens}, and the user goes on.
   */
  @Override
  public void send(Session session) {
    ConversationWorkload workload =
        (ConversationWorkload) session.attributes().get(ConversationFeeder.WORKLOAD).get();
    Conversation conversation = conversation(session);
    Prompt user = conversation.nextUserMessage();
    long now = run.gatling().nowMillis();
    if (conversation.exceeds(user, settings.maxTokens(), workload.maxContextTokens())) {
      if (contextLimitSaid.compareAndSet(false, true)) {
        LOG.warn(
            "{}",
            contextLimitMessage(
                workload.name(),
                conversation.phase(),
                conversation.index(),
                conversation.nextTurn(),
                conversation.turns(),
                conversation.plannedTokens(user) + ConversationPlan.TURN_TEMPLATE_TOKENS,
                ConversationPlan.TURN_TEMPLATE_TOKENS,
                settings.maxTokens(),
                workload.maxContextTokens()));
      }
      conversation.endByContextLimit(now);
      goOn(session);
      return;
    }
    sendTurn(
        session,
        LOG,
        () -> outgoing(session, workload, conversation, user, now),
        conversation::failed);
  }

  /**
   * The previous reply's id a later turn names ({@code llm.responses.history=server}).
   *
   * @throws IllegalStateException when the previous reply gave none: the turn is not sent
   */
  static String previousId(String id, int turn) {
    if (id == null) {
      throw new IllegalStateException(
          "llm.responses.history=server: turn "
              + turn
              + " must name the previous reply's id (previous_response_id), but that reply gave"
              + " none (no response.created with response.id, nor an id in its body)");
    }
    return id;
  }

  private Outgoing outgoing(
      Session session,
      ConversationWorkload workload,
      Conversation conversation,
      Prompt user,
      long now) {
    Dialect dialect = settings.endpoint().dialect();
    boolean namesPrevious = parts.history().on() && conversation.turnsSent() > 0;
    String body =
        namesPrevious
            ? dialect.body(
                settings,
                List.of(new Turn.Message("user", user.text())),
                previousId(conversation.previousResponseId(), conversation.nextTurn()))
            : dialect.body(settings, Turn.of(conversation.messagesWith(user)));
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    // Marked as sent in the order requests go out: the first sent of a group plans a miss.
    PrefixLedger.Ticket system =
        conversation.turnsSent() == 0 ? workload.sendSystem(conversation) : null;
    SentTurn turn =
        new SentTurn(
            workload, conversation, user, system, namesPrevious ? parts.history() : null, now);
    RequestIdentity identity =
        new RequestIdentity(
            name,
            conversation.phase(),
            conversation.index(),
            user.promptId(),
            user.digest(),
            conversation.group(),
            conversation.system() == null ? null : conversation.system().plannedCount().value(),
            turn.plannedTokens());
    return new Outgoing(identity, bytes, turn, run.client().firstSend(session));
  }
}
