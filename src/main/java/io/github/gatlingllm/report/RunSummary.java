package io.github.gatlingllm.report;

import static io.github.gatlingllm.report.RunSentences.ms;
import static io.github.gatlingllm.report.RunSentences.num;
import static io.github.gatlingllm.report.RunSentences.number;

import io.github.gatlingllm.metrics.AnswerSummary;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.MetricsSummary;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.stats.Distribution;
import java.util.ArrayList;
import java.util.List;
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
    return of(RunRecord.of(run));
  }

  /**
   * Reads the summary from a run record.
   *
   * @param run the run record, never null; any part may be missing (its figures are then {@code –})
   * @return the summary
   */
  static RunSummary of(RunRecord run) {
    GroupSummary overall = overall(run);
    RunInfo.Load load = run.load();
    List<Figure> f = new ArrayList<>();
    Double start = overall == null ? null : number(overall.windowStartMs());
    Double end = overall == null ? null : number(overall.windowEndMs());
    Double durationS = start != null && end != null ? (end - start) / 1000.0 : null;
    f.add(new Figure("duration", durationS == null ? "–" : Charts.fmt(durationS) + " s"));
    Double requests = overall == null ? null : (double) overall.requests();
    f.add(
        new Figure(
            "requests",
            (requests == null ? "–" : Charts.fmt(requests))
                + (overall == null ? "" : " (" + ReportPage.statuses(overall.statuses()) + ")")));
    Double ok = overall == null ? null : (double) overall.count(RequestStatus.OK);
    Double prompt = overall == null ? null : (double) overall.promptTokens();
    Double completion = overall == null ? null : (double) overall.completionTokens();
    boolean window = durationS != null && durationS > 0;
    Double inputPerS = window && prompt != null ? prompt / durationS : null;
    Double outputPerS = overall == null ? null : overall.outputTokensPerS();
    f.add(new Figure("requests/s", num(overall == null ? null : overall.requestsPerS())));
    f.add(new Figure("input tokens/s", num(inputPerS)));
    f.add(new Figure("output tokens/s", num(outputPerS)));
    f.add(
        new Figure(
            "total tokens/s",
            num(inputPerS != null && outputPerS != null ? inputPerS + outputPerS : null)));
    boolean anyOk = ok != null && ok > 0;
    String none = overall == null ? null : none(requests, anyOk);
    f.add(
        new Figure(
            "mean input tokens a request",
            none != null ? none : num(anyOk && prompt != null ? prompt / ok : null)));
    f.add(
        new Figure(
            "mean output tokens a request",
            none != null ? none : num(anyOk && completion != null ? completion / ok : null)));
    Long peak = load == null ? null : load.peakConcurrency();
    if (peak == null && load != null) {
      peak = load.concurrency();
    }
    f.add(new Figure("peak concurrency", num(peak == null ? null : (double) peak)));
    List<String> names = List.of("TTFT", "ITL", "TPOT", "E2E");
    List<Distribution> latencies =
        overall == null
            ? List.of(
                Distribution.EMPTY, Distribution.EMPTY, Distribution.EMPTY, Distribution.EMPTY)
            : List.of(overall.ttftMs(), overall.itlMs(), overall.tpotMs(), overall.e2eMs());
    for (int i = 0; i < names.size(); i++) {
      Distribution d = latencies.get(i);
      f.add(
          new Figure(
              names.get(i) + " p50 / p99, ms",
              none != null ? none : ms(d.p50()) + " / " + ms(d.p99())));
    }

    // Reasoning models (issue 21): the wait for the answer, and what the thinking cost.
    AnswerSummary answer = overall == null ? AnswerSummary.EMPTY : overall.answer();
    if (answer.reasoningRequests() > 0) {
      Distribution ttfo = answer.ttfoMs();
      f.add(
          new Figure(
              "TTFO (first answer token) p50 / p99, ms", ms(ttfo.p50()) + " / " + ms(ttfo.p99())));
      Distribution perRequest = answer.reasoningTokensPerRequest();
      f.add(
          new Figure(
              "reasoning tokens a request, mean / p99",
              num(perRequest.mean()) + " / " + num(perRequest.p99())));
      Double share = answer.reasoningShare();
      f.add(
          new Figure(
              "share of output spent reasoning",
              share == null ? "–" : Charts.fmt(Math.round(share * 1000) / 10.0) + "%"));
    }
    if (answer.cancelChosen() > 0 || answer.cancelled() > 0) {
      AnswerSummary.Cancellation cancellation = answer.cancellation();
      f.add(
          new Figure(
              "cancelled by the client",
              num((double) cancellation.cancelled())
                  + " of "
                  + num((double) cancellation.chosen())
                  + " chosen ("
                  + num((double) cancellation.completedFirst())
                  + " ended first)"));
    }

    // Open loops (issue 13's client record): how late the client sent, how busy it was.
    ClientSummary client = run.client();
    // Closed loops have no schedule: no figure rather than dashes.
    Distribution lag = client == null ? null : client.scheduleLagMs();
    if (lag != null && lag.p50() != null) {
      f.add(new Figure("client schedule lag p50 / p99, ms", ms(lag.p50()) + " / " + ms(lag.p99())));
    }
    ClientSummary.CpuShare cpu = client == null ? null : client.cpuShare();
    if (cpu != null && cpu.max() != null) {
      f.add(new Figure("client CPU share, most", num(cpu.max())));
    }
    // Where the run ran and how busy the machine was with other work (issue 42).
    io.github.gatlingllm.record.Machine machine = run.machine();
    if (machine != null) {
      f.add(new Figure("machine", machine.describe()));
    }
    // Requests with images against text-only ones (issue 45).
    io.github.gatlingllm.record.ImagesSummary images = run.images();
    if (images != null) {
      f.addAll(imageFigures(images));
    }

    List<String> warnings = new ArrayList<>();
    String targetDown = RunSentences.targetDown(run);
    if (targetDown != null) {
      warnings.add(targetDown);
    }
    String targetSilent = RunSentences.targetSilent(run);
    if (targetSilent != null) {
      warnings.add(targetSilent);
    }
    String mostFailed = mostFailed(run);
    if (mostFailed != null) {
      warnings.add(mostFailed);
    }
    String ending = RunSentences.ending(run);
    if (ending != null) {
      warnings.add(ending);
    }
    if (answer.neverAnswered() > 0) {
      long n = answer.neverAnswered();
      warnings.add(
          n
              + (n == 1 ? " request" : " requests")
              + " reasoned and never answered (status ok, no TTFO): max_tokens ran out while"
              + " thinking, or the model gave no answer");
    }
    CacheSummary cache = run.cache();
    if (cache != null && cache.warmStart()) {
      warnings.add("warm start: " + cache.warmStartMessage());
    }
    if (client != null && client.warnings() != null) {
      for (String w : client.warnings()) {
        warnings.add("client: " + w);
      }
    }

    String cacheVerdict = cache == null ? null : RunSentences.cacheVerdict(cache);
    String sloVerdict = null;
    Boolean sloPassed = null;
    Goodput goodput = overall == null ? null : overall.goodput();
    if (goodput != null && goodput.offered() == 0) {
      sloVerdict = NO_SLO_JUDGED;
    } else if (goodput != null) {
      Double attainment = goodput.attainment();
      Double ratio = goodputRatio(run);
      StringBuilder text =
          new StringBuilder()
              .append(goodput.met())
              .append(" of ")
              .append(goodput.offered())
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
        RunSentences.saturations(run));
  }

  /**
   * The run's {@code llm.assert.goodputRatio}, as its record says ({@code assertions}).
   *
   * @param run the run record
   * @return the least share of measured requests that must meet the SLO, or null when not set
   */
  static Double goodputRatio(RunRecord run) {
    RunInfo.Assertions inForce = run.assertionsInForce();
    return inForce == null ? null : inForce.goodputRatio();
  }

  /**
   * The warning of a run whose measured requests mostly failed (more than half, requests cut by the
   * run's end left out: they did not fail), e.g. {@code most requests failed: 198 of 200 measured
   * (timeout 198); the latency and token figures are those of the 2 that succeeded}. No verdict is
   * as planned then: the cache's says {@code unknown} ({@link
   * io.github.gatlingllm.cache.CacheAggregator}).
   *
   * @param run the run record, never null
   * @return the text without a final stop, or null when half or more succeeded (or nothing is
   *     known)
   */
  static String mostFailed(RunRecord run) {
    GroupSummary overall = overall(run);
    if (overall == null) {
      return null;
    }
    double requests = overall.requests();
    double ok = overall.count(RequestStatus.OK);
    double cut = overall.count(RequestStatus.CUT_BY_RUN_END);
    double failed = requests - ok - cut;
    if (!(failed > ok) || ok == 0 && failed == 0) {
      return null;
    }
    Map<RequestStatus, Long> failures = new java.util.EnumMap<>(RequestStatus.class);
    for (Map.Entry<RequestStatus, Long> e : overall.statuses().entrySet()) {
      if (e.getKey() != RequestStatus.OK && e.getKey() != RequestStatus.CUT_BY_RUN_END) {
        failures.put(e.getKey(), e.getValue());
      }
    }
    return "most requests failed: "
        + Charts.fmt(failed)
        + " of "
        + Charts.fmt(requests)
        + " measured ("
        + ReportPage.statuses(failures)
        + ")"
        + (ok == 0
            ? ""
            : "; the latency and token figures are those of the "
                + Charts.fmt(ok)
                + " that succeeded");
  }

  /**
   * The run's overall metrics ({@code metrics.overall}).
   *
   * @param run the run record
   * @return the summary, or null when the record has no metrics
   */
  static GroupSummary overall(RunRecord run) {
    MetricsSummary metrics = run.metrics();
    return metrics == null ? null : metrics.overall();
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

  /** A figure's value by its name, or null when there is no such figure. */
  private String valueOrNull(String name) {
    for (Figure f : figures) {
      if (f.name().equals(name)) {
        return f.value();
      }
    }
    return null;
  }

  /**
   * The summary in a few lines for the console.
   *
   * @return the lines, each without a line break
   */
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
    StringBuilder images = new StringBuilder();
    for (Figure f : figures) {
      if (f.name().startsWith(IMAGES)) {
        images.append(images.length() == 0 ? "  images: " : "; ");
        images.append(f.name().substring(IMAGES.length())).append(' ').append(f.value());
      }
    }
    if (images.length() > 0) {
      lines.add(images.toString());
    }
    return lines;
  }

  /** The start of the image figures' names. */
  static final String IMAGES = "images: ";

  /**
   * The figures of the {@code images} block: the requests on each side, then TTFT, E2E and the
   * upload (time to write the body, its bytes) p50, with images / text only.
   */
  static List<Figure> imageFigures(io.github.gatlingllm.record.ImagesSummary images) {
    io.github.gatlingllm.record.ImagesSummary.Side with = images.withImages();
    io.github.gatlingllm.record.ImagesSummary.Side text = images.textOnly();
    List<Figure> f = new ArrayList<>();
    f.add(
        new Figure(
            IMAGES + "requests",
            images.requestsWithImages()
                + " with "
                + images.images()
                + " images ("
                + size(images.imageBytes())
                + " encoded), "
                + images.requestsTextOnly()
                + " text only"));
    f.add(
        new Figure(
            IMAGES + "TTFT p50 with / text only, ms",
            ms(with.ttftMs().p50()) + " / " + ms(text.ttftMs().p50())));
    f.add(
        new Figure(
            IMAGES + "E2E p50 with / text only, ms",
            ms(with.e2eMs().p50()) + " / " + ms(text.e2eMs().p50())));
    f.add(
        new Figure(
            IMAGES + "upload p50 with / text only, ms",
            ms(with.uploadMs().p50())
                + " / "
                + ms(text.uploadMs().p50())
                + " (bodies p50 "
                + kb(with.requestBytes().p50())
                + " / "
                + kb(text.requestBytes().p50())
                + " kB)"));
    return f;
  }

  /** Bytes in kB below a megabyte, else in MB. */
  private static String size(long bytes) {
    return bytes < 1_000_000
        ? Decimals.fmt(bytes / 1e3) + " kB"
        : Decimals.fmt(bytes / 1e6) + " MB";
  }

  private static String kb(Double bytes) {
    return bytes == null ? "–" : Decimals.fmt(bytes / 1000);
  }

  /**
   * Prints the summary of a run record in a few lines on standard output ({@link Console}, as
   * Gatling prints its statistics), the console's last word on a run, e.g. {@code LLM summary: 200
   * requests (ok 200) in 10.4 s, peak concurrency 8}, then throughput, latency p50 / p99, the cache
   * and SLO verdicts and the saturation point.
   *
   * @param run the run record ({@code llm-run.json}'s content), or null (nothing is logged)
   */
  public static void log(RunRecord run) {
    if (run == null) {
      return;
    }
    for (String line : AssertionsSection.lines(run.assertions())) {
      Console.line(LOG, line);
    }
    RunSummary s = of(run);
    String ran = RunDescription.of(run);
    if (ran != null) {
      Console.line(LOG, "LLM run: " + ran);
    }
    for (String line : s.lines()) {
      Console.line(LOG, line);
    }
    String conversations = RunSentences.conversations(run.conversations());
    if (conversations != null) {
      Console.line(LOG, "  " + conversations);
    }
    String sessions = RunSentences.sessions(run.sessions());
    if (sessions != null) {
      Console.line(LOG, "  " + sessions);
    }
    for (String w : s.warnings()) {
      Console.line(LOG, "  warning: " + w);
    }
  }

  /** A figure's value by its name, or {@code –} when there is no such figure. */
  private String value(String name) {
    String value = valueOrNull(name);
    return value == null ? "–" : value;
  }
}
