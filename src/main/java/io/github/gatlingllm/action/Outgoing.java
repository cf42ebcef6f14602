package io.github.gatlingllm.action;

import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.protocol.ClientWatch;
import java.util.Objects;

/**
 * Not API. One request as a {@link Sender} hands it to the {@link Dispatcher}: what it is, its body
 * and what its record and bookkeeping need when it ends.
 *
 * @param identity the request's identity in its record, never null
 * @param body the request body's bytes (UTF-8 JSON), never null
 * @param fed the fed prompt, or null (a conversation's turn, or an own prompt with no feeder)
 * @param sent the cache plan's input as sent, or null when the request is judged against no plan
 *     (or a conversation's turn: its plan is the turn's)
 * @param turn the conversation turn, or null
 * @param conversations the conversation turn's workload, or null
 * @param sending what the sender marks just before the request is counted as sent, or null
 * @param first the virtual user's first send of the run, for its schedule, or null
 * @param prefill the request's ticket for the shared prefixes it sends ({@link PrefixLedger}), told
 *     when its prefill ended (its first token) and when it ended; or null when it shares none
 */
record Outgoing(
    RequestIdentity identity,
    byte[] body,
    FedPrompt fed,
    CachePlan.Sent sent,
    WireTurn turn,
    ConversationWorkload conversations,
    Runnable sending,
    ClientWatch.First first,
    PrefixLedger.Ticket prefill) {

  /** Checks the identity and body. */
  Outgoing {
    Objects.requireNonNull(identity, "identity");
    Objects.requireNonNull(body, "body");
  }

  /** A request that shares no prefix with others through a ledger. */
  Outgoing(
      RequestIdentity identity,
      byte[] body,
      FedPrompt fed,
      CachePlan.Sent sent,
      WireTurn turn,
      ConversationWorkload conversations,
      Runnable sending,
      ClientWatch.First first) {
    this(identity, body, fed, sent, turn, conversations, sending, first, null);
  }

  /**
   * The fed prompt's workload.
   *
   * @return the workload, or null when no prompt was fed
   */
  Workload workload() {
    return fed == null ? null : fed.workload();
  }
}
