package io.github.gatlingllm.action;

import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.metrics.RequestRecord;

/**
 * Not API. One turn of a multi-turn workload on the wire (a conversation's, {@link SentTurn}; an
 * agent session's, {@link AgentSender}): it keeps what the next turn sends back of the reply as it
 * arrives, completes the turn's record, and moves its session on when the exchange ends. Used from
 * the virtual user's event loop only.
 */
interface WireTurn {

  /** One parsed event of the streamed reply (its text and tool-call entries kept). */
  void onEvent(StreamEvent event);

  /** A non-streamed reply's parsed body. */
  void onResponse(StreamEvent response);

  /**
   * The turn's record: the workload's name, the turn's place in its session and its cache plan.
   *
   * @param record the record so far, never null
   * @param server what is known of the server's cache, or null when no plan is made
   * @return the completed record, never null
   */
  RequestRecord complete(RequestRecord record, CachePlan.Server server);

  /** The turn ended with this record: its session takes the reply, or ends on a failure. */
  void ended(RequestRecord record);

  /** The turn ended without a record (not sent, or not recorded): its session ends. */
  void failed(long nowMs);

  /** The session's id, the value of {@code llm.sessionHeader}, never null. */
  String sessionId();

  /**
   * The tool calls the request's parser completed whole (Responses {@code function_call} items,
   * Messages {@code tool_use} blocks), once the stream has ended; chat's come as deltas through
   * {@link #onEvent} instead.
   *
   * @param calls the calls in order, never null, possibly empty
   */
  default void onToolCalls(java.util.List<io.github.gatlingllm.api.Turn.ToolCall> calls) {}

  /**
   * The reply's id, for a later turn to name ({@code previous_response_id}), once the exchange has
   * ended: a Responses stream's {@code response.created} id, or a whole body's {@code id}.
   *
   * @param id the id, or null when the reply gave none (or its API has none)
   */
  default void onResponseId(String id) {}
}
