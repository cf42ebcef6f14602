package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

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
    Map<ChartData.Key, String> labels = ChartData.labels(rs);
    List<String> names = new ArrayList<>(labels.values());
    ChartData.TimeBins bins = ChartData.TimeBins.of(rs);
    List<Double> xs = bins.xs();
    String binned = "Binned " + bins.describe() + " (" + bins.count() + " bins).";
    List<Charts.Chart> charts = new ArrayList<>();

    List<Charts.Series> tokens = new ArrayList<>();
    ChartData.tokensByArrival(rs, bins, labels)
        .forEach((label, ys) -> tokens.add(series(label, names, ys, false)));
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
            tokens,
            binned
                + " Each request's tokens count when they arrived: at its first token and each"
                + " inter-token gap after it (evenly from the first token to the end when ITLs"
                + " were not recorded; at the end when not streamed); the last bin may be"
                + " partial."));

    List<Charts.Series> inFlight = new ArrayList<>();
    Map<String, double[]> peaks = ChartData.inFlight(rs, bins, labels);
    peaks.forEach(
        (label, ys) ->
            inFlight.add(
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
            inFlight,
            binned + " The most requests in flight at once within each bin."));

    List<Charts.Series> ttft = new ArrayList<>();
    ChartData.ttftByStart(rs, bins, labels)
        .forEach(
            (label, stats) -> {
              ttft.add(
                  new Charts.Series(
                      label + " p50", color(label, names), list(stats[0]), false, false));
              ttft.add(
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
            ttft,
            binned + " Median and maximum TTFT of the successful requests started in each bin."));

    charts.add(
        histogram(
            "ttft-histogram",
            "TTFT",
            "ms",
            "requests",
            rs,
            labels,
            false,
            r -> r.ttftMs() == null ? null : c -> c.accept(r.ttftMs())));
    charts.add(
        histogram(
            "itl-histogram",
            "ITL (every interval)",
            "ms",
            "intervals",
            rs,
            labels,
            false,
            r ->
                r.itlMs() == null
                    ? null
                    : c -> {
                      for (double v : r.itlMs()) {
                        c.accept(v);
                      }
                    }));
    charts.add(
        histogram(
            "tpot-histogram",
            "TPOT",
            "ms",
            "requests",
            rs,
            labels,
            false,
            r -> r.tpotMs() == null ? null : c -> c.accept(r.tpotMs())));
    charts.add(
        histogram(
            "e2e-histogram",
            "E2E",
            "ms",
            "requests",
            rs,
            labels,
            false,
            r -> r.e2eMs() == null ? null : c -> c.accept(r.e2eMs())));
    charts.add(
        histogram(
            "prompt-tokens-histogram",
            "Prompt tokens a request",
            "tokens",
            "requests",
            rs,
            labels,
            true,
            r -> r.promptTokens() == null ? null : c -> c.accept(r.promptTokens())));
    charts.add(
        histogram(
            "completion-tokens-histogram",
            "Completion tokens a request",
            "tokens",
            "requests",
            rs,
            labels,
            true,
            r -> r.completionTokens() == null ? null : c -> c.accept(r.completionTokens())));
    return charts;
  }

  /**
   * A histogram of one value of the successful requests, a series per label.
   *
   * @param values a request's values, or null when it has none
   */
  private static Charts.Chart histogram(
      String id,
      String title,
      String unit,
      String counted,
      List<RequestRecord> rs,
      Map<ChartData.Key, String> labels,
      boolean whole,
      Function<RequestRecord, ChartData.Values> values) {
    Map<String, List<ChartData.Values>> per = new LinkedHashMap<>();
    for (String label : labels.values()) {
      per.put(label, new ArrayList<>());
    }
    for (RequestRecord r : rs) {
      if (r.status() != RequestStatus.OK) {
        continue;
      }
      ChartData.Values v = values.apply(r);
      if (v != null) {
        per.get(labels.get(ChartData.Key.of(r))).add(v);
      }
    }
    Map<String, ChartData.Values> joined = new LinkedHashMap<>();
    per.forEach(
        (label, list) ->
            joined.put(
                label,
                c -> {
                  for (ChartData.Values v : list) {
                    v.each(c);
                  }
                }));
    ChartData.Histogram h = ChartData.histogram(joined, whole);
    List<String> names = new ArrayList<>(labels.values());
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
