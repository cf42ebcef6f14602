package io.github.gatlingllm.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The answer of a run in a few figures, as vLLM's benchmark summary gives it: duration, requests by
 * status, request, input, output and total token throughput, mean input and output tokens a
 * request, peak concurrency, TTFT/ITL/TPOT/E2E p50 and p99, the cache and SLO verdicts, the
 * saturation point of a sweep, and the warnings that say a figure is not to be trusted (client lag,
 * warm start, an interrupted run). Read from a run record ({@code llm-run.json}'s content) alone;
 * the report page's first screen and the console's last lines are made from it.
 *
 * <p>Definitions: the duration is the measured requests' window ({@code metrics.overall}: first
 * start to last end); requests/s, input and output tokens/s are successful requests and their
 * prompt and completion tokens per second of that window (vLLM's {@code request_throughput}, {@code
 * input_throughput}... here input tokens count successful requests only, as output tokens do);
 * total = input + output; the means are per successful request.
 */
public final class RunSummary {

  private static final Logger LOG = LoggerFactory.getLogger(RunSummary.class);

  /** The SLO verdict of a run in which no request was judged against the SLO. */
  static final String NO_SLO_JUDGED =
      "no request was judged against the SLO (requests cut by the run's end never are)";

  /**
   * One figure: its name and its value as text.
   *
   * @param name what it is, e.g. {@code output tokens/s}
   * @param value the value with its unit, e.g. {@code 662.4}
   */
  record Figure(String name, String value) {}

  private final List<Figure> figures;
  private final List<String> warnings;
  private final String cacheVerdict;
  private final String sloVerdict;
  private final Boolean sloPassed;
  private final String saturation;

  private RunSummary(
      List<Figure> figures,
      List<String> warnings,
      String cacheVerdict,
      String sloVerdict,
      Boolean sloPassed,
      String saturation) {
    this.figures = figures;
    this.warnings = warnings;
    this.cacheVerdict = cacheVerdict;
    this.sloVerdict = sloVerdict;
    this.sloPassed = sloPassed;
    this.saturation = saturation;
  }

  /**
   * Reads the summary from a run record.
   *
   * @param run the run record, never null; any part may be missing (its figures are then {@code –})
   * @return the summary
   */
  static RunSummary of(Map<String, Object> run) {
    Map<?, ?> overall = map(map(run.get("metrics")).get("overall"));
    Map<?, ?> load = map(run.get("load"));
    List<Figure> f = new ArrayList<>();
    Double start = number(overall.get("window_start_ms"));
    Double end = number(overall.get("window_end_ms"));
    Double durationS = start != null && end != null ? (end - start) / 1000.0 : null;
    f.add(new Figure("duration", durationS == null ? "–" : Charts.fmt(durationS) + " s"));
    Map<?, ?> status = map(overall.get("status"));
    Double requests = number(overall.get("requests"));
    f.add(
        new Figure(
            "requests",
            (requests == null ? "–" : Charts.fmt(requests))
                + (status.isEmpty() ? "" : " (" + ReportPage.statuses(status) + ")")));
    Double ok = number(status.get("ok"));
    Double prompt = number(overall.get("prompt_tokens"));
    Double completion = number(overall.get("completion_tokens"));
    boolean window = durationS != null && durationS > 0;
    Double inputPerS = window && prompt != null ? prompt / durationS : null;
    Double outputPerS = number(overall.get("output_tokens_per_s"));
    f.add(new Figure("requests/s", num(number(overall.get("requests_per_s")))));
    f.add(new Figure("input tokens/s", num(inputPerS)));
    f.add(new Figure("output tokens/s", num(outputPerS)));
    f.add(
        new Figure(
            "total tokens/s",
            num(inputPerS != null && outputPerS != null ? inputPerS + outputPerS : null)));
    boolean anyOk = ok != null && ok > 0;
    String none = status.isEmpty() ? null : none(requests, anyOk);
    f.add(
        new Figure(
            "mean input tokens a request",
            none != null ? none : num(anyOk && prompt != null ? prompt / ok : null)));
    f.add(
        new Figure(
            "mean output tokens a request",
            none != null ? none : num(anyOk && completion != null ? completion / ok : null)));
    Object peak = load.containsKey("peak_concurrency") ? load.get("peak_concurrency") : null;
    if (peak == null) {
      peak = load.get("concurrency");
    }
    f.add(new Figure("peak concurrency", num(number(peak))));
    for (String metric : List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms")) {
      Map<?, ?> d = map(overall.get(metric));
      f.add(
          new Figure(
              metric.replace("_ms", "").toUpperCase(Locale.ROOT) + " p50 / p99, ms",
              none != null ? none : ms(d.get("p50")) + " / " + ms(d.get("p99"))));
    }

    // Reasoning models (issue 21): the wait for the answer, and what the thinking cost.
    Map<?, ?> reasoning = map(overall.get("reasoning"));
    Double reasoningRequests = number(reasoning.get("requests_reasoning"));
    boolean reasoned = reasoningRequests != null && reasoningRequests > 0;
    if (reasoned) {
      Map<?, ?> ttfo = map(overall.get("ttfo_ms"));
      f.add(
          new Figure(
              "TTFO (first answer token) p50 / p99, ms",
              ms(ttfo.get("p50")) + " / " + ms(ttfo.get("p99"))));
      Map<?, ?> perRequest = map(reasoning.get("reasoning_tokens_per_request"));
      f.add(
          new Figure(
              "reasoning tokens a request, mean / p99",
              num(number(perRequest.get("mean"))) + " / " + num(number(perRequest.get("p99")))));
      Double share = number(reasoning.get("reasoning_share"));
      f.add(
          new Figure(
              "share of output spent reasoning",
              share == null ? "–" : Charts.fmt(Math.round(share * 1000) / 10.0) + "%"));
    }
    Map<?, ?> cancellation = map(overall.get("cancellation"));
    if (!cancellation.isEmpty()) {
      f.add(
          new Figure(
              "cancelled by the client",
              num(number(cancellation.get("cancelled")))
                  + " of "
                  + num(number(cancellation.get("chosen")))
                  + " chosen ("
                  + num(number(cancellation.get("completed_first")))
                  + " ended first)"));
    }

    // Open loops (issue 13's client record): how late the client sent, how busy it was.
    Map<?, ?> client = map(run.get("client"));
    if (client.get("schedule_lag_ms") instanceof Map<?, ?> lag) {
      f.add(
          new Figure(
              "client schedule lag p50 / p99, ms",
              ms(lag.get("p50")) + " / " + ms(lag.get("p99"))));
    }
    if (client.get("cpu_share") instanceof Map<?, ?> cpu && cpu.get("max") != null) {
      f.add(new Figure("client CPU share, most", num(number(cpu.get("max")))));
    }

    List<String> warnings = new ArrayList<>();
    String ending = ending(run);
    if (ending != null) {
      warnings.add(ending);
    }
    Double neverAnswered = number(reasoning.get("never_answered"));
    if (neverAnswered != null && neverAnswered > 0) {
      long n = Math.round(neverAnswered);
      warnings.add(
          n
              + (n == 1 ? " request" : " requests")
              + " reasoned and never answered (status ok, no TTFO): max_tokens ran out while"
              + " thinking, or the model gave no answer");
    }
    Map<?, ?> cache = map(run.get("cache"));
    if (Boolean.TRUE.equals(cache.get("warm_start"))) {
      warnings.add("warm start: " + cache.get("warm_start_message"));
    }
    if (client.get("warnings") instanceof List<?> list) {
      for (Object w : list) {
        Object text = w instanceof Map<?, ?> m && m.get("message") != null ? m.get("message") : w;
        warnings.add("client: " + text);
      }
    }

    String cacheVerdict = cacheVerdict(cache);
    String sloVerdict = null;
    Boolean sloPassed = null;
    if (overall.get("goodput") instanceof Map<?, ?> goodput
        && Double.valueOf(0).equals(number(goodput.get("offered")))) {
      sloVerdict = NO_SLO_JUDGED;
    } else if (overall.get("goodput") instanceof Map<?, ?> goodput) {
      Double attainment = number(goodput.get("attainment"));
      Double ratio = number(map(run.get("assertions")).get("goodput_ratio"));
      StringBuilder text =
          new StringBuilder()
              .append(goodput.get("met"))
              .append(" of ")
              .append(goodput.get("offered"))
              .append(" requests met the SLO (attainment ")
              .append(num(attainment))
              .append(')');
      if (ratio != null && attainment != null) {
        sloPassed = attainment >= ratio;
        text.append(sloPassed ? ": at least " : ": below ").append(Charts.fmt(ratio));
      }
      sloVerdict = text.toString();
    }
    return new RunSummary(
        List.copyOf(f),
        List.copyOf(warnings),
        cacheVerdict,
        sloVerdict,
        sloPassed,
        saturations(run));
  }

  /**
   * Why a run has no figure of its successful requests, in words.
   *
   * @param requests the run's requests, or null when not known
   * @param anyOk whether any request succeeded
   * @return {@code no request was sent}, {@code no request succeeded}, or null when some succeeded
   *     (or the count is not known)
   */
  static String none(Double requests, boolean anyOk) {
    if (requests == null || anyOk) {
      return null;
    }
    return requests == 0 ? "no request was sent" : "no request succeeded";
  }

  /**
   * The cache verdict with its ratios, or in words why there is none: {@code as planned (observed
   * hit ratio 0.48, planned 0.5)}, {@code unknown: the server reported no cached tokens (planned
   * hit ratio 0.5)}, {@code no verdict: none of the 4 measured requests with a cache plan succeeded
   * (4 failed), so no cache hit was observed}.
   *
   * @param cache the record's {@code cache}
   * @return the text, or null when no request had a cache plan
   */
  static String cacheVerdict(Map<?, ?> cache) {
    Object verdict = cache.get("verdict");
    if (verdict == null) {
      return null;
    }
    boolean series = cache.get("workloads") instanceof List<?> list && !list.isEmpty();
    Double planned = number(cache.get("planned_requests"));
    Object reason = cache.get("verdict_reason");
    Double measured = number(cache.get("requests"));
    if (measured != null && measured == 0) {
      if (!series && (planned == null || planned == 0)) {
        return null;
      }
      return "no verdict: "
          + (reason == null ? "no measured request with a cache plan succeeded" : reason);
    }
    if (!series) {
      return null;
    }
    if (reason != null) {
      return verdict
          + ": "
          + reason
          + " (planned hit ratio "
          + num(number(cache.get("planned_hit_ratio")))
          + ")";
    }
    return verdict
        + " (observed hit ratio "
        + num(number(cache.get("observed_hit_ratio")))
        + ", planned "
        + num(number(cache.get("planned_hit_ratio")))
        + ")";
  }

  /**
   * The saturation sentence of a run: {@link #saturation(Object)} of its {@code saturation}, or,
   * when {@code saturations} holds several scenarios, one sentence per scenario named by it and the
   * sentence saying they shared the server.
   *
   * @param run the run record
   * @return the text, or null when there is no saturation
   */
  static String saturations(Map<?, ?> run) {
    if (run.get("saturations") instanceof List<?> all && all.size() > 1) {
      List<String> parts = new ArrayList<>();
      String shared = null;
      for (Object o : all) {
        if (o instanceof Map<?, ?> m) {
          parts.add("scenario " + m.get("scenario") + ": " + saturation(m));
          if (m.get("shared_server") != null) {
            shared = String.valueOf(m.get("shared_server"));
          }
        }
      }
      return String.join("; ", parts) + (shared == null ? "" : " (" + shared + ")");
    }
    return saturation(run.get("saturation"));
  }

  /**
   * The one warning about how the run ended: interrupted (and why, {@code end_reason}), and how
   * many requests in flight were cut and recorded as {@code cut_by_run_end}; null for a run that
   * ended with no request in flight and was not interrupted.
   */
  static String ending(Map<String, Object> run) {
    boolean interrupted = Boolean.TRUE.equals(run.get("interrupted"));
    Object reason = run.get("end_reason");
    Double cut = number(run.get("requests_cut_by_run_end"));
    boolean anyCut = cut != null && cut > 0;
    if (!interrupted && !anyCut) {
      return null;
    }
    String text =
        (interrupted ? "the run was interrupted" : "the run ended")
            + (reason == null
                ? ""
                : " (" + ("interrupted".equals(reason) ? "Ctrl+C or SIGTERM" : reason) + ")");
    if (!anyCut) {
      return text + ": the figures cover the requests that finished";
    }
    long n = Math.round(cut);
    return text
        + ": "
        + n
        + (n == 1 ? " LLM request was" : " LLM requests were")
        + " still in flight, recorded with status cut_by_run_end and what was measured until then"
        + " (left out of the latency figures and the goodput)";
  }

  /** The saturation block in a sentence, or null when there is none. */
  static String saturation(Object value) {
    if (!(value instanceof Map<?, ?> s)) {
      return null;
    }
    boolean rate = "rate".equals(s.get("metric"));
    String what = rate ? "rate" : "concurrency";
    String unit = rate ? " users/s" : "";
    Object at = s.get(rate ? "saturation_rate" : "saturation_concurrency");
    Object peakAt = s.get(rate ? "max_rate" : "max_concurrency");
    StringBuilder text = new StringBuilder();
    if (Boolean.TRUE.equals(s.get("still_growing"))) {
      text.append("no saturation seen: throughput still growing at the highest level (")
          .append(what)
          .append(' ')
          .append(num(number(peakAt == null ? at : peakAt)))
          .append(unit)
          .append(", ")
          .append(num(number(s.get("max_output_tokens_per_s"))))
          .append(" output tokens/s)");
    } else {
      text.append("saturates at ").append(what).append(' ');
      text.append(num(number(at))).append(unit);
      text.append(" (level ").append(s.get("saturation_level"));
      if (s.get("saturation_output_tokens_per_s") != null) {
        text.append(", ").append(num(number(s.get("saturation_output_tokens_per_s"))));
        text.append(" output tokens/s");
      }
      text.append("); peak ").append(num(number(s.get("max_output_tokens_per_s"))));
      text.append(" output tokens/s");
      if (peakAt != null) {
        text.append(" at ").append(what).append(' ').append(num(number(peakAt))).append(unit);
        text.append(" (level ").append(s.get("max_level")).append(')');
      }
    }
    if (s.containsKey("slo_load")) {
      Double slo = number(s.get("slo_load"));
      text.append(
          slo == null
              ? "; no level met the SLO"
              : "; the SLO holds up to " + what + " " + num(slo) + (rate ? " users/s" : ""));
    }
    if (Boolean.TRUE.equals(s.get("stopped_early"))) {
      text.append("; stopped early: ").append(s.get("stop_reason"));
    }
    return text.toString();
  }

  /** The figures, in the order shown. */
  List<Figure> figures() {
    return figures;
  }

  /** Warnings that qualify the figures (client lag, warm start, interrupted run). */
  List<String> warnings() {
    return warnings;
  }

  /** The cache verdict with its ratios, or null when no request had a cache plan. */
  String cacheVerdict() {
    return cacheVerdict;
  }

  /** The SLO verdict, or null when no SLO was set. */
  String sloVerdict() {
    return sloVerdict;
  }

  /** Whether the SLO attainment met its assertion, or null when there is none. */
  Boolean sloPassed() {
    return sloPassed;
  }

  /** The saturation point of a sweep in a sentence, or null. */
  String saturation() {
    return saturation;
  }

  /**
   * The summary in a few lines for the console.
   *
   * @return the lines, each without a line break
   */
  private String valueOrNull(String name) {
    for (Figure f : figures) {
      if (f.name().equals(name)) {
        return f.value();
      }
    }
    return null;
  }

  List<String> lines() {
    List<String> lines = new ArrayList<>();
    String requests = value("requests");
    int statuses = requests.indexOf(" (");
    requests =
        statuses < 0
            ? requests + " requests"
            : requests.substring(0, statuses) + " requests" + requests.substring(statuses);
    lines.add(
        "LLM summary: "
            + requests
            + " in "
            + value("duration")
            + ", peak concurrency "
            + value("peak concurrency"));
    String none = value("mean input tokens a request");
    if (none.startsWith("no request")) {
      // No successful request: no token or latency figure to give, said in words.
      lines.add(
          "  throughput: "
              + value("requests/s")
              + " requests/s: "
              + none
              + ", so there are no token or latency figures");
    } else {
      lines.add(
          "  throughput: "
              + value("requests/s")
              + " requests/s; tokens/s input "
              + value("input tokens/s")
              + ", output "
              + value("output tokens/s")
              + ", total "
              + value("total tokens/s")
              + "; a request "
              + value("mean input tokens a request")
              + " input, "
              + value("mean output tokens a request")
              + " output tokens (mean)");
    }
    StringBuilder latency = new StringBuilder("  latency p50 / p99, ms:");
    for (Figure f : figures) {
      if (f.name().endsWith(" p50 / p99, ms")
          && !f.name().startsWith("client ")
          && !none.startsWith("no request")) {
        latency
            .append(latency.charAt(latency.length() - 1) == ':' ? " " : ", ")
            .append(f.name(), 0, f.name().indexOf(' '))
            .append(' ')
            .append(f.value());
      }
    }
    if (!none.startsWith("no request")) {
      lines.add(latency.toString());
    }
    String reasoningTokens = valueOrNull("reasoning tokens a request, mean / p99");
    if (reasoningTokens != null) {
      lines.add(
          "  reasoning: "
              + reasoningTokens
              + " tokens a request (mean / p99), "
              + value("share of output spent reasoning")
              + " of the output");
    }
    String cancelled = valueOrNull("cancelled by the client");
    if (cancelled != null) {
      lines.add("  cancelled by the client: " + cancelled);
    }
    if (cacheVerdict != null || sloVerdict != null) {
      lines.add(
          "  "
              + (cacheVerdict == null
                  ? ""
                  : (cacheVerdict.startsWith("no verdict") ? "cache: " : "cache ") + cacheVerdict)
              + (cacheVerdict != null && sloVerdict != null ? "; " : "")
              + (sloVerdict == null ? "" : "SLO: " + sloVerdict));
    }
    if (saturation != null) {
      lines.add("  " + saturation);
    }
    StringBuilder client = new StringBuilder();
    for (Figure f : figures) {
      if (f.name().startsWith("client ")) {
        client.append(client.length() == 0 ? "  client: " : "; ");
        client.append(f.name().substring("client ".length())).append(' ').append(f.value());
      }
    }
    if (client.length() > 0) {
      lines.add(client.toString());
    }
    return lines;
  }

  /**
   * Prints the summary of a run record in a few lines on standard output ({@link Console}, as
   * Gatling prints its statistics), the console's last word on a run, e.g. {@code LLM summary: 200
   * requests (ok 200) in 10.4 s, peak concurrency 8}, then throughput, latency p50 / p99, the cache
   * and SLO verdicts and the saturation point.
   *
   * @param run the run record ({@code llm-run.json}'s content), or null (nothing is logged)
   */
  public static void log(Map<String, Object> run) {
    if (run == null) {
      return;
    }
    RunSummary s = of(run);
    for (String line : s.lines()) {
      Console.line(LOG, line);
    }
    String conversations = conversations(run);
    if (conversations != null) {
      Console.line(LOG, "  " + conversations);
    }
    for (String w : s.warnings()) {
      Console.line(LOG, "  warning: " + w);
    }
  }

  /**
   * The measured conversations of every conversation workload in a line, e.g. {@code conversations:
   * 24 (20 completed, 3 ended by context limit, 1 ended by error), 96 turns}; null when the run had
   * none.
   *
   * @param run the run record
   * @return the line without its indent, or null
   */
  static String conversations(Map<String, Object> run) {
    if (!(run.get("conversations") instanceof List<?> workloads) || workloads.isEmpty()) {
      return null;
    }
    long conversations = 0;
    long completed = 0;
    long contextLimit = 0;
    long error = 0;
    long turns = 0;
    for (Object o : workloads) {
      Map<?, ?> measured = map(map(map(o).get("phases")).get("measured"));
      conversations += count(measured.get("conversations"));
      completed += count(measured.get("completed"));
      contextLimit += count(measured.get("ended_by_context_limit"));
      error += count(measured.get("ended_by_error"));
      turns += count(measured.get("turns"));
    }
    return "conversations: "
        + conversations
        + " measured ("
        + completed
        + " completed, "
        + contextLimit
        + " ended by context limit, "
        + error
        + " ended by error), "
        + turns
        + (turns == 1 ? " turn" : " turns");
  }

  private static long count(Object value) {
    return value instanceof Number n ? n.longValue() : 0;
  }

  private String value(String name) {
    for (Figure f : figures) {
      if (f.name().equals(name)) {
        return f.value();
      }
    }
    return "–";
  }

  private static Map<?, ?> map(Object value) {
    return value instanceof Map<?, ?> m ? m : Map.of();
  }

  private static Double number(Object value) {
    return value instanceof Number n ? Double.valueOf(n.doubleValue()) : null;
  }

  private static String num(Double value) {
    return value == null ? "–" : Charts.fmt(value);
  }

  private static String ms(Object value) {
    return value instanceof Number n ? Decimals.ms(n.doubleValue()) : "–";
  }
}
