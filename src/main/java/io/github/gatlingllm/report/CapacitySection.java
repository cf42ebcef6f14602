package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.record.Capacity;
import io.github.gatlingllm.record.LevelEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The report page's capacity section (issue 44), from {@code llm-run.json}'s {@code capacity}: the
 * answer's line, a chart of the search (each level's offered load and, on the right axis, its SLO
 * attainment, over the seconds since the search began; the gaps are the waits for a level's
 * requests to end) and a table of its levels with why each ended.
 */
final class CapacitySection {

  private CapacitySection() {}

  /**
   * The section.
   *
   * @param capacity the block, or null
   * @return the HTML, empty without a search
   */
  static String render(Capacity capacity) {
    if (capacity == null || capacity.levels() == null || capacity.levels().isEmpty()) {
      return "";
    }
    boolean closed = "closed".equals(capacity.kind());
    String unit = closed ? "users" : "users/s";
    StringBuilder html = new StringBuilder("<h2 id=\"capacity\">Capacity</h2>\n");
    html.append("<p><strong>")
        .append(ReportPage.esc(String.valueOf(capacity.answer())))
        .append("</strong></p>\n");
    if (capacity.hold() != null && capacity.hold().drift() != null) {
      html.append("<p class=\"warning\">")
          .append(ReportPage.esc(capacity.hold().drift()))
          .append("</p>\n");
    }
    html.append("<table>\n<tr><th>step</th><th>stage</th><th>load, ")
        .append(unit)
        .append("</th><th>s</th><th>requests</th><th>offered / served req/s</th>")
        .append("<th>TTFT p50 / p99 ms</th><th>attainment [95% Wilson]</th><th>SLO</th>")
        .append("<th>ended by</th><th>drain s</th></tr>\n");
    for (Capacity.Step s : capacity.levels()) {
      LevelEntry level = s.level();
      GroupSummary.Json sum = level == null ? null : level.summary();
      html.append("<tr><td>")
          .append(s.step())
          .append("</td><td>")
          .append(ReportPage.esc(String.valueOf(s.stage())))
          .append("</td><td>")
          .append(s.load() == null ? "" : Charts.fmt(s.load().doubleValue()))
          .append("</td><td>")
          .append(level == null || level.durationS() == null ? "" : f1(level.durationS()))
          .append("</td><td>")
          .append(sum == null ? "" : sum.requests())
          .append("</td><td>")
          .append(
              level == null || level.offeredRequestsPerS() == null || sum == null
                  ? ""
                  : f2(level.offeredRequestsPerS()) + " / " + f2(sum.requestsPerS()))
          .append("</td><td>")
          .append(
              sum == null || sum.ttftMs() == null || sum.ttftMs().p50() == null
                  ? ""
                  : f1(sum.ttftMs().p50()) + " / " + f1(sum.ttftMs().p99()))
          .append("</td><td>")
          .append(
              s.attainment() == null
                  ? ""
                  : String.format(
                      Locale.ROOT,
                      "%.3f [%.3f, %.3f]",
                      s.attainment(),
                      s.attainmentLow(),
                      s.attainmentHigh()))
          .append("</td><td>")
          .append(s.met() == null ? "" : s.met() ? "met" : "<span class=\"bad\">missed</span>")
          .append("</td><td>")
          .append(ReportPage.esc(String.valueOf(s.endedBy())))
          .append("</td><td>")
          .append(s.drainMs() == null ? "" : f1(s.drainMs() / 1000.0))
          .append("</td></tr>\n");
    }
    html.append("</table>\n<div class=\"charts\">\n")
        .append(Charts.render(chart(capacity, unit)))
        .append("</div>\n");
    return html.toString();
  }

  /**
   * The search over time: each level's load from its start to its end, and its attainment.
   *
   * @param capacity the block, with levels
   * @param unit the load's unit
   * @return the chart
   */
  static Charts.Chart chart(Capacity capacity, String unit) {
    Long origin = null;
    for (Capacity.Step s : capacity.levels()) {
      if (s.level() != null && s.level().startMs() != null) {
        origin = origin == null ? s.level().startMs() : Math.min(origin, s.level().startMs());
      }
    }
    List<Double> x = new ArrayList<>();
    List<Double> load = new ArrayList<>();
    List<Double> attainment = new ArrayList<>();
    for (Capacity.Step s : capacity.levels()) {
      LevelEntry level = s.level();
      if (level == null || level.startMs() == null || level.endMs() == null || origin == null) {
        continue;
      }
      double from = (level.startMs() - origin) / 1000.0;
      double to = (level.endMs() - origin) / 1000.0;
      Double a = s.attainment();
      Double l = s.load() == null ? null : s.load().doubleValue();
      x.add(from);
      load.add(l);
      attainment.add(a);
      x.add(to);
      load.add(l);
      attainment.add(a);
      // the drain: nothing offered
      x.add(to + 1e-3);
      load.add(null);
      attainment.add(null);
    }
    List<Charts.Series> series =
        List.of(
            new Charts.Series("offered load, " + unit, Charts.color(0), load),
            new Charts.Series("SLO attainment", Charts.color(2), attainment, true, false));
    return new Charts.Chart(
        "capacity-search",
        "The capacity search: each level's load and SLO attainment",
        Charts.Kind.TIME,
        "seconds since the search began",
        unit,
        "attainment",
        null,
        x,
        null,
        series,
        "Each level from its start to its end; between levels the search admitted nobody while"
            + " the level's requests ended.");
  }

  private static String f1(double v) {
    return String.format(Locale.ROOT, "%.1f", v);
  }

  private static String f2(Double v) {
    return v == null ? "" : String.format(Locale.ROOT, "%.2f", v);
  }
}
