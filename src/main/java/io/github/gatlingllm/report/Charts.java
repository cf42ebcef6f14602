package io.github.gatlingllm.report;

import java.util.Arrays;
import java.util.List;
import java.util.Locale;

/**
 * Inline SVG charts for the report page, drawn in Java: no script library, no CDN, so the page
 * works offline. Each chart is one {@code <svg class="chart" data-chart="ID" data-marks="N">} whose
 * {@code data-marks} counts the marks drawn (bars, points, or 1 for a line, whose path carries
 * {@code data-points}); a chart without data says so and has {@code data-marks="0"}.
 */
final class Charts {

  static final int WIDTH = 640;
  static final int HEIGHT = 240;
  private static final int LEFT = 56;
  private static final int RIGHT = 16;
  private static final int TOP = 28;
  private static final int BOTTOM = 40;
  private static final int PLOT_W = WIDTH - LEFT - RIGHT;
  private static final int PLOT_H = HEIGHT - TOP - BOTTOM;

  /** Points drawn at most in a scatter chart; beyond, every k-th point. */
  static final int MAX_POINTS = 4000;

  private Charts() {}

  /** A bar of a bar chart: a label, a value and an optional reference (drawn as a tick). */
  record Bar(String label, double value, Double reference) {}

  /**
   * A histogram of values. Each bar's tooltip gives its bounds to the thousandth (the microsecond
   * for {@code ms}) and its count.
   *
   * @param id the chart id
   * @param title the title
   * @param unit the x unit, e.g. {@code ms}
   * @param values the values, any order
   * @return the SVG
   */
  static String histogram(String id, String title, String unit, double[] values) {
    if (values.length == 0) {
      return empty(id, title);
    }
    double[] v = values.clone();
    Arrays.sort(v);
    double lo = v[0];
    double hi = v[v.length - 1];
    // Whole values over a short range: one bar per value; else 40 bins.
    boolean whole = Arrays.stream(v).allMatch(x -> x == Math.rint(x));
    int bins;
    double width;
    if (whole && hi - lo < 60) {
      bins = (int) (hi - lo) + 1;
      width = 1;
    } else {
      bins = 40;
      width = hi > lo ? (hi - lo) / bins : 1;
    }
    long[] counts = new long[bins];
    for (double x : v) {
      int i = (int) Math.min(bins - 1, Math.floor((x - lo) / width));
      counts[i]++;
    }
    long top = Arrays.stream(counts).max().orElse(1);
    StringBuilder marks = new StringBuilder();
    int drawn = 0;
    double barW = (double) PLOT_W / bins;
    for (int i = 0; i < bins; i++) {
      if (counts[i] == 0) {
        continue;
      }
      double h = PLOT_H * counts[i] / (double) top;
      marks.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"mark bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                  + "<title>%s–%s %s: %d</title></rect>",
              LEFT + i * barW,
              TOP + PLOT_H - h,
              Math.max(1, barW - 1),
              Math.max(1, h),
              Decimals.ms(lo + i * width),
              Decimals.ms(lo + (i + 1) * width),
              unit,
              counts[i]));
      drawn++;
    }
    return frame(
        id,
        title,
        drawn,
        axes(lo, lo + bins * width, 0, top, unit, "requests or intervals"),
        marks.toString());
  }

  /**
   * Points (x, y), e.g. TTFT by request start.
   *
   * @param id the chart id
   * @param title the title
   * @param xUnit the x unit
   * @param yUnit the y unit
   * @param xs the x values
   * @param ys the y values, as many as {@code xs}
   * @return the SVG
   */
  static String scatter(
      String id, String title, String xUnit, String yUnit, double[] xs, double[] ys) {
    if (xs.length == 0) {
      return empty(id, title);
    }
    double[] xr = range(xs);
    double[] yr = range(ys);
    yr[0] = Math.min(0, yr[0]);
    int step = Math.max(1, (int) Math.ceil(xs.length / (double) MAX_POINTS));
    StringBuilder marks = new StringBuilder();
    int drawn = 0;
    for (int i = 0; i < xs.length; i += step) {
      marks.append(
          String.format(
              Locale.ROOT,
              "<circle class=\"mark point\" cx=\"%.1f\" cy=\"%.1f\" r=\"2\"/>",
              x(xs[i], xr),
              y(ys[i], yr)));
      drawn++;
    }
    String note = step > 1 ? " (1 point in " + step + " shown)" : "";
    return frame(
        id, title + note, drawn, axes(xr[0], xr[1], yr[0], yr[1], xUnit, yUnit), marks.toString());
  }

  /**
   * A line through (x, y) points in x order, e.g. in-flight requests over time.
   *
   * @param id the chart id
   * @param title the title
   * @param xUnit the x unit
   * @param yUnit the y unit
   * @param xs the x values, ascending
   * @param ys the y values
   * @param steps whether to draw steps (the value holds until the next x) rather than slopes
   * @return the SVG
   */
  static String line(
      String id,
      String title,
      String xUnit,
      String yUnit,
      double[] xs,
      double[] ys,
      boolean steps) {
    if (xs.length == 0) {
      return empty(id, title);
    }
    double[] xr = range(xs);
    double[] yr = range(ys);
    yr[0] = Math.min(0, yr[0]);
    StringBuilder d = new StringBuilder();
    for (int i = 0; i < xs.length; i++) {
      if (i == 0) {
        d.append(String.format(Locale.ROOT, "M%.1f %.1f", x(xs[i], xr), y(ys[i], yr)));
      } else {
        if (steps) {
          d.append(String.format(Locale.ROOT, "H%.1f", x(xs[i], xr)));
        }
        d.append(String.format(Locale.ROOT, "L%.1f %.1f", x(xs[i], xr), y(ys[i], yr)));
      }
    }
    String path = "<path class=\"mark line\" data-points=\"" + xs.length + "\" d=\"" + d + "\"/>";
    return frame(id, title, 1, axes(xr[0], xr[1], yr[0], yr[1], xUnit, yUnit), path);
  }

  /**
   * Bars with an optional reference tick each, e.g. cache-hit ratio per prefix group against the
   * planned shared share.
   *
   * @param id the chart id
   * @param title the title
   * @param yUnit the y unit
   * @param bars the bars
   * @return the SVG
   */
  static String bars(String id, String title, String yUnit, List<Bar> bars) {
    if (bars.isEmpty()) {
      return empty(id, title);
    }
    double top = 0;
    for (Bar b : bars) {
      top = Math.max(top, Math.max(b.value(), b.reference() == null ? 0 : b.reference()));
    }
    top = top <= 0 ? 1 : top;
    double slot = (double) PLOT_W / bars.size();
    StringBuilder marks = new StringBuilder();
    for (int i = 0; i < bars.size(); i++) {
      Bar b = bars.get(i);
      double h = PLOT_H * b.value() / top;
      double x0 = LEFT + i * slot + slot * 0.15;
      double w = slot * 0.7;
      marks.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"mark bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                  + "<title>%s: %s%s</title></rect>",
              x0,
              TOP + PLOT_H - h,
              w,
              Math.max(1, h),
              ReportPage.esc(b.label()),
              fmt(b.value()),
              b.reference() == null ? "" : " (planned " + fmt(b.reference()) + ")"));
      if (b.reference() != null) {
        double ry = TOP + PLOT_H - PLOT_H * b.reference() / top;
        marks.append(
            String.format(
                Locale.ROOT,
                "<line class=\"reference\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
                x0 - 4,
                x0 + w + 4,
                ry,
                ry));
      }
      marks.append(
          String.format(
              Locale.ROOT,
              "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              x0 + w / 2,
              TOP + PLOT_H + 14,
              ReportPage.esc(b.label())));
    }
    String axes =
        String.format(
                Locale.ROOT,
                "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
                LEFT,
                TOP + PLOT_H,
                LEFT + PLOT_W,
                TOP + PLOT_H)
            + yTicks(0, top, yUnit);
    return frame(id, title, bars.size(), axes, marks.toString());
  }

  /**
   * A series of a {@link #lines} chart: a name for its legend, one y per x (NaN: no point there)
   * and its stroke colour.
   */
  record Series(String name, double[] ys, String color) {}

  /**
   * Several lines over the same x values, with a legend, e.g. requests running and waiting over
   * time, or a sweep's TTFT p50 and p99 by prefix groups. Points without a value (NaN) are left
   * out; a series without any is not drawn.
   *
   * @param id the chart id
   * @param title the title
   * @param xUnit the x unit
   * @param yUnit the y unit
   * @param xs the x values, ascending
   * @param xLabels null for a numeric x axis; else one label per x, the points evenly spaced and
   *     marked (a sweep's steps)
   * @param series the lines
   * @param yMax the top of the y axis, or null to fit the values
   * @return the SVG
   */
  static String lines(
      String id,
      String title,
      String xUnit,
      String yUnit,
      double[] xs,
      String[] xLabels,
      List<Series> series,
      Double yMax) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (Series s : series) {
      for (double v : s.ys()) {
        if (!Double.isNaN(v)) {
          lo = Math.min(lo, v);
          hi = Math.max(hi, v);
        }
      }
    }
    if (xs.length == 0 || lo == Double.POSITIVE_INFINITY) {
      return empty(id, title);
    }
    double[] yr = {Math.min(0, lo), yMax != null ? yMax : hi > Math.min(0, lo) ? hi : lo + 1};
    double[] positions = xs;
    if (xLabels != null) {
      positions = new double[xs.length];
      for (int i = 0; i < xs.length; i++) {
        positions[i] = i;
      }
    }
    double[] xr = xLabels != null ? new double[] {-0.5, xs.length - 0.5} : range(xs);
    StringBuilder marks = new StringBuilder();
    int drawn = 0;
    for (int k = 0; k < series.size(); k++) {
      Series s = series.get(k);
      StringBuilder d = new StringBuilder();
      StringBuilder dots = new StringBuilder();
      int points = 0;
      for (int i = 0; i < positions.length && i < s.ys().length; i++) {
        double v = s.ys()[i];
        if (Double.isNaN(v)) {
          continue;
        }
        double px = x(positions[i], xr);
        double py = y(Math.min(v, yr[1]), yr);
        d.append(String.format(Locale.ROOT, points == 0 ? "M%.1f %.1f" : "L%.1f %.1f", px, py));
        if (xLabels != null) {
          dots.append(
              String.format(
                  Locale.ROOT,
                  "<circle cx=\"%.1f\" cy=\"%.1f\" r=\"3\" fill=\"%s\"><title>%s %s: %s</title>"
                      + "</circle>",
                  px,
                  py,
                  s.color(),
                  ReportPage.esc(s.name()),
                  ReportPage.esc(xLabels[i]),
                  fmt(v)));
        }
        points++;
      }
      if (points == 0) {
        continue;
      }
      marks.append(
          String.format(
              Locale.ROOT,
              "<path class=\"mark series\" data-series=\"%s\" data-points=\"%d\" fill=\"none\""
                  + " stroke=\"%s\" stroke-width=\"1.5\" d=\"%s\"/>",
              ReportPage.esc(s.name()),
              points,
              s.color(),
              d));
      marks.append(dots);
      drawn++;
      marks.append(
          String.format(
              Locale.ROOT,
              "<rect x=\"%d\" y=\"%d\" width=\"10\" height=\"3\" fill=\"%s\"/>"
                  + "<text class=\"legend\" x=\"%d\" y=\"%d\">%s</text>",
              WIDTH - RIGHT - 150,
              TOP + 2 + 14 * k,
              s.color(),
              WIDTH - RIGHT - 136,
              TOP + 7 + 14 * k,
              ReportPage.esc(s.name())));
    }
    String axes;
    if (xLabels == null) {
      axes = axes(xr[0], xr[1], yr[0], yr[1], xUnit, yUnit);
    } else {
      StringBuilder a = new StringBuilder();
      a.append(
          String.format(
              Locale.ROOT,
              "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                  + "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
              LEFT,
              TOP + PLOT_H,
              LEFT + PLOT_W,
              TOP + PLOT_H,
              LEFT,
              TOP,
              LEFT,
              TOP + PLOT_H));
      for (int i = 0; i < xLabels.length; i++) {
        a.append(
            String.format(
                Locale.ROOT,
                "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
                x(i, xr),
                TOP + PLOT_H + 14,
                ReportPage.esc(xLabels[i])));
      }
      a.append(
          String.format(
              Locale.ROOT,
              "<text class=\"unit\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              LEFT + PLOT_W / 2,
              HEIGHT - 6,
              ReportPage.esc(xUnit)));
      a.append(yTicks(yr[0], yr[1], yUnit));
      axes = a.toString();
    }
    return frame(id, title, drawn, axes, marks.toString());
  }

  /** A category of a range chart: its median as a bar, a whisker up to its 99th percentile. */
  record Range(String label, double p50, double p99, long count) {}

  /**
   * Bars at each category's median with a whisker up to its 99th percentile, e.g. TTFT by cache
   * outcome. Each bar's tooltip gives the label, p50, p99 (to the thousandth) and the count.
   *
   * @param id the chart id
   * @param title the title
   * @param yUnit the y unit
   * @param ranges the categories
   * @return the SVG
   */
  static String ranges(String id, String title, String yUnit, List<Range> ranges) {
    if (ranges.isEmpty()) {
      return empty(id, title);
    }
    double top = 0;
    for (Range r : ranges) {
      top = Math.max(top, Math.max(r.p50(), r.p99()));
    }
    top = top <= 0 ? 1 : top;
    double slot = (double) PLOT_W / ranges.size();
    StringBuilder marks = new StringBuilder();
    for (int i = 0; i < ranges.size(); i++) {
      Range r = ranges.get(i);
      double h = PLOT_H * r.p50() / top;
      double x0 = LEFT + i * slot + slot * 0.2;
      double w = slot * 0.6;
      marks.append(
          String.format(
              Locale.ROOT,
              "<rect class=\"mark bar\" x=\"%.1f\" y=\"%.1f\" width=\"%.1f\" height=\"%.1f\">"
                  + "<title>%s: p50 %s, p99 %s %s (%d requests)</title></rect>",
              x0,
              TOP + PLOT_H - h,
              w,
              Math.max(1, h),
              ReportPage.esc(r.label()),
              Decimals.ms(r.p50()),
              Decimals.ms(r.p99()),
              ReportPage.esc(yUnit),
              r.count()));
      double y50 = TOP + PLOT_H - h;
      double y99 = TOP + PLOT_H - PLOT_H * r.p99() / top;
      marks.append(
          String.format(
              Locale.ROOT,
              "<line class=\"reference\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>"
                  + "<line class=\"reference\" x1=\"%.1f\" x2=\"%.1f\" y1=\"%.1f\" y2=\"%.1f\"/>",
              x0 + w / 2,
              x0 + w / 2,
              y50,
              y99,
              x0 + w / 4,
              x0 + 3 * w / 4,
              y99,
              y99));
      marks.append(
          String.format(
              Locale.ROOT,
              "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              x0 + w / 2,
              TOP + PLOT_H + 14,
              ReportPage.esc(r.label())));
    }
    String axes =
        String.format(
                Locale.ROOT,
                "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
                LEFT,
                TOP + PLOT_H,
                LEFT + PLOT_W,
                TOP + PLOT_H)
            + yTicks(0, top, yUnit);
    return frame(id, title, ranges.size(), axes, marks.toString());
  }

  private static String empty(String id, String title) {
    return frame(
        id,
        title,
        0,
        "",
        String.format(
            Locale.ROOT,
            "<text class=\"none\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">no data</text>",
            WIDTH / 2,
            HEIGHT / 2));
  }

  private static String frame(String id, String title, int marks, String axes, String body) {
    return "<svg class=\"chart\" data-chart=\""
        + id
        + "\" data-marks=\""
        + marks
        + "\" xmlns=\"http://www.w3.org/2000/svg\" viewBox=\"0 0 "
        + WIDTH
        + " "
        + HEIGHT
        + "\" width=\""
        + WIDTH
        + "\" height=\""
        + HEIGHT
        + "\" role=\"img\"><title>"
        + ReportPage.esc(title)
        + "</title><text class=\"title\" x=\""
        + LEFT
        + "\" y=\"16\">"
        + ReportPage.esc(title)
        + "</text>"
        + axes
        + body
        + "</svg>\n";
  }

  private static String axes(
      double x0, double x1, double y0, double y1, String xUnit, String yUnit) {
    StringBuilder s = new StringBuilder();
    s.append(
        String.format(
            Locale.ROOT,
            "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>"
                + "<line class=\"axis\" x1=\"%d\" y1=\"%d\" x2=\"%d\" y2=\"%d\"/>",
            LEFT,
            TOP + PLOT_H,
            LEFT + PLOT_W,
            TOP + PLOT_H,
            LEFT,
            TOP,
            LEFT,
            TOP + PLOT_H));
    double[] xr = {x0, x1 > x0 ? x1 : x0 + 1};
    for (int i = 0; i <= 4; i++) {
      double v = xr[0] + (xr[1] - xr[0]) * i / 4;
      s.append(
          String.format(
              Locale.ROOT,
              "<text class=\"tick\" x=\"%.1f\" y=\"%d\" text-anchor=\"middle\">%s</text>",
              x(v, xr),
              TOP + PLOT_H + 14,
              tick(v, xr)));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "<text class=\"unit\" x=\"%d\" y=\"%d\" text-anchor=\"middle\">%s</text>",
            LEFT + PLOT_W / 2,
            HEIGHT - 6,
            ReportPage.esc(xUnit)));
    s.append(yTicks(y0, y1, yUnit));
    return s.toString();
  }

  private static String yTicks(double y0, double y1, String yUnit) {
    StringBuilder s = new StringBuilder();
    double[] yr = {y0, y1 > y0 ? y1 : y0 + 1};
    for (int i = 0; i <= 4; i++) {
      double v = yr[0] + (yr[1] - yr[0]) * i / 4;
      s.append(
          String.format(
              Locale.ROOT,
              "<text class=\"tick\" x=\"%d\" y=\"%.1f\" text-anchor=\"end\">%s</text>",
              LEFT - 4,
              y(v, yr) + 4,
              tick(v, yr)));
    }
    s.append(
        String.format(
            Locale.ROOT,
            "<text class=\"unit\" x=\"12\" y=\"%d\" transform=\"rotate(-90 12 %d)\""
                + " text-anchor=\"middle\">%s</text>",
            TOP + PLOT_H / 2,
            TOP + PLOT_H / 2,
            ReportPage.esc(yUnit)));
    return s.toString();
  }

  private static double[] range(double[] v) {
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    for (double x : v) {
      lo = Math.min(lo, x);
      hi = Math.max(hi, x);
    }
    return new double[] {lo, hi > lo ? hi : lo + 1};
  }

  private static double x(double v, double[] r) {
    return LEFT + PLOT_W * (v - r[0]) / (r[1] - r[0]);
  }

  private static double y(double v, double[] r) {
    return TOP + PLOT_H - PLOT_H * (v - r[0]) / (r[1] - r[0]);
  }

  /**
   * An axis label: as {@link #fmt(double)}, or to the thousandth when the axis spans less than 1
   * (sub-millisecond latencies: 0.125, not 0.13).
   */
  private static String tick(double v, double[] range) {
    return range[1] - range[0] < 1 ? Decimals.ms(v) : fmt(v);
  }

  /** A number for people: whole numbers without decimals, others to 2 decimals at most. */
  static String fmt(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    String s = String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : "%.2f", v);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }
}
