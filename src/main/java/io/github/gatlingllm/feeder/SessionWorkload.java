package io.github.gatlingllm.feeder;

import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.prompt.Phase;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not API. A workload of sessions, conversations and agent sessions alike: one session a feed,
 * whose next turn is built from the last reply and sent by the same virtual user; what such
 * workloads add to {@link PhasedWorkload}: the turns sent of each phase, and which group prefixes
 * (a group's system prompt, with an agent's tools) a session sent before, and whether their prefill
 * ended ({@link PrefixLedger}).
 *
 * <p>Thread-safe.
 */
public abstract class SessionWorkload extends PhasedWorkload {

  private final AtomicLong warmupTurns = new AtomicLong();
  private final AtomicLong measuredTurns = new AtomicLong();
  private final PrefixLedger prefixes = new PrefixLedger();

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
   * A session's request with a shared prefix (a group's system prompt, an agent's tools) is being
   * sent: its ticket in this workload's {@link PrefixLedger}, which says whether a session sent the
   * prefix before and whether one of those had its first token (so the prefix is ready in a
   * server's cache); marks the prefix as sent. Call in the order requests go out, and tell the
   * ticket when the request's prefill ended and when it ended.
   *
   * @param key what the prefix is, the same for every session that sends it (e.g. {@code
   *     measured:3}: the measured phase's group 3), never null
   * @return the ticket
   */
  final PrefixLedger.Ticket sendPrefix(String key) {
    return prefixes.send(key);
  }
}
