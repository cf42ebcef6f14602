package io.github.gatlingllm.protocol;

import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.RunInfo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Not API. The run's per-request bookkeeping (see {@link RunContext}): the requests in flight and
 * their peak, the request names, the workloads and conversation workloads that fed requests, the
 * users ended by a budget, the stale-connection resends and the warm starts; and the parts of the
 * run record they give ({@code prompts}, the handed-out counts). Thread-safe.
 */
final class RunTally {

  private final Set<String> requestNames = Collections.synchronizedSet(new LinkedHashSet<>());
  private final Map<Workload, Set<String>> workloads = new LinkedHashMap<>();
  private final Set<ConversationWorkload> conversations =
      Collections.synchronizedSet(new LinkedHashSet<>());
  private final Set<io.github.gatlingllm.feeder.AgentWorkload> agents =
      Collections.synchronizedSet(new LinkedHashSet<>());
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong peakInFlight = new AtomicLong();
  private final AtomicLong usersEndedByBudget = new AtomicLong();
  private final AtomicLong warmStarts = new AtomicLong();
  private final AtomicLong staleConnectionResends = new AtomicLong();

  /**
   * Names a request of the run.
   *
   * @param name the request name
   */
  void addRequestName(String name) {
    requestNames.add(name);
  }

  /**
   * The request names, in the order they were first named.
   *
   * @return a copy, never null
   */
  List<String> requestNames() {
    synchronized (requestNames) {
      return new ArrayList<>(requestNames);
    }
  }

  /**
   * A request is about to be sent: counts it in flight and notes its workload.
   *
   * @param workload the request's workload, or null
   * @param request the request's name
   */
  void started(Workload workload, String request) {
    if (workload != null) {
      synchronized (workloads) {
        workloads.computeIfAbsent(workload, w -> new LinkedHashSet<>()).add(request);
      }
    }
    long now = inFlight.incrementAndGet();
    peakInFlight.accumulateAndGet(now, Math::max);
  }

  /**
   * A workload fed a request that is recorded without being sent: noted as {@link #started} does,
   * without counting anything in flight.
   *
   * @param workload the workload, never null
   * @param request the request's name
   */
  void fedBy(Workload workload, String request) {
    synchronized (workloads) {
      workloads.computeIfAbsent(workload, w -> new LinkedHashSet<>()).add(request);
    }
  }

  /**
   * The workloads that fed requests, in first-use order.
   *
   * @return a copy
   */
  List<Workload> workloads() {
    synchronized (workloads) {
      return new ArrayList<>(workloads.keySet());
    }
  }

  /**
   * The first request a workload fed.
   *
   * @param workload a workload of {@link #workloads()}
   * @return its name, never null
   */
  String firstRequest(Workload workload) {
    synchronized (workloads) {
      Set<String> names = workloads.get(workload);
      return names == null || names.isEmpty() ? workload.name() : names.iterator().next();
    }
  }

  /** A request counted by {@link #started} ended (recorded or not): in flight no more. */
  void ended() {
    inFlight.decrementAndGet();
  }

  /**
   * The LLM requests in flight now.
   *
   * @return at least 0
   */
  long inFlight() {
    return inFlight.get();
  }

  /**
   * The most LLM requests in flight at once so far.
   *
   * @return at least 0
   */
  long peakInFlight() {
    return peakInFlight.get();
  }

  /**
   * A conversation workload fed a turn.
   *
   * @param workload never null
   */
  void conversationStarted(ConversationWorkload workload) {
    conversations.add(workload);
  }

  /**
   * An agent workload sent (or ended before) a session's first turn.
   *
   * @param workload never null
   */
  void agentsStarted(io.github.gatlingllm.feeder.AgentWorkload workload) {
    agents.add(workload);
  }

  /**
   * The agent workloads' records, for the run record's {@code sessions} (issue 32).
   *
   * @return in start order; null when no agent workload fed a session
   */
  List<AgentSessions> agentRecords() {
    synchronized (agents) {
      return agents.isEmpty()
          ? null
          : agents.stream().map(io.github.gatlingllm.feeder.AgentWorkload::toRecord).toList();
    }
  }

  /**
   * The conversation workloads' records, for the run record's {@code conversations}.
   *
   * @return in start order; null when no conversation workload fed a request
   */
  List<Conversations> conversationRecords() {
    synchronized (conversations) {
      return conversations.isEmpty()
          ? null
          : conversations.stream().map(ConversationWorkload::toRecord).toList();
    }
  }

  /** Counts a stale-connection resend. */
  void staleConnectionResend() {
    staleConnectionResends.incrementAndGet();
  }

  /**
   * The requests sent once more on a new connection.
   *
   * @return at least 0
   */
  long staleConnectionResends() {
    return staleConnectionResends.get();
  }

  /**
   * A virtual user was fed past its workload's budget and ends.
   *
   * @return true when every workload made in this JVM is spent
   */
  boolean userEndedByBudget() {
    usersEndedByBudget.incrementAndGet();
    return Workload.allSpent();
  }

  /**
   * The virtual users ended by a workload's budget.
   *
   * @return at least 0
   */
  long usersEndedByBudget() {
    return usersEndedByBudget.get();
  }

  /**
   * Counts a request that found a cache warm it should have found cold.
   *
   * @return true for the first one
   */
  boolean warmStart() {
    return warmStarts.incrementAndGet() == 1;
  }

  /**
   * What the workloads fed, read together.
   *
   * @param prompts the prompts of each workload that fed requests, in first-use order
   * @param warmup the warm-up prompts handed out and conversation turns sent
   * @param measured the measured prompts handed out and conversation turns sent
   */
  record Fed(List<RunInfo.Prompts> prompts, long warmup, long measured) {}

  /**
   * What the workloads and conversation workloads fed so far, for the run record.
   *
   * @return never null
   */
  Fed fed() {
    List<RunInfo.Prompts> prompts = new ArrayList<>();
    long warmup = 0;
    long measured = 0;
    synchronized (workloads) {
      for (Map.Entry<Workload, Set<String>> e : workloads.entrySet()) {
        Workload w = e.getKey();
        prompts.add(prompts(w, e.getValue()));
        warmup += w.warmup().handedOut();
        measured += w.measured().handedOut();
      }
    }
    synchronized (conversations) {
      for (ConversationWorkload w : conversations) {
        warmup += w.turnsSent(Phase.WARMUP.wireName());
        measured += w.turnsSent(Phase.MEASURED.wireName());
      }
    }
    synchronized (agents) {
      for (io.github.gatlingllm.feeder.AgentWorkload w : agents) {
        warmup += w.turnsSent(Phase.WARMUP.wireName());
        measured += w.turnsSent(Phase.MEASURED.wireName());
      }
    }
    return new Fed(prompts, warmup, measured);
  }

  /** Closes every workload and conversation workload that fed a request. */
  void closeWorkloads() {
    synchronized (workloads) {
      workloads.keySet().forEach(Workload::close);
    }
    synchronized (conversations) {
      conversations.forEach(ConversationWorkload::close);
    }
    synchronized (agents) {
      agents.forEach(io.github.gatlingllm.feeder.AgentWorkload::close);
    }
  }

  /** One workload's {@code prompts} entry of the run record. */
  static RunInfo.Prompts prompts(Workload w, Set<String> requestNames) {
    PromptSource m = w.measured();
    Map<String, RunInfo.Phase> phases = new LinkedHashMap<>();
    phases.put(
        Phase.WARMUP.wireName(), new RunInfo.Phase(w.warmup().handedOut(), w.warmup().digest()));
    phases.put(Phase.MEASURED.wireName(), new RunInfo.Phase(m.handedOut(), m.digest()));
    // A prompts file's spec names the file, its sha256, rows, order and wrap (mode "file").
    Map<String, Object> spec = new LinkedHashMap<>(m.specRecord());
    if (w.warmGroups()) {
      spec.put("warm_groups", true);
    }
    return new RunInfo.Prompts(
        w.name(),
        spec,
        PromptSource.GENERATOR_VERSION,
        m.seed(),
        m.caseId(),
        m.inputTokens(),
        m.counter().identity(),
        phases,
        m.spec().sharedPrefixRatio(),
        List.copyOf(requestNames),
        w.seedAuto() ? Boolean.TRUE : null,
        w.replay() == null
            ? null
            : w.replay().toRecord(w.replay().requestsSent(), w.shard(), m.digest()));
  }
}
