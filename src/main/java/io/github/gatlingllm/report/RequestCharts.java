package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.stats.ValueCounts;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The report page's charts of the requests, one series per workload and request name in each:
 * output tokens/s by the second the tokens arrived, requests in flight and TTFT by request start
 * (time series, binned per second or wider, {@link ChartData.TimeBins}); histograms of TTFT, ITL
 * (every interval), TPOT, E2E (successful requests), prompt and completion tokens (successful
 * requests that reported them), binned alike for every series ({@link ChartData#histogram}).
 */
final class RequestCharts {

  private static final String SINCE = "s since the first request";

  private RequestCharts() {}

  /**
   * The charts of the requests.
   *
   * @param rs the requests to chart, not empty
   * @return the charts, time series first
   */
  static List<Charts.Chart> charts(List<RequestRecord> rs) {
    Collector c = new Collector(ChartData.labels(rs), ChartData.TimeBins.of(rs));
    rs.forEach(c::add);
    return c.charts();
  }

  /** One histogram's values: per label, counted in whole units of {@code 1 / scale}. */
  private static final class Values {
    final Map<String, ValueCounts> per = new LinkedHashMap<>();
    final double scale;

    Values(Map<ChartData.Key, String> labels, double scale) {
      this.scale = scale;
      for (String label : labels.values()) {
        per.put(label, new ValueCounts());
      }
    }

    void add(String label, Number value) {
      if (value != null) {
        per.get(label).add(Math.round(value.doubleValue() * scale));
      }
    }

    Map<String, ChartData.Values> values() {
      Map<String, ChartData.Values> out = new LinkedHashMap<>();
      per.forEach((label, counts) -> out.put(label, ChartData.of(counts, scale)));
      return out;
    }
  }

  /**
   * The charts, a request at a time: time series in the given bins, histograms counted by value
   * ({@link ValueCounts}: exact while a series' metric takes at most 65,536 distinct microsecond or
   * token values, else to 3 significant digits). Holds the in-flight chart's 16 bytes a request
   * ({@link ChartData.InFlight}), nothing else per request.
   */
  static final class Collector {
    private final Map<ChartData.Key, String> labels;
    private final ChartData.TimeBins bins;
    private final ChartData.TokensByArrival tokens;
    private final ChartData.InFlight inFlight;
    private final ChartData.TtftByStart ttftByStart;
    private final Values ttft;
    private final Values itl;
    private final Values tpot;
    private final Values e2e;
    private final Values promptTokens;
    private final Values completionTokens;

    /**
     * Charts of the given series and bins.
     *
     * @param labels every series of the requests to come, with its label
     * @param bins bins covering every request to come
     */
    Collector(Map<ChartData.Key, String> labels, ChartData.TimeBins bins) {
      this.labels = labels;
      this.bins = bins;
      this.tokens = new ChartData.TokensByArrival(bins, labels);
      this.inFlight = new ChartData.InFlight(bins, labels);
      this.ttftByStart = new ChartData.TtftByStart(bins, labels);
      this.ttft = new Values(labels, 1000);
      this.itl = new Values(labels, 1000);
      this.tpot = new Values(labels, 1000);
      this.e2e = new Values(labels, 1000);
      this.promptTokens = new Values(labels, 1);
      this.completionTokens = new Values(labels, 1);
    }

    /** Adds a request of one of the series. */
    void add(RequestRecord r) {
      tokens.add(r);
      inFlight.add(r);
      ttftByStart.add(r);
      if (r.status() != RequestStatus.OK) {
        return;
      }
      String label = labels.get(ChartData.Key.of(r));
      ttft.add(label, r.ttftMs());
      if (r.itlMs() != null) {
        ValueCounts counts = itl.per.get(label);
        for (Double v : r.itlMs()) {
          counts.add(Math.round(v * 1000));
        }
      }
      tpot.add(label, r.tpotMs());
      e2e.add(label, r.e2eMs());
      promptTokens.add(label, r.promptTokens());
      completionTokens.add(label, r.completionTokens());
    }

    /** The charts, time series first. */
    List<Charts.Chart> charts() {
      List<String> names = new ArrayList<>(labels.values());
      List<Double> xs = bins.xs();
      String binned = "Binned " + bins.describe() + " (" + bins.count() + " bins).";
      List<Charts.Chart> charts = new ArrayList<>();

      List<Charts.Series> tokenSeries = new ArrayList<>();
      tokens.result().forEach((label, ys) -> tokenSeries.add(series(label, names, ys, false)));
      charts.add(
          new Charts.Chart(
              "tokens-over-time",
              "Output tokens/s, by the second the tokens arrived",
              Charts.Kind.TIME,
              SINCE,
              "tokens/s",
              null,
              null,
              xs,
              null,
              tokenSeries,
              binned
                  + " Each request's tokens count when they arrived: at its first token and each"
                  + " inter-token gap after it (evenly from the first token to the end when ITLs"
                  + " were not recorded; at the end when not streamed); the last bin may be"
                  + " partial."));

      List<Charts.Series> inFlightSeries = new ArrayList<>();
      Map<String, double[]> peaks = inFlight.result();
      peaks.forEach(
          (label, ys) ->
              inFlightSeries.add(
                  "all".equals(label) && peaks.size() > 1
                      ? new Charts.Series("all", "#555555", list(ys), false, true)
                      : series(label, names, ys, false)));
      charts.add(
          new Charts.Chart(
              "in-flight",
              "Requests in flight",
              Charts.Kind.TIME,
              SINCE,
              "requests",
              null,
              null,
              xs,
              null,
              inFlightSeries,
              binned + " The most requests in flight at once within each bin."));

      List<Charts.Series> ttftSeries = new ArrayList<>();
      ttftByStart
          .result()
          .forEach(
              (label, stats) -> {
                ttftSeries.add(
                    new Charts.Series(
                        label + " p50", color(label, names), list(stats[0]), false, false));
                ttftSeries.add(
                    new Charts.Series(
                        label + " max", color(label, names), list(stats[1]), false, true));
              });
      charts.add(
          new Charts.Chart(
              "ttft-over-time",
              "TTFT by request start",
              Charts.Kind.TIME,
              SINCE,
              "ms",
              null,
              null,
              xs,
              null,
              ttftSeries,
              binned + " Median and maximum TTFT of the successful requests started in each bin."));

      charts.add(histogram("ttft-histogram", "TTFT", "ms", "requests", names, ttft, false));
      charts.add(
          histogram("itl-histogram", "ITL (every interval)", "ms", "intervals", names, itl, false));
      charts.add(histogram("tpot-histogram", "TPOT", "ms", "requests", names, tpot, false));
      charts.add(histogram("e2e-histogram", "E2E", "ms", "requests", names, e2e, false));
      charts.add(
          histogram(
              "prompt-tokens-histogram",
              "Prompt tokens a request",
              "tokens",
              "requests",
              names,
              promptTokens,
              true));
      charts.add(
          histogram(
              "completion-tokens-histogram",
              "Completion tokens a request",
              "tokens",
              "requests",
              names,
              completionTokens,
              true));
      return charts;
    }
  }

  /** A histogram of one value of the successful requests, a series per label. */
  private static Charts.Chart histogram(
      String id,
      String title,
      String unit,
      String counted,
      List<String> names,
      Values values,
      boolean whole) {
    ChartData.Histogram h = ChartData.histogram(values.values(), whole);
    List<Charts.Series> series = new ArrayList<>();
    List<Double> edges = h == null ? List.of() : h.edges();
    if (h != null) {
      h.counts()
          .forEach(
              (label, counts) -> {
                List<Double> ys = new ArrayList<>(counts.length + 1);
                for (long c : counts) {
                  ys.add((double) c);
                }
                ys.add(0.0);
                series.add(new Charts.Series(label, color(label, names), ys));
              });
    }
    return new Charts.Chart(
        id,
        title,
        whole ? Charts.Kind.WHOLE_HISTOGRAM : Charts.Kind.HISTOGRAM,
        unit,
        counted,
        null,
        null,
        edges,
        null,
        series,
        h == null
            ? null
            : "Successful requests; bins of "
                + Charts.fmt(h.width())
                + " "
                + ("tokens".equals(unit) && h.width() == 1 ? "token" : unit)
                + " ("
                + (edges.size() - 1)
                + " bins)."
                + (h.above() == 0
                    ? ""
                    : " A long tail is cut off: the last bin also counts the "
                        + h.above()
                        + " values at or above "
                        + Charts.fmt(edges.get(edges.size() - 1))
                        + " "
                        + unit
                        + " (the tables above give the maximum)."));
  }

  private static Charts.Series series(
      String label, List<String> names, double[] ys, boolean dashed) {
    return new Charts.Series(label, color(label, names), list(ys), false, dashed);
  }

  /** A label's colour: its place among the run's series. */
  static String color(String label, List<String> names) {
    return Charts.color(Math.max(0, names.indexOf(label)));
  }

  /** Values as a list, NaN as null. */
  static List<Double> list(double[] ys) {
    List<Double> out = new ArrayList<>(ys.length);
    for (double y : ys) {
      out.add(Double.isNaN(y) ? null : y);
    }
    return out;
  }
}
