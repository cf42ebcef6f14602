package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.feeder.AgentFeeder;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.protocol.Gate;

/**
 * Not API. A session's turn inside a loop fed the wrong kind of workload: {@code agentSession(...)}
 * without an {@code agents()} record, or {@code conversation(...)} with an {@code agents()} record
 * and no conversation. The turn's sender ({@link AgentSender}, {@link ConversationSender}) asks
 * first and stops the run with one line naming what was fed and what the loop expects, before its
 * first request is sent. (A {@code conversation(...)} fed nothing, or prompts, is {@link
 * ConversationSender}'s to refuse, in its own words.)
 */
final class Misfed {

  private Misfed() {}

  /**
   * The refusal a user's turn meets first, if any: its loop was fed the wrong kind, or the server
   * refused to keep the history ({@link ServerHistory#refusal}).
   *
   * @param name the request's name
   * @param agentLoop whether the turn is {@code agentSession(...)}'s (else {@code
   *     conversation(...)}'s)
   * @param session the user's session
   * @param history the action's server-side history
   * @return a {@link Gate.StopRun} (a crash), or null when the turn may go on
   */
  static Gate refusal(String name, boolean agentLoop, Session session, ServerHistory history) {
    scala.collection.immutable.Map<String, Object> attributes = session.attributes();
    String message =
        message(
            name,
            agentLoop,
            attributes.contains(AgentFeeder.WORKLOAD),
            attributes.contains(ConversationFeeder.WORKLOAD),
            attributes.get(PromptFeeder.WORKLOAD).getOrElse(() -> null));
    if (message == null) {
      message = history.refusal();
    }
    return message == null ? null : new Gate.StopRun(message, true);
  }

  /**
   * The one line for a turn whose loop was fed the wrong kind of workload.
   *
   * @param name the request's name
   * @param agentLoop whether the turn is inside {@code agentSession(...)} (else {@code
   *     conversation(...)})
   * @param agentsFed whether the user holds an {@code agents()} record
   * @param conversationsFed whether the user holds a {@code conversations()} record
   * @param promptWorkload the user's {@code prompts()} or {@code trace()} workload, or null
   * @return the message, or null when the fed kind suits the loop (or, for {@code
   *     conversation(...)}, when no agents() record is the trouble)
   */
  static String message(
      String name,
      boolean agentLoop,
      boolean agentsFed,
      boolean conversationsFed,
      Object promptWorkload) {
    if (agentLoop) {
      if (agentsFed) {
        return null;
      }
      return "agentSession(llm(\""
          + name
          + "\")...): the virtual user was fed "
          + fed(conversationsFed, promptWorkload)
          + ", but agentSession(...) runs the sessions of an agents() feeder: feed one before it"
          + " (feed(agents()...).exec(agentSession(llm(\""
          + name
          + "\")...)))";
    }
    if (!agentsFed || conversationsFed) {
      return null;
    }
    return "conversation(llm(\""
        + name
        + "\")...): the virtual user was fed an agents() feeder, but conversation(...) runs the"
        + " conversations of a conversations() feeder: run agents() sessions with agentSession(...)"
        + " (feed(agents()...).exec(agentSession(llm(\""
        + name
        + "\")...)))";
  }

  /** What the user was fed, in the DSL's words. */
  private static String fed(boolean conversationsFed, Object promptWorkload) {
    if (conversationsFed) {
      return "a conversations() feeder";
    }
    if (promptWorkload instanceof Workload w) {
      return w.replay() != null ? "a trace() feeder" : "a prompts() feeder";
    }
    return "no LLM feeder";
  }
}
