package io.github.gatlingllm.report;

import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PhaseDigests;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * The prompts of a test run as shards ({@code llm.shard}): each workload once, its request names
 * and handed-out counts over all shards, and each phase's digest recomputed from the per-request
 * digests in index order, so the merged digest equals the one-machine run's; warnings for indices
 * recorded twice, prompts handed out but not recorded, indices with no request, and request names
 * that fed several workloads.
 */
final class ShardPrompts {

  private ShardPrompts() {}

  /**
   * Sets the merged record's {@code prompts} (and {@code workloads} when there are several) to the
   * test's: each workload of the shards once, its phases' request counts and digests recomputed
   * from every shard's per-request digests, its trace rows and request names summed.
   *
   * @param record the merged record, changed in place
   * @param sources the shards
   * @param warnings where the warnings go
   * @throws IllegalArgumentException naming a prompt digest that is not 16 hex digits
   */
  static void mergePrompts(
      Map<String, Object> record, List<MergeSource> sources, List<String> warnings) {
    // Each workload once, by name, in order of first appearance; request names and handed-out
    // counts over all shards.
    Map<String, Map<String, Object>> merged = new LinkedHashMap<>();
    Map<String, Set<String>> names = new LinkedHashMap<>();
    Map<String, Map<String, Long>> handedOut = new LinkedHashMap<>();
    Map<String, Map<String, Long>> traceRows = new LinkedHashMap<>();
    for (MergeSource s : sources) {
      for (Map<?, ?> w : MergeSource.workloads(s.run())) {
        String workload = String.valueOf(w.get("workload"));
        if (!merged.containsKey(workload)) {
          Map<String, Object> copy = new LinkedHashMap<>();
          w.forEach((k, v) -> copy.put(String.valueOf(k), v));
          merged.put(workload, copy);
        }
        if (w.get("request_names") instanceof List<?> list) {
          for (Object n : list) {
            names.computeIfAbsent(workload, k -> new LinkedHashSet<>()).add(String.valueOf(n));
          }
        }
        if (w.get("trace") instanceof Map<?, ?> trace) {
          // A replayed trace: each shard sent its own rows.
          Map<String, Long> sums = traceRows.computeIfAbsent(workload, k -> new LinkedHashMap<>());
          for (String key : List.of("rows_sent", "rows_skipped")) {
            if (trace.get(key) instanceof Number n) {
              sums.merge(key, n.longValue(), Long::sum);
            }
          }
        }
        if (w.get("phases") instanceof Map<?, ?> phases) {
          for (Map.Entry<?, ?> e : phases.entrySet()) {
            if (e.getValue() instanceof Map<?, ?> p && p.get("requests") instanceof Number n) {
              handedOut
                  .computeIfAbsent(workload, k -> new LinkedHashMap<>())
                  .merge(String.valueOf(e.getKey()), n.longValue(), Long::sum);
            }
          }
        }
      }
    }
    if (merged.isEmpty()) {
      return;
    }
    // Which workload each request name fed: unambiguous with one workload, or when each request
    // name sent the prompts of one workload only.
    Map<String, String> workloadOf = new LinkedHashMap<>();
    Set<String> ambiguous = new LinkedHashSet<>();
    for (Map.Entry<String, Set<String>> e : names.entrySet()) {
      for (String n : e.getValue()) {
        String before = workloadOf.putIfAbsent(n, e.getKey());
        if (before != null && !before.equals(e.getKey())) {
          ambiguous.add(n);
        }
      }
    }
    String only = merged.size() == 1 ? merged.keySet().iterator().next() : null;
    if (!ambiguous.isEmpty()) {
      warnings.add(
          "the requests "
              + ambiguous
              + " sent prompts of several workloads: the digests of those workloads cannot be"
              + " recomputed from the requests");
    }
    // Each workload's phases: the digests of its request names (of every name with one
    // workload), index by index.
    Set<MergeDigests> distinct =
        java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (MergeSource s : sources) {
      distinct.add(s.stats().digests);
    }
    MergeDigests all = distinct.size() == 1 ? distinct.iterator().next() : new MergeDigests();
    if (distinct.size() > 1) {
      for (MergeDigests d : distinct) {
        all.merge(d);
      }
    }
    Map<String, Map<String, PhaseDigests>> digests = new LinkedHashMap<>();
    Map<String, Map<String, String>> bad = new LinkedHashMap<>();
    long repeats = all.repeats;
    for (Map.Entry<List<String>, PhaseDigests> e : all.byName.entrySet()) {
      String request = e.getKey().get(0);
      String workload = only != null ? only : workloadOf.get(request);
      if (workload == null || ambiguous.contains(request)) {
        continue;
      }
      PhaseDigests phase =
          digests
              .computeIfAbsent(workload, k -> new LinkedHashMap<>())
              .computeIfAbsent(e.getKey().get(1), k -> new PhaseDigests());
      repeats += phase.putAll(e.getValue());
    }
    for (Map.Entry<List<String>, String> e : all.bad.entrySet()) {
      String request = e.getKey().get(0);
      String workload = only != null ? only : workloadOf.get(request);
      if (workload != null && !ambiguous.contains(request)) {
        bad.computeIfAbsent(workload, k -> new LinkedHashMap<>())
            .putIfAbsent(e.getKey().get(1), e.getValue());
        digests
            .computeIfAbsent(workload, k -> new LinkedHashMap<>())
            .computeIfAbsent(e.getKey().get(1), k -> new PhaseDigests());
      }
    }
    if (repeats > 0) {
      List<String> example = all.repeated.isEmpty() ? null : all.repeated.iterator().next();
      String workload =
          example == null ? null : only != null ? only : workloadOf.get(example.get(0));
      warnings.add(
          repeats
              + " request indices were recorded more than once"
              + (example == null || workload == null
                  ? ""
                  : " (e.g. " + workload + " " + example.get(1) + " " + example.get(2) + ")")
              + ": the same shard given twice, or shards of different settings");
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, Map<String, Object>> e : merged.entrySet()) {
      String workload = e.getKey();
      Map<String, Object> w = e.getValue();
      boolean known = only != null || !ambiguousWorkload(workload, names, ambiguous);
      Map<String, Object> phases = new LinkedHashMap<>();
      Object recorded = w.get("phases");
      List<String> phaseNames = new ArrayList<>();
      if (recorded instanceof Map<?, ?> m) {
        m.keySet().forEach(k -> phaseNames.add(String.valueOf(k)));
      }
      for (String p : digests.getOrDefault(workload, Map.of()).keySet()) {
        if (!phaseNames.contains(p)) {
          phaseNames.add(p);
        }
      }
      for (String p : phaseNames) {
        PhaseDigests byIndex =
            digests.getOrDefault(workload, Map.of()).getOrDefault(p, new PhaseDigests());
        String badDigest = bad.getOrDefault(workload, Map.of()).get(p);
        if (known && badDigest != null) {
          throw new IllegalArgumentException(badDigest);
        }
        Map<String, Object> phase = new LinkedHashMap<>();
        phase.put("requests", byIndex.size());
        phase.put("digest", known ? byIndex.phaseDigest() : null);
        phases.put(p, phase);
        long sent = handedOut.getOrDefault(workload, Map.of()).getOrDefault(p, 0L);
        if (known && repeats == 0 && sent > byIndex.size()) {
          warnings.add(
              "workload "
                  + workload
                  + ", "
                  + p
                  + ": the shards handed out "
                  + sent
                  + " prompts but recorded "
                  + byIndex.size()
                  + " (requests in flight when a shard ended): the digest covers the recorded"
                  + " ones");
        }
        if (known && byIndex.size() > 0 && byIndex.lastIndex() + 1 != byIndex.size()) {
          warnings.add(
              "workload "
                  + workload
                  + ", "
                  + p
                  + ": "
                  + (byIndex.lastIndex() + 1 - byIndex.size())
                  + " of the indices 0 to "
                  + byIndex.lastIndex()
                  + " have no request: the digest is not the one-machine run's");
        }
      }
      w.put("phases", phases);
      if (w.get("trace") instanceof Map<?, ?> trace && traceRows.containsKey(workload)) {
        Map<String, Object> t = new LinkedHashMap<>();
        trace.forEach((k, v) -> t.put(String.valueOf(k), v));
        t.putAll(traceRows.get(workload));
        if (phases.get(Phase.MEASURED.wireName()) instanceof Map<?, ?> measured) {
          t.put("digest", measured.get("digest"));
        }
        w.put("trace", t);
      }
      if (names.containsKey(workload)) {
        w.put("request_names", new ArrayList<>(names.get(workload)));
      }
      out.add(w);
    }
    record.put("prompts", out.get(0));
    if (out.size() > 1) {
      record.put("workloads", out);
    } else {
      record.remove("workloads");
    }
  }

  private static boolean ambiguousWorkload(
      String workload, Map<String, Set<String>> names, Set<String> ambiguous) {
    Set<String> own = names.get(workload);
    if (own == null) {
      return true;
    }
    for (String n : own) {
      if (ambiguous.contains(n)) {
        return true;
      }
    }
    return false;
  }
}
