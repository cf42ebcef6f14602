package io.github.gatlingllm.feeder;

import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.session.SessionAggregator;
import java.util.Map;
import java.util.Objects;

/**
 * Not API. The agent sessions of one {@code agents()} workload (issue 32): {@code warmupBudget}
 * warmup sessions, then {@code budget} measured ones, handed out in index order across all virtual
 * users (one session per feed; shard {@code I/N} hands out the indices {@code I, I + N, ...}), the
 * barrier between the phases (a measured session's first turn waits until every warmup session has
 * ended), and the per-session figures of each phase ({@link SessionAggregator}) for the run record.
 *
 * <p>Thread-safe.
 */
public final class AgentWorkload extends SessionWorkload {

  private final AgentSource measured;
  private final AgentSource warmup;
  private final SessionAggregator measuredSessions = new SessionAggregator();
  private final SessionAggregator warmupSessions = new SessionAggregator();

  /**
   * A workload.
   *
   * @param name the workload's name, never null
   * @param measured the measured phase's source, never null (the warmup's is made from it)
   * @param budget the whole test's measured sessions, at least 1
   * @param warmupBudget the whole test's warmup sessions, at least 0
   * @param shard the indices this JVM hands out, never null
   * @throws IllegalArgumentException naming a budget out of range
   */
  public AgentWorkload(
      String name, AgentSource measured, long budget, long warmupBudget, Shard shard) {
    super(name, budget, warmupBudget, shard, Kind.AGENT_SESSIONS);
    this.measured = Objects.requireNonNull(measured, "measured");
    this.warmup = measured.forPhase(Phase.WARMUP.wireName());
    open();
  }

  /**
   * The name of a new agent workload: an explicit name must be free (two workloads under one name
   * would share one entry of {@code llm-run.json}'s {@code sessions}); an unnamed workload is
   * {@code agents}, or {@code agents-2}, {@code -3}... when taken, said in the log.
   *
   * @param explicit the name given by the builder's {@code name(...)}, or null
   * @return the name
   * @throws IllegalArgumentException if {@code explicit} is taken
   */
  public static String claimName(String explicit) {
    return claimName(
        AgentWorkload.class, explicit, "agents", "agents()", "agents() workload", "sessions");
  }

  /**
   * The record of session {@code index} of a phase ({@link #next()} hands out warmup sessions
   * first, then measured ones, then {@link AgentFeeder#DONE} records once both budgets are handed
   * out).
   *
   * @param warm whether the session belongs to the warmup phase
   * @param index the session index in its phase
   * @return the record, never null
   */
  @Override
  Map<String, Object> record(boolean warm, long index) {
    AgentSource source = warm ? warmup : measured;
    Map<String, Object> record = record(4);
    record.put(AgentFeeder.SESSION, new AgentSession(source, source.script(index)));
    return record;
  }

  /**
   * A turn of a session is being sent.
   *
   * @param session the session, never null
   */
  public void turnSent(AgentSession session) {
    countTurn(session.phase());
  }

  /**
   * A session's first turn is being sent: its ticket for the prefix every session of its group
   * shares, which says whether a session sent it before in this run and whether one of those had
   * its first token by now; marks it as sent. With a system prompt the prefix is the phase's group
   * system prompt and the tools after it (each phase has its own system prompts); without, the
   * tools alone, the same in every phase (so warmup sessions send it for the measured ones). Tell
   * the ticket when the turn's prefill ended and when it ended.
   *
   * @param session the session, never null
   * @return the ticket, or null when the sessions share no prefix (no system prompt, no tools)
   */
  public PrefixLedger.Ticket sendPrefix(AgentSession session) {
    if (session.group() != null) {
      return sendPrefix(session.phase() + ":" + session.group());
    }
    return measured.tools().tokens() > 0 ? sendPrefix("tools") : null;
  }

  /**
   * A session handed out ended (once per session): its figures join its phase's.
   *
   * @param session the ended session, never null
   */
  public void ended(AgentSession session) {
    boolean warm = Phase.isWarmup(session.phase());
    if (session.result() != null && session.result().requests() > 0) {
      (warm ? warmupSessions : measuredSessions).add(session.result());
    }
    phaseBudget.ended(warm);
  }

  /**
   * A session's window ({@code llm.maxContextTokens}): a session ends before a turn's prompt and
   * {@code max_tokens} would pass it; none without it.
   */
  @Override
  public PromptCeiling promptCeiling() {
    Integer window = measured.spec().maxContextTokens();
    return window == null ? null : new PromptCeiling(name(), null, window, "llm.maxContextTokens");
  }

  /**
   * The measured phase's source.
   *
   * @return never null
   */
  public AgentSource source() {
    return measured;
  }

  /**
   * The workload's entry in {@code llm-run.json}'s {@code sessions}: its name, budgets, tool
   * settings, the turns sent and each phase's {@link SessionAggregator#toRecord()} (its figures and
   * what a merge of shards needs).
   *
   * @return a new entry
   */
  public AgentSessions toRecord() {
    return new AgentSessions(
        name(),
        budget(),
        warmupBudget(),
        measured.spec().tools(),
        measured.spec().toolCalls(),
        measured.spec().toolChoice(),
        turnsSent(Phase.MEASURED.wireName()),
        turnsSent(Phase.WARMUP.wireName()),
        measuredSessions.toRecord(),
        warmupSessions.toRecord(),
        measured.digest(),
        null);
  }

  @Override
  public String toString() {
    return "agents " + name();
  }
}
