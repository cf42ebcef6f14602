package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.WorkingSetSweep;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * One step of a working-set sweep: a shared-prefix workload of {@code groups} prefix groups, and
 * what its measured requests saw of the server's prefix cache. Thread-safe: {@link #add} may be
 * called from every event loop.
 *
 * <p>The figures, over the measured requests that succeeded and whose usage gave both prompt and
 * cached tokens:
 *
 * <ul>
 *   <li>{@code hit_ratio}: cached / prompt tokens.
 *   <li>{@code expected_hit_ratio}: what an unbounded prefix cache would have served, / prompt
 *       tokens: every request's group prefix but for the first request of its group (by start).
 *   <li>{@code retained}: cached / those reusable tokens: the share of what the cache could have
 *       served that it did serve. About 1 while the working set fits (block rounding and the chat
 *       template move it by a few percent; requests of a group sent together, before the first
 *       one's prefix is computed, may miss on a server that batches them), lower once the cache
 *       evicts prefixes before their group comes back.
 * </ul>
 */
public final class SweepStep {

  private final String workload;
  private final String caseId;
  private final int groups;
  private final MetricsAggregator latencies = new MetricsAggregator();
  private final List<Entry> entries = new ArrayList<>();

  /** One measured request: when it started, its group and counts. */
  private record Entry(
      long startMs,
      Integer group,
      Integer prefixTokens,
      Integer promptTokens,
      Integer cachedTokens,
      boolean ok) {}

  /**
   * An empty step.
   *
   * @param workload the workload's name, never null
   * @param caseId the workload's case id, or null
   * @param groups the step's prefix groups, at least 1
   * @throws IllegalArgumentException if {@code groups} is less than 1
   */
  public SweepStep(String workload, String caseId, int groups) {
    this.workload = Objects.requireNonNull(workload, "workload");
    this.caseId = caseId;
    if (groups < 1) {
      throw new IllegalArgumentException("groups: got " + groups + ", expected >= 1");
    }
    this.groups = groups;
  }

  /**
   * The step's prefix groups.
   *
   * @return at least 1
   */
  public int groups() {
    return groups;
  }

  /**
   * Adds a request of the step's workload; warmup requests are left out.
   *
   * @param record the request, never null
   */
  public void add(RequestRecord record) {
    if (Phase.isWarmup(record.phase())) {
      return;
    }
    latencies.add(record);
    Entry entry =
        new Entry(
            record.startMs(),
            record.prefixGroup(),
            record.sharedPrefixTokens(),
            record.promptTokens(),
            record.cachedTokens(),
            record.status() == RequestStatus.OK);
    synchronized (entries) {
      entries.add(entry);
    }
  }

  /**
   * The step's figures: {@code groups}, {@code workload}, {@code case_id}, {@code requests}
   * (measured, any status), {@code ok}, {@code prefix_tokens} (the mean group prefix, tokens),
   * {@code working_set_tokens} (the prefixes of the groups sent, summed), {@code prompt_tokens},
   * {@code cached_tokens}, {@code reusable_tokens}, {@code hit_ratio}, {@code expected_hit_ratio},
   * {@code retained} (null when no usage gave cached tokens), {@code ttft_p50_ms}, {@code
   * ttft_p99_ms}, {@code ttft_mean_ms}, {@code e2e_p50_ms}.
   *
   * @return the step's block of the run record's {@code working_set_sweep}
   */
  public WorkingSetSweep.Step toRecord() {
    List<Entry> list;
    synchronized (entries) {
      list = new ArrayList<>(entries);
    }
    // Each group's first request (by start) cannot hit; every later one can.
    list.sort(java.util.Comparator.comparingLong(Entry::startMs));
    Map<Integer, Entry> first = new HashMap<>();
    Map<Integer, Integer> prefixByGroup = new LinkedHashMap<>();
    for (Entry e : list) {
      if (e.group() != null) {
        first.putIfAbsent(e.group(), e);
      }
      if (e.group() != null && e.prefixTokens() != null) {
        prefixByGroup.putIfAbsent(e.group(), e.prefixTokens());
      }
    }
    long prompt = 0;
    long cached = 0;
    long reusable = 0;
    long ok = 0;
    for (Entry e : list) {
      if (!e.ok()) {
        continue;
      }
      ok++;
      if (e.promptTokens() == null || e.cachedTokens() == null) {
        continue;
      }
      prompt += e.promptTokens();
      cached += e.cachedTokens();
      if (e.group() != null && e.prefixTokens() != null && first.get(e.group()) != e) {
        reusable += Math.min(e.prefixTokens(), e.promptTokens());
      }
    }
    long workingSet = 0;
    for (int p : prefixByGroup.values()) {
      workingSet += p;
    }
    GroupSummary overall = latencies.summary().overall();
    return new WorkingSetSweep.Step(
        groups,
        workload,
        caseId,
        (long) list.size(),
        ok,
        prefixByGroup.isEmpty() ? null : Math.round((double) workingSet / prefixByGroup.size()),
        prefixByGroup.isEmpty() ? null : workingSet,
        prompt,
        cached,
        reusable,
        prompt == 0 ? null : round4((double) cached / prompt),
        prompt == 0 ? null : round4((double) reusable / prompt),
        reusable == 0 ? null : round4((double) cached / reusable),
        overall.ttftMs().p50(),
        overall.ttftMs().p99(),
        overall.ttftMs().mean(),
        overall.e2eMs().p50(),
        null);
  }

  private static double round4(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }
}
