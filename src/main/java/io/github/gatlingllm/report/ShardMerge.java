package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.PhaseDigests;
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

  /**
   * One source folder: its run record, and its requests' counts, window and digests.
   *
   * @param folder the folder
   * @param run its run record
   * @param stats what its requests add up to ({@link Stats}, from one pass over them)
   */
  record Source(Path folder, Map<String, Object> run, Stats stats) {

    /**
     * A folder of requests in memory, with digests of its own.
     *
     * @param folder the folder
     * @param run its run record
     * @param requests its requests
     * @return the source
     */
    static Source of(Path folder, Map<String, Object> run, List<RequestRecord> requests) {
      Stats stats = new Stats(new Digests());
      requests.forEach(stats::add);
      return new Source(folder, run, stats);
    }
  }

  /**
   * What a merge needs of one folder's requests, a request at a time: counts, the window and each
   * prompt's digest by request name, phase and index ({@link PhaseDigests}, about 10 bytes an
   * index), into digests shared by every folder of the merge.
   */
  static final class Stats {
    long recorded;
    long measured;
    long warmup;
    long ok;
    long first = Long.MAX_VALUE;
    long last = Long.MIN_VALUE;
    private final Digests digests;

    /**
     * Stats of one folder.
     *
     * @param digests the merge's digests, shared by its folders
     */
    Stats(Digests digests) {
      this.digests = digests;
    }

    /** Adds a request of the folder. */
    void add(RequestRecord r) {
      recorded++;
      if ("warmup".equals(r.phase())) {
        warmup++;
      } else {
        measured++;
      }
      if (r.status() == RequestStatus.OK) {
        ok++;
      }
      first = Math.min(first, r.startMs());
      last = Math.max(last, r.startMs() + (r.e2eMs() == null ? 0 : (long) Math.ceil(r.e2eMs())));
      digests.add(r);
    }
  }

  /** Every folder's prompt digests by request name and phase. */
  static final class Digests {

    /** Adds another's digests (folders read with digests of their own). */
    void merge(Digests other) {
      other.byName.forEach(
          (key, d) -> {
            long r = byName.computeIfAbsent(key, k -> new PhaseDigests()).putAll(d);
            repeats += r;
            if (r > 0 && repeated.isEmpty()) {
              repeated.add(List.of(key.get(0), key.get(1), "?"));
            }
          });
      other.bad.forEach(bad::putIfAbsent);
      repeats += other.repeats;
      if (repeated.isEmpty()) {
        repeated.addAll(other.repeated);
      }
    }

    private final Map<List<String>, PhaseDigests> byName = new LinkedHashMap<>();
    private final Map<List<String>, String> bad = new LinkedHashMap<>();
    private final Set<List<String>> repeated = new LinkedHashSet<>();
    private long repeats;

    /** Adds a request's digest, if it has one (conversation turns have their own). */
    void add(RequestRecord r) {
      if (r.conversationTurn() != null
          || r.phase() == null
          || r.index() == null
          || r.digest() == null) {
        return;
      }
      List<String> key = List.of(r.request(), r.phase());
      String hex = r.digest();
      long bits;
      try {
        if (hex.length() != 16) {
          throw new NumberFormatException();
        }
        bits = Long.parseUnsignedLong(hex, 16);
      } catch (NumberFormatException x) {
        bad.putIfAbsent(
            key,
            "prompt digest of index " + r.index() + ": got " + hex + ", expected 16 hex digits");
        return;
      }
      if (!byName.computeIfAbsent(key, k -> new PhaseDigests()).put(r.index(), bits)) {
        repeats++;
        if (repeated.size() < 1) {
          repeated.add(List.of(r.request(), r.phase(), String.valueOf(r.index())));
        }
      }
    }
  }

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
    c.put("requests_recorded", s.stats().recorded);
    c.put("measured", s.stats().measured);
    c.put("warmup", s.stats().warmup);
    c.put("ok", s.stats().ok);
    long[] window = window(s.stats());
    c.put("first_start", window == null ? null : Instant.ofEpochMilli(window[0]).toString());
    c.put("last_end", window == null ? null : Instant.ofEpochMilli(window[1]).toString());
    if (shard != null && shard.get("late_ms") != null) {
      c.put("late_ms", shard.get("late_ms"));
    }
    c.put("interrupted", Boolean.TRUE.equals(s.run().get("interrupted")));
    return c;
  }

  /** First start and last end (start plus E2E, or the start when unmeasured), or null. */
  private static long[] window(Stats stats) {
    return stats.recorded == 0 ? null : new long[] {stats.first, stats.last};
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
      long[] w = window(s.stats());
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
    // Each workload's phases: the digests of its request names (of every name with one
    // workload), index by index.
    Set<Digests> distinct = java.util.Collections.newSetFromMap(new java.util.IdentityHashMap<>());
    for (Source s : sources) {
      distinct.add(s.stats().digests);
    }
    Digests all = distinct.size() == 1 ? distinct.iterator().next() : new Digests();
    if (distinct.size() > 1) {
      for (Digests d : distinct) {
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
