package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.protocol.RunContext;

/**
 * Not API. What one kind of request adds to its way through the corridor, as Gatling's {@code
 * HttpTx} carries a request: a fed prompt's ({@link PromptSender.PromptPart}: its cache plan, its
 * workload's in-flight count, a trace row's end), a conversation's turn ({@link SentTurn}) or an
 * agent session's ({@link AgentSender.AgentTurn}: the reply the next turn sends back, the session
 * moved on). The {@link Dispatcher} and the {@link ResponseListener} call every method for every
 * request, in the order below, and never ask which kind it is. Used from the virtual user's event
 * loop, and under the listener's lock from the thread that cuts a request at the run's end.
 */
interface RequestPart {

  /**
   * Whether the request is a session's turn: it carries the session's id and is never cancelled (a
   * cut reply would end the session).
   *
   * @return false for a prompt
   */
  default boolean turn() {
    return false;
  }

  /**
   * The session copy the request is built from, with what its headers read: a turn's session id
   * ({@code llm.sessionHeader}).
   *
   * @param built the copy with the body, never null
   * @return the copy to build the request from
   */
  default Session carry(Session built) {
    return built;
  }

  /**
   * The request is about to be handed to the client: marks it sent in its workload (a turn's send
   * time) and counts it in the run ({@link RunContext#sending}: load level, in flight,
   * conversations).
   *
   * @param run the run, never null
   * @param scenario the user's scenario
   * @param request the request name
   */
  void sending(RunContext run, String scenario, String request);

  /**
   * The fed prompts workload the request's record counts in (a working-set sweep's step), handed to
   * {@link RunContext#record(Workload, RequestRecord)}.
   *
   * @return the workload, or null for a session's turn or an unfed prompt
   */
  default Workload workload() {
    return null;
  }

  /**
   * Whether the next event's text is wanted (a turn keeps the reply it sends back).
   *
   * @return false for a prompt
   */
  default boolean wantsText() {
    return false;
  }

  /** One parsed event of the streamed reply. */
  default void onEvent(StreamEvent event) {}

  /**
   * The first token came: the server has computed the prompt, so the shared prefixes the request
   * sent are ready for others ({@link
   * io.github.gatlingllm.cache.PrefixLedger.Ticket#prefillEnded}). Called once at most.
   */
  default void firstToken() {}

  /**
   * The stream ended: what its parser completed whole (Responses {@code function_call} items,
   * Messages {@code tool_use} blocks; chat's calls came as deltas through {@link #onEvent}) and the
   * reply's id ({@code response.created}), for a later turn to send or name.
   *
   * @param parser the ended parser, never null
   */
  default void onStreamEnd(EventParser parser) {}

  /**
   * A whole (non-streamed) answer was read.
   *
   * @param response its parsed body, never null ({@link StreamEvent#EMPTY} when none)
   * @param body the body of a non-streamed request, for its reply's id ({@link
   *     Dialect#responseId}); null for a streamed request answered without a stream
   * @param dialect the request's API
   */
  default void onResponse(StreamEvent response, String body, Dialect dialect) {}

  /**
   * The request's record with this kind's parts: the workload's name and cache plan, a turn's place
   * in its session, a trace row's row and session.
   *
   * @param record the record so far, never null
   * @param server what is known of the server's cache, or null when no plan is made
   * @param endNanos the request's end, {@link System#nanoTime()}
   * @return the completed record, never null
   */
  RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos);

  /** The request ended with this record, recorded: a turn's session takes the reply, or ends. */
  default void ended(RequestRecord record) {}

  /**
   * The request ended without a record (not sent, or not recorded): a turn's session ends.
   *
   * @param nowMs now, epoch ms of Gatling's clock
   */
  default void failed(long nowMs) {}

  /**
   * The request is over, however it ended (or was never sent), after {@link #ended} or {@link
   * #failed}: a fed prompt's workload counts it out of flight, the shared prefixes it sent are
   * settled ({@link io.github.gatlingllm.cache.PrefixLedger.Ticket#ended}), and a trace session's
   * next row may go.
   *
   * @param endNanos its end, {@link System#nanoTime()}
   * @param computed whether the server computed its prompt (a first token, or a whole OK answer)
   */
  default void closed(long endNanos, boolean computed) {}
}
