package io.github.gatlingllm.report;

import io.github.gatlingllm.record.Merge;
import io.github.gatlingllm.record.Shard;
import java.time.Instant;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What a merge of several run folders adds to the merged run record: per-folder counts and windows
 * ({@code shards}), warnings ({@code merge_warnings}) when the folders' windows do not overlap or
 * their settings differ, and, when the folders are the shards of one test ({@code shard} in their
 * run records), the test's prompts: each workload's phase digests recomputed from the per-request
 * digests in index order, so that the merged measured digest equals the one-machine run's.
 *
 * <p>The jobs apart: {@link MergeSource} is what one folder's requests add up to (read by {@link
 * RunReport}), {@link MergeChecks} makes the warnings, {@link ShardPrompts} the test's prompts;
 * this class writes {@code shards}, the load and the times.
 */
final class ShardMerge {

  private ShardMerge() {}

  /**
   * Completes a merged record.
   *
   * @param record the merged record (a copy of the first folder's), changed in place
   * @param sources the folders, in the order given
   * @return the warnings, also in {@code record.merge_warnings}
   */
  static List<String> apply(Map<String, Object> record, List<MergeSource> sources) {
    List<String> warnings = new ArrayList<>();
    boolean sharded = MergeSource.sharded(sources);
    List<Merge.Folder> perFolder = new ArrayList<>();
    for (MergeSource s : sources) {
      perFolder.add(folder(s));
    }
    record.put(Merge.SHARDS_KEY, perFolder);
    if (sharded) {
      MergeChecks.checkShards(sources, warnings);
    }
    MergeChecks.checkSettings(sources, warnings);
    MergeChecks.checkWindows(sources, perFolder, warnings);
    if (sharded) {
      ShardPrompts.mergePrompts(record, sources, warnings);
      mergeLoad(record, sources);
      record.remove("prompt_digests_equal");
      record.remove(Shard.KEY);
    }
    mergeTimes(record, sources);
    record.put(Merge.WARNINGS_KEY, warnings);
    return warnings;
  }

  /** A folder's {@code shards} entry: its counts, window and own {@code client}. */
  static Merge.Folder folder(MergeSource s) {
    Shard shard = s.shard();
    long[] window = MergeSource.window(s.stats());
    return new Merge.Folder(
        s.folder().toString(),
        shard == null ? null : shard.label(),
        s.stats().recorded,
        s.stats().measured,
        s.stats().warmup,
        s.stats().ok,
        window == null ? null : Instant.ofEpochMilli(window[0]).toString(),
        window == null ? null : Instant.ofEpochMilli(window[1]).toString(),
        shard == null ? null : shard.lateMs(),
        s.record().wasInterrupted(),
        s.record().client(),
        null);
  }

  /** Requests handed out add up; the peak in flight is the sum of the shards' (an upper bound). */
  private static void mergeLoad(Map<String, Object> record, List<MergeSource> sources) {
    Map<String, Object> load = new LinkedHashMap<>();
    for (MergeSource s : sources) {
      if (s.record().json("load") instanceof Map<?, ?> l) {
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
  private static void mergeTimes(Map<String, Object> record, List<MergeSource> sources) {
    Instant started = null;
    Instant ended = null;
    for (MergeSource s : sources) {
      Instant a = instant(s.record().startedAt());
      Instant b = instant(s.record().endedAt());
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
