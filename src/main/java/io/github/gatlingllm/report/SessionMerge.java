package io.github.gatlingllm.report;

import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.session.SessionAggregator;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * {@code llm-run.json}'s {@code sessions} for a report over several run folders (the shards of one
 * test, or repeats): per {@code agents()} workload (by name, in the order the folders first have
 * it) the first folder's settings and budgets, {@code turns_sent} and {@code warmup_turns_sent}
 * added up, and per phase the folders' sessions merged by {@link SessionAggregator#merge}: counts
 * and ends add, {@code duration_ms}, {@code requests_per_session} and {@code tokens_per_session}
 * percentiles come from the merged histograms (never averaged) and their means from the summed
 * values, {@code sessions_per_hour} from the sessions over the window that spans every folder's,
 * and each cache hit ratio's {@code overall} from the summed tokens. {@code phase_digest} is kept
 * when every folder has the same, else null (a shard's digest covers its own sessions only).
 *
 * <p>A folder whose phase block has no {@code merge_state} (recorded before it was) cannot be
 * merged: the phase is the first folder's, with a merge warning saying so.
 */
final class SessionMerge {

  private SessionMerge() {}

  /**
   * The merged section.
   *
   * @param runs the folders' run records, in order
   * @param warnings where a phase that could not be merged is said, changed in place
   * @return the merged list, or null when no folder has agent sessions
   */
  static List<Map<String, Object>> merge(List<Map<String, Object>> runs, List<String> warnings) {
    Map<String, List<Map<?, ?>>> byName = new LinkedHashMap<>();
    for (Map<String, Object> run : runs) {
      if (run.get("sessions") instanceof List<?> workloads) {
        for (Object w : workloads) {
          if (w instanceof Map<?, ?> m) {
            byName
                .computeIfAbsent(String.valueOf(m.get("workload")), k -> new ArrayList<>())
                .add(m);
          }
        }
      }
    }
    if (byName.isEmpty()) {
      return null;
    }
    List<Map<String, Object>> merged = new ArrayList<>();
    for (Map.Entry<String, List<Map<?, ?>>> e : byName.entrySet()) {
      merged.add(workload(e.getKey(), e.getValue(), warnings));
    }
    return merged;
  }

  private static Map<String, Object> workload(
      String name, List<Map<?, ?>> entries, List<String> warnings) {
    Map<String, Object> out = new LinkedHashMap<>();
    for (Map.Entry<?, ?> e : entries.get(0).entrySet()) {
      out.put(String.valueOf(e.getKey()), e.getValue());
    }
    out.put("turns_sent", sum(entries, "turns_sent"));
    out.put("warmup_turns_sent", sum(entries, "warmup_turns_sent"));
    for (String phase : List.of(Phase.MEASURED.wireName(), Phase.WARMUP.wireName())) {
      if (out.containsKey(phase)) {
        out.put(phase, phase(name, phase, entries, warnings));
      }
    }
    Object digest = entries.get(0).get("phase_digest");
    for (Map<?, ?> entry : entries) {
      if (!Objects.equals(digest, entry.get("phase_digest"))) {
        digest = null;
      }
    }
    out.put("phase_digest", digest);
    return out;
  }

  private static Object phase(
      String name, String phase, List<Map<?, ?>> entries, List<String> warnings) {
    SessionAggregator merged = new SessionAggregator();
    for (Map<?, ?> entry : entries) {
      if (!(entry.get(phase) instanceof Map<?, ?> block)) {
        continue;
      }
      try {
        merged.merge(SessionAggregator.fromRecord(block));
      } catch (IllegalArgumentException e) {
        warnings.add(
            "sessions of "
                + name
                + ", "
                + phase
                + ": a folder's figures cannot be merged ("
                + e.getMessage()
                + "): they are the first folder's");
        return entries.get(0).get(phase);
      }
    }
    return merged.toRecord();
  }

  private static Long sum(List<Map<?, ?>> entries, String key) {
    long total = 0;
    boolean any = false;
    for (Map<?, ?> entry : entries) {
      if (entry.get(key) instanceof Number n) {
        total += n.longValue();
        any = true;
      }
    }
    return any ? total : null;
  }
}
