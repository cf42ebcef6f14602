package io.github.gatlingllm.report;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.record.Merge;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.Shard;
import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;

/**
 * The warnings of a merge of run folders ({@code merge_warnings}): shards missing, given twice or
 * of different counts; settings that differ between the folders (the values every shard of one test
 * should share, by dotted name); windows that do not overlap.
 */
final class MergeChecks {

  private static final ObjectMapper JSON = new ObjectMapper();

  private MergeChecks() {}

  /**
   * Warns of a folder that is not a shard, a shard given twice, shards of different counts and
   * missing shards.
   *
   * @param sources the folders, in the order given
   * @param warnings where the warnings go
   */
  static void checkShards(List<MergeSource> sources, List<String> warnings) {
    Set<Integer> counts = new LinkedHashSet<>();
    Map<Integer, String> seen = new TreeMap<>();
    for (MergeSource s : sources) {
      Shard shard = s.shard();
      if (shard == null) {
        warnings.add(
            s.folder()
                + " is not a shard (its llm-run.json names none): its requests are merged, but the"
                + " test's digests may not be the one-machine run's");
        continue;
      }
      int index = shard.index();
      counts.add(shard.count());
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
  private static Map<String, Object> settings(RunRecord run) {
    Map<String, Object> out = new TreeMap<>();
    flatten("version", run.version(), out);
    flatten("gatling_version", run.gatlingVersion(), out);
    flatten("simulation", run.simulation(), out);
    flatten("decoding", jsonForm(run.decoding()), out);
    flatten("slo", run.json("slo"), out);
    flatten("assertions", jsonForm(run.assertionsInForce()), out);
    RunInfo.Target target = run.target();
    if (target != null) {
      // Each shard's embedded simulator has its own port; a server's answers may vary.
      boolean simulator = Boolean.TRUE.equals(target.embeddedSimulator());
      RunInfo.Target compared =
          new RunInfo.Target(
              simulator ? null : target.baseUrl(),
              target.embeddedSimulator(),
              target.model(),
              target.endpoint(),
              null,
              target.simulator(),
              target.extra());
      flatten("target", jsonForm(compared), out);
    }
    RunInfo.Load load = run.load();
    if (load != null) {
      flatten("load.timeout_ms", load.timeoutMs(), out);
      flatten("load.connections", load.connections(), out);
    }
    Shard shard = run.shard();
    if (shard != null) {
      flatten("shard.count", shard.count(), out);
      flatten("shard.start_at", shard.startAt(), out);
    }
    for (RunInfo.Prompts w : run.allPrompts()) {
      String prefix = "prompts[" + w.workload() + "]";
      // Every field but the phases (each shard's digests differ) and the requests that sent them.
      RunInfo.Prompts compared =
          new RunInfo.Prompts(
              w.workload(),
              w.spec(),
              w.generatorVersion(),
              w.seed(),
              w.caseId(),
              w.inputTokens(),
              w.tokenizer(),
              null,
              w.plannedSharedShare(),
              null,
              w.seedAuto(),
              w.trace(),
              w.extra());
      if (jsonForm(compared) instanceof Map<?, ?> fields) {
        for (Map.Entry<?, ?> e : fields.entrySet()) {
          flatten(prefix + "." + e.getKey(), e.getValue(), out);
        }
      }
    }
    return out;
  }

  /** A block as the maps, lists and scalars of its JSON form, or null. */
  private static Object jsonForm(Object block) {
    return block == null ? null : JSON.convertValue(block, Object.class);
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

  /**
   * Warns of each folder whose settings ({@link #settings}) differ from the first folder's, naming
   * each value that differs.
   *
   * @param sources the folders, the first one the reference
   * @param warnings where the warnings go
   */
  static void checkSettings(List<MergeSource> sources, List<String> warnings) {
    Map<String, Object> first = settings(RunRecord.of(sources.get(0).run()));
    for (MergeSource s : sources.subList(1, sources.size())) {
      Map<String, Object> other = settings(RunRecord.of(s.run()));
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
                + MergeSource.name(sources.get(0))
                + " and "
                + MergeSource.name(s)
                + ": "
                + String.join(", ", differ));
      }
    }
  }

  /**
   * Warns when the folders' windows (first start to last end) do not overlap: they did not run at
   * the same time.
   *
   * @param sources the folders
   * @param perFolder each folder's {@code shards} entry, in the same order (its window as text)
   * @param warnings where the warnings go
   */
  static void checkWindows(
      List<MergeSource> sources, List<Merge.Folder> perFolder, List<String> warnings) {
    long latestStart = Long.MIN_VALUE;
    long earliestEnd = Long.MAX_VALUE;
    int withRequests = 0;
    for (MergeSource s : sources) {
      long[] w = MergeSource.window(s.stats());
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
        Merge.Folder c = perFolder.get(i);
        if (c.firstStart() != null) {
          windows.add(
              MergeSource.name(sources.get(i)) + " " + c.firstStart() + " to " + c.lastEnd());
        }
      }
      warnings.add(
          "the folders' windows do not overlap ("
              + String.join("; ", windows)
              + "): they did not run at the same time, so the merged rates and concurrency are"
              + " not those of one test");
    }
  }
}
