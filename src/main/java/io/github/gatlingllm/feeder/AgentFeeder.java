package io.github.gatlingllm.feeder;

/**
 * Not API. The Gatling feeder of an {@code agents()} workload: each record holds the workload
 * ({@link #WORKLOAD}), one new {@link AgentSession} ({@link #SESSION}) and whether the budgets are
 * spent ({@link #DONE}); never runs dry (a spent workload feeds {@code DONE} records).
 */
public final class AgentFeeder extends PhasedFeeder<AgentWorkload> {

  /** Session key of the fed workload. */
  public static final String WORKLOAD = "llm.agents";

  /** Session key of the fed agent session. */
  public static final String SESSION = "llm.agentSession";

  /** Session key: true when the workload's budgets were spent at this feed. */
  public static final String DONE = "llm.agentsDone";

  /** Gatling's counter of {@code agentSession(...)}'s loop. */
  public static final String LOOP_COUNTER = "gatling-llm.agent.turn";

  /**
   * The feeder of a workload.
   *
   * @param workload never null
   */
  public AgentFeeder(AgentWorkload workload) {
    super(workload);
  }

  /**
   * Whether {@code agentSession(...)}'s loop runs (again): while the fed session goes on; once when
   * nothing (or a spent budget) was fed, so that the action says what is wrong or ends the user.
   *
   * @param fed whether the user was fed an agents() workload
   * @param done the fed {@link #DONE} value, or null
   * @param session the fed session, or null
   * @param entering whether this is the loop's first check
   * @return true to run the turn
   */
  public static boolean goesOn(boolean fed, Object done, Object session, boolean entering) {
    if (!fed || Boolean.TRUE.equals(done)) {
      return entering;
    }
    return session instanceof AgentSession s && (!s.over() || entering);
  }

  /**
   * The pause before the fed session's next turn (the tools' run), 0 once it is over.
   *
   * @param session the fed session, or null
   * @return milliseconds, at least 0
   */
  public static long toolLatencyMs(Object session) {
    return session instanceof AgentSession s && !s.over() ? s.toolLatencyMs() : 0;
  }
}
