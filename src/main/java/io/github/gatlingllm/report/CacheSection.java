package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.stats.Distribution;
import io.github.gatlingllm.stats.ValueCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.TreeSet;
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
  static String render(CacheSummary cache) {
    CacheSummary.Parameters plan =
        cache.parameters() == null
            ? new CacheSummary.Parameters(null, null, null, null)
            : cache.parameters();
    StringBuilder html = new StringBuilder("<h2 id=\"cache\">Prefix cache</h2>\n<table>\n");
    html.append(row("verdict", verdictHtml(cache.verdict())));
    html.append(
        row(
            "hit ratio",
            "observed "
                + ReportPage.num(cache.observedHitRatio())
                + ", planned "
                + ReportPage.num(cache.plannedHitRatio())
                + " (tolerance "
                + ReportPage.num(cache.tolerance())
                + ")"));
    html.append(row("outcomes", ReportPage.esc(outcomes(cache.outcomes()))));
    html.append(
        row(
            "as planned",
            ReportPage.esc(cache.asPlanned())
                + " of "
                + ReportPage.esc(cache.requests())
                + " measured requests"));
    html.append(
        row(
            "warm start",
            cache.warmStart()
                ? "<span class=\"bad\">yes: " + ReportPage.esc(cache.warmStartMessage()) + "</span>"
                : "no"));
    html.append(
        row(
            "plan",
            "blocks of "
                + tokens(plan.blockTokens())
                + "; chat template lead "
                + (Boolean.TRUE.equals(plan.templateKnown())
                    ? tokens(plan.templateTokens())
                    : "unknown")
                + "; counts "
                + (Boolean.FALSE.equals(plan.exactCounts())
                    ? "estimated (not the server's tokenizer)"
                    : "in the server's tokens")));
    html.append("</table>\n");

    List<CacheSummary.Series> series = cache.workloads();
    html.append(
        "<table><tr><th class=\"l\">workload</th><th class=\"l\">request</th><th>requests</th>"
            + "<th>planned hit ratio</th><th>observed hit ratio</th><th class=\"l\">verdict</th>"
            + "<th class=\"l\">outcomes</th><th>as planned</th></tr>\n");
    for (CacheSummary.Series w : series) {
      html.append("<tr><td class=\"l\">")
          .append(ReportPage.esc(w.workload()))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(w.request()))
          .append("</td><td>")
          .append(ReportPage.esc(w.requests()))
          .append("</td><td>")
          .append(ReportPage.num(w.plannedHitRatio()))
          .append("</td><td>")
          .append(ReportPage.num(w.observedHitRatio()))
          .append("</td><td class=\"l\">")
          .append(verdictHtml(w.verdict()))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(outcomes(w.outcomes())))
          .append("</td><td>")
          .append(ReportPage.esc(w.asPlanned()))
          .append("</td></tr>\n");
    }
    html.append("</table>\n");

    html.append("<h3>Latency by cache outcome</h3>\n")
        .append("<table><tr><th class=\"l\">workload</th><th class=\"l\">request</th>")
        .append("<th class=\"l\">outcome</th><th>requests</th>")
        .append("<th>TTFT p50</th><th>TTFT p90</th><th>TTFT p99</th>")
        .append("<th>E2E p50</th><th>E2E p90</th><th>E2E p99</th></tr>\n");
    latencyRows(html, "all", "", cache.latencyByOutcome());
    for (CacheSummary.Series w : series) {
      latencyRows(
          html, String.valueOf(w.workload()), String.valueOf(w.request()), w.latencyByOutcome());
    }
    html.append("</table>\n");

    boolean anyGroup = false;
    StringBuilder groups =
        new StringBuilder(
            "<h3>Per prefix group</h3>\n<table><tr><th class=\"l\">workload</th>"
                + "<th class=\"l\">request</th><th>group</th><th>requests</th>"
                + "<th>planned hit ratio</th><th>observed hit ratio</th><th class=\"l\">outcomes</th>"
                + "<th>TTFT p50</th><th>TTFT p99</th><th>E2E p50</th><th>E2E p99</th></tr>\n");
    for (CacheSummary.Series w : series) {
      if (w.prefixGroups() == null) {
        continue;
      }
      for (CacheSummary.PrefixGroup g : w.prefixGroups()) {
        anyGroup = true;
        Distribution ttft = orEmpty(g.ttftMs());
        Distribution e2e = orEmpty(g.e2eMs());
        groups
            .append("<tr><td class=\"l\">")
            .append(ReportPage.esc(w.workload()))
            .append("</td><td class=\"l\">")
            .append(ReportPage.esc(w.request()))
            .append("</td><td>")
            .append(ReportPage.esc(g.group()))
            .append("</td><td>")
            .append(ReportPage.esc(g.requests()))
            .append("</td><td>")
            .append(ReportPage.num(g.plannedHitRatio()))
            .append("</td><td>")
            .append(ReportPage.num(g.observedHitRatio()))
            .append("</td><td class=\"l\">")
            .append(ReportPage.esc(outcomes(g.outcomes())))
            .append("</td><td>")
            .append(ReportPage.ms(ttft.p50()))
            .append("</td><td>")
            .append(ReportPage.ms(ttft.p99()))
            .append("</td><td>")
            .append(ReportPage.ms(e2e.p50()))
            .append("</td><td>")
            .append(ReportPage.ms(e2e.p99()))
            .append("</td></tr>\n");
      }
    }
    if (anyGroup) {
      html.append(groups).append("</table>\n");
    }
    return html.toString();
  }

  private static Distribution orEmpty(Distribution d) {
    return d == null ? Distribution.EMPTY : d;
  }

  private static String tokens(Object n) {
    return ReportPage.esc(n) + (n instanceof Number x && x.longValue() == 1 ? " token" : " tokens");
  }

  private static void latencyRows(
      StringBuilder html, String workload, String request, Map<String, CacheSummary.Latency> by) {
    if (by == null) {
      return;
    }
    for (String outcome : OUTCOMES) {
      CacheSummary.Latency d = by.get(outcome);
      if (d == null) {
        continue;
      }
      Distribution ttft = orEmpty(d.ttftMs());
      Distribution e2e = orEmpty(d.e2eMs());
      html.append("<tr><td class=\"l\">")
          .append(ReportPage.esc(workload))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(request))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(outcome))
          .append("</td><td>")
          .append(ReportPage.esc(e2e.count()))
          .append("</td><td>")
          .append(ReportPage.ms(ttft.p50()))
          .append("</td><td>")
          .append(ReportPage.ms(ttft.p90()))
          .append("</td><td>")
          .append(ReportPage.ms(ttft.p99()))
          .append("</td><td>")
          .append(ReportPage.ms(e2e.p50()))
          .append("</td><td>")
          .append(ReportPage.ms(e2e.p90()))
          .append("</td><td>")
          .append(ReportPage.ms(e2e.p99()))
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

  private static boolean counts(RequestRecord r) {
    return r.status() == RequestStatus.OK && r.cachedTokens() != null && r.promptTokens() != null;
  }

  /**
   * Cache-hit ratio per workload and request name (filled points), with the planned ratio (hollow
   * points: from the requests' planned cached tokens; for older records, the planned shared share).
   */
  static Charts.Chart bySeries(List<RequestRecord> rs) {
    Collector c = new Collector();
    rs.forEach(c::add);
    return c.bySeries();
  }

  /**
   * The cache charts, a request at a time: token sums per series and prefix group, and TTFT and E2E
   * counted by microsecond per series and outcome ({@link ValueCounts}: exact while each takes at
   * most 65,536 distinct values, else to 3 significant digits). Nothing kept per request.
   */
  static final class Collector {
    private final Map<ChartData.Key, long[]> sums = new TreeMap<>(ChartData.ORDER);
    private final Map<ChartData.Key, Map<Integer, long[]>> groupSums =
        new TreeMap<>(ChartData.ORDER);
    private final TreeSet<Integer> groups = new TreeSet<>();
    private final Map<ChartData.Key, Map<CacheOutcome, ValueCounts>> ttft =
        new TreeMap<>(ChartData.ORDER);
    private final Map<ChartData.Key, Map<CacheOutcome, ValueCounts>> e2e =
        new TreeMap<>(ChartData.ORDER);
    private final TreeSet<CacheOutcome> ttftOutcomes = new TreeSet<>();
    private final TreeSet<CacheOutcome> e2eOutcomes = new TreeSet<>();

    /** Adds a request. */
    void add(RequestRecord r) {
      if (counts(r)) {
        CacheSection.add(sums.computeIfAbsent(ChartData.Key.of(r), k -> new long[6]), r);
        if (r.prefixGroup() != null) {
          groups.add(r.prefixGroup());
          CacheSection.add(
              groupSums
                  .computeIfAbsent(ChartData.Key.of(r), k -> new TreeMap<>())
                  .computeIfAbsent(r.prefixGroup(), g -> new long[6]),
              r);
        }
      }
      if (r.status() != RequestStatus.OK || r.cache() == null) {
        return;
      }
      latency(ttft, ttftOutcomes, r, r.ttftMs());
      latency(e2e, e2eOutcomes, r, r.e2eMs());
    }

    private static void latency(
        Map<ChartData.Key, Map<CacheOutcome, ValueCounts>> values,
        TreeSet<CacheOutcome> outcomes,
        RequestRecord r,
        Double value) {
      if (value == null) {
        return;
      }
      outcomes.add(r.cache());
      values
          .computeIfAbsent(ChartData.Key.of(r), k -> new EnumMap<>(CacheOutcome.class))
          .computeIfAbsent(r.cache(), k -> new ValueCounts(ValueCounts.EXACT_LIMIT, 3, 4))
          .add(Math.round(value * 1000));
    }

    /** The TTFT-by-outcome chart. */
    Charts.Chart ttft() {
      return CacheSection.latency("ttft-by-cache", "TTFT", ttft, ttftOutcomes);
    }

    /** The E2E-by-outcome chart. */
    Charts.Chart e2e() {
      return CacheSection.latency("e2e-by-cache", "E2E", e2e, e2eOutcomes);
    }

    /** The cache-hit ratio per series chart. */
    Charts.Chart bySeries() {
      return CacheSection.bySeries(sums);
    }

    /** The cache-hit ratio per prefix group chart. */
    Charts.Chart byGroup() {
      return CacheSection.byGroup(groupSums, groups);
    }
  }

  private static Charts.Chart bySeries(Map<ChartData.Key, long[]> sums) {
    Map<ChartData.Key, String> labels = ChartData.labels(sums.keySet());
    List<String> categories = new ArrayList<>(labels.values());
    List<Double> observed = new ArrayList<>();
    List<Double> planned = new ArrayList<>();
    for (long[] s : sums.values()) {
      observed.add(observed(s));
      planned.add(planned(s));
    }
    return new Charts.Chart(
        "cache-by-series",
        "Cache-hit ratio per workload and request",
        Charts.Kind.CATEGORY,
        "workload and request",
        "cached / prompt tokens",
        null,
        1.0,
        indices(categories.size()),
        categories,
        List.of(
            new Charts.Series("observed", Charts.color(0), observed),
            new Charts.Series("planned", Charts.color(0), planned, false, true)),
        "Filled: observed; hollow: planned.");
  }

  /**
   * Cache-hit ratio per prefix group, a series per workload and request name with its plan (hollow
   * points).
   */
  static Charts.Chart byGroup(List<RequestRecord> rs) {
    Collector c = new Collector();
    rs.forEach(c::add);
    return c.byGroup();
  }

  private static Charts.Chart byGroup(
      Map<ChartData.Key, Map<Integer, long[]>> sums, TreeSet<Integer> groups) {
    Map<ChartData.Key, String> labels = ChartData.labels(sums.keySet());
    List<String> categories = new ArrayList<>();
    for (Integer g : groups) {
      categories.add("g" + g);
    }
    List<Charts.Series> series = new ArrayList<>();
    int k = 0;
    for (Map.Entry<ChartData.Key, Map<Integer, long[]>> e : sums.entrySet()) {
      List<Double> observed = new ArrayList<>();
      List<Double> planned = new ArrayList<>();
      for (Integer g : groups) {
        long[] s = e.getValue().get(g);
        observed.add(s == null ? null : observed(s));
        planned.add(s == null ? null : planned(s));
      }
      String label = labels.get(e.getKey());
      series.add(new Charts.Series(label, Charts.color(k), observed));
      series.add(new Charts.Series(label + " planned", Charts.color(k), planned, false, true));
      k++;
    }
    return new Charts.Chart(
        "cache-by-group",
        "Cache-hit ratio per prefix group",
        Charts.Kind.CATEGORY,
        "prefix group",
        "cached / prompt tokens",
        null,
        1.0,
        indices(categories.size()),
        categories,
        series,
        "Filled: observed; hollow: planned.");
  }

  /**
   * TTFT or E2E by cache outcome, per workload and request name: p50 (filled) and p99 (hollow)
   * points.
   */
  static Charts.Chart latency(
      String id, String metric, List<RequestRecord> rs, Function<RequestRecord, Double> value) {
    Map<ChartData.Key, Map<CacheOutcome, ValueCounts>> values = new TreeMap<>(ChartData.ORDER);
    TreeSet<CacheOutcome> outcomes = new TreeSet<>();
    for (RequestRecord r : rs) {
      if (r.status() == RequestStatus.OK && r.cache() != null) {
        Collector.latency(values, outcomes, r, value.apply(r));
      }
    }
    return latency(id, metric, values, outcomes);
  }

  private static Charts.Chart latency(
      String id,
      String metric,
      Map<ChartData.Key, Map<CacheOutcome, ValueCounts>> values,
      TreeSet<CacheOutcome> outcomes) {
    Map<ChartData.Key, String> labels = ChartData.labels(values.keySet());
    List<String> categories = new ArrayList<>();
    for (CacheOutcome o : outcomes) {
      categories.add(o.wireName());
    }
    List<Charts.Series> series = new ArrayList<>();
    int k = 0;
    for (Map.Entry<ChartData.Key, Map<CacheOutcome, ValueCounts>> e : values.entrySet()) {
      List<Double> p50 = new ArrayList<>();
      List<Double> p99 = new ArrayList<>();
      for (CacheOutcome o : outcomes) {
        ValueCounts v = e.getValue().get(o);
        if (v == null) {
          p50.add(null);
          p99.add(null);
          continue;
        }
        p50.add(v.atRank(0.5) / 1000.0);
        p99.add(v.atRank(0.99) / 1000.0);
      }
      String label = labels.get(e.getKey());
      series.add(new Charts.Series(label + " p50", Charts.color(k), p50));
      series.add(new Charts.Series(label + " p99", Charts.color(k), p99, false, true));
      k++;
    }
    return new Charts.Chart(
        id,
        metric + " by cache outcome",
        Charts.Kind.CATEGORY,
        "cache outcome",
        "ms",
        null,
        null,
        indices(categories.size()),
        categories,
        series,
        "Successful requests. Filled: p50; hollow: p99.");
  }

  private static List<Double> indices(int n) {
    List<Double> xs = new ArrayList<>(n);
    for (int i = 0; i < n; i++) {
      xs.add((double) i);
    }
    return xs;
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

  private static Double observed(long[] s) {
    return s[1] == 0 ? 0.0 : (double) s[0] / s[1];
  }

  private static Double planned(long[] s) {
    return s[3] > 0 && s[1] > 0
        ? Double.valueOf((double) s[2] / s[1])
        : s[5] > 0 ? Double.valueOf((double) s[4] / s[5]) : null;
  }
}
