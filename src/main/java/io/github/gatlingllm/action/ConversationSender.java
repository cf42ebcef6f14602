package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.openai.RequestBodies;
import io.github.gatlingllm.openai.RequestSettings;
import io.github.gatlingllm.prompt.Prompt;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * Not API. The LLM action's part for conversations: sends a fed conversation's next turn (the
 * system prompt, every earlier message and reply as received, the new user message), or ends it
 * without a request when the turn would exceed {@code llm.maxContextTokens}, or ends the virtual
 * user when the workload's budget is spent. A measured conversation's first turn waits until every
 * warmup conversation has ended.
 */
final class ConversationSender {

  private static final Logger LOG = LoggerFactory.getLogger(ConversationSender.class);

  private final LlmAction action;
  private final AtomicBoolean contextLimitSaid = new AtomicBoolean();

  ConversationSender(LlmAction action) {
    this.action = action;
  }

  /**
   * Runs the action for a session inside {@code conversation(...)} or fed a conversation workload.
   */
  void execute(Session session) {
    Option<Object> fed = session.attributes().get(ConversationFeeder.WORKLOAD);
    if (fed.isEmpty()) {
      action.stop(
          session,
          "conversation(llm(\""
              + action.name()
              + "\")...): the virtual user holds no conversation: feed a conversations() feeder"
              + " before it (feed(conversations()...).exec(conversation(llm(\""
              + action.name()
              + "\")...)))");
      return;
    }
    if (Boolean.TRUE.equals(
        session.attributes().get(ConversationFeeder.DONE).getOrElse(() -> null))) {
      action.endSpentUser(session);
      return;
    }
    ConversationWorkload workload = (ConversationWorkload) fed.get();
    // In the record's conversations even if no turn is ever sent (every one ended by the window).
    action.run().conversationStarted(workload);
    Conversation conversation =
        (Conversation) session.attributes().get(ConversationFeeder.CONVERSATION).get();
    if (conversation.turnsSent() == 0 && !conversation.over()) {
      String misfit = workload.contextMisfit(action.body().maxTokens());
      if (misfit != null) {
        action.stop(
            session,
            "conversations " + workload.name() + ", llm(\"" + action.name() + "\"): " + misfit);
        return;
      }
    }
    if (conversation.over()) {
      // Only on entering a conversation(...) loop: the loop stops once its conversation is over.
      action.stop(
          session,
          "conversation(llm(\""
              + action.name()
              + "\")...): the fed conversation has ended already (a conversation(...) before this"
              + " one ran it), so this one would send nothing: feed a conversation before each"
              + " conversation(...) (feed(conversations()...).exec(conversation(llm(\""
              + action.name()
              + "\")...)))");
      return;
    }
    if (conversation.turnsSent() == 0
        && !"warmup".equals(conversation.phase())
        && workload.holdUntilWarmedUp(
            () -> session.eventLoop().execute(() -> send(session, workload, conversation)))) {
      // Held until the warmup ends: the wait is the test's own, not a schedule lag.
      action.run().client().unscheduled(session);
      return;
    }
    send(session, workload, conversation);
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

  private void send(Session session, ConversationWorkload workload, Conversation conversation) {
    RequestSettings body = action.body();
    Prompt user = conversation.nextUserMessage();
    long now = action.run().gatling().nowMillis();
    if (conversation.exceeds(user, body.maxTokens(), workload.maxContextTokens())) {
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
                body.maxTokens(),
                workload.maxContextTokens()));
      }
      conversation.endByContextLimit(now);
      action.next().$bang(session);
      return;
    }
    ConversationTurn turn = null;
    boolean started = false;
    ResponseListener listener = null;
    try {
      byte[] bytes =
          RequestBodies.body(body, conversation.messagesWith(user))
              .getBytes(StandardCharsets.UTF_8);
      io.gatling.http.client.Request request =
          action.http().clientRequest(session.set(LlmScalaActionBuilder.BODY, bytes));
      boolean systemSentBefore =
          conversation.turnsSent() == 0 && workload.systemSentBefore(conversation);
      turn = new ConversationTurn(workload, conversation, user, systemSentBefore);
      RequestIdentity identity =
          new RequestIdentity(
              action.name(),
              conversation.phase(),
              conversation.index(),
              user.promptId(),
              user.digest(),
              conversation.group(),
              conversation.system() == null ? null : conversation.system().plannedCount().value(),
              turn.plannedTokens());
      listener =
          new ResponseListener(
              action,
              session,
              identity,
              null,
              body.stream(),
              null,
              action.run().cacheServer(body.endpoint()),
              turn,
              action.run().client().firstSend(session));
      conversation.sending(now);
      action.run().levelStarted(session.scenario(), action.name());
      action.run().started(null, action.name());
      action.run().conversationStarted(workload);
      workload.turnSent(conversation);
      started = true;
      action.http().send(request, session, action.run().shareConnections(), listener);
    } catch (RuntimeException e) {
      LOG.error("llm(\"{}\"): the turn could not be sent: {}", action.name(), e.toString());
      long end = action.run().gatling().nowMillis();
      RequestRows.logFailed(
          action.run().gatling(), session, action.name(), end, end, "not sent: " + e.getMessage());
      if (listener != null) {
        listener.abandon();
      }
      if (started) {
        action.run().notSent();
      }
      if (turn != null) {
        turn.failed(end);
      } else {
        conversation.failed(end);
      }
      action.next().$bang(session.markAsFailed());
    }
  }
}
