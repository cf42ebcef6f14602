package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.protocol.Gate;

/**
 * Not API. One kind of LLM request (a fed or own prompt, a trace row among them; a conversation's
 * turn; an agent session's turn): what it asks before it is sent and how it is sent. The LLM action
 * holds one, chosen when it is built ({@link LlmActionSpec.Kind}), asks the run's {@link Gate} and
 * then the sender's, and hands the user to {@link #send} on {@link Gate#GO}. Every method runs on
 * the virtual user's event loop.
 */
interface Sender {

  /**
   * The sender's own answer once the run let the user through: misuse of the DSL or a missing
   * prompt ({@link Gate.StopRun}, a crash), a spent budget ({@link Gate.EndUser} or {@link
   * Gate.StopRun}), the warmup hold ({@link Gate#HELD}: the sender then sends itself once the
   * warmup has ended), or {@link Gate#GO}.
   *
   * @param session the virtual user's session, never null
   * @return never null
   */
  Gate gate(Session session);

  /**
   * Sends the request through {@link Dispatcher#send}; never throws: a request that cannot be sent
   * is a KO row and the user goes on.
   *
   * @param session the virtual user's session, never null
   */
  void send(Session session);
}
