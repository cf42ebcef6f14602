package io.github.gatlingllm.feeder;

/**
 * Not API. A Gatling feeder over one {@link ConversationWorkload}: one record per conversation
 * (warmup ones first), then records that hold only {@link #DONE}{@code = true}. It never reports
 * empty (that would stop the whole simulation); the LLM action ends a virtual user fed a {@code
 * DONE} record cleanly instead.
 *
 * <p>Session keys: {@link #WORKLOAD} (the {@link ConversationWorkload}), {@link #CONVERSATION} (the
 * {@link Conversation}, absent on a {@code DONE} record), {@link #DONE} (boolean).
 */
public final class ConversationFeeder extends PhasedFeeder<ConversationWorkload> {

  /** Session key: the {@link ConversationWorkload} the record came from. */
  public static final String WORKLOAD = "llm.conversations";

  /** Session key: the {@link Conversation} the virtual user holds. */
  public static final String CONVERSATION = "llm.conversation";

  /** Session key: true once the workload's budgets are handed out. */
  public static final String DONE = "llm.conversationsDone";

  /**
   * A feeder over a workload.
   *
   * @param workload the workload, never null
   */
  public ConversationFeeder(ConversationWorkload workload) {
    super(workload);
  }

  /**
   * Whether a conversation loop goes on for a session's attributes: while the fed conversation has
   * turns to send, and once more on a {@code DONE} record or without any conversation (the LLM
   * action then ends the virtual user, or stops the run saying what is missing).
   *
   * @param fed whether the session was fed a conversation workload's record
   * @param done the session's {@link #DONE}, or null
   * @param conversation the session's {@link #CONVERSATION}, or null
   * @return true to run the loop's body (again)
   */
  public static boolean goesOn(boolean fed, Object done, Object conversation) {
    return goesOn(fed, done, conversation, false);
  }

  /**
   * Whether a conversation loop goes on, and on entering it, also for a conversation that is over
   * already: a second {@code conversation(...)} after one feed, whose LLM action then stops the run
   * saying a conversation must be fed before each, rather than sending nothing.
   *
   * @param fed whether the session was fed a conversation workload's record
   * @param done the session's {@link #DONE}, or null
   * @param conversation the session's {@link #CONVERSATION}, or null
   * @param entering whether the loop is being entered (its counter is 0)
   * @return true to run the loop's body (again)
   */
  public static boolean goesOn(boolean fed, Object done, Object conversation, boolean entering) {
    if (!fed || Boolean.TRUE.equals(done)) {
      return true;
    }
    return conversation instanceof Conversation c && (!c.over() || entering);
  }

  /** The counter of the loop {@code conversation(...)} makes. */
  public static final String LOOP_COUNTER = "gatling-llm.conversation.turn";

  /**
   * The think time before a session's next turn.
   *
   * @param conversation the session's {@link #CONVERSATION}, or null
   * @return milliseconds; 0 when the conversation is over or absent
   */
  public static long thinkMs(Object conversation) {
    return conversation instanceof Conversation c && !c.over() ? c.thinkMs() : 0;
  }
}
