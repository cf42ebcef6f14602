package io.github.gatlingllm.report;

import io.github.gatlingllm.record.WorkingSetSweep;
import java.util.List;

/**
 * The report page's "Working-set sweep" section, from {@code llm-run.json}'s {@code
 * working_set_sweep}: per sweep, one sentence on the cliff, a table of the steps (groups, working
 * set, hit ratio against an unbounded cache's, the share retained, TTFT p50 and p99; the cliff's
 * row marked) and two charts against the number of groups: hit ratio (observed and unbounded) and
 * TTFT p50/p99.
 */
final class SweepSection {

  private SweepSection() {}

  /**
   * The section.
   *
   * @param run the run record
   * @return the HTML, empty when the run has no {@code working_set_sweep}
   */
  static String render(List<WorkingSetSweep> sweeps) {
    if (sweeps == null) {
      return "";
    }
    StringBuilder html = new StringBuilder();
    for (WorkingSetSweep sweep : sweeps) {
      if (sweep != null) {
        html.append(sweep(sweep));
      }
    }
    return html.toString();
  }

  private static String sweep(WorkingSetSweep sweep) {
    String name = String.valueOf(sweep.name());
    StringBuilder html = new StringBuilder("<h2>Working-set sweep: ");
    html.append(ReportPage.esc(name)).append("</h2>\n");
    html.append("<p><strong>").append(ReportPage.esc(sweep.summary())).append("</strong>");
    if (sweep.capacityTokens() != null) {
      html.append(" Capacity from ")
          .append(ReportPage.esc(sweep.capacitySource()))
          .append("; capacity / prefix tokens = ")
          .append(ReportPage.num(sweep.predictedCliffGroups()))
          .append(" groups.");
    }
    html.append("</p>\n");
    html.append(
            "<p>Expected: the hit ratio of an unbounded prefix cache (every request's group prefix"
                + " but for the first request of its group). Retained: cached / those reusable"
                + " prefix tokens. The cliff is the first step retaining less than ")
        .append(ReportPage.num(sweep.dropThreshold()))
        .append(" of the best share before it.</p>\n");
    Integer cliffGroups = sweep.cliff() == null ? null : sweep.cliff().groups();
    List<WorkingSetSweep.Step> steps = sweep.steps() == null ? List.of() : sweep.steps();
    html.append(
        "<table><tr><th>groups</th><th class=\"l\">workload</th><th class=\"l\">case id</th>"
            + "<th>working set, tokens</th><th>requests</th><th>hit ratio</th><th>expected</th>"
            + "<th>retained</th><th>TTFT p50, ms</th><th>TTFT p99, ms</th></tr>\n");
    int n = steps.size();
    double[] xs = new double[n];
    double[] hit = new double[n];
    double[] expected = new double[n];
    double[] p50 = new double[n];
    double[] p99 = new double[n];
    for (int i = 0; i < n; i++) {
      WorkingSetSweep.Step s = steps.get(i);
      boolean cliff = cliffGroups != null && cliffGroups.equals(s.groups());
      html.append(cliff ? "<tr class=\"bad\" title=\"the cliff\">" : "<tr>")
          .append("<td>")
          .append(ReportPage.esc(s.groups()))
          .append(cliff ? " (cliff)" : "")
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(s.workload()))
          .append("</td><td class=\"l\">")
          .append(ReportPage.esc(s.caseId()))
          .append("</td><td>")
          .append(ReportPage.num(s.workingSetTokens()))
          .append("</td><td>")
          .append(ReportPage.num(s.requests()))
          .append("</td><td>")
          .append(ReportPage.num(s.hitRatio()))
          .append("</td><td>")
          .append(ReportPage.num(s.expectedHitRatio()))
          .append("</td><td>")
          .append(ReportPage.num(s.retained()))
          .append("</td><td>")
          .append(ReportPage.ms(s.ttftP50Ms()))
          .append("</td><td>")
          .append(ReportPage.ms(s.ttftP99Ms()))
          .append("</td></tr>\n");
      xs[i] = s.groups() != null ? s.groups() : i;
      hit[i] = value(s.hitRatio());
      expected[i] = value(s.expectedHitRatio());
      p50[i] = value(s.ttftP50Ms());
      p99[i] = value(s.ttftP99Ms());
    }
    html.append("</table>\n<div class=\"charts\">\n");
    String id = "sweep-" + name.replaceAll("[^A-Za-z0-9_-]", "_");
    List<Double> x = RequestCharts.list(xs);
    html.append(
        Charts.render(
            new Charts.Chart(
                id + "-hit-ratio",
                "Hit ratio by prefix groups",
                Charts.Kind.XY,
                "prefix groups",
                "cached / prompt tokens",
                null,
                1.0,
                x,
                null,
                List.of(
                    new Charts.Series("observed", Charts.color(0), RequestCharts.list(hit)),
                    new Charts.Series(
                        "unbounded cache", "#888888", RequestCharts.list(expected), false, true)),
                null)));
    html.append(
        Charts.render(
            new Charts.Chart(
                id + "-ttft",
                "TTFT by prefix groups",
                Charts.Kind.XY,
                "prefix groups",
                "ms",
                null,
                null,
                x,
                null,
                List.of(
                    new Charts.Series("p50", Charts.color(0), RequestCharts.list(p50)),
                    new Charts.Series(
                        "p99", Charts.color(0), RequestCharts.list(p99), false, true)),
                null)));
    return html.append("</div>\n").toString();
  }

  private static double value(Object v) {
    return v instanceof Number n ? n.doubleValue() : Double.NaN;
  }
}
