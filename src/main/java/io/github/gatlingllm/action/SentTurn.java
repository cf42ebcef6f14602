package io.github.gatlingllm.action;

import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.ConversationPlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.Conversation;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.protocol.RunContext;
import java.nio.charset.StandardCharsets;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;

/**
 * Not API. One turn of a conversation on the wire ({@link SessionTurn}): its record gets the
 * conversation, turn, context and reply digest and its cache plan; the conversation takes the
 * reply.
 */
final class SentTurn extends SessionTurn {

  private final ConversationWorkload workload;
  private final Conversation conversation;
  private final Prompt user;

  /**
   * A turn on the wire.
   *
   * @param system the first turn's ticket for its group's system prompt ({@link
   *     ConversationWorkload#sendSystem}), or null (a later turn, or no system prompt)
   * @param history the action's server-side history when this turn names {@code
   *     previous_response_id} (it hears how the turn ended), else null
   * @param sentMs when the turn is sent, epoch ms of Gatling's clock
   */
  SentTurn(
      ConversationWorkload workload,
      Conversation conversation,
      Prompt user,
      PrefixLedger.Ticket system,
      ServerHistory history,
      long sentMs) {
    super(
        conversation.nextTurn(),
        conversation.contextTokens(),
        conversation.exactContext(),
        system,
        conversation.plannedTokens(user),
        history,
        sentMs);
    this.workload = workload;
    this.conversation = conversation;
    this.user = user;
  }

  /** The conversation's turn is sent now; counted in the run with its workload. */
  @Override
  public void sending(RunContext run, String scenario, String request) {
    conversation.sending(sentMs);
    workload.turnSent(conversation);
    run.sending(scenario, request, null, workload);
  }

  @Override
  Integer firstPrefix(CachePlan.Server server, RequestRecord record) {
    return conversation.system() == null ? null : conversation.system().plannedCount().value();
  }

  /**
   * The turn's record: the workload's name, the turn's place in its conversation, its reply's
   * digest when OK, and its cache plan ({@link ConversationPlan}).
   */
  @Override
  public RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos) {
    return record
        .withCache(workload.name(), plan(server, !workload.shard().single(), record))
        .withConversationTurn(
            new ConversationTurn(
                conversation.index(),
                turn,
                contextTokens(),
                record.status() == RequestStatus.OK ? digest() : null));
  }

  @Override
  void answered(RequestRecord record, String text, String id) {
    conversation.answered(user, record, text, id);
  }

  @Override
  void abandoned(long nowMs) {
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
  String sessionId() {
    return workload.name() + "-" + conversation.phase() + "-" + conversation.index();
  }
}
