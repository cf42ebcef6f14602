package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Not API. What the senders of sessions' turns share, a conversation's ({@link ConversationSender})
 * and an agent session's ({@link AgentSender}): the action's parts, the server-side history, the
 * refusals a turn meets first ({@link Misfed}), and the warning said once when a session ends
 * before a turn that would not fit the context.
 */
abstract class TurnSender implements Sender {

  /**
   * What a turn sender works with.
   *
   * @param name the request name
   * @param run the run (its clock, client watch, budgets)
   * @param settings the request's body settings
   * @param dispatcher the way to the wire
   * @param next the action after this one
   * @param history whether later turns send only what is new and {@code previous_response_id}, and
   *     whether the server refused it ({@link ServerHistory#OFF}: each turn sends its whole
   *     history)
   */
  record Parts(
      String name,
      RunContext run,
      RequestSettings settings,
      Dispatcher dispatcher,
      Action next,
      ServerHistory history) {}

  /** What it works with. */
  final Parts parts;

  /** The request name. */
  final String name;

  /** The run. */
  final RunContext run;

  /** The request's body settings. */
  final RequestSettings settings;

  /** Whether the context-limit warning was said (once an action). */
  final AtomicBoolean contextLimitSaid = new AtomicBoolean();

  private final boolean agentLoop;

  /**
   * A turn sender.
   *
   * @param parts what it works with, never null
   * @param agentLoop whether its turns are {@code agentSession(...)}'s (else {@code
   *     conversation(...)}'s)
   */
  TurnSender(Parts parts, boolean agentLoop) {
    this.parts = parts;
    this.name = parts.name();
    this.run = parts.run();
    this.settings = parts.settings();
    this.agentLoop = agentLoop;
  }

  /**
   * The refusal a turn meets first, if any ({@link Misfed#refusal}): its loop was fed the wrong
   * kind, or the server refused to keep the history.
   *
   * @param session the user's session
   * @return a {@link Gate.StopRun} (a crash), or null when the turn may go on
   */
  final Gate refusal(Session session) {
    return Misfed.refusal(name, agentLoop, session, parts.history());
  }

  /**
   * Sends a turn once ({@link Dispatcher#sendTurn}); never throws.
   *
   * @param session the virtual user's session
   * @param log the sender's logger, for the line of a turn not sent
   * @param prepare the turn's preparation
   * @param undo the sender's undo of a turn it could not prepare
   */
  final void sendTurn(
      Session session, org.slf4j.Logger log, Dispatcher.Prepare prepare, Dispatcher.Undo undo) {
    parts.dispatcher().sendTurn(session, log, prepare, undo);
  }

  /**
   * The user goes on without a request (its session ended before a turn that would not fit).
   *
   * @param session the virtual user's session
   */
  final void goOn(Session session) {
    parts.next().$bang(session);
  }
}
