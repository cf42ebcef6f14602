package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The LLM page of a run folder, {@code llm-report.html}: the run's settings, prompt spec, tokenizer
 * identity and phase digests; SLO attainment and goodput when an SLO was set; per request name and
 * phase the counts by status, requests/s, output tokens/s and the TTFT, ITL, TPOT and E2E
 * distributions (milliseconds to the microsecond, such as 2.517); and charts of the measured
 * requests (TTFT and ITL histograms, TTFT and output tokens/s over time, in-flight requests over
 * time); the prefix cache against its plan ({@link CacheSection}: a warm-start warning at the top,
 * verdicts, outcomes, latency by cache outcome, per prefix group, and their charts).
 *
 * <p>One self-contained file: the charts are inline SVG drawn here, and a 20-line inline script
 * only checks, once the page is laid out, that each chart drew its marks (it sets {@code
 * data-drawn} on each chart and {@code data-charts-drawn} on {@code <body>}); nothing is fetched,
 * so it works offline.
 */
public final class ReportPage {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> METRICS = List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms");
  private static final List<String> STATS =
      List.of("count", "mean", "p50", "p90", "p95", "p99", "max");

  /** Marks each chart once laid out; no data leaves the page. */
  private static final String CHECK_SCRIPT =
      "<script>\n"
          + "window.addEventListener('load', function () {\n"
          + "  var charts = document.querySelectorAll('svg.chart');\n"
          + "  var drawn = 0;\n"
          + "  charts.forEach(function (svg) {\n"
          + "    var marks = svg.querySelectorAll('.mark');\n"
          + "    var visible = 0;\n"
          + "    marks.forEach(function (m) {\n"
          + "      var b = m.getBBox();\n"
          + "      if (b.width > 0 || b.height > 0) { visible++; }\n"
          + "    });\n"
          + "    svg.setAttribute('data-drawn', String(visible));\n"
          + "    if (visible > 0) { drawn++; }\n"
          + "  });\n"
          + "  document.body.setAttribute('data-charts', String(charts.length));\n"
          + "  document.body.setAttribute('data-charts-drawn', String(drawn));\n"
          + "});\n"
          + "</script>\n";

  private ReportPage() {}

  /**
   * Renders the page from a run record alone (no charts).
   *
   * @param run the run record, never null
   * @return the HTML page
   */
  public static String render(Map<String, Object> run) {
    return render(run, List.of());
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
    StringBuilder html = new StringBuilder(65_536);
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>gatling-llm report</title><style>")
        .append("body{font-family:sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}")
        .append("th{background:#f0f0f0}td.l,th.l{text-align:left}")
        .append("code,pre{background:#f7f7f7;padding:2px 4px}")
        .append(".charts{display:flex;flex-wrap:wrap;gap:12px}")
        .append("svg.chart{border:1px solid #ddd;background:#fff}")
        .append("svg .bar{fill:#4a7bd0}svg .point{fill:#d0704a;fill-opacity:.6}")
        .append("svg .line{fill:none;stroke:#2a9d5c;stroke-width:1.5}")
        .append("svg .axis{stroke:#888}svg .reference{stroke:#d03a3a;stroke-width:2}")
        .append("svg text{font-size:11px;fill:#444}svg .title{font-size:13px;fill:#222}")
        .append(".good{color:#1d7a3a}.bad{color:#b02a2a}")
        .append("</style></head><body>\n")
        .append("<h1>gatling-llm report</h1>\n")
        .append(
            "<p><a href=\"index.html\">Gatling's report</a> · <a href=\"llm-run.json\">llm-run.json</a>")
        .append(" · <a href=\"llm-requests.jsonl\">llm-requests.jsonl</a>")
        .append(" · <a href=\"llm-requests.csv\">llm-requests.csv</a></p>\n");
    if (Boolean.TRUE.equals(run.get("interrupted"))) {
      html.append(
          "<p><strong>This run was interrupted: the figures cover the requests that finished.</strong></p>\n");
    }
    Map<?, ?> cache = run.get("cache") instanceof Map<?, ?> c ? c : null;
    if (cache != null && Boolean.TRUE.equals(cache.get("warm_start"))) {
      html.append("<p class=\"bad\" id=\"warm-start\"><strong>Warm start: ")
          .append(esc(cache.get("warm_start_message")))
          .append("</strong></p>\n");
    }
    if (run.get("merged_from") instanceof List<?> sources) {
      html.append("<p>Merged from ")
          .append(sources.size())
          .append(" run folders: <code>")
          .append(esc(json(sources)))
          .append("</code></p>\n");
    }
    if (run.get("merge_warnings") instanceof List<?> warnings) {
      for (Object w : warnings) {
        html.append("<p class=\"bad\"><strong>Merge warning:</strong> ")
            .append(esc(w))
            .append("</p>\n");
      }
    }
    if (run.get("shards") instanceof List<?> shards && !shards.isEmpty()) {
      html.append("<h2>Shards</h2>\n").append(rows(shards));
    }
    Object metrics = run.get("metrics");
    Map<?, ?> overall =
        metrics instanceof Map<?, ?> m && m.get("overall") instanceof Map<?, ?> o ? o : null;
    if (overall != null && overall.get("goodput") instanceof Map<?, ?> goodput) {
      html.append("<h2>SLO and goodput</h2>\n").append(goodputText(goodput, run));
    }
    Object workloads = run.get("workloads");
    if (workloads instanceof List<?> list && !list.isEmpty()) {
      // Several workloads: each once, the first included.
      html.append("<h2>Workloads</h2>\n");
      for (Object w : list) {
        html.append(table(w));
      }
    } else {
      html.append("<h2>Prompts</h2>\n").append(table(run.get("prompts")));
    }
    html.append("<h2>Target</h2>\n").append(table(run.get("target")));
    if (run.get("decoding") != null) {
      html.append("<h2>Decoding</h2>\n").append(table(run.get("decoding")));
    }
    if (run.get("load") != null) {
      html.append("<h2>Load</h2>\n").append(table(run.get("load")));
    }
    html.append("<h2>Requests</h2>\n");
    if (metrics instanceof Map<?, ?> m && m.get("groups") instanceof List<?> groups) {
      boolean slo = overall != null && overall.get("goodput") != null;
      html.append(
              "<table><tr><th class=\"l\">request</th><th class=\"l\">phase</th><th>requests</th>")
          .append("<th class=\"l\">status</th><th>requests/s</th><th>output tokens/s</th>")
          .append("<th>cache hit ratio</th>")
          .append(
              slo
                  ? "<th>SLO attainment</th><th>goodput requests/s</th><th>goodput output tokens/s</th>"
                  : "")
          .append("</tr>\n");
      for (Object g : groups) {
        Map<?, ?> group = (Map<?, ?>) g;
        html.append("<tr><td class=\"l\">")
            .append(esc(group.get("request")))
            .append("</td><td class=\"l\">")
            .append(esc(group.get("phase")))
            .append("</td><td>")
            .append(esc(group.get("requests")))
            .append("</td><td class=\"l\">")
            .append(esc(statuses(group.get("status"))))
            .append("</td><td>")
            .append(num(group.get("requests_per_s")))
            .append("</td><td>")
            .append(num(group.get("output_tokens_per_s")))
            .append("</td><td>")
            .append(num(group.get("cache_hit_ratio")))
            .append("</td>");
        if (slo) {
          Map<?, ?> gp = group.get("goodput") instanceof Map<?, ?> x ? x : Map.of();
          html.append("<td>")
              .append(num(gp.get("attainment")))
              .append("</td><td>")
              .append(num(gp.get("goodput_requests_per_s")))
              .append("</td><td>")
              .append(num(gp.get("goodput_output_tokens_per_s")))
              .append("</td>");
        }
        html.append("</tr>\n");
      }
      html.append("</table>\n");
      for (Object g : groups) {
        Map<?, ?> group = (Map<?, ?>) g;
        html.append("<h3>")
            .append(esc(group.get("request")))
            .append(" (")
            .append(esc(group.get("phase")))
            .append(")</h3>\n<table><tr><th class=\"l\">ms</th>");
        for (String stat : STATS) {
          html.append("<th>").append(stat).append("</th>");
        }
        html.append("</tr>\n");
        for (String metric : METRICS) {
          Map<?, ?> d = group.get(metric) instanceof Map<?, ?> dm ? dm : Map.of();
          html.append("<tr><td class=\"l\">")
              .append(metric.replace("_ms", "").toUpperCase(Locale.ROOT))
              .append("</td>");
          for (String stat : STATS) {
            Object v = d.get(stat);
            html.append("<td>").append("count".equals(stat) ? num(v) : ms(v)).append("</td>");
          }
          html.append("</tr>\n");
        }
        html.append("</table>\n");
      }
    }
    if (cache != null && cache.get("workloads") instanceof List<?> series && !series.isEmpty()) {
      html.append(CacheSection.render(cache));
    }
    html.append(ServerMetricsSection.render(run, requests)).append(SweepSection.render(run));
    html.append(ConversationSection.render(run, requests));
    html.append("<h2>Charts</h2>\n").append(charts(requests, run));
    html.append("<h2>Run record</h2>\n<details><summary>llm-run.json</summary><pre>")
        .append(esc(json(run)))
        .append("</pre></details>\n");
    html.append(CHECK_SCRIPT);
    html.append("</body></html>\n");
    return html.toString();
  }

  private static String goodputText(Map<?, ?> goodput, Map<String, Object> run) {
    Slo slo = Slo.fromRecord(goodput.get("slo") instanceof Map<?, ?> s ? s : null);
    Object ratio = run.get("assertions") instanceof Map<?, ?> a ? a.get("goodput_ratio") : null;
    Object attainment = goodput.get("attainment");
    StringBuilder html = new StringBuilder("<table>\n");
    html.append(row("objectives", esc(slo.toString())));
    html.append(
        row(
            "requests that met them",
            esc(goodput.get("met")) + " of " + esc(goodput.get("offered")) + " measured"));
    String cls = "";
    if (ratio instanceof Number r && attainment instanceof Number at) {
      cls = at.doubleValue() >= r.doubleValue() ? "good" : "bad";
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
    if (goodput.get("missed") instanceof Map<?, ?> missed) {
      StringBuilder text = new StringBuilder();
      for (Map.Entry<?, ?> e : missed.entrySet()) {
        if (text.length() > 0) {
          text.append(", ");
        }
        text.append(e.getValue())
            .append(" missed ")
            .append(slo.describe(String.valueOf(e.getKey())));
      }
      text.append(text.length() > 0 ? ", " : "").append(goodput.get("failed")).append(" failed");
      html.append(row("missed", esc(text)));
    }
    html.append(row("goodput, requests/s", num(goodput.get("goodput_requests_per_s"))));
    html.append(row("goodput, output tokens/s", num(goodput.get("goodput_output_tokens_per_s"))));
    return html.append("</table>\n").toString();
  }

  private static String row(String name, String htmlValue) {
    return "<tr><th class=\"l\">"
        + esc(name)
        + "</th><td class=\"l\">"
        + htmlValue
        + "</td></tr>\n";
  }

  private static String charts(List<RequestRecord> all, Map<String, Object> run) {
    List<RequestRecord> measured = new ArrayList<>();
    for (RequestRecord r : all) {
      if (!MetricsAggregator.WARMUP.equals(r.phase())) {
        measured.add(r);
      }
    }
    List<RequestRecord> rs = measured.isEmpty() ? all : measured;
    String which = measured.isEmpty() ? "all requests" : "requests outside warmup";
    long t0 = Long.MAX_VALUE;
    for (RequestRecord r : rs) {
      t0 = Math.min(t0, r.startMs());
    }
    List<Double> ttft = new ArrayList<>();
    List<Double> ttftAt = new ArrayList<>();
    List<Double> itl = new ArrayList<>();
    for (RequestRecord r : rs) {
      if (r.status() != RequestStatus.OK) {
        continue;
      }
      if (r.ttftMs() != null) {
        ttft.add(r.ttftMs());
        ttftAt.add((r.startMs() - t0) / 1000.0);
      }
      if (r.itlMs() != null) {
        itl.addAll(r.itlMs());
      }
    }
    StringBuilder html = new StringBuilder("<p>Charts cover the ").append(which);
    html.append(" (").append(rs.size()).append("); latencies of successful ones.</p>\n");
    html.append("<div class=\"charts\">\n");
    html.append(Charts.histogram("ttft-histogram", "TTFT", "ms", doubles(ttft)));
    html.append(Charts.histogram("itl-histogram", "ITL (every interval)", "ms", doubles(itl)));
    html.append(
        Charts.scatter(
            "ttft-over-time",
            "TTFT by request start",
            "s since the first request",
            "ms",
            doubles(ttftAt),
            doubles(ttft)));
    html.append(tokensOverTime(rs, t0));
    html.append(inFlight(rs, t0));
    html.append(CacheSection.bySeries(rs));
    html.append(CacheSection.byGroup(rs));
    html.append(CacheSection.latency("ttft-by-cache", "TTFT", rs, RequestRecord::ttftMs));
    html.append(CacheSection.latency("e2e-by-cache", "E2E", rs, RequestRecord::e2eMs));
    return html.append("</div>\n").toString();
  }

  /** Output tokens of successful requests ending in each interval, per second. */
  private static String tokensOverTime(List<RequestRecord> rs, long t0) {
    double end = 0;
    for (RequestRecord r : rs) {
      end = Math.max(end, (r.endMs() - t0) / 1000.0);
    }
    double bucket = Math.max(1.0, Math.ceil(end / 60.0));
    int n = (int) Math.ceil(end / bucket) + 1;
    double[] tokens = new double[n];
    boolean any = false;
    for (RequestRecord r : rs) {
      if (r.status() == RequestStatus.OK && r.completionTokens() != null) {
        int i = (int) Math.min(n - 1, Math.floor((r.endMs() - t0) / 1000.0 / bucket));
        tokens[i] += r.completionTokens();
        any = true;
      }
    }
    double[] xs = new double[any ? n : 0];
    double[] ys = new double[any ? n : 0];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = i * bucket;
      ys[i] = tokens[i] / bucket;
    }
    return Charts.line(
        "tokens-over-time",
        "Output tokens/s (requests ending in each " + Charts.fmt(bucket) + " s)",
        "s since the first request",
        "tokens/s",
        xs,
        ys,
        true);
  }

  /** Requests in flight (started, not ended) over time: the most in each of 600 slices. */
  private static String inFlight(List<RequestRecord> rs, long t0) {
    int n = rs.size();
    double[][] events = new double[2 * n][];
    int k = 0;
    for (RequestRecord r : rs) {
      events[k++] = new double[] {r.startMs() - t0, 1};
      events[k++] = new double[] {r.endMs() - t0, -1};
    }
    // Ends before starts at the same instant: a request that ends as another starts is not overlap.
    java.util.Arrays.sort(
        events, (a, b) -> a[0] != b[0] ? Double.compare(a[0], b[0]) : Double.compare(a[1], b[1]));
    if (n == 0) {
      return Charts.line(
          "in-flight", "Requests in flight", "s", "requests", new double[0], new double[0], true);
    }
    double span = Math.max(1, events[2 * n - 1][0]);
    int slices = 600;
    double[] max = new double[slices + 1];
    int current = 0;
    int last = 0;
    for (double[] e : events) {
      int slice = (int) Math.min(slices, Math.floor(e[0] / span * slices));
      // The level carried into slices between events.
      for (int s = last + 1; s < slice; s++) {
        max[s] = Math.max(max[s], current);
      }
      current += (int) e[1];
      max[slice] = Math.max(max[slice], current);
      last = slice;
    }
    double[] xs = new double[slices + 1];
    for (int i = 0; i <= slices; i++) {
      xs[i] = span * i / slices / 1000.0;
    }
    return Charts.line(
        "in-flight",
        "Requests in flight (most in each 1/600 of the run)",
        "s since the first request",
        "requests",
        xs,
        max,
        true);
  }

  private static double[] doubles(List<Double> values) {
    double[] out = new double[values.size()];
    for (int i = 0; i < out.length; i++) {
      out[i] = values.get(i);
    }
    return out;
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

  /** {@code ok 200, rejected 3}: the statuses that occurred, in their order. */
  static String statuses(Object value) {
    if (!(value instanceof Map<?, ?> map)) {
      return String.valueOf(value);
    }
    StringBuilder text = new StringBuilder();
    for (Map.Entry<?, ?> e : map.entrySet()) {
      if (e.getValue() instanceof Number n && n.longValue() == 0) {
        continue;
      }
      if (text.length() > 0) {
        text.append(", ");
      }
      text.append(e.getKey()).append(' ').append(e.getValue());
    }
    return text.length() == 0 ? "none" : text.toString();
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
