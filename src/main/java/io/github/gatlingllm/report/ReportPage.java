package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.MetricsSummary;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.Baseline;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.Merge;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.stats.Distribution;
import java.util.List;
import java.util.Map;

/**
 * The LLM page of a run folder, {@code llm-report.html}. It leads with the answer ({@link
 * RunSummary}: duration, requests by status, throughput, mean tokens a request, peak concurrency,
 * TTFT/ITL/TPOT/E2E p50 and p99, the cache and SLO verdicts; warnings of client lag, a warm start
 * or an interrupted run above it), then the levels of a stepped or swept load ({@link
 * LevelsSection}), per request name and phase the counts by status, requests/s, output tokens/s and
 * the TTFT, ITL, TPOT and E2E distributions (milliseconds to the microsecond, such as 2.517), the
 * failed requests by error message ({@link ErrorsSection}), the charts of the measured requests
 * ({@link RequestCharts}, the cache's from {@link CacheSection}), the prefix cache against its
 * plan, the server's metrics and working-set sweeps, and last the run's settings, prompt spec,
 * tokenizer identity and phase digests.
 *
 * <p>One self-contained file: the charts are drawn by uPlot, inlined once with the page's chart
 * script ({@link Charts#assets()}), from JSON embedded in the page; a Content-Security-Policy
 * ({@code default-src 'none'}, inline script and style allowed) keeps the page from fetching
 * anything, so it opens offline.
 */
public final class ReportPage {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> METRICS = List.of("TTFT", "ITL", "TPOT", "E2E");
  private static final List<String> STATS =
      List.of("count", "mean", "p50", "p90", "p95", "p99", "max");

  /** Nothing but the page's own inline script and style: no request leaves the page. */
  static final String CSP =
      "default-src 'none'; script-src 'unsafe-inline'; style-src 'unsafe-inline'";

  private ReportPage() {}

  /**
   * Renders the page from a run record alone (no charts).
   *
   * @param run the run record, never null
   * @return the HTML page
   */
  public static String render(Map<String, Object> run) {
    return render(RunRecord.of(run), RecordedRequests.of(List.of()));
  }

  /**
   * Renders the page from a run record ({@code llm-run.json}'s content) and its requests ({@code
   * llm-requests.jsonl}).
   *
   * @param run the run record, never null
   * @param requests the run's requests, any order; the charts show those outside the warmup phase
   *     (all of them if every one is warmup)
   * @return the HTML page
   */
  public static String render(Map<String, Object> run, List<RequestRecord> requests) {
    return render(RunRecord.of(run), RecordedRequests.of(requests));
  }

  /**
   * Renders the page from a run record ({@code llm-run.json}'s content as ordered maps, each block
   * read into its type as a file's would be) and its requests, streamed ({@link #render(RunRecord,
   * RecordedRequests)}).
   *
   * @param run the run record, never null
   * @param requests the run's requests, any order
   * @return the HTML page
   */
  public static String render(Map<String, Object> run, RecordedRequests requests) {
    return render(RunRecord.of(run), requests);
  }

  /**
   * Renders the page from a run record ({@code llm-run.json}'s content) and its requests, streamed:
   * one pass over them when their {@link RecordedRequests#shape() shape} is known, else two; no
   * request is held (the in-flight chart keeps 16 bytes a charted request, {@link
   * ChartData.InFlight}).
   *
   * @param run the run record, never null
   * @param requests the run's requests, any order; the charts show those outside the warmup phase
   *     (all of them if every one is warmup)
   * @return the HTML page
   * @throws java.io.UncheckedIOException if the requests cannot be read
   */
  public static String render(RunRecord record, RecordedRequests requests) {
    // The blocks read by sections that take no type of their own yet, as maps.
    Map<String, Object> run = record.asMap();
    RequestsShape shape = requests.shape() != null ? requests.shape() : RequestsShape.of(requests);
    RequestsShape.Part charted = shape.charted();
    ErrorsSection.Collector errors = new ErrorsSection.Collector();
    RequestCharts.Collector charts =
        charted.count == 0
            ? null
            : new RequestCharts.Collector(ChartData.labels(charted.keys), charted.bins());
    CacheSection.Collector cacheCharts = new CacheSection.Collector();
    ServerMetricsSection.Collector server =
        new ServerMetricsSection.Collector(record.serverMetrics());
    ConversationSection.Turns turns = new ConversationSection.Turns();
    ConversationSection.Turns agentTurns = new ConversationSection.Turns(true);
    requests.forEach(
        r -> {
          server.add(r);
          turns.add(r);
          agentTurns.add(r);
          if (charts != null && shape.charted(r)) {
            errors.add(r);
            charts.add(r);
            cacheCharts.add(r);
          }
        });
    StringBuilder html = new StringBuilder(131_072);
    html.append(head());
    // The run's pass or fail first: Gatling's verdict on each assertion.
    html.append(AssertionsSection.html(record.assertions()));
    String note = record.note();
    if (record.requestsSentBy() != null && note != null) {
      // A record of prompts posted with Gatling's own http(): say first why nothing is timed.
      html.append("<p class=\"note\"><strong>Note:</strong> ").append(esc(note)).append("</p>\n");
    }
    if (record.wasInterrupted()) {
      html.append(
          "<p><strong>This run was interrupted: the figures cover the requests that finished.</strong></p>\n");
    }
    targetDown(html, record);
    CacheSummary cache = record.cache();
    if (cache != null && cache.warmStart()) {
      html.append("<p class=\"bad\" id=\"warm-start\"><strong>Warm start: ")
          .append(esc(cache.warmStartMessage()))
          .append("</strong></p>\n");
    }
    ClientSummary client = record.client();
    if (client != null && client.warnings() != null) {
      for (String w : client.warnings()) {
        html.append("<p class=\"bad client-warning\"><strong>Client warning: ")
            .append(esc(w))
            .append("</strong></p>\n");
      }
    }
    Merge merge = record.merge();
    if (merge != null && merge.mergedFrom() != null) {
      html.append("<p>Merged from ")
          .append(merge.mergedFrom().size())
          .append(" run folders: <code>")
          .append(esc(json(merge.mergedFrom())))
          .append("</code></p>\n");
    }
    if (merge != null && merge.warnings() != null) {
      for (String w : merge.warnings()) {
        html.append("<p class=\"bad\"><strong>Merge warning:</strong> ")
            .append(esc(w))
            .append("</p>\n");
      }
    }
    html.append(whatRan(record)).append(mostFailed(record));
    html.append(summary(RunSummary.of(record), record.baseline()));
    html.append(BaselineSection.html(record.baseline()));
    MetricsSummary metrics = record.metrics();
    GroupSummary overall = metrics == null ? null : metrics.overall();
    if (overall != null && overall.goodput() != null) {
      html.append("<h2>SLO and goodput</h2>\n")
          .append(goodputText(overall.goodput(), RunSummary.goodputRatio(record)));
    }
    html.append(LevelsSection.render(record, run));
    html.append(CapacitySection.render(record.capacity()));
    html.append("<h2>Requests</h2>\n");
    if (metrics != null) {
      html.append(groups(metrics.groups(), overall));
    }
    String which = shape.anyMeasured() ? "requests outside warmup" : "requests";
    html.append(ErrorsSection.renderRows(errors.rows(), errors.cutLine(which), which));
    html.append("<h2 id=\"charts\">Charts</h2>\n")
        .append(charts(charted.count, charts, cacheCharts, which));
    if (cache != null && !cache.workloads().isEmpty()) {
      html.append(CacheSection.render(cache));
    }
    html.append(server.render()).append(SweepSection.render(record.workingSetSweeps()));
    html.append(ConversationSection.render(record.conversations(), turns));
    html.append(SessionSection.render(record.sessions(), agentTurns));
    if (merge != null && merge.shards() != null && !merge.shards().isEmpty()) {
      // One row a folder, its own client as the JSON form's text.
      html.append("<h2>Shards</h2>\n").append(rows(JSON.convertValue(merge.shards(), List.class)));
    }
    html.append("<h2 id=\"settings\">Settings</h2>\n");
    Object workloads = record.json("workloads");
    if (workloads instanceof List<?> list && !list.isEmpty()) {
      // Several workloads: each once, the first included.
      html.append("<h3>Workloads</h3>\n");
      for (Object w : list) {
        html.append(table(w));
      }
    } else {
      html.append("<h3>Prompts</h3>\n").append(table(record.json("prompts")));
    }
    html.append("<h3>Target</h3>\n").append(table(record.json("target")));
    Object decoding = record.json("decoding");
    if (decoding != null) {
      html.append("<h3>Decoding</h3>\n").append(table(decoding));
    }
    Object load = record.json("load");
    if (load != null) {
      html.append("<h3>Load</h3>\n").append(table(load));
    }
    html.append("<h2>Run record</h2>\n<details><summary>llm-run.json</summary><pre>")
        .append(esc(json(record.toTree())))
        .append("</pre></details>\n");
    html.append("</body></html>\n");
    return html.toString();
  }

  /**
   * The page's head and title lines: {@code llm-report-head.html} with the CSP, the style of {@code
   * llm-report.css} (its comments left out, its lines joined) and the charts' assets ({@link
   * Charts#assets()}) put in. Read once.
   */
  static String head() {
    String text = head;
    if (text == null) {
      String css =
          COMMENT
              .matcher(Charts.resource(RESOURCES + "llm-report.css"))
              .replaceAll("")
              .replace("\n", "");
      text =
          Charts.resource(RESOURCES + "llm-report-head.html")
              .replace("{{csp}}", CSP)
              .replace("{{css}}", css)
              .replace("{{assets}}", Charts.assets());
      head = text;
    }
    return text;
  }

  private static final String RESOURCES = "io/github/gatlingllm/report/";
  private static final java.util.regex.Pattern COMMENT =
      java.util.regex.Pattern.compile("/\\*.*?\\*/\\n?", java.util.regex.Pattern.DOTALL);

  /** The head once read (a race reads it twice, harmlessly). */
  private static volatile String head;

  /** The first screen: the run's answer in a table, as vLLM's benchmark summary. */
  /**
   * The target that stopped answering, or went silent, above the figures: a red line each, or
   * nothing.
   */
  private static void targetDown(StringBuilder html, RunRecord run) {
    String text = RunSentences.targetDown(run);
    if (text != null) {
      html.append("<p class=\"bad\" id=\"target-down\"><strong>")
          .append(esc(text))
          .append("</strong></p>\n");
    }
    String silent = RunSentences.targetSilent(run);
    if (silent != null) {
      html.append("<p class=\"bad\" id=\"target-silent\"><strong>")
          .append(esc(silent))
          .append("</strong></p>\n");
    }
  }

  private static String summary(RunSummary summary, Baseline baseline) {
    StringBuilder html = new StringBuilder("<h2>Summary</h2>\n<table id=\"summary\">\n");
    for (RunSummary.Figure f : summary.figures()) {
      String value = "requests".equals(f.name()) ? failuresInRed(esc(f.value())) : esc(f.value());
      html.append(row(f.name(), value + BaselineSection.note(baseline, f.name())));
    }
    html.append(
        row(
            "cache",
            summary.cacheVerdict() == null
                ? "no cache plan"
                : "<span class=\""
                    + (summary.cacheVerdict().startsWith("as planned") ? "good" : "bad")
                    + "\">"
                    + esc(summary.cacheVerdict())
                    + "</span>"));
    html.append(
        row(
            "SLO",
            summary.sloVerdict() == null
                ? "no SLO set"
                : "<span class=\""
                    + (summary.sloPassed() == null ? "" : summary.sloPassed() ? "good" : "bad")
                    + "\">"
                    + esc(summary.sloVerdict())
                    + "</span>"));
    if (summary.saturation() != null) {
      html.append(row("saturation", esc(summary.saturation())));
    }
    return html.append("</table>\n").toString();
  }

  /** The "what ran" line above the summary ({@link RunDescription}), or nothing. */
  private static String whatRan(RunRecord run) {
    String text = RunDescription.of(run);
    return text == null
        ? ""
        : "<p id=\"what-ran\"><strong>What ran:</strong> " + esc(text) + ".</p>\n";
  }

  /**
   * The red line of a run whose measured requests mostly failed ({@link RunSummary#mostFailed}).
   */
  private static String mostFailed(RunRecord run) {
    String text = RunSummary.mostFailed(run);
    return text == null
        ? ""
        : "<p class=\"bad\" id=\"most-failed\"><strong>"
            + esc(Character.toUpperCase(text.charAt(0)) + text.substring(1))
            + ".</strong></p>\n";
  }

  /**
   * The summary's requests figure, {@code 200 (ok 2, timeout 198)}, with its statuses other than
   * {@code ok} in red when any request failed.
   */
  private static String failuresInRed(String escaped) {
    int open = escaped.indexOf(" (");
    if (open < 0 || !escaped.endsWith(")")) {
      return escaped;
    }
    return escaped.substring(0, open + 2)
        + statusesHtml(escaped.substring(open + 2, escaped.length() - 1))
        + ")";
  }

  /**
   * Statuses as {@link #statuses} writes them, escaped, each failed one in red ({@code ok} and
   * requests cut by the run's end, which did not fail, stay as they are).
   *
   * @param escapedStatuses e.g. {@code ok 2, timeout 198; 3 cut by the run&#39;s end}
   * @return the HTML
   */
  static String statusesHtml(String escapedStatuses) {
    int cut = escapedStatuses.indexOf("; ");
    String statuses = cut < 0 ? escapedStatuses : escapedStatuses.substring(0, cut);
    StringBuilder html = new StringBuilder();
    for (String part : statuses.split(", ")) {
      if (html.length() > 0) {
        html.append(", ");
      }
      boolean failed = !part.startsWith("ok ") && !part.equals("none");
      html.append(failed ? "<span class=\"bad\">" + part + "</span>" : part);
    }
    return html.append(cut < 0 ? "" : escapedStatuses.substring(cut)).toString();
  }

  private static String groups(List<GroupSummary> groups, GroupSummary overall) {
    StringBuilder html = new StringBuilder();
    boolean slo = overall != null && overall.goodput() != null;
    html.append(
            "<table><tr><th class=\"l\">request</th><th class=\"l\">phase</th><th>requests</th>")
        .append("<th class=\"l\">status</th><th>requests/s</th><th>output tokens/s</th>")
        .append("<th>cache hit ratio</th>")
        .append(
            slo
                ? "<th>SLO attainment</th><th>goodput requests/s</th><th>goodput output tokens/s</th>"
                : "")
        .append("</tr>\n");
    for (GroupSummary group : groups) {
      Goodput gp = group.goodput();
      html.append("<tr><td class=\"l\">")
          .append(esc(group.request()))
          .append("</td><td class=\"l\">")
          .append(esc(group.phase()))
          .append("</td><td>")
          .append(esc(group.requests()))
          .append("</td><td class=\"l\">")
          .append(statusesHtml(esc(statuses(group.statuses()))))
          .append("</td><td>")
          .append(num(group.requestsPerS()))
          .append("</td><td>")
          .append(num(group.outputTokensPerS()))
          .append("</td><td>")
          .append(num(group.cacheHitRatio()))
          .append("</td>");
      if (slo) {
        html.append("<td>")
            .append(num(gp == null ? null : gp.attainment()))
            .append("</td><td>")
            .append(num(gp == null ? null : gp.requestsPerS()))
            .append("</td><td>")
            .append(num(gp == null ? null : gp.outputTokensPerS()))
            .append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</table>\n");
    for (GroupSummary group : groups) {
      html.append("<h3>")
          .append(esc(group.request()))
          .append(" (")
          .append(esc(group.phase()))
          .append(")</h3>\n");
      String none = RunSummary.none((double) group.requests(), group.count(RequestStatus.OK) > 0);
      if (none != null) {
        html.append("<p>").append(esc(none)).append(", so there are no latency figures.</p>\n");
        continue;
      }
      html.append("<table><tr><th class=\"l\">ms</th>");
      for (String stat : STATS) {
        html.append("<th>").append(stat).append("</th>");
      }
      html.append("</tr>\n");
      List<Distribution> latencies =
          List.of(group.ttftMs(), group.itlMs(), group.tpotMs(), group.e2eMs());
      for (int i = 0; i < METRICS.size(); i++) {
        Distribution d = latencies.get(i);
        html.append("<tr><td class=\"l\">").append(METRICS.get(i)).append("</td>");
        for (String stat : STATS) {
          Object v = stat(d, stat);
          html.append("<td>").append("count".equals(stat) ? num(v) : ms(v)).append("</td>");
        }
        html.append("</tr>\n");
      }
      html.append("</table>\n");
    }
    return html.toString();
  }

  private static String goodputText(Goodput goodput, Double ratio) {
    Slo slo = goodput.slo();
    Double attainment = goodput.attainment();
    StringBuilder html = new StringBuilder("<table>\n");
    html.append(row("objectives", esc(slo.toString())));
    if (goodput.offered() == 0) {
      html.append(row("requests that met them", esc(RunSummary.NO_SLO_JUDGED)));
      return html.append("</table>\n").toString();
    }
    html.append(
        row(
            "requests that met them",
            esc(goodput.met()) + " of " + esc(goodput.offered()) + " measured"));
    String cls = "";
    if (ratio != null && attainment != null) {
      cls = attainment >= ratio ? "good" : "bad";
    }
    html.append(
        row(
            "attainment",
            "<span class=\""
                + cls
                + "\">"
                + num(attainment)
                + "</span>"
                + (ratio == null ? "" : " (assertion: at least " + esc(ratio) + ")")));
    StringBuilder text = new StringBuilder();
    for (Map.Entry<String, Long> e : goodput.missed().entrySet()) {
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(e.getValue()).append(" missed ").append(slo.describe(e.getKey()));
    }
    text.append(text.length() > 0 ? ", " : "").append(goodput.failed()).append(" failed");
    html.append(row("missed", esc(text)));
    html.append(row("goodput, requests/s", num(goodput.requestsPerS())));
    html.append(row("goodput, output tokens/s", num(goodput.outputTokensPerS())));
    return html.append("</table>\n").toString();
  }

  private static String row(String name, String htmlValue) {
    return "<tr><th class=\"l\">"
        + esc(name)
        + "</th><td class=\"l\">"
        + htmlValue
        + "</td></tr>\n";
  }

  private static String charts(
      long count,
      RequestCharts.Collector requestCharts,
      CacheSection.Collector cacheCharts,
      String which) {
    if (count == 0) {
      return "<p>No request was recorded: nothing to chart.</p>\n";
    }
    StringBuilder html = new StringBuilder("<p>Charts cover the ").append(which);
    html.append(" (")
        .append(count)
        .append("), a series per workload and request name; latencies of successful ones.")
        .append(" Hover for values, click a legend entry to hide its series, drag across a time")
        .append(" series or histogram to zoom (double-click resets).</p>\n");
    html.append("<div class=\"charts\">\n");
    for (Charts.Chart chart : requestCharts.charts()) {
      html.append(Charts.render(chart));
    }
    html.append(Charts.render(cacheCharts.bySeries()));
    html.append(Charts.render(cacheCharts.byGroup()));
    html.append(Charts.render(cacheCharts.ttft()));
    html.append(Charts.render(cacheCharts.e2e()));
    return html.append("</div>\n").toString();
  }

  private static String table(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return "<p>" + esc(value) + "</p>\n";
    }
    StringBuilder html = new StringBuilder("<table>\n");
    for (Map.Entry<?, ?> e : map.entrySet()) {
      Object v = e.getValue();
      html.append("<tr><th class=\"l\">")
          .append(esc(e.getKey()))
          .append("</th><td class=\"l\">")
          .append(
              v instanceof Map<?, ?> || v instanceof List<?>
                  ? "<code>" + esc(json(v)) + "</code>"
                  : esc(v))
          .append("</td></tr>\n");
    }
    return html.append("</table>\n").toString();
  }

  /** A list of flat maps as a table: one row each, the first map's keys as headers. */
  private static String rows(List<?> list) {
    if (!(list.get(0) instanceof Map<?, ?> first)) {
      return table(list);
    }
    StringBuilder html = new StringBuilder("<table>\n<tr>");
    for (Object key : first.keySet()) {
      html.append("<th class=\"l\">").append(esc(key)).append("</th>");
    }
    html.append("</tr>\n");
    for (Object row : list) {
      html.append("<tr>");
      for (Object key : first.keySet()) {
        Object v = row instanceof Map<?, ?> m ? m.get(key) : null;
        html.append("<td class=\"l\">").append(esc(v)).append("</td>");
      }
      html.append("</tr>\n");
    }
    return html.append("</table>\n").toString();
  }

  /**
   * {@code ok 200, rejected 3}: the statuses that occurred, in their order; requests cut by the
   * run's end did not fail and come last, apart: {@code ok 188; 12 cut by the run's end}.
   */
  static String statuses(Map<RequestStatus, Long> statuses) {
    Map<String, Object> byName = new java.util.LinkedHashMap<>();
    statuses.forEach((s, n) -> byName.put(s.wireName(), n));
    return statuses((Object) byName);
  }

  /**
   * {@link #statuses(Map)} of a status object as a map read from {@code llm-run.json} (wire name to
   * count).
   */
  static String statuses(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return String.valueOf(value);
    }
    StringBuilder text = new StringBuilder();
    Object cut = null;
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getValue() instanceof Number n && n.longValue() == 0) {
        continue;
      }
      if (RequestStatus.CUT_BY_RUN_END.wireName().equals(String.valueOf(e.getKey()))) {
        cut = e.getValue();
        continue;
      }
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(e.getKey()).append(' ').append(e.getValue());
    }
    if (cut != null) {
      text.append(text.length() > 0 ? "; " : "").append(cut).append(" cut by the run's end");
    }
    return text.length() == 0 ? "none" : text.toString();
  }

  /**
   * One figure of a distribution by its JSON name ({@code count}, {@code mean}, {@code p50}...).
   */
  private static Object stat(Distribution d, String stat) {
    return switch (stat) {
      case "count" -> d.count();
      case "mean" -> d.mean();
      case "min" -> d.min();
      case "p50" -> d.p50();
      case "p90" -> d.p90();
      case "p95" -> d.p95();
      case "p99" -> d.p99();
      case "max" -> d.max();
      default -> throw new IllegalArgumentException("no such figure of a distribution: " + stat);
    };
  }

  private static String json(Object value) {
    try {
      return JSON.writeValueAsString(value);
    } catch (JsonProcessingException e) {
      return String.valueOf(value);
    }
  }

  /** Numbers as people read them: whole ones without decimals, others to 2 decimals at most. */
  static String num(Object value) {
    if (value instanceof Double d) {
      return Charts.fmt(d);
    }
    return esc(value);
  }

  /** A time in milliseconds to the microsecond: {@code 2.517}, {@code 0.25}, {@code 34}. */
  static String ms(Object value) {
    return value instanceof Number n ? Decimals.ms(n.doubleValue()) : esc(value);
  }

  static String esc(Object value) {
    if (value == null) {
      return "–";
    }
    String s = value.toString();
    StringBuilder out = new StringBuilder(s.length() + 16);
    for (int i = 0; i < s.length(); i++) {
      char c = s.charAt(i);
      switch (c) {
        case '<' -> out.append("&lt;");
        case '>' -> out.append("&gt;");
        case '&' -> out.append("&amp;");
        case '"' -> out.append("&quot;");
        case '\'' -> out.append("&#39;");
        default -> out.append(c);
      }
    }
    return out.toString();
  }
}
