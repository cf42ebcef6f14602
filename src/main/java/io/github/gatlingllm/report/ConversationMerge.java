package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.prompt.ConversationSource;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PromptSource;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * {@code llm-run.json}'s {@code conversations} for a report over several run folders: per workload
 * (by name) the first folder's settings, and per phase the folders' counts added up ({@code
 * conversations}, {@code turns}, {@code completed}, {@code ended_by_context_limit}, {@code
 * ended_by_error}, {@code unfinished}, {@code duration_ms.count}), {@code turns_per_conversation}
 * and {@code duration_ms.mean} worked out again, {@code duration_ms.max} the largest; the
 * percentiles of durations cannot be merged and are left out. The phase {@code digest}: the same
 * when every folder has the same (repeats of one test); for the shards of one test, recomputed from
 * the request lines (each conversation's user message digests in turn order) when they hold every
 * ended conversation, else null.
 */
final class ConversationMerge {

  private ConversationMerge() {}

  /**
   * The merged section.
   *
   * @param runs the folders' run records, in order
   * @param requests every folder's requests
   * @param sharded whether the folders are shards of one test
   * @return the merged list, or null when no folder has conversations
   */
  static List<Map<String, Object>> merge(
      List<Map<String, Object>> runs, List<RequestRecord> requests, boolean sharded) {
    Turns turns = new Turns();
    requests.forEach(turns::add);
    return merge(runs, turns, sharded);
  }

  /**
   * Every folder's conversation turns' digests by workload, phase, conversation and turn, a request
   * at a time (kept for the digests of a sharded merge: a turn's digest, about 100 bytes a turn;
   * other requests are not kept).
   */
  static final class Turns {
    private final Map<List<String>, Map<Long, TreeMap<Integer, String>>> byPhase =
        new LinkedHashMap<>();

    /** Adds a request. */
    void add(RequestRecord r) {
      if (r.conversationTurn() != null
          && r.workload() != null
          && r.phase() != null
          && r.digest() != null) {
        byPhase
            .computeIfAbsent(List.of(r.workload(), r.phase()), k -> new TreeMap<>())
            .computeIfAbsent(r.conversationTurn().conversation(), c -> new TreeMap<>())
            .put(r.conversationTurn().turn(), r.digest());
      }
    }
  }

  /**
   * The merged section.
   *
   * @param runs the folders' run records, in order
   * @param requests every folder's conversation turns
   * @param sharded whether the folders are shards of one test
   * @return the merged list, or null when no folder has conversations
   */
  static List<Map<String, Object>> merge(
      List<Map<String, Object>> runs, Turns requests, boolean sharded) {
    Map<String, List<Map<?, ?>>> byWorkload = new LinkedHashMap<>();
    for (Map<String, Object> run : runs) {
      if (run.get("conversations") instanceof List<?> list) {
        for (Object o : list) {
          if (o instanceof Map<?, ?> w) {
            byWorkload
                .computeIfAbsent(String.valueOf(w.get("workload")), k -> new ArrayList<>())
                .add(w);
          }
        }
      }
    }
    if (byWorkload.isEmpty()) {
      return null;
    }
    List<Map<String, Object>> out = new ArrayList<>();
    for (Map.Entry<String, List<Map<?, ?>>> e : byWorkload.entrySet()) {
      List<Map<?, ?>> parts = e.getValue();
      Map<String, Object> merged = new LinkedHashMap<>();
      for (Map.Entry<?, ?> f : parts.get(0).entrySet()) {
        merged.put(String.valueOf(f.getKey()), f.getValue());
      }
      Map<String, Object> phases = new LinkedHashMap<>();
      for (Phase p : Phase.values()) {
        String phase = p.wireName();
        phases.put(phase, phase(e.getKey(), phase, parts, requests, sharded));
      }
      merged.put("phases", phases);
      merged.put("unfinished", sum(parts, null, "unfinished"));
      out.add(merged);
    }
    return out;
  }

  private static Map<String, Object> phase(
      String workload, String phase, List<Map<?, ?>> parts, Turns requests, boolean sharded) {
    List<Map<?, ?>> phases = new ArrayList<>();
    for (Map<?, ?> w : parts) {
      if (w.get("phases") instanceof Map<?, ?> p && p.get(phase) instanceof Map<?, ?> m) {
        phases.add(m);
      }
    }
    Map<String, Object> m = new LinkedHashMap<>();
    long conversations = sum(phases, null, "conversations");
    long turns = sum(phases, null, "turns");
    m.put("conversations", conversations);
    m.put("turns", turns);
    m.put("digest", digest(workload, phase, phases, requests, sharded, conversations));
    for (String key : List.of("completed", "ended_by_context_limit", "ended_by_error")) {
      m.put(key, sum(phases, null, key));
    }
    m.put(
        "turns_per_conversation",
        conversations == 0 ? null : Math.round(1000.0 * turns / conversations) / 1000.0);
    Map<String, Object> d = new LinkedHashMap<>();
    long count = sum(phases, "duration_ms", "count");
    d.put("count", count);
    if (count > 0) {
      double total = 0;
      long max = 0;
      for (Map<?, ?> p : phases) {
        if (p.get("duration_ms") instanceof Map<?, ?> dm && dm.get("mean") instanceof Number mean) {
          total += mean.doubleValue() * ((Number) dm.get("count")).longValue();
          if (dm.get("max") instanceof Number x) {
            max = Math.max(max, x.longValue());
          }
        }
      }
      d.put("mean", Math.round(total / count * 1000) / 1000.0);
      d.put("max", max);
    }
    m.put("duration_ms", d);
    return m;
  }

  private static String digest(
      String workload,
      String phase,
      List<Map<?, ?>> phases,
      Turns requests,
      boolean sharded,
      long conversations) {
    Object first = phases.isEmpty() ? null : phases.get(0).get("digest");
    if (!sharded) {
      for (Map<?, ?> p : phases) {
        if (!Objects.equals(first, p.get("digest"))) {
          return null;
        }
      }
      return first == null ? null : first.toString();
    }
    Map<Long, TreeMap<Integer, String>> turns =
        requests.byPhase.getOrDefault(List.of(workload, phase), Map.of());
    if (turns.isEmpty() || turns.size() != conversations) {
      return null;
    }
    Map<Long, String> byConversation = new TreeMap<>();
    for (Map.Entry<Long, TreeMap<Integer, String>> e : turns.entrySet()) {
      byConversation.put(
          e.getKey(),
          ConversationSource.conversationDigest(new ArrayList<>(e.getValue().values())));
    }
    return PromptSource.phaseDigest(byConversation);
  }

  private static long sum(List<? extends Map<?, ?>> maps, String inner, String key) {
    long total = 0;
    for (Map<?, ?> m : maps) {
      Object holder = inner == null ? m : m.get(inner);
      if (holder instanceof Map<?, ?> h && h.get(key) instanceof Number n) {
        total += n.longValue();
      }
    }
    return total;
  }
}
