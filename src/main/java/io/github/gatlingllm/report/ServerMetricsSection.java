package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.ServerMetrics;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Map;

/**
 * The report page's "Server metrics" section, from {@code llm-run.json}'s {@code server_metrics}:
 * what was scraped, the server's own prefix-cache hit rate beside the run's, and charts of the
 * server's KV cache usage, running and waiting requests, and hit rate per scrape interval over time
 * (seconds since the first request, as the page's other charts).
 */
final class ServerMetricsSection {

  private static final String SERVER = "#d0704a";
  private static final String RUN = "#4a7bd0";
  private static final String WAITING = "#b02a2a";

  private ServerMetricsSection() {}

  /**
   * The section.
   *
   * @param server the run record's {@code server_metrics}, or null when the server was not scraped
   * @param requests the run's requests, any order
   * @return the HTML, empty when {@code server} is null
   */
  static String render(ServerMetrics server, List<RequestRecord> requests) {
    Collector c = new Collector(server);
    requests.forEach(c::add);
    return c.render();
  }

  /**
   * The section, a request at a time: the first request start and the run's cached and prompt
   * tokens per scrape interval, nothing kept per request.
   */
  static final class Collector {
    private final ServerMetrics server;
    private final List<Map<String, Number>> samples = new ArrayList<>();
    private final int step;
    private final int all;
    private final long[] at;
    private final long[][] tokens;
    private long t0 = Long.MAX_VALUE;

    /**
     * The section of a run record.
     *
     * @param server the run record's {@code server_metrics}, or null
     */
    Collector(ServerMetrics server) {
      this.server = server;
      List<Map<String, Number>> recorded =
          server != null && server.samples() != null ? server.samples() : List.of();
      long started = startedAtMs(server);
      all = recorded.size();
      step = Math.max(1, (int) Math.ceil(all / (double) MAX_SAMPLES));
      for (int i = 0; i < all; i += step) {
        samples.add(recorded.get(i));
      }
      if (step > 1 && (all - 1) % step != 0) {
        samples.add(recorded.get(all - 1));
      }
      at = new long[samples.size()];
      for (int i = 0; i < at.length; i++) {
        at[i] = started + samples.get(i).get(ServerMetrics.T_MS).longValue();
      }
      tokens = new long[at.length][2];
    }

    /** Adds a request, of any phase. */
    void add(RequestRecord r) {
      t0 = Math.min(t0, r.startMs());
      if (r.promptTokens() == null || r.cachedTokens() == null || r.e2eMs() == null) {
        return;
      }
      // The run's own hit rate over each scrape interval: requests ending in it.
      double end = r.startMs() + r.e2eMs();
      int i = Arrays.binarySearch(at, (long) Math.ceil(end));
      i = i >= 0 ? i : -i - 1;
      if (i >= 1 && i < at.length) {
        tokens[i][0] += r.cachedTokens();
        tokens[i][1] += r.promptTokens();
      }
    }

    /** The HTML, empty when the run has no {@code server_metrics}. */
    String render() {
      return ServerMetricsSection.render(server, this);
    }
  }

  private static long startedAtMs(ServerMetrics m) {
    return m != null && m.startedAtMs() != null ? m.startedAtMs() : 0;
  }

  private static String render(ServerMetrics m, Collector requests) {
    if (m == null) {
      return "";
    }
    StringBuilder html = new StringBuilder("<h2>Server metrics</h2>\n<table>\n");
    row(
        html,
        "scraped",
        "<code>"
            + ReportPage.esc(m.url())
            + "</code> every "
            + ReportPage.esc(m.intervalMs())
            + " ms, at the start and at the end");
    row(html, "server", ReportPage.esc(m.engine() == null ? "no answer" : m.engine()));
    row(
        html,
        "scrapes",
        ReportPage.esc(m.scrapes())
            + " answered, "
            + ReportPage.esc(m.failedScrapes())
            + " failed");
    // Recorded (null or not) once the engine is known, as its formula is.
    if (m.hitRateFormula() != null) {
      row(
          html,
          "prefix-cache hit rate, the server's own",
          "<strong>"
              + ReportPage.num(m.prefixCacheHitRate())
              + "</strong> ("
              + ReportPage.esc(m.hitRateFormula())
              + ", over the run, warmup included)");
    }
    row(
        html,
        "prefix-cache hit rate, this run's requests",
        m.runHitRate() == null
            ? "not known: no request of the run reported prompt tokens in its usage"
            : "<strong>"
                + ReportPage.num(m.runHitRate())
                + "</strong> (cached / prompt tokens in their usage, every request recorded)");
    if (m.cacheConfig() != null) {
      row(html, "KV cache", ReportPage.esc(describe(m)));
    }
    if (m.deltas() != null && !m.deltas().isEmpty()) {
      StringBuilder text = new StringBuilder();
      m.deltas()
          .forEach(
              (k, v) ->
                  text.append(text.length() == 0 ? "" : ", ")
                      .append(k)
                      .append(' ')
                      .append(ReportPage.num(v)));
      row(html, "counters over the run", text.toString());
    }
    if (m.seriesFound() != null) {
      List<String> names = m.seriesFound();
      row(
          html,
          "series served",
          names.size()
              + " (none known to gatling-llm, so nothing is read from them): <code>"
              + ReportPage.esc(String.join(" ", names.stream().map(String::valueOf).toList()))
              + "</code>");
    }
    if (m.errors() != null && !m.errors().isEmpty()) {
      StringBuilder text = new StringBuilder();
      for (ServerMetrics.ScrapeError e : m.errors().subList(0, Math.min(3, m.errors().size()))) {
        text.append(text.length() == 0 ? "" : "; ")
            .append("at ")
            .append(e.tMs())
            .append(" ms: ")
            .append(e.error());
      }
      row(html, "failed scrapes", ReportPage.esc(text));
    }
    html.append("</table>\n");
    if (m.samples() != null && !m.samples().isEmpty()) {
      html.append("<div class=\"charts\">\n")
          .append(charts(m, m.samples(), requests))
          .append("</div>\n");
    }
    return html.toString();
  }

  /** Samples charted at most: beyond, every k-th scrape (the first and last kept). */
  static final int MAX_SAMPLES = ChartData.MAX_TIME_BINS;

  private static String charts(ServerMetrics m, List<?> all, Collector requests) {
    long started = startedAtMs(m);
    long t0 = requests.t0 == Long.MAX_VALUE ? started : requests.t0;
    int step = requests.step;
    List<Map<String, Number>> samples = requests.samples;
    long[][] tokens = requests.tokens;
    int n = samples.size();
    List<Double> xs = new ArrayList<>(n);
    double[] usage = new double[n];
    double[] running = new double[n];
    double[] waiting = new double[n];
    double[] serverRate = new double[n];
    double[] runRate = new double[n];
    long[] at = new long[n];
    for (int i = 0; i < n; i++) {
      Map<String, Number> s = samples.get(i);
      at[i] = started + s.get(ServerMetrics.T_MS).longValue();
      xs.add((at[i] - t0) / 1000.0);
      usage[i] = value(s.get(ServerMetrics.KV_CACHE_USAGE));
      running[i] = value(s.get(ServerMetrics.REQUESTS_RUNNING));
      waiting[i] = value(s.get(ServerMetrics.REQUESTS_WAITING));
      serverRate[i] = value(s.get(ServerMetrics.HIT_RATE));
    }
    for (int i = 0; i < n; i++) {
      runRate[i] = tokens[i][1] == 0 ? Double.NaN : (double) tokens[i][0] / tokens[i][1];
    }
    String x = "s since the first request";
    String note =
        step > 1
            ? "Every " + step + "th of " + all.size() + " scrapes (and the last)."
            : "One point per scrape.";
    StringBuilder html = new StringBuilder();
    html.append(
        Charts.render(
            new Charts.Chart(
                "server-hit-rate",
                "Prefix-cache hit rate per scrape interval",
                Charts.Kind.TIME,
                x,
                "hit rate",
                null,
                1.0,
                xs,
                null,
                List.of(
                    new Charts.Series("server's own", SERVER, RequestCharts.list(serverRate)),
                    new Charts.Series("this run's requests", RUN, RequestCharts.list(runRate))),
                note)));
    html.append(
        Charts.render(
            new Charts.Chart(
                "server-kv-cache",
                "KV cache usage (server)",
                Charts.Kind.TIME,
                x,
                "share in use",
                null,
                null,
                xs,
                null,
                List.of(new Charts.Series("KV cache usage", SERVER, RequestCharts.list(usage))),
                note)));
    html.append(
        Charts.render(
            new Charts.Chart(
                "server-queue",
                "Requests running and waiting (server)",
                Charts.Kind.TIME,
                x,
                "requests",
                null,
                null,
                xs,
                null,
                List.of(
                    new Charts.Series("running", RUN, RequestCharts.list(running)),
                    new Charts.Series("waiting", WAITING, RequestCharts.list(waiting))),
                note)));
    return html.toString();
  }

  private static double value(Object v) {
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }

  private static String describe(ServerMetrics m) {
    StringBuilder text = new StringBuilder();
    if (m.cacheCapacityTokens() != null) {
      text.append(m.cacheCapacityTokens()).append(" tokens");
    }
    if (m.cacheBlockSizeTokens() != null) {
      text.append(text.length() == 0 ? "" : ", ")
          .append("blocks of ")
          .append(m.cacheBlockSizeTokens())
          .append(" tokens");
    }
    return text.toString();
  }

  private static void row(StringBuilder html, String name, String htmlValue) {
    html.append("<tr><th class=\"l\">")
        .append(ReportPage.esc(name))
        .append("</th><td class=\"l\">")
        .append(htmlValue)
        .append("</td></tr>\n");
  }
}
