package io.github.gatlingllm.action;

import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.prompt.Prompt;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Not API. One turn of a conversation on the wire: keeps the reply's text as it arrives (content
 * only: reasoning is not sent back, as chat clients do not), then, when the exchange ends, makes
 * the turn's record (its conversation, turn, context and reply digest, its cache plan) and moves
 * the conversation on. Used from the virtual user's event loop only.
 */
final class SentTurn implements WireTurn {

  private final ConversationWorkload workload;
  private final Conversation conversation;
  private final Prompt user;
  private final int turn;
  private final int contextTokens;
  private final boolean exactContext;
  private final PrefixLedger.Ticket system;
  private final int plannedTokens;
  private final StringBuilder reply = new StringBuilder();
  private final ServerHistory history;
  private String responseId;
  private boolean ended;

  SentTurn(
      ConversationWorkload workload,
      Conversation conversation,
      Prompt user,
      PrefixLedger.Ticket system) {
    this(workload, conversation, user, system, null);
  }

  /**
   * A turn on the wire.
   *
   * @param system the first turn's ticket for its group's system prompt ({@link
   *     ConversationWorkload#sendSystem}), or null (a later turn, or no system prompt)
   * @param history the action's server-side history when this turn names {@code
   *     previous_response_id} (it hears how the turn ended), else null
   */
  SentTurn(
      ConversationWorkload workload,
      Conversation conversation,
      Prompt user,
      PrefixLedger.Ticket system,
      ServerHistory history) {
    this.history = history;
    this.workload = workload;
    this.conversation = conversation;
    this.user = user;
    this.turn = conversation.nextTurn();
    this.contextTokens = conversation.contextTokens();
    this.exactContext = conversation.exactContext();
    this.system = system;
    this.plannedTokens = conversation.plannedTokens(user);
  }

  /** One parsed event of the streamed reply, its text kept. */
  @Override
  public void onEvent(StreamEvent event) {
    if (event.content() != null) {
      reply.append(event.content());
    }
  }

  /** A non-streamed reply's parsed body, its text kept. */
  @Override
  public void onResponse(StreamEvent response) {
    onEvent(response);
  }

  @Override
  public void onResponseId(String id) {
    responseId = id;
  }

  /**
   * The turn's record: the workload's name, the turn's place in its conversation and its cache plan
   * ({@link ConversationPlan}).
   */
  @Override
  public RequestRecord complete(RequestRecord record, CachePlan.Server server) {
    CachePlan plan =
        server == null
            ? null
            : turn == 1
                ? ConversationPlan.first(
                    server,
                    conversation.system() == null
                        ? null
                        : conversation.system().plannedCount().value(),
                    system != null && system.foundLead() > 0,
                    system == null || system.settled(),
                    plannedTokens,
                    !workload.shard().single(),
                    record.promptTokens(),
                    record.cachedTokens())
                : ConversationPlan.later(
                    server, contextTokens, exactContext, record.promptTokens());
    return record
        .withCache(workload.name(), plan)
        .withConversationTurn(
            new io.github.gatlingllm.metrics.ConversationTurn(
                conversation.index(), turn, contextTokens, ok(record) ? digest() : null));
  }

  private static boolean ok(RequestRecord record) {
    return record.status() == io.github.gatlingllm.metrics.RequestStatus.OK;
  }

  /** The turn ended with this record: the conversation takes the reply, or ends on a failure. */
  @Override
  public void ended(RequestRecord record) {
    if (ended) {
      return;
    }
    ended = true;
    if (history != null) {
      history.ended(record);
    }
    conversation.answered(user, record, ok(record) ? reply.toString() : null, responseId);
  }

  /** The turn ended without a record (it could not be sent or recorded): the conversation ends. */
  @Override
  public void failed(long nowMs) {
    if (ended) {
      return;
    }
    ended = true;
    conversation.failed(nowMs);
  }

  /** The reply's digest: the first 16 hex digits of the SHA-256 of its UTF-8 bytes. */
  private String digest() {
    try {
      byte[] sha =
          MessageDigest.getInstance("SHA-256")
              .digest(reply.toString().getBytes(StandardCharsets.UTF_8));
      return HexFormat.of().formatHex(sha, 0, 8);
    } catch (NoSuchAlgorithmException e) {
      throw new IllegalStateException("SHA-256 is missing from this JVM", e);
    }
  }

  /**
   * The conversation's session id, the value of {@code llm.sessionHeader}: {@code
   * {workload}-{phase}-{index}}, the same on every turn of the conversation.
   */
  @Override
  public String sessionId() {
    return workload.name() + "-" + conversation.phase() + "-" + conversation.index();
  }

  /** The planned prompt tokens of the turn. */
  int plannedTokens() {
    return plannedTokens;
  }
}
