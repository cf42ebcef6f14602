package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.CacheOutcome;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;
import java.util.TreeMap;
import java.util.function.Function;

/**
 * The report page's prefix-cache part: tables from {@code llm-run.json}'s {@code cache} (verdict,
 * planned and observed hit ratios, outcomes, latency by cache outcome, per prefix group) and charts
 * from the requests, each with one series per workload and request name, never pooled across them.
 */
final class CacheSection {

  private static final List<String> OUTCOMES =
      Arrays.stream(CacheOutcome.values()).map(CacheOutcome::wireName).toList();

  private CacheSection() {}

  /** The tables of {@code llm-run.json}'s {@code cache}. */
  static String render(Map<?, ?> cache) {
    StringBuilder html = new StringBuilder("<h2 id=\"cache\">Prefix cache</h2>\n<table>\n");
    html.append(row("verdict", verdictHtml(cache.get("verdict"))));
    html.append(
        row(
            "hit ratio",
            "observed "
                + ReportPage.num(cache.get("observed_hit_ratio"))
                + ", planned "
                + ReportPage.num(cache.get("planned_hit_ratio"))
                + " (tolerance "
                + ReportPage.num(cache.get("tolerance"))
                + ")"));
    html.append(row("outcomes", ReportPage.esc(outcomes(cache.get("outcomes")))));
    html.append(
        row(
            "as planned",
            ReportPage.esc(cache.get("as_planned"))
                + " of "
                + ReportPage.esc(cache.get("requests"))
                + " measured requests"));
    html.append(
        row(
            "warm start",
            Boolean.TRUE.equals(cache.get("warm_start"))
                ? "<span class=\"bad\">yes: "
                    + ReportPage.esc(cache.get("warm_start_message"))
                    + "</span>"
                : "no"));
    html.append(
        row(
            "plan",
            "blocks of "
                + tokens(cache.get("block_tokens"))
                + "; chat template lead "
                + (Boolean.TRUE.equals(cache.get("template_known"))
                    ? tokens(cache.get("template_tokens"))
                    : "unknown")
                + "; counts "
                + (Boolean.FALSE.equals(cache.get("exact_counts"))
                    ? "estimated (not the server's tokenizer)"
                    : "in the server's tokens")));
    html.append("</table>\n");

    List<?> series = (List<?>) cache.get("workloads");
    html.append(
        "<table><tr><th class=\"l\">workload</th><th class=\"l\">request</th><th>requests</th>"
            + "<th>planned hit ratio</th><th>observed hit ratio</th><th class=\"l\">verdict</th>"
            + "<th class=\"l\">outcomes</th><th>as planned</th></tr>\n");
    for (Object o : series) {
      Map<?, ?> w = (Map<?, ?>) o;
      html.append("<tr><td class=\"l\">")
          .append(ReportPage.esc(w.get("workload")))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(w.get("request")))
          .append("</td><td>")
          .append(ReportPage.esc(w.get("requests")))
          .append("</td><td>")
          .append(ReportPage.num(w.get("planned_hit_ratio")))
          .append("</td><td>")
          .append(ReportPage.num(w.get("observed_hit_ratio")))
          .append("</td><td class=\"l\">")
          .append(verdictHtml(w.get("verdict")))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(outcomes(w.get("outcomes"))))
          .append("</td><td>")
          .append(ReportPage.esc(w.get("as_planned")))
          .append("</td></tr>\n");
    }
    html.append("</table>\n");

    html.append("<h3>Latency by cache outcome</h3>\n")
        .append("<table><tr><th class=\"l\">workload</th><th class=\"l\">request</th>")
        .append("<th class=\"l\">outcome</th><th>requests</th>")
        .append("<th>TTFT p50</th><th>TTFT p90</th><th>TTFT p99</th>")
        .append("<th>E2E p50</th><th>E2E p90</th><th>E2E p99</th></tr>\n");
    latencyRows(html, "all", "", cache.get("latency_by_outcome"));
    for (Object o : series) {
      Map<?, ?> w = (Map<?, ?>) o;
      latencyRows(
          html,
          String.valueOf(w.get("workload")),
          String.valueOf(w.get("request")),
          w.get("latency_by_outcome"));
    }
    html.append("</table>\n");

    boolean anyGroup = false;
    StringBuilder groups =
        new StringBuilder(
            "<h3>Per prefix group</h3>\n<table><tr><th class=\"l\">workload</th>"
                + "<th class=\"l\">request</th><th>group</th><th>requests</th>"
                + "<th>planned hit ratio</th><th>observed hit ratio</th><th class=\"l\">outcomes</th>"
                + "<th>TTFT p50</th><th>TTFT p99</th><th>E2E p50</th><th>E2E p99</th></tr>\n");
    for (Object o : series) {
      Map<?, ?> w = (Map<?, ?>) o;
      if (!(w.get("prefix_groups") instanceof List<?> list)) {
        continue;
      }
      for (Object go : list) {
        anyGroup = true;
        Map<?, ?> g = (Map<?, ?>) go;
        Map<?, ?> ttft = g.get("ttft_ms") instanceof Map<?, ?> t ? t : Map.of();
        Map<?, ?> e2e = g.get("e2e_ms") instanceof Map<?, ?> e ? e : Map.of();
        groups
            .append("<tr><td class=\"l\">")
            .append(ReportPage.esc(w.get("workload")))
            .append("</td><td class=\"l\">")
            .append(ReportPage.esc(w.get("request")))
            .append("</td><td>")
            .append(ReportPage.esc(g.get("group")))
            .append("</td><td>")
            .append(ReportPage.esc(g.get("requests")))
            .append("</td><td>")
            .append(ReportPage.num(g.get("planned_hit_ratio")))
            .append("</td><td>")
            .append(ReportPage.num(g.get("observed_hit_ratio")))
            .append("</td><td class=\"l\">")
            .append(ReportPage.esc(outcomes(g.get("outcomes"))))
            .append("</td><td>")
            .append(ReportPage.ms(ttft.get("p50")))
            .append("</td><td>")
            .append(ReportPage.ms(ttft.get("p99")))
            .append("</td><td>")
            .append(ReportPage.ms(e2e.get("p50")))
            .append("</td><td>")
            .append(ReportPage.ms(e2e.get("p99")))
            .append("</td></tr>\n");
      }
    }
    if (anyGroup) {
      html.append(groups).append("</table>\n");
    }
    return html.toString();
  }

  private static String tokens(Object n) {
    return ReportPage.esc(n) + (n instanceof Number x && x.longValue() == 1 ? " token" : " tokens");
  }

  private static void latencyRows(StringBuilder html, String workload, String request, Object by) {
    if (!(by instanceof Map<?, ?> map)) {
      return;
    }
    for (String outcome : OUTCOMES) {
      if (!(map.get(outcome) instanceof Map<?, ?> d)) {
        continue;
      }
      Map<?, ?> ttft = d.get("ttft_ms") instanceof Map<?, ?> t ? t : Map.of();
      Map<?, ?> e2e = d.get("e2e_ms") instanceof Map<?, ?> e ? e : Map.of();
      html.append("<tr><td class=\"l\">")
          .append(ReportPage.esc(workload))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(request))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(outcome))
          .append("</td><td>")
          .append(ReportPage.esc(e2e.get("count")))
          .append("</td><td>")
          .append(ReportPage.ms(ttft.get("p50")))
          .append("</td><td>")
          .append(ReportPage.ms(ttft.get("p90")))
          .append("</td><td>")
          .append(ReportPage.ms(ttft.get("p99")))
          .append("</td><td>")
          .append(ReportPage.ms(e2e.get("p50")))
          .append("</td><td>")
          .append(ReportPage.ms(e2e.get("p90")))
          .append("</td><td>")
          .append(ReportPage.ms(e2e.get("p99")))
          .append("</td></tr>\n");
    }
  }

  /** {@code hit 96, miss 4}: the outcomes that occurred. */
  static String outcomes(Object value) {
    return ReportPage.statuses(value);
  }

  private static String verdictHtml(Object verdict) {
    String cls = "as planned".equals(verdict) ? "good" : "unknown".equals(verdict) ? "" : "bad";
    return "<span class=\"" + cls + "\">" + ReportPage.esc(verdict) + "</span>";
  }

  private static String row(String name, String htmlValue) {
    return "<tr><th class=\"l\">"
        + ReportPage.esc(name)
        + "</th><td class=\"l\">"
        + htmlValue
        + "</td></tr>\n";
  }

  /** A series: one workload's requests of one name. */
  private record Series(String workload, String request) {}

  /** Short labels: the request name when it tells the series apart, else workload/request. */
  private static Map<Series, String> labels(Set<Series> series) {
    Set<String> requests = new LinkedHashSet<>();
    for (Series s : series) {
      requests.add(s.request());
    }
    boolean byRequest = requests.size() == series.size();
    Map<Series, String> labels = new LinkedHashMap<>();
    for (Series s : series) {
      labels.put(
          s, byRequest || s.workload() == null ? s.request() : s.workload() + "/" + s.request());
    }
    return labels;
  }

  private static Series series(RequestRecord r) {
    return new Series(r.workload(), r.request());
  }

  private static boolean counts(RequestRecord r) {
    return r.status() == RequestStatus.OK && r.cachedTokens() != null && r.promptTokens() != null;
  }

  /**
   * Cache-hit ratio per workload and request name, with the planned ratio as a reference tick (from
   * the requests' planned cached tokens; for older records, the planned shared share).
   */
  static String bySeries(List<RequestRecord> rs) {
    Map<Series, long[]> sums = new LinkedHashMap<>();
    for (RequestRecord r : sorted(rs)) {
      if (!counts(r)) {
        continue;
      }
      add(sums.computeIfAbsent(series(r), k -> new long[6]), r);
    }
    Map<Series, String> labels = labels(sums.keySet());
    List<Charts.Bar> bars = new ArrayList<>();
    for (Map.Entry<Series, long[]> e : sums.entrySet()) {
      bars.add(bar(labels.get(e.getKey()), e.getValue()));
    }
    return Charts.bars(
        "cache-by-series",
        "Cache-hit ratio per workload and request (red: planned)",
        "cached / prompt tokens",
        bars);
  }

  /** Cache-hit ratio per prefix group of each shared-prefix series, against the plan. */
  static String byGroup(List<RequestRecord> rs) {
    Map<Series, Map<Integer, long[]>> sums = new LinkedHashMap<>();
    for (RequestRecord r : sorted(rs)) {
      if (!counts(r) || r.prefixGroup() == null) {
        continue;
      }
      add(
          sums.computeIfAbsent(series(r), k -> new TreeMap<>())
              .computeIfAbsent(r.prefixGroup(), g -> new long[6]),
          r);
    }
    Map<Series, String> labels = labels(sums.keySet());
    List<Charts.Bar> bars = new ArrayList<>();
    for (Map.Entry<Series, Map<Integer, long[]>> e : sums.entrySet()) {
      for (Map.Entry<Integer, long[]> g : e.getValue().entrySet()) {
        String label = (sums.size() > 1 ? labels.get(e.getKey()) + " " : "") + "g" + g.getKey();
        bars.add(bar(label, g.getValue()));
      }
    }
    return Charts.bars(
        "cache-by-group",
        "Cache-hit ratio per prefix group (red: planned)",
        "cached / prompt tokens",
        bars);
  }

  /**
   * TTFT or E2E by cache outcome, per workload and request name: the median as a bar, a whisker to
   * the 99th percentile.
   */
  static String latency(
      String id, String metric, List<RequestRecord> rs, Function<RequestRecord, Double> value) {
    Map<Series, Map<CacheOutcome, List<Double>>> values = new LinkedHashMap<>();
    for (RequestRecord r : sorted(rs)) {
      if (r.status() != RequestStatus.OK || r.cache() == null || value.apply(r) == null) {
        continue;
      }
      values
          .computeIfAbsent(series(r), k -> new java.util.EnumMap<>(CacheOutcome.class))
          .computeIfAbsent(r.cache(), k -> new ArrayList<>())
          .add(value.apply(r));
    }
    Map<Series, String> labels = labels(values.keySet());
    List<Charts.Range> ranges = new ArrayList<>();
    for (Map.Entry<Series, Map<CacheOutcome, List<Double>>> e : values.entrySet()) {
      for (Map.Entry<CacheOutcome, List<Double>> o : e.getValue().entrySet()) {
        List<Double> v = new ArrayList<>(o.getValue());
        v.sort(null);
        String label =
            (values.size() > 1 ? labels.get(e.getKey()) + ": " : "") + o.getKey().wireName();
        ranges.add(new Charts.Range(label, rank(v, 50), rank(v, 99), v.size()));
      }
    }
    return Charts.ranges(id, metric + " by cache outcome (bar: p50, whisker: p99)", "ms", ranges);
  }

  private static List<RequestRecord> sorted(List<RequestRecord> rs) {
    List<RequestRecord> list = new ArrayList<>(rs);
    list.sort(
        java.util.Comparator.comparing((RequestRecord r) -> Objects.toString(r.workload(), ""))
            .thenComparing(RequestRecord::request));
    return list;
  }

  /** Sums: cached, prompt, planned cached, requests with a plan, shared prefix, planned tokens. */
  private static void add(long[] s, RequestRecord r) {
    s[0] += r.cachedTokens();
    s[1] += r.promptTokens();
    if (r.plannedCachedTokens() != null) {
      s[2] += r.plannedCachedTokens();
      s[3]++;
    }
    if (r.sharedPrefixTokens() != null && r.plannedTokens() != null) {
      s[4] += r.sharedPrefixTokens();
      s[5] += r.plannedTokens();
    }
  }

  private static Charts.Bar bar(String label, long[] s) {
    Double reference =
        s[3] > 0 && s[1] > 0
            ? Double.valueOf((double) s[2] / s[1])
            : s[5] > 0 ? Double.valueOf((double) s[4] / s[5]) : null;
    return new Charts.Bar(label, s[1] == 0 ? 0 : (double) s[0] / s[1], reference);
  }

  /** The smallest value with at least p% of the sorted values at or below it. */
  private static double rank(List<Double> sorted, double p) {
    int rank = (int) Math.max(1, Math.ceil(p / 100.0 * sorted.size()));
    return sorted.get(rank - 1);
  }
}
