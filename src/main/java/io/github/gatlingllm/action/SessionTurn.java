package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;

/**
 * Not API. One turn of a session on the wire, a conversation's ({@link SentTurn}) or an agent
 * session's ({@link AgentSender.AgentTurn}): it carries the session's id, keeps the reply's text as
 * it arrives (content only: reasoning is not sent back, as chat clients do not) and the reply's id,
 * plans the turn's cache outcome ({@link ConversationPlan}), and moves its session on once, when
 * the exchange ends or could not be sent. Never cancelled. Used from the virtual user's event loop
 * only.
 */
abstract class SessionTurn implements RequestPart {

  /** The reply's text so far. */
  final StringBuilder reply = new StringBuilder();

  /** The turn's place in its session, from 1. */
  final int turn;

  private final int contextTokens;
  private final boolean exactContext;
  private final PrefixLedger.Ticket shared;
  private final int plannedTokens;

  /** When the turn is sent, epoch ms of Gatling's clock: its session takes it as sent then. */
  final long sentMs;

  private final ServerHistory history;
  private String responseId;
  private boolean ended;

  /**
   * A turn on the wire.
   *
   * @param turn the turn's place in its session, from 1
   * @param contextTokens the session's context before this turn, tokens
   * @param exactContext whether that context is the server's count
   * @param shared a first turn's ticket for its group's shared prefix ({@link PrefixLedger}), or
   *     null (a later turn, or none to share)
   * @param plannedTokens the turn's planned prompt tokens
   * @param history the action's server-side history when this turn names {@code
   *     previous_response_id} (it hears how the turn ended), else null
   * @param sentMs when the turn is sent, epoch ms of Gatling's clock
   */
  SessionTurn(
      int turn,
      int contextTokens,
      boolean exactContext,
      PrefixLedger.Ticket shared,
      int plannedTokens,
      ServerHistory history,
      long sentMs) {
    this.turn = turn;
    this.contextTokens = contextTokens;
    this.exactContext = exactContext;
    this.shared = shared;
    this.plannedTokens = plannedTokens;
    this.history = history;
    this.sentMs = sentMs;
  }

  /**
   * The session's id, the value of {@code llm.sessionHeader}, the same on every turn.
   *
   * @return never null
   */
  abstract String sessionId();

  /**
   * The first turn's planned cache prefix (a group's system prompt and tools), asked only for a
   * first turn planned against a server.
   *
   * @param server what is known of the server's cache, never null
   * @param record the turn's record so far
   * @return tokens, or null for none
   */
  abstract Integer firstPrefix(CachePlan.Server server, RequestRecord record);

  /**
   * The turn was recorded: its session takes the reply, or ends on a failure.
   *
   * @param record the record
   * @param text the reply's text when the record is OK, else null
   * @param id the reply's id, or null
   */
  abstract void answered(RequestRecord record, String text, String id);

  /**
   * The turn ended without a record: its session ends.
   *
   * @param nowMs now, epoch ms of Gatling's clock
   */
  abstract void abandoned(long nowMs);

  @Override
  public final boolean turn() {
    return true;
  }

  /** The copy the request is built from, with the session header's value (issue 32). */
  @Override
  public final Session carry(Session built) {
    return built.set(LlmScalaActionBuilder.SESSION_ID, sessionId());
  }

  @Override
  public final boolean wantsText() {
    return true;
  }

  /** One parsed event of the streamed reply, its text kept. */
  @Override
  public void onEvent(StreamEvent event) {
    if (event.content() != null) {
      reply.append(event.content());
    }
  }

  @Override
  public void onStreamEnd(EventParser parser) {
    responseId = parser.responseId();
  }

  /** A non-streamed reply's parsed body, its text and id kept. */
  @Override
  public final void onResponse(StreamEvent response, String body, Dialect dialect) {
    onEvent(response);
    responseId = body == null ? null : dialect.responseId(body);
  }

  /**
   * The turn's cache plan: a first turn's against its prefix ({@link ConversationPlan#first}), a
   * later one's against the session's context ({@link ConversationPlan#later}).
   *
   * @param server what is known of the server's cache, or null when no plan is made
   * @param sharded whether other shards send the workload's sessions too
   * @param record the turn's record so far
   * @return the plan, or null without a server
   */
  final CachePlan plan(CachePlan.Server server, boolean sharded, RequestRecord record) {
    if (server == null) {
      return null;
    }
    return turn == 1
        ? ConversationPlan.first(
            server,
            firstPrefix(server, record),
            shared != null && shared.foundLead() > 0,
            shared == null || shared.settled(),
            plannedTokens,
            sharded,
            record.promptTokens(),
            record.cachedTokens())
        : ConversationPlan.later(server, contextTokens, exactContext, record.promptTokens());
  }

  /**
   * The turn's planned prompt tokens.
   *
   * @return tokens
   */
  final int plannedTokens() {
    return plannedTokens;
  }

  /**
   * The session's context before this turn.
   *
   * @return tokens
   */
  final int contextTokens() {
    return contextTokens;
  }

  @Override
  public final void ended(RequestRecord record) {
    if (ended) {
      return;
    }
    ended = true;
    if (history != null) {
      history.ended(record);
    }
    answered(record, record.status() == RequestStatus.OK ? reply.toString() : null, responseId);
  }

  /** The first token: the shared prefix this turn sent is ready for others. */
  @Override
  public final void firstToken() {
    if (shared != null) {
      shared.prefillEnded();
    }
  }

  /** The turn is over: the shared prefix it sent is settled, ready or withdrawn. */
  @Override
  public final void closed(long endNanos, boolean computed) {
    if (shared != null) {
      shared.ended(computed);
    }
  }

  @Override
  public final void failed(long nowMs) {
    if (ended) {
      return;
    }
    ended = true;
    abandoned(nowMs);
  }
}
