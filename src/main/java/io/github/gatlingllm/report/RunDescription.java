package io.github.gatlingllm.report;

import static io.github.gatlingllm.report.RunSentences.map;
import static io.github.gatlingllm.report.RunSentences.number;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.record.Conversations;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.RunInfo;
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
  static String of(RunRecord run) {
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
  private static String target(RunRecord run) {
    RunInfo.Target target = run.target();
    RunInfo.Decoding decoding = run.decoding();
    if (target == null || isEmpty(run.tree("target"))) {
      return null;
    }
    StringBuilder text = new StringBuilder();
    String endpoint = target.endpoint();
    text.append(
        "chat".equals(endpoint) ? "chat completions" : endpoint == null ? "requests" : endpoint);
    if (decoding != null && decoding.stream() != null) {
      text.append(decoding.stream() ? ", streamed" : ", not streamed");
    }
    if (target.baseUrl() != null) {
      text.append(", to ").append(target.baseUrl());
    }
    if (Boolean.TRUE.equals(target.embeddedSimulator())) {
      text.append(" (the embedded simulator)");
    }
    if (target.model() != null) {
      text.append(", model ").append(target.model());
    }
    return text.toString();
  }

  private static boolean isEmpty(JsonNode block) {
    return block == null || block.isEmpty();
  }

  /** The prompts and the output asked for, or null. */
  private static String workload(RunRecord run) {
    List<String> each = new ArrayList<>();
    for (RunInfo.Prompts p : run.allPrompts()) {
      String text = prompts(p);
      if (text != null) {
        each.add(text);
      }
    }
    List<Conversations> conversations = run.conversations();
    if (conversations != null) {
      for (Conversations c : conversations) {
        each.add("conversations (" + c.workload() + ")");
      }
    }
    StringBuilder text = new StringBuilder(String.join(" and ", each));
    RunInfo.Decoding decoding = run.decoding();
    Integer maxTokens = decoding == null ? null : decoding.maxTokens();
    // A trace's rows ask their own output lengths (said with the trace): the protocol's max_tokens
    // is said only when something else sends it.
    if (maxTokens != null && !onlyTraces(run, conversations)) {
      text.append(text.length() > 0 ? ", " : "")
          .append("up to ")
          .append(Decimals.fmt(maxTokens.doubleValue()))
          .append(" output tokens");
    }
    return text.length() == 0 ? null : text.toString();
  }

  /** Whether every workload of the record replays a trace, and no conversation runs beside. */
  private static boolean onlyTraces(RunRecord run, List<Conversations> conversations) {
    List<RunInfo.Prompts> all = run.allPrompts();
    if (all.isEmpty() || conversations != null && !conversations.isEmpty()) {
      return false;
    }
    return all.stream().allMatch(p -> p.trace() != null && !p.trace().isEmpty());
  }

  /**
   * One workload's prompts: generated (mode, size, sharing), a prompts file or a trace (with the
   * output tokens its rows ask for), then the seed when it was picked from the clock ({@code
   * llm.seed=auto}: the one value a rerun cannot know otherwise); null when the record does not
   * say.
   */
  private static String prompts(RunInfo.Prompts prompts) {
    String text = promptsAlone(prompts);
    if (text != null && Boolean.TRUE.equals(prompts.seedAuto()) && prompts.seed() != null) {
      // As written: a long seed is exact, never a double's 17 digits.
      text += ", seed " + prompts.seed() + " (llm.seed=auto)";
    }
    return text;
  }

  private static String promptsAlone(RunInfo.Prompts prompts) {
    Map<?, ?> spec = map(prompts.spec());
    Map<?, ?> trace = map(prompts.trace());
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
    Object mode = spec.get("mode") != null ? spec.get("mode") : prompts.workload();
    if (mode == null) {
      return null;
    }
    StringBuilder text = new StringBuilder().append(mode).append(" prompts");
    Double tokens = prompts.inputTokens() == null ? null : prompts.inputTokens().doubleValue();
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
    Map<?, ?> images = map(spec.get("images"));
    Double count = number(images.get("count"));
    if (count != null && count > 0) {
      Double shared = number(images.get("shared"));
      text.append(" with ")
          .append(Decimals.fmt(count))
          .append(count == 1 ? " image" : " images")
          .append(
              shared == null || shared == 0 ? "" : " (" + Decimals.fmt(shared) + " its group's)")
          .append(' ')
          .append(images.get("width"))
          .append('x')
          .append(images.get("height"))
          .append(' ')
          .append(images.get("format"));
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
  private static String load(RunRecord run) {
    Map<String, List<LevelEntry>> byScenario = new LinkedHashMap<>();
    if (run.levels() != null) {
      for (LevelEntry l : run.levels()) {
        if (l != null) {
          byScenario.computeIfAbsent(String.valueOf(l.scenario()), k -> new ArrayList<>()).add(l);
        }
      }
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
    RunInfo.Load runLoad = run.load();
    if (runLoad != null && runLoad.profiles() != null && !runLoad.profiles().isEmpty()) {
      return String.join(", ", runLoad.profiles());
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
  private static String requests(RunRecord run) {
    RunInfo.Load load = run.load();
    Double measured = load == null || load.requests() == null ? null : (double) load.requests();
    boolean stopped = run.wasInterrupted();
    if (stopped) {
      GroupSummary overall = RunSummary.overall(run);
      Double sent = overall == null ? null : (double) overall.requests();
      measured = sent != null ? sent : measured;
    }
    if (measured == null) {
      return null;
    }
    Double warmup =
        load == null || load.warmupRequests() == null ? null : (double) load.warmupRequests();
    String reason = run.endReason();
    return Decimals.fmt(measured)
        + (measured == 1 ? " measured request" : " measured requests")
        + (warmup == null || warmup == 0 ? "" : " after " + Decimals.fmt(warmup) + " warmup")
        + (stopped && reason != null ? ", then stopped (" + reason + ")" : "");
  }
}
