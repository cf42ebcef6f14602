package io.github.gatlingllm.report;

import static io.github.gatlingllm.report.RunSentences.map;
import static io.github.gatlingllm.report.RunSentences.number;

import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.RunRecord;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What ran, in one sentence read from a run record alone, for the first lines of the report page
 * and of the console summary: the API and the target (URL, model, the embedded simulator), the
 * prompt workload and the output asked for, the load (users or arrival rate, closed or open loop,
 * and the levels of a stepped run), and the requests sent, e.g. {@code chat completions, streamed,
 * to http://127.0.0.1:8000/v1, model qwen3; shared-prefix prompts of 256 tokens (0.5 of each shared
 * within 4 groups), up to 32 output tokens; 8 users, closed loop; 200 measured requests after 8
 * warmup}. Each part is left out when the record lacks it.
 */
final class RunDescription {

  private RunDescription() {}

  /**
   * The sentence.
   *
   * @param run the run record, never null
   * @return the sentence without a final stop, or null when the record says nothing of what ran
   */
  static String of(Map<String, Object> run) {
    List<String> parts = new ArrayList<>();
    String target = target(run);
    if (target != null) {
      parts.add(target);
    }
    String workload = workload(run);
    if (workload != null) {
      parts.add(workload);
    }
    String load = load(run);
    if (load != null) {
      parts.add(load);
    }
    String requests = requests(run);
    if (requests != null) {
      parts.add(requests);
    }
    return parts.isEmpty() ? null : String.join("; ", parts);
  }

  /** {@code chat completions, streamed, to URL (the embedded simulator), model M}, or null. */
  private static String target(Map<String, Object> run) {
    Map<?, ?> target = map(run.get("target"));
    Map<?, ?> decoding = map(run.get("decoding"));
    if (target.isEmpty()) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    Object endpoint = target.get("endpoint");
    text.append(
        "chat".equals(endpoint)
            ? "chat completions"
            : endpoint == null ? "requests" : String.valueOf(endpoint));
    if (decoding.get("stream") instanceof Boolean stream) {
      text.append(stream ? ", streamed" : ", not streamed");
    }
    if (target.get("base_url") != null) {
      text.append(", to ").append(target.get("base_url"));
    }
    if (Boolean.TRUE.equals(target.get("embedded_simulator"))) {
      text.append(" (the embedded simulator)");
    }
    if (target.get("model") != null) {
      text.append(", model ").append(target.get("model"));
    }
    return text.toString();
  }

  /** The prompts and the output asked for, or null. */
  private static String workload(Map<String, Object> run) {
    List<String> each = new ArrayList<>();
    if (run.get("workloads") instanceof List<?> list && !list.isEmpty()) {
      for (Object w : list) {
        String text = prompts(map(w));
        if (text != null) {
          each.add(text);
        }
      }
    } else {
      String text = prompts(map(run.get("prompts")));
      if (text != null) {
        each.add(text);
      }
    }
    List<Conversations> conversations = RunRecord.of(run).conversations();
    if (conversations != null) {
      for (Conversations c : conversations) {
        each.add("conversations (" + c.workload() + ")");
      }
    }
    StringBuilder text = new StringBuilder(String.join(" and ", each));
    Double maxTokens = number(map(run.get("decoding")).get("max_tokens"));
    // A trace's rows ask their own output lengths (said with the trace): the protocol's max_tokens
    // is said only when something else sends it.
    if (maxTokens != null && !onlyTraces(run, conversations)) {
      text.append(text.length() > 0 ? ", " : "")
          .append("up to ")
          .append(Decimals.fmt(maxTokens))
          .append(" output tokens");
    }
    return text.length() == 0 ? null : text.toString();
  }

  /** Whether every workload of the record replays a trace, and no conversation runs beside. */
  private static boolean onlyTraces(Map<String, Object> run, List<Conversations> conversations) {
    List<Map<?, ?>> all = new ArrayList<>();
    if (run.get("workloads") instanceof List<?> list && !list.isEmpty()) {
      for (Object w : list) {
        all.add(map(w));
      }
    } else if (run.get("prompts") != null) {
      all.add(map(run.get("prompts")));
    }
    if (all.isEmpty() || conversations != null && !conversations.isEmpty()) {
      return false;
    }
    return all.stream().allMatch(p -> !map(p.get("trace")).isEmpty());
  }

  /**
   * One workload's prompts: generated (mode, size, sharing), a prompts file or a trace (with the
   * output tokens its rows ask for), then the seed when it was picked from the clock ({@code
   * llm.seed=auto}: the one value a rerun cannot know otherwise); null when the record does not
   * say.
   */
  private static String prompts(Map<?, ?> prompts) {
    String text = promptsAlone(prompts);
    if (text != null && Boolean.TRUE.equals(prompts.get("seed_auto"))) {
      if (prompts.get("seed") instanceof Number seed) {
        // As written: a long seed is exact, never a double's 17 digits.
        text += ", seed " + seed + " (llm.seed=auto)";
      }
    }
    return text;
  }

  private static String promptsAlone(Map<?, ?> prompts) {
    Map<?, ?> spec = map(prompts.get("spec"));
    Map<?, ?> trace = map(prompts.get("trace"));
    if (!trace.isEmpty()) {
      List<String> about = new ArrayList<>();
      if (trace.get("rows") != null) {
        about.add(trace.get("rows") + " rows");
      }
      Double lo = number(trace.get("output_length_min"));
      Double hi = number(trace.get("output_length_max"));
      if (lo != null && hi != null) {
        about.add(
            lo.equals(hi)
                ? "each asking " + Decimals.fmt(hi) + " output tokens"
                : "asking " + Decimals.fmt(lo) + " to " + Decimals.fmt(hi) + " output tokens");
      }
      return "trace replay of "
          + fileName(trace.get("path"))
          + (about.isEmpty() ? "" : " (" + String.join(", ", about) + ")");
    }
    if ("file".equals(spec.get("mode"))) {
      return "prompts from "
          + fileName(spec.get("file"))
          + (spec.get("rows") == null ? "" : " (" + spec.get("rows") + " rows)");
    }
    Object mode = spec.get("mode") != null ? spec.get("mode") : prompts.get("workload");
    if (mode == null) {
      return null;
    }
    StringBuilder text = new StringBuilder().append(mode).append(" prompts");
    Double tokens = number(prompts.get("input_tokens"));
    if (tokens != null) {
      text.append(" of ").append(Decimals.fmt(tokens)).append(" tokens");
    }
    Double share = number(spec.get("shared_prefix_ratio"));
    Double groups = number(spec.get("prefix_groups"));
    if (share != null) {
      text.append(" (")
          .append(Decimals.fmt(share))
          .append(" of each shared")
          .append(
              groups == null
                  ? ""
                  : groups == 1 ? " by all" : " within " + Decimals.fmt(groups) + " groups")
          .append(')');
    }
    return text.toString();
  }

  private static String fileName(Object path) {
    if (path == null) {
      return "a file";
    }
    Path name = Path.of(String.valueOf(path)).getFileName();
    return name == null ? String.valueOf(path) : name.toString();
  }

  /**
   * The load: each scenario's levels ({@code 8 users, closed loop}, {@code 6 to 30 users/s in 5
   * levels, open loop}), else Gatling's injection profiles as the record gives them; null when
   * neither is known.
   */
  private static String load(Map<String, Object> run) {
    Map<String, List<LevelEntry>> byScenario = new LinkedHashMap<>();
    List<LevelEntry> recorded = RunRecord.of(run).levels();
    for (LevelEntry l : recorded == null ? List.<LevelEntry>of() : recorded) {
      byScenario.computeIfAbsent(String.valueOf(l.scenario()), k -> new ArrayList<>()).add(l);
    }
    List<String> parts = new ArrayList<>();
    for (Map.Entry<String, List<LevelEntry>> e : byScenario.entrySet()) {
      List<LevelEntry> levels = e.getValue();
      boolean open = levels.get(0).rate() != null;
      double lo = Double.MAX_VALUE;
      double hi = -Double.MAX_VALUE;
      for (LevelEntry l : levels) {
        Number v = open ? l.rate() : l.concurrency();
        if (v != null) {
          lo = Math.min(lo, v.doubleValue());
          hi = Math.max(hi, v.doubleValue());
        }
      }
      if (lo > hi) {
        continue;
      }
      String unit = open ? " users/s" : hi == 1 ? " user" : " users";
      String text =
          (lo == hi ? Decimals.fmt(hi) : Decimals.fmt(lo) + " to " + Decimals.fmt(hi))
              + unit
              + (levels.size() > 1 ? " in " + levels.size() + " levels" : "")
              + (open ? ", open loop" : ", closed loop");
      parts.add(byScenario.size() > 1 ? "scenario " + e.getKey() + ": " + text : text);
    }
    if (!parts.isEmpty()) {
      return String.join(", ", parts);
    }
    if (map(run.get("load")).get("profiles") instanceof List<?> profiles && !profiles.isEmpty()) {
      List<String> text = new ArrayList<>();
      for (Object p : profiles) {
        text.add(String.valueOf(p));
      }
      return String.join(", ", text);
    }
    return null;
  }

  /**
   * {@code 200 measured requests after 8 warmup}, or null. A run interrupted before its budget was
   * spent ({@code interrupted}: a dead target, a saturation stop, Ctrl-C) counts the measured
   * requests it sent ({@code metrics.overall.requests}, as the summary does), not the prompts drawn
   * from the budget ({@code load.requests}: a prompt drawn by a user the stop then ended was never
   * sent), and says why it stopped: {@code 119 measured requests after 8 warmup, then stopped
   * (target_down)}.
   */
  private static String requests(Map<String, Object> run) {
    Map<?, ?> load = map(run.get("load"));
    Double measured = number(load.get("requests"));
    boolean stopped = Boolean.TRUE.equals(run.get("interrupted"));
    if (stopped) {
      GroupSummary overall = RunSummary.overall(run);
      Double sent = overall == null ? null : (double) overall.requests();
      measured = sent != null ? sent : measured;
    }
    if (measured == null) {
      return null;
    }
    Double warmup = number(load.get("warmup_requests"));
    Object reason = run.get("end_reason");
    return Decimals.fmt(measured)
        + (measured == 1 ? " measured request" : " measured requests")
        + (warmup == null || warmup == 0 ? "" : " after " + Decimals.fmt(warmup) + " warmup")
        + (stopped && reason != null ? ", then stopped (" + reason + ")" : "");
  }
}
