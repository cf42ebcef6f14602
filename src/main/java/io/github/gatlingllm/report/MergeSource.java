package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.PhaseDigests;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.Shard;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * One folder of a merge: its run record, and its requests' counts, window and digests; with what
 * the merge reads of each ({@link #shard}, {@link #name}, {@link #window}, {@link #workloads}).
 *
 * @param folder the folder
 * @param run its run record, as the file's maps
 * @param record its run record, typed
 * @param stats what its requests add up to ({@link Stats}, from one pass over them)
 */
record MergeSource(Path folder, Map<String, Object> run, RunRecord record, Stats stats) {

  /**
   * A folder of a merge, its record typed from the file's maps.
   *
   * @param folder the folder
   * @param run its run record, as the file's maps
   * @param stats what its requests add up to
   */
  MergeSource(Path folder, Map<String, Object> run, Stats stats) {
    this(folder, run, RunRecord.of(run), stats);
  }

  /**
   * A folder of requests in memory, with digests of its own.
   *
   * @param folder the folder
   * @param run its run record
   * @param requests its requests
   * @return the source
   */
  static MergeSource of(Path folder, Map<String, Object> run, List<RequestRecord> requests) {
    Stats stats = new Stats(new MergeDigests());
    requests.forEach(stats::add);
    return new MergeSource(folder, run, stats);
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
    final MergeDigests digests;

    /**
     * Stats of one folder.
     *
     * @param digests the merge's digests, shared by its folders
     */
    Stats(MergeDigests digests) {
      this.digests = digests;
    }

    /** Adds a request of the folder. */
    void add(RequestRecord r) {
      recorded++;
      if (Phase.isWarmup(r.phase())) {
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

  /** Whether the folders are shards of one test: one of them at least names its shard. */
  static boolean sharded(List<MergeSource> sources) {
    return sources.stream().anyMatch(s -> s.shard() != null);
  }

  /** The folder in warnings: {@code shard I/N} for a shard, else its path. */
  static String name(MergeSource s) {
    Shard shard = s.shard();
    return shard == null ? s.folder().toString() : "shard " + shard.label();
  }

  /**
   * The run's {@code shard} when it was one of several.
   *
   * @return the shard, or null for a run on one machine (or one shard of one)
   */
  Shard shard() {
    Shard shard = record.shard();
    return shard != null && shard.ofSeveral() ? shard : null;
  }

  /** First start and last end (start plus E2E, or the start when unmeasured), or null. */
  static long[] window(Stats stats) {
    return stats.recorded == 0 ? null : new long[] {stats.first, stats.last};
  }

  /** Every workload's prompts of a run record: {@code workloads}, else {@code prompts}. */
  static List<Map<?, ?>> workloads(Map<String, Object> run) {
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
}
