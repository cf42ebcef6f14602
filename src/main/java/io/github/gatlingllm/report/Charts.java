package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * The report page's charts, drawn in the browser by <a href="https://github.com/leeoniya/uPlot">
 * uPlot</a> (MIT), whose minified script and style are read from the {@code org.webjars.npm:uplot}
 * WebJar on the classpath and inlined once into the page ({@link #assets()}), so the page still
 * opens offline and fetches nothing.
 *
 * <p>Each chart is a {@code <figure class="chart" data-chart="ID" data-series="N">} (N: the series
 * with values) holding a {@code <div class="plot">} the chart is drawn in, its data as JSON
 * (written by Jackson) in a {@code <script type="application/json">} and a caption saying how the
 * data was binned; the page's script ({@code llm-charts.js}) turns each into a uPlot instance with
 * values on hover (the legend shows the values under the cursor), a legend whose entries toggle
 * their series, and drag-to-zoom on the x axis of time series and histograms (double-click resets).
 * Axis ticks are uPlot's: steps of 1, 2 or 5 times a power of ten, so never a tick such as 45.75.
 * Charts never hold raw per-request points: the data is binned before it gets here ({@link
 * ChartData}), so a chart has at most about 2,000 points a series whatever the run's size.
 */
final class Charts {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The WebJar's own record of its version, which names the folder of its files. */
  private static final String UPLOT_POM = "META-INF/maven/org.webjars.npm/uplot/pom.properties";

  /** Colours of successive series (Tableau 10), the same order in every chart. */
  static final List<String> PALETTE =
      List.of(
          "#4e79a7", "#f28e2b", "#e15759", "#76b7b2", "#59a14f", "#edc948", "#b07aa1", "#ff9da7",
          "#9c755f", "#bab0ac");

  private Charts() {}

  /** What a chart draws, and how. */
  enum Kind {
    /** Lines over seconds since the first request; the x axis zooms by drag. */
    TIME,
    /**
     * Counts per bin, drawn as filled steps; {@code x} holds the bins' lower edges and one more,
     * the last bin's upper edge (whose y values are null); zooms by drag.
     */
    HISTOGRAM,
    /** A {@link #HISTOGRAM} of whole numbers (token counts): x ticks are whole too. */
    WHOLE_HISTOGRAM,
    /** Points joined by lines over a numeric x (levels, prefix groups); zooms by drag. */
    XY,
    /** Points over named categories ({@code xLabels}, x = 0, 1, ...), no lines. */
    CATEGORY
  }

  /**
   * One series of a chart.
   *
   * @param label its legend entry, never null
   * @param color its CSS colour, never null
   * @param y one value per x, null where it has none
   * @param rightAxis whether it reads against the right-hand axis ({@link Chart#y2Label})
   * @param dashed whether its line is dashed (a second statistic of the same series, e.g. max); on
   *     {@link Kind#CATEGORY} charts, whether its points are hollow
   */
  record Series(String label, String color, List<Double> y, boolean rightAxis, boolean dashed) {

    /** Checks the fields. */
    Series {
      Objects.requireNonNull(label, "label");
      Objects.requireNonNull(color, "color");
      Objects.requireNonNull(y, "y");
    }

    /** A solid series on the left axis. */
    Series(String label, String color, List<Double> y) {
      this(label, color, y, false, false);
    }

    /** How many values it has (non-null). */
    int points() {
      int n = 0;
      for (Double v : y) {
        n += v == null ? 0 : 1;
      }
      return n;
    }
  }

  /**
   * One chart.
   *
   * @param id its id, unique in the page ({@code [a-z0-9_-]+})
   * @param title its title
   * @param kind how it draws
   * @param xLabel the x axis label with its unit
   * @param yLabel the left y axis label with its unit
   * @param y2Label the right y axis label, or null when no series reads against it
   * @param yMax the top of the left y axis, or null to fit the values
   * @param x the x values, ascending
   * @param xLabels the category names, one per x, for {@link Kind#CATEGORY}; else null
   * @param series the series; those without values are kept (the legend still lists them)
   * @param note a sentence under the chart saying how its data was binned, or null
   */
  record Chart(
      String id,
      String title,
      Kind kind,
      String xLabel,
      String yLabel,
      String y2Label,
      Double yMax,
      List<Double> x,
      List<String> xLabels,
      List<Series> series,
      String note) {

    /** Checks the fields. */
    Chart {
      Objects.requireNonNull(id, "id");
      Objects.requireNonNull(kind, "kind");
      Objects.requireNonNull(x, "x");
      Objects.requireNonNull(series, "series");
      for (Series s : series) {
        if (s.y().size() != x.size()) {
          throw new IllegalArgumentException(
              "series "
                  + s.label()
                  + " of chart "
                  + id
                  + " has "
                  + s.y().size()
                  + " values for "
                  + x.size()
                  + " x values");
        }
      }
    }

    /** The series that have at least one value. */
    int seriesWithData() {
      int n = 0;
      for (Series s : series) {
        n += s.points() > 0 ? 1 : 0;
      }
      return n;
    }
  }

  /**
   * The chart as HTML: a figure with its data as JSON, or a line saying it has no data.
   *
   * @param chart the chart
   * @return the HTML
   */
  static String render(Chart chart) {
    if (chart.x().isEmpty() || chart.seriesWithData() == 0) {
      return "<figure class=\"chart empty\" data-chart=\""
          + ReportPage.esc(chart.id())
          + "\"><figcaption>"
          + ReportPage.esc(chart.title())
          + ": no data</figcaption></figure>\n";
    }
    return "<figure class=\"chart\" data-chart=\""
        + ReportPage.esc(chart.id())
        + "\" data-series=\""
        + chart.seriesWithData()
        + "\"><div class=\"plot\"></div><script type=\"application/json\">"
        + json(spec(chart))
        + "</script>"
        + (chart.note() == null
            ? ""
            : "<figcaption class=\"note\">" + ReportPage.esc(chart.note()) + "</figcaption>")
        + "</figure>\n";
  }

  /** The JSON form the page's script reads. */
  static Map<String, Object> spec(Chart chart) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("id", chart.id());
    m.put("title", chart.title());
    m.put("kind", chart.kind().name().toLowerCase(Locale.ROOT));
    m.put("x_label", chart.xLabel());
    m.put("y_label", chart.yLabel());
    if (chart.y2Label() != null) {
      m.put("y2_label", chart.y2Label());
    }
    if (chart.yMax() != null) {
      m.put("y_max", chart.yMax());
    }
    m.put("x", round(chart.x()));
    if (chart.xLabels() != null) {
      m.put("x_labels", chart.xLabels());
    }
    List<Map<String, Object>> series = new ArrayList<>();
    for (Series s : chart.series()) {
      Map<String, Object> sm = new LinkedHashMap<>();
      sm.put("label", s.label());
      sm.put("color", s.color());
      if (s.rightAxis()) {
        sm.put("right", true);
      }
      if (s.dashed()) {
        sm.put("dashed", true);
      }
      sm.put("y", round(s.y()));
      series.add(sm);
    }
    m.put("series", series);
    return m;
  }

  /** Values to the thousandth (the microsecond for milliseconds): what the page shows anyway. */
  private static List<Double> round(List<Double> values) {
    List<Double> out = new ArrayList<>(values.size());
    for (Double v : values) {
      out.add(v == null || v.isNaN() || v.isInfinite() ? null : Math.round(v * 1000) / 1000.0);
    }
    return out;
  }

  /** JSON safe inside a {@code <script>} element: {@code <} only occurs in strings, escaped. */
  static String json(Object value) {
    try {
      return JSON.writeValueAsString(value).replace("<", "\\u003c");
    } catch (JsonProcessingException e) {
      throw new IllegalStateException("cannot write chart data: " + e.getMessage(), e);
    }
  }

  /**
   * The colour of the i-th series.
   *
   * @param i the index, at least 0
   * @return a CSS colour
   */
  static String color(int i) {
    return PALETTE.get(i % PALETTE.size());
  }

  /**
   * uPlot's style and script and the page's chart script, to inline once into the page.
   *
   * @return the HTML: a {@code <style>} and two {@code <script>} elements
   * @throws UncheckedIOException if the WebJar is missing from the classpath
   */
  static String assets() {
    String html = assets;
    if (html == null) {
      html = read();
      assets = html;
    }
    return html;
  }

  /** The assets once read (a race reads them twice, harmlessly). */
  private static volatile String assets;

  private static String read() {
    java.util.Properties pom = new java.util.Properties();
    try {
      pom.load(new java.io.StringReader(resource(UPLOT_POM)));
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + UPLOT_POM, e);
    }
    String version = pom.getProperty("version", "").strip();
    String uplot = "META-INF/resources/webjars/uplot/" + version + "/";
    return "<style>"
        + resource(uplot + "dist/uPlot.min.css")
        + "</style>\n<!-- uPlot "
        + version
        + ", "
        + resource(uplot + "LICENSE").replace("--", "- -").strip()
        + " -->\n<script>"
        + resource(uplot + "dist/uPlot.iife.min.js")
        + "</script>\n<script>"
        + resource("io/github/gatlingllm/report/llm-charts.js")
        + "</script>\n";
  }

  /** A resource of the classpath as UTF-8 text, checked to hold no {@code </script}. */
  static String resource(String path) {
    ClassLoader loader = Charts.class.getClassLoader();
    try (InputStream in = loader.getResourceAsStream(path)) {
      if (in == null) {
        throw new UncheckedIOException(
            new IOException(
                path
                    + " is not on the classpath (the org.webjars.npm:uplot dependency, or"
                    + " gatling-llm's own resources)"));
      }
      String text = new String(in.readAllBytes(), StandardCharsets.UTF_8);
      if (text.contains("</script")) {
        throw new IllegalStateException(path + " contains </script and cannot be inlined");
      }
      return text;
    } catch (IOException e) {
      throw new UncheckedIOException("cannot read " + path, e);
    }
  }

  /** A number for people: {@link Decimals#fmt(double)}. */
  static String fmt(double v) {
    return Decimals.fmt(v);
  }
}
