package io.github.gatlingllm.feeder;

import io.github.gatlingllm.metrics.SessionAggregator;
import io.github.gatlingllm.prompt.AgentSource;
import io.github.gatlingllm.prompt.Phase;
import java.util.Collections;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The agent sessions of one {@code agents()} workload (issue 32): {@code warmupBudget}
 * warmup sessions, then {@code budget} measured ones, handed out in index order across all virtual
 * users (one session per feed; shard {@code I/N} hands out the indices {@code I, I + N, ...}), the
 * barrier between the phases (a measured session's first turn waits until every warmup session has
 * ended), and the per-session figures of each phase ({@link SessionAggregator}) for the run record.
 *
 * <p>Thread-safe.
 */
public final class AgentWorkload {

  private static final Logger LOG = LoggerFactory.getLogger(AgentWorkload.class);

  /** The agent workloads made in this JVM and not yet closed by a run's end. */
  private static final List<AgentWorkload> OPEN = new CopyOnWriteArrayList<>();

  private final String name;
  private final AgentSource measured;
  private final AgentSource warmup;
  private final long budget;
  private final long warmupBudget;
  private final Shard shard;
  private final PhaseBudget phaseBudget;
  private final Map<String, Object> doneRecord;
  private final SessionAggregator measuredSessions = new SessionAggregator();
  private final SessionAggregator warmupSessions = new SessionAggregator();
  private final AtomicLong measuredTurns = new AtomicLong();
  private final AtomicLong warmupTurns = new AtomicLong();
  private final java.util.Set<String> sentPrefixes = new java.util.HashSet<>();

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
    this.name = Objects.requireNonNull(name, "name");
    this.measured = Objects.requireNonNull(measured, "measured");
    this.shard = Objects.requireNonNull(shard, "shard");
    if (budget < 1) {
      throw new IllegalArgumentException("agent.sessions: got " + budget + ", expected >= 1");
    }
    if (warmupBudget < 0) {
      throw new IllegalArgumentException(
          "agent.warmupSessions: got " + warmupBudget + ", expected >= 0");
    }
    this.budget = budget;
    this.warmupBudget = warmupBudget;
    this.warmup = measured.forPhase(Phase.WARMUP.wireName());
    this.phaseBudget =
        new PhaseBudget(LOG, name, "agent sessions", "", budget, warmupBudget, shard);
    Map<String, Object> done = new HashMap<>(4);
    done.put(AgentFeeder.DONE, true);
    done.put(AgentFeeder.WORKLOAD, this);
    this.doneRecord = Collections.unmodifiableMap(done);
    OPEN.add(this);
  }

  /**
   * Whether every agent workload made in this JVM and not yet closed is spent.
   *
   * @return true when none has anything more to send or wait for
   */
  public static boolean allSpent() {
    for (AgentWorkload w : OPEN) {
      if (!w.phaseBudget.spent()) {
        return false;
      }
    }
    return true;
  }

  /**
   * Whether an agent workload made in this JVM and not yet closed has this name.
   *
   * @param name a workload name
   * @return true when one has
   */
  public static boolean nameTaken(String name) {
    for (AgentWorkload w : OPEN) {
      if (w.name.equals(name)) {
        return true;
      }
    }
    return false;
  }

  /** Takes this workload off the list {@link #allSpent()} reads: its run has ended. */
  public void close() {
    OPEN.remove(this);
  }

  /**
   * The next record: a warmup session, then measured ones, then {@link AgentFeeder#DONE} records
   * once both budgets are handed out.
   *
   * @return the record, never null
   */
  public Map<String, Object> next() {
    PhaseBudget.Slot slot = phaseBudget.take();
    if (slot == null) {
      return doneRecord;
    }
    AgentSource source = slot.warmup() ? warmup : measured;
    Map<String, Object> record = new HashMap<>(4);
    record.put(AgentFeeder.WORKLOAD, this);
    record.put(AgentFeeder.SESSION, new AgentSession(source, source.script(slot.index())));
    record.put(AgentFeeder.DONE, false);
    return record;
  }

  /**
   * Holds a measured session's first turn until every warmup session has ended.
   *
   * @param resume runs once the warmup has ended, or never when this returns false
   * @return true if the turn must wait for {@code resume}
   */
  public boolean holdUntilWarmedUp(Runnable resume) {
    return phaseBudget.holdUntilWarmedUp(resume);
  }

  /**
   * A turn of a session is being sent.
   *
   * @param session the session, never null
   */
  public void turnSent(AgentSession session) {
    (Phase.isWarmup(session.phase()) ? warmupTurns : measuredTurns).incrementAndGet();
  }

  /**
   * A session's first turn is being sent: whether a session of the same phase and group sent the
   * shared prefix (system prompt and tools) before in this run, marking it as sent.
   *
   * @param session the session, never null
   * @return true when its prefix was sent before
   */
  public synchronized boolean prefixSentBefore(AgentSession session) {
    return !sentPrefixes.add(session.phase() + ":" + session.group());
  }

  /**
   * The turns sent of a phase.
   *
   * @param phase {@code warmup} or {@code measured}
   * @return at least 0
   */
  public long turnsSent(String phase) {
    return (Phase.isWarmup(phase) ? warmupTurns : measuredTurns).get();
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
   * The workload's name.
   *
   * @return never null
   */
  public String name() {
    return name;
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
   * The indices this JVM hands out.
   *
   * @return never null
   */
  public Shard shard() {
    return shard;
  }

  /**
   * The workload's entry in {@code llm-run.json}'s {@code sessions}: its name, spec, budgets, the
   * turns sent and each phase's {@link io.github.gatlingllm.metrics.SessionSummary#toRecord()}.
   *
   * @return a new map, in a fixed key order
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("workload", name);
    m.put("sessions_budget", budget);
    m.put("warmup_sessions_budget", warmupBudget);
    m.put("tools", measured.spec().tools());
    m.put("tool_calls_limit", measured.spec().toolCalls());
    m.put("tool_choice", measured.spec().toolChoice());
    m.put("turns_sent", measuredTurns.get());
    m.put("warmup_turns_sent", warmupTurns.get());
    m.put("measured", measuredSessions.summary().toRecord());
    m.put("warmup", warmupSessions.summary().toRecord());
    m.put("phase_digest", measured.digest());
    return m;
  }

  @Override
  public String toString() {
    return "agents " + name;
  }
}
