package io.github.gatlingllm.report;

import io.github.gatlingllm.levels.ScheduleLag;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.stats.JsonForm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * {@code client} of a run record merged from several folders (load generators): each folder's own
 * (its CPU share is its machine's) goes to its entry of {@code shards}; the merged {@code client}
 * has the schedule lag of all their requests, recomputed from {@code llm-requests.jsonl}, no CPU
 * share (there is no one machine), and each folder's warnings, named.
 */
final class ClientMerge {

  private ClientMerge() {}

  /**
   * Completes a merged record's {@code client}.
   *
   * @param record the merged record, with {@code shards} in the order of {@code sources}; changed
   *     in place
   * @param sources the folders
   * @param requests all their requests
   */
  static void apply(
      Map<String, Object> record, List<MergeSource> sources, List<RequestRecord> requests) {
    apply(record, sources, ScheduleLag.of(requests));
  }

  /**
   * Completes a merged record's {@code client}.
   *
   * @param record the merged record, with {@code shards} in the order of {@code sources}; changed
   *     in place
   * @param sources the folders
   * @param lag the schedule lag of all their requests
   */
  static void apply(Map<String, Object> record, List<MergeSource> sources, ScheduleLag lag) {
    boolean any = false;
    List<String> warnings = new ArrayList<>();
    Object thresholds = null;
    Map<String, Object> starts = new LinkedHashMap<>();
    List<?> shards = record.get("shards") instanceof List<?> l ? l : List.of();
    for (int i = 0; i < sources.size(); i++) {
      MergeSource s = sources.get(i);
      if (!(s.run().get("client") instanceof Map<?, ?> client)) {
        continue;
      }
      any = true;
      if (i < shards.size() && shards.get(i) instanceof Map<?, ?> shard) {
        @SuppressWarnings("unchecked")
        Map<String, Object> entry = (Map<String, Object>) shard;
        entry.put("client", client);
      }
      if (client.get("warnings") instanceof List<?> w) {
        for (Object text : w) {
          warnings.add(s.folder() + ": " + text);
        }
      }
      if (thresholds == null) {
        thresholds = client;
      }
      if (client.get("injection_start") instanceof Map<?, ?> counts) {
        for (Map.Entry<?, ?> e : counts.entrySet()) {
          if (e.getValue() instanceof Number n) {
            starts.merge(String.valueOf(e.getKey()), n.longValue(), (a, b) -> (Long) a + (Long) b);
          }
        }
      }
    }
    if (!any) {
      record.remove("client");
      return;
    }
    Map<?, ?> first = (Map<?, ?>) thresholds;
    Map<String, Object> merged = new LinkedHashMap<>();
    merged.put("schedule_lag_ms", JsonForm.of(lag.distribution()));
    merged.put("injection_start", starts);
    merged.put("cpu_share", null);
    merged.put("max_lag_p99_ms", first.get("max_lag_p99_ms"));
    merged.put("max_cpu_share", first.get("max_cpu_share"));
    merged.put("notes", List.of("merged: each folder's CPU share is in shards[].client"));
    merged.put("warnings", warnings);
    record.put("client", merged);
  }
}
