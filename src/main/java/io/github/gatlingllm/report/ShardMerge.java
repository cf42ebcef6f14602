package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.PromptSource;
import java.nio.file.Path;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * What a merge of several run folders adds to the merged run record: per-folder counts and windows
 * ({@code shards}), warnings ({@code merge_warnings}) when the folders' windows do not overlap or
 * their settings differ, and, when the folders are the shards of one test ({@code shard} in their
 * run records), the test's prompts: each workload's phase digests recomputed from the per-request
 * digests in index order, so that the merged measured digest equals the one-machine run's.
 */
final class ShardMerge {

  private ShardMerge() {}

  /** One source folder: its run record and requests. */
  record Source(Path folder, Map<String, Object> run, List<RequestRecord> requests) {}

  /**
   * Completes a merged record.
   *
   * @param record the merged record (a copy of the first folder's), changed in place
   * @param sources the folders, in the order given
   * @return the warnings, also in {@code record.merge_warnings}
   */
  static List<String> apply(Map<String, Object> record, List<Source> sources) {
    List<String> warnings = new ArrayList<>();
    boolean sharded = sharded(sources);
    List<Map<String, Object>> perFolder = new ArrayList<>();
    for (Source s : sources) {
      perFolder.add(counts(s));
    }
    record.put("shards", perFolder);
    if (sharded) {
      checkShards(sources, warnings);
    }
    checkSettings(sources, warnings);
    checkWindows(sources, perFolder, warnings);
    if (sharded) {
      mergePrompts(record, sources, warnings);
      mergeLoad(record, sources);
      record.remove("prompt_digests_equal");
      record.remove("shard");
    }
    mergeTimes(record, sources);
    record.put("merge_warnings", warnings);
    return warnings;
  }

  /** Whether the folders are shards of one test: one of them at least names its shard. */
  static boolean sharded(List<Source> sources) {
    return sources.stream().anyMatch(s -> shard(s.run()) != null);
  }

  private static String name(Source s) {
    Map<?, ?> shard = shard(s.run());
    return shard == null
        ? s.folder().toString()
        : "shard " + shard.get("index") + "/" + shard.get("count");
  }

  /** The run's {@code shard} when it was one of several, else null. */
  private static Map<?, ?> shard(Map<String, Object> run) {
    return run.get("shard") instanceof Map<?, ?> m
            && m.get("count") instanceof Number n
            && n.intValue() > 1
        ? m
        : null;
  }

  private static Map<String, Object> counts(Source s) {
    Map<String, Object> c = new LinkedHashMap<>();
    c.put("folder", s.folder().toString());
    Map<?, ?> shard = shard(s.run());
    c.put("shard", shard == null ? null : shard.get("index") + "/" + shard.get("count"));
    long measured = 0;
    long warmup = 0;
    long ok = 0;
    for (RequestRecord r : s.requests()) {
      if ("warmup".equals(r.phase())) {
        warmup++;
      } else {
        measured++;
      }
      if (r.status() == RequestStatus.OK) {
        ok++;
      }
    }
    c.put("requests_recorded", (long) s.requests().size());
    c.put("measured", measured);
    c.put("warmup", warmup);
    c.put("ok", ok);
    long[] window = window(s.requests());
    c.put("first_start", window == null ? null : Instant.ofEpochMilli(window[0]).toString());
    c.put("last_end", window == null ? null : Instant.ofEpochMilli(window[1]).toString());
    if (shard != null && shard.get("late_ms") != null) {
      c.put("late_ms", shard.get("late_ms"));
    }
    c.put("interrupted", Boolean.TRUE.equals(s.run().get("interrupted")));
    return c;
  }

  /** First start and last end (start plus E2E, or the start when unmeasured), or null. */
  private static long[] window(List<RequestRecord> requests) {
    if (requests.isEmpty()) {
      return null;
    }
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    for (RequestRecord r : requests) {
      first = Math.min(first, r.startMs());
      long end = r.startMs() + (r.e2eMs() == null ? 0 : (long) Math.ceil(r.e2eMs()));
      last = Math.max(last, end);
    }
    return new long[] {first, last};
  }

  private static void checkShards(List<Source> sources, List<String> warnings) {
    Set<Integer> counts = new LinkedHashSet<>();
    Map<Integer, String> seen = new TreeMap<>();
    for (Source s : sources) {
      Map<?, ?> shard = shard(s.run());
      if (shard == null) {
        warnings.add(
            s.folder()
                + " is not a shard (its llm-run.json names none): its requests are merged, but the"
                + " test's digests may not be the one-machine run's");
        continue;
      }
      int index = ((Number) shard.get("index")).intValue();
      counts.add(((Number) shard.get("count")).intValue());
      String before = seen.put(index, s.folder().toString());
      if (before != null) {
        warnings.add(
            "shard "
                + index
                + " is given twice ("
                + before
                + ", "
                + s.folder()
                + "): its requests are counted twice");
      }
    }
    if (counts.size() > 1) {
      warnings.add("the folders are shards of tests of different shard counts: " + counts);
    } else if (counts.size() == 1) {
      int count = counts.iterator().next();
      List<Integer> missing = new ArrayList<>();
      for (int i = 0; i < count; i++) {
        if (!seen.containsKey(i)) {
          missing.add(i);
        }
      }
      if (!missing.isEmpty()) {
        warnings.add(
            "shards "
                + missing
                + " of "
                + count
                + " are missing: their requests are not in the merge");
      }
    }
  }

  /** The values that should be the same in every shard of one test, by dotted name. */
  private static Map<String, Object> settings(Map<String, Object> run) {
    Map<String, Object> out = new TreeMap<>();
    for (String key : List.of("version", "gatling_version", "simulation", "decoding", "slo")) {
      flatten(key, run.get(key), out);
    }
    if (run.get("assertions") != null) {
      flatten("assertions", run.get("assertions"), out);
    }
    if (run.get("target") instanceof Map<?, ?> target) {
      Map<String, Object> t = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : target.entrySet()) {
        String k = String.valueOf(e.getKey());
        // Each shard's embedded simulator has its own port; a server's answers may vary.
        if (k.equals("server")
            || (k.equals("base_url") && Boolean.TRUE.equals(target.get("embedded_simulator")))) {
          continue;
        }
        t.put(k, e.getValue());
      }
      flatten("target", t, out);
    }
    if (run.get("load") instanceof Map<?, ?> load) {
      flatten("load.timeout_ms", load.get("timeout_ms"), out);
      flatten("load.connections", load.get("connections"), out);
    }
    if (run.get("shard") instanceof Map<?, ?> shard) {
      flatten("shard.count", shard.get("count"), out);
      flatten("shard.start_at", shard.get("start_at"), out);
    }
    for (Map<?, ?> w : workloads(run)) {
      String prefix = "prompts[" + w.get("workload") + "]";
      for (Map.Entry<?, ?> e : w.entrySet()) {
        String k = String.valueOf(e.getKey());
        if (!k.equals("phases") && !k.equals("request_names")) {
          flatten(prefix + "." + k, e.getValue(), out);
        }
      }
    }
    return out;
  }

  private static void flatten(String name, Object value, Map<String, Object> out) {
    if (value instanceof Map<?, ?> m) {
      for (Map.Entry<?, ?> e : m.entrySet()) {
        flatten(name + "." + e.getKey(), e.getValue(), out);
      }
    } else if (value != null) {
      out.put(name, value);
    }
  }

  private static void checkSettings(List<Source> sources, List<String> warnings) {
    Map<String, Object> first = settings(sources.get(0).run());
    for (Source s : sources.subList(1, sources.size())) {
      Map<String, Object> other = settings(s.run());
      List<String> differ = new ArrayList<>();
      Set<String> keys = new LinkedHashSet<>(first.keySet());
      keys.addAll(other.keySet());
      for (String key : keys) {
        if (!Objects.equals(first.get(key), other.get(key))
            && first.containsKey(key)
            && other.containsKey(key)) {
          differ.add(key + " " + first.get(key) + " vs " + other.get(key));
        }
      }
      if (!differ.isEmpty()) {
        warnings.add(
            "settings differ between "
                + name(sources.get(0))
                + " and "
                + name(s)
                + ": "
                + String.join(", ", differ));
      }
    }
  }

  private static void checkWindows(
      List<Source> sources, List<Map<String, Object>> perFolder, List<String> warnings) {
    long latestStart = Long.MIN_VALUE;
    long earliestEnd = Long.MAX_VALUE;
    int withRequests = 0;
    for (Source s : sources) {
      long[] w = window(s.requests());
      if (w == null) {
        continue;
      }
      withRequests++;
      latestStart = Math.max(latestStart, w[0]);
      earliestEnd = Math.min(earliestEnd, w[1]);
    }
    if (withRequests > 1 && latestStart >= earliestEnd) {
      List<String> windows = new ArrayList<>();
      for (int i = 0; i < sources.size(); i++) {
        Map<String, Object> c = perFolder.get(i);
        if (c.get("first_start") != null) {
          windows.add(
              name(sources.get(i)) + " " + c.get("first_start") + " to " + c.get("last_end"));
        }
      }
      warnings.add(
          "the folders' windows do not overlap ("
              + String.join("; ", windows)
              + "): they did not run at the same time, so the merged rates and concurrency are"
              + " not those of one test");
    }
  }

  /** Every workload's prompts of a run record: {@code workloads}, else {@code prompts}. */
  private static List<Map<?, ?>> workloads(Map<String, Object> run) {
    List<Map<?, ?>> out = new ArrayList<>();
    if (run.get("workloads") instanceof List<?> list && !list.isEmpty()) {
      for (Object w : list) {
        if (w instanceof Map<?, ?> m) {
          out.add(m);
        }
      }
    } else if (run.get("prompts") instanceof Map<?, ?> m) {
      out.add(m);
    }
    return out;
  }

  private static void mergePrompts(
      Map<String, Object> record, List<Source> sources, List<String> warnings) {
    // Each workload once, by name, in order of first appearance; request names and handed-out
    // counts over all shards.
    Map<String, Map<String, Object>> merged = new LinkedHashMap<>();
    Map<String, Set<String>> names = new LinkedHashMap<>();
    Map<String, Map<String, Long>> handedOut = new LinkedHashMap<>();
    Map<String, Map<String, Long>> traceRows = new LinkedHashMap<>();
    for (Source s : sources) {
      for (Map<?, ?> w : workloads(s.run())) {
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
    Map<String, Map<String, TreeMap<Long, String>>> digests = new LinkedHashMap<>();
    Set<String> duplicated = new LinkedHashSet<>();
    for (Source s : sources) {
      for (RequestRecord r : s.requests()) {
        String workload = only != null ? only : workloadOf.get(r.request());
        if (workload == null
            || r.conversationTurn() != null
            || ambiguous.contains(r.request())
            || r.phase() == null
            || r.index() == null
            || r.digest() == null) {
          continue;
        }
        TreeMap<Long, String> phase =
            digests
                .computeIfAbsent(workload, k -> new LinkedHashMap<>())
                .computeIfAbsent(r.phase(), k -> new TreeMap<>());
        if (phase.put(r.index(), r.digest()) != null) {
          duplicated.add(workload + " " + r.phase() + " " + r.index());
        }
      }
    }
    if (!duplicated.isEmpty()) {
      warnings.add(
          duplicated.size()
              + " request indices were recorded more than once (e.g. "
              + duplicated.iterator().next()
              + "): the same shard given twice, or shards of different settings");
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
        TreeMap<Long, String> byIndex =
            digests.getOrDefault(workload, Map.of()).getOrDefault(p, new TreeMap<>());
        Map<String, Object> phase = new LinkedHashMap<>();
        phase.put("requests", (long) byIndex.size());
        phase.put("digest", known ? PromptSource.phaseDigest(byIndex) : null);
        phases.put(p, phase);
        long sent = handedOut.getOrDefault(workload, Map.of()).getOrDefault(p, 0L);
        if (known && duplicated.isEmpty() && sent > byIndex.size()) {
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
        if (known && !byIndex.isEmpty() && byIndex.lastKey() + 1 != byIndex.size()) {
          warnings.add(
              "workload "
                  + workload
                  + ", "
                  + p
                  + ": "
                  + (byIndex.lastKey() + 1 - byIndex.size())
                  + " of the indices 0 to "
                  + byIndex.lastKey()
                  + " have no request: the digest is not the one-machine run's");
        }
      }
      w.put("phases", phases);
      if (w.get("trace") instanceof Map<?, ?> trace && traceRows.containsKey(workload)) {
        Map<String, Object> t = new LinkedHashMap<>();
        trace.forEach((k, v) -> t.put(String.valueOf(k), v));
        t.putAll(traceRows.get(workload));
        if (phases.get("measured") instanceof Map<?, ?> measured) {
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

  /** Requests handed out add up; the peak in flight is the sum of the shards' (an upper bound). */
  private static void mergeLoad(Map<String, Object> record, List<Source> sources) {
    Map<String, Object> load = new LinkedHashMap<>();
    for (Source s : sources) {
      if (s.run().get("load") instanceof Map<?, ?> l) {
        for (Map.Entry<?, ?> e : l.entrySet()) {
          String k = String.valueOf(e.getKey());
          if (List.of(
                      "concurrency",
                      "peak_concurrency",
                      "warmup_requests",
                      "requests",
                      "users_ended_by_budget")
                  .contains(k)
              && e.getValue() instanceof Number n) {
            load.merge(k, n.longValue(), (a, b) -> (Long) a + (Long) b);
          } else {
            load.putIfAbsent(k, e.getValue());
          }
        }
      }
    }
    if (!load.isEmpty()) {
      record.put("load", load);
    }
  }

  /** The earliest {@code started_at} and the latest {@code ended_at}. */
  private static void mergeTimes(Map<String, Object> record, List<Source> sources) {
    Instant started = null;
    Instant ended = null;
    for (Source s : sources) {
      Instant a = instant(s.run().get("started_at"));
      Instant b = instant(s.run().get("ended_at"));
      if (a != null && (started == null || a.isBefore(started))) {
        started = a;
      }
      if (b != null && (ended == null || b.isAfter(ended))) {
        ended = b;
      }
    }
    if (started != null) {
      record.put("started_at", started.toString());
    }
    if (ended != null) {
      record.put("ended_at", ended.toString());
    }
  }

  private static Instant instant(Object value) {
    if (value instanceof String text) {
      try {
        return Instant.parse(text);
      } catch (java.time.format.DateTimeParseException e) {
        return null;
      }
    }
    return null;
  }
}
