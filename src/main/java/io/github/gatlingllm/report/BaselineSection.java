package io.github.gatlingllm.report;

import io.github.gatlingllm.record.Baseline;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * The report page's "Against baseline" section, from {@code llm-run.json}'s {@code baseline}
 * (written by a run with {@code llm.baseline}): the baseline's folder, how the intervals were made,
 * the gate's outcome, the warnings of either run, then each headline figure in the baseline and in
 * this run with the change, its 95% interval and the verdict (green better, red worse), and the
 * distributions of TTFT, ITL, TPOT and E2E of both runs overlaid as quantile curves.
 */
final class BaselineSection {

  private static final Map<String, String> TITLES =
      Map.of("ttft_ms", "TTFT", "itl_ms", "ITL", "tpot_ms", "TPOT", "e2e_ms", "E2E");

  /**
   * The most requests whose inter-token gaps a comparison keeps, named in the ITL chart's caption:
   * the comparison's {@code compare.RunSamples.ITL_REQUESTS} (the comparison room reads the report
   * room, never the reverse, so the page holds the figure and {@code BaselineSectionTest} checks
   * the two agree).
   */
  static final int ITL_REQUESTS = 5_000;

  private BaselineSection() {}

  /**
   * The section.
   *
   * @param b the run record's {@code baseline}, or null
   * @return HTML, empty when the run has no baseline
   */
  static String html(Baseline b) {
    if (b == null) {
      return "";
    }
    StringBuilder html = new StringBuilder();
    html.append("<h2 id=\"baseline\">Against baseline</h2>\n<p>Baseline: <code>")
        .append(ReportPage.esc(b.folder()))
        .append("</code>");
    if (b.a() != null && b.b() != null) {
      html.append(" (")
          .append(ReportPage.esc(b.a().requests()))
          .append(" measured requests; this run ")
          .append(ReportPage.esc(b.b().requests()))
          .append(")");
    }
    html.append(".</p>\n");
    if (b.noRegressionPct() != null) {
      List<String> failed = b.failed() == null ? List.of() : b.failed();
      html.append(failed.isEmpty() ? "<p class=\"good\">" : "<p class=\"bad\">")
          .append("<strong>Regression gate (llm.assert.noRegressionPct ")
          .append(number(b.noRegressionPct()))
          .append("%): ")
          .append(
              failed.isEmpty()
                  ? "passed"
                  : "FAILED on " + ReportPage.esc(String.join(", ", failed)))
          .append("</strong></p>\n");
    }
    if (b.notLogged() != null) {
      html.append("<p class=\"bad\">").append(ReportPage.esc(b.notLogged())).append("</p>\n");
    }
    if (Boolean.FALSE.equals(b.samePrompts()) && b.promptDifferences() != null) {
      for (String line : b.promptDifferences()) {
        html.append("<p class=\"bad\">Prompts differ: ")
            .append(ReportPage.esc(line))
            .append(" (compared anyway)</p>\n");
      }
    }
    if (b.warnings() != null) {
      for (String line : b.warnings()) {
        html.append("<p class=\"bad\">")
            .append(ReportPage.esc(String.valueOf(line).replaceFirst("^A\\b", "The baseline")))
            .append("</p>\n");
      }
    }
    if (b.method() != null) {
      html.append("<p>").append(ReportPage.esc(b.method())).append(".</p>\n");
    }
    if (b.metrics() != null && !b.metrics().isEmpty()) {
      html.append(
          "<table id=\"baseline-table\"><tr><th>metric</th><th>baseline</th><th>this run</th>"
              + "<th>change</th><th>95% interval</th><th>verdict</th></tr>\n");
      for (Map.Entry<String, Baseline.Row> e : b.metrics().entrySet()) {
        Baseline.Row row = e.getValue();
        if (row == null) {
          continue;
        }
        String verdict = String.valueOf(row.verdict());
        html.append("<tr><td>")
            .append(ReportPage.esc(e.getKey()))
            .append("</td><td>")
            .append(number(row.a()))
            .append("</td><td>")
            .append(number(row.b()))
            .append("</td><td>")
            .append(pct(row.deltaPct()))
            .append("</td><td>")
            .append(interval(row.ci95Pct()))
            .append("</td><td")
            .append(css(verdict).isEmpty() ? "" : " class=\"" + css(verdict) + "\"")
            .append("><strong>")
            .append(ReportPage.esc(verdict))
            .append("</strong></td></tr>\n");
      }
      html.append("</table>\n");
    }
    List<Double> xs = b.percentiles();
    if (xs != null) {
      for (String name : b.curveNames()) {
        Baseline.Curves curves = b.curves(name);
        if (curves == null || curves.a().size() != xs.size() || curves.b().size() != xs.size()) {
          continue;
        }
        String title = TITLES.getOrDefault(name, name);
        html.append(
            Charts.render(
                new Charts.Chart(
                    "baseline-" + name.replace("_", "-"),
                    title + " against baseline, by percentile",
                    Charts.Kind.XY,
                    "percentile",
                    "ms",
                    null,
                    null,
                    xs,
                    null,
                    List.of(
                        new Charts.Series("baseline", "#888888", curves.a(), false, true),
                        new Charts.Series("this run", Charts.color(0), curves.b())),
                    "Nearest-rank percentiles 0 (the least) to 100 (the most) of the measured"
                        + " requests"
                        + ("itl_ms".equals(name)
                            ? "' inter-token gaps (of a sample of up to "
                                + ITL_REQUESTS
                                + " requests each)"
                            : "")
                        + "; the baseline dashed.")));
      }
    }
    return html.toString();
  }

  /** The summary figures that are headline metrics, by the summary's name. */
  private static final Map<String, String> SUMMARY_METRICS =
      Map.of("requests/s", "requests_per_s", "output tokens/s", "output_tokens_per_s");

  /**
   * The baseline's value and the verdict after a summary figure, e.g. {@code (baseline 12.5: worse,
   * -11.1% [-13.0%, -9.2%])}.
   *
   * @param b the run record's {@code baseline}, or null
   * @param figure the summary figure's name, e.g. {@code requests/s}
   * @return HTML, empty without a baseline or for a figure that is no compared metric
   */
  static String note(Baseline b, String figure) {
    String metric = SUMMARY_METRICS.get(figure);
    Baseline.Row row =
        metric == null || b == null || b.metrics() == null ? null : b.metrics().get(metric);
    if (row == null) {
      return "";
    }
    String verdict = String.valueOf(row.verdict());
    return " <span class=\""
        + css(verdict)
        + "\">(baseline "
        + number(row.a())
        + ": "
        + ReportPage.esc(verdict)
        + ", "
        + pct(row.deltaPct())
        + " "
        + interval(row.ci95Pct())
        + ")</span>";
  }

  private static String css(String verdict) {
    return "better".equals(verdict) ? "good" : "worse".equals(verdict) ? "bad" : "";
  }

  private static String number(Object v) {
    return v instanceof Number n ? Decimals.ms(n.doubleValue()) : "–";
  }

  private static String pct(Object v) {
    return v instanceof Number n ? String.format(Locale.ROOT, "%+.1f%%", n.doubleValue()) : "–";
  }

  private static String interval(List<Double> v) {
    if (v != null && v.size() == 2 && v.get(0) != null && v.get(1) != null) {
      return String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]", v.get(0), v.get(1));
    }
    return "–";
  }
}
