package io.github.gatlingllm.feeder;

import io.github.gatlingllm.prompt.Phase;
import java.util.HashSet;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not API. A workload of sessions, conversations and agent sessions alike: one session a feed,
 * whose next turn is built from the last reply and sent by the same virtual user; what such
 * workloads add to {@link PhasedWorkload}: the turns sent of each phase, and which group prefixes
 * (a group's system prompt, with an agent's tools) a session of the same phase sent before.
 *
 * <p>Thread-safe.
 */
public abstract class SessionWorkload extends PhasedWorkload {

  private final AtomicLong warmupTurns = new AtomicLong();
  private final AtomicLong measuredTurns = new AtomicLong();
  private final Set<String> sentPrefixes = new HashSet<>();

  /**
   * See {@link PhasedWorkload}.
   *
   * @throws IllegalArgumentException naming the budget's setting when it is out of range
   */
  SessionWorkload(String name, long budget, long warmupBudget, Shard shard, Kind kind) {
    super(name, budget, warmupBudget, shard, kind);
  }

  /**
   * Counts a turn of a session of this phase as sent.
   *
   * @param phase {@code warmup} or {@code measured}
   */
  final void countTurn(String phase) {
    (Phase.isWarmup(phase) ? warmupTurns : measuredTurns).incrementAndGet();
  }

  /**
   * The turns sent so far in a phase, of every session, ended or not.
   *
   * @param phase {@code warmup} or {@code measured}
   * @return at least 0
   */
  public final long turnsSent(String phase) {
    return (Phase.isWarmup(phase) ? warmupTurns : measuredTurns).get();
  }

  /**
   * Whether a session of this phase and group sent the group's shared prefix before in this run,
   * marking it as sent.
   *
   * @param phase the session's phase
   * @param group the session's group
   * @return true when it was sent before
   */
  final synchronized boolean groupPrefixSentBefore(String phase, Object group) {
    return !sentPrefixes.add(phase + ":" + group);
  }
}
