package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.SerializationFeature;
import java.util.List;
import java.util.Map;

/**
 * The LLM page of a run folder, {@code llm-report.html}: the run's settings, prompt spec, tokenizer
 * identity and phase digests, and per request name and phase the counts by status and the TTFT,
 * ITL, TPOT and E2E distributions. One self-contained file (no script, no CDN) opened beside
 * Gatling's {@code index.html}.
 */
public final class ReportPage {

  private static final ObjectMapper JSON =
      new ObjectMapper().enable(SerializationFeature.INDENT_OUTPUT);
  private static final List<String> METRICS = List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms");
  private static final List<String> STATS =
      List.of("count", "mean", "p50", "p90", "p95", "p99", "max");

  private ReportPage() {}

  /**
   * Renders the page from a run record ({@code llm-run.json}'s content).
   *
   * @param run the run record, never null
   * @return the HTML page
   */
  public static String render(Map<String, Object> run) {
    StringBuilder html = new StringBuilder(16_384);
    html.append("<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">")
        .append("<title>gatling-llm report</title><style>")
        .append("body{font-family:sans-serif;margin:2em;color:#222}")
        .append("table{border-collapse:collapse;margin:1em 0}")
        .append("td,th{border:1px solid #ccc;padding:4px 8px;text-align:right}")
        .append("th{background:#f0f0f0}td.l,th.l{text-align:left}")
        .append("code,pre{background:#f7f7f7;padding:2px 4px}")
        .append("</style></head><body>\n")
        .append("<h1>gatling-llm report</h1>\n")
        .append(
            "<p><a href=\"index.html\">Gatling's report</a> · <a href=\"llm-run.json\">llm-run.json</a>")
        .append(" · <a href=\"llm-requests.jsonl\">llm-requests.jsonl</a></p>\n");
    if (Boolean.TRUE.equals(run.get("interrupted"))) {
      html.append(
          "<p><strong>This run was interrupted: the figures cover the requests that finished.</strong></p>\n");
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
    html.append("<h2>Requests</h2>\n");
    Object metrics = run.get("metrics");
    if (metrics instanceof Map<?, ?> m && m.get("groups") instanceof List<?> groups) {
      html.append(
              "<table><tr><th class=\"l\">request</th><th class=\"l\">phase</th><th>requests</th>")
          .append(
              "<th class=\"l\">status</th><th>requests/s</th><th>output tokens/s</th><th>cache hit ratio</th></tr>\n");
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
            .append("</td></tr>\n");
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
              .append(metric.replace("_ms", "").toUpperCase())
              .append("</td>");
          for (String stat : STATS) {
            html.append("<td>").append(num(d.get(stat))).append("</td>");
          }
          html.append("</tr>\n");
        }
        html.append("</table>\n");
      }
    }
    html.append("<h2>Run record</h2>\n<pre>").append(esc(json(run))).append("</pre>\n");
    html.append("</body></html>\n");
    return html.toString();
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

  private static String num(Object value) {
    if (value instanceof Double d) {
      return String.format(java.util.Locale.ROOT, "%.2f", d);
    }
    return esc(value);
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
