package io.github.gatlingllm.report;

import java.util.ArrayList;
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
   * @param run the run record
   * @return HTML, empty when the run has no baseline
   */
  static String html(Map<String, Object> run) {
    if (!(run.get("baseline") instanceof Map<?, ?> b)) {
      return "";
    }
    StringBuilder html = new StringBuilder();
    html.append("<h2 id=\"baseline\">Against baseline</h2>\n<p>Baseline: <code>")
        .append(ReportPage.esc(b.get("folder")))
        .append("</code>");
    if (b.get("a") instanceof Map<?, ?> a && b.get("b") instanceof Map<?, ?> own) {
      html.append(" (")
          .append(ReportPage.esc(a.get("requests")))
          .append(" measured requests; this run ")
          .append(ReportPage.esc(own.get("requests")))
          .append(")");
    }
    html.append(".</p>\n");
    if (b.get("no_regression_pct") != null) {
      List<?> failed = b.get("failed") instanceof List<?> f ? f : List.of();
      html.append(failed.isEmpty() ? "<p class=\"good\">" : "<p class=\"bad\">")
          .append("<strong>Regression gate (llm.assert.noRegressionPct ")
          .append(number(b.get("no_regression_pct")))
          .append("%): ")
          .append(
              failed.isEmpty()
                  ? "passed"
                  : "FAILED on " + ReportPage.esc(String.join(", ", strings(failed))))
          .append("</strong></p>\n");
    }
    if (b.get("not_logged") != null) {
      html.append("<p class=\"bad\">").append(ReportPage.esc(b.get("not_logged"))).append("</p>\n");
    }
    if (Boolean.FALSE.equals(b.get("same_prompts"))
        && b.get("prompt_differences") instanceof List<?> d) {
      for (Object line : d) {
        html.append("<p class=\"bad\">Prompts differ: ")
            .append(ReportPage.esc(line))
            .append(" (compared anyway)</p>\n");
      }
    }
    if (b.get("warnings") instanceof List<?> w) {
      for (Object line : w) {
        html.append("<p class=\"bad\">")
            .append(ReportPage.esc(String.valueOf(line).replaceFirst("^A\\b", "The baseline")))
            .append("</p>\n");
      }
    }
    if (b.get("method") != null) {
      html.append("<p>").append(ReportPage.esc(b.get("method"))).append(".</p>\n");
    }
    if (b.get("metrics") instanceof Map<?, ?> metrics && !metrics.isEmpty()) {
      html.append(
          "<table id=\"baseline-table\"><tr><th>metric</th><th>baseline</th><th>this run</th>"
              + "<th>change</th><th>95% interval</th><th>verdict</th></tr>\n");
      for (Map.Entry<?, ?> e : metrics.entrySet()) {
        if (!(e.getValue() instanceof Map<?, ?> row)) {
          continue;
        }
        String verdict = String.valueOf(row.get("verdict"));
        String css =
            "better".equals(verdict)
                ? " class=\"good\""
                : "worse".equals(verdict) ? " class=\"bad\"" : "";
        html.append("<tr><td>")
            .append(ReportPage.esc(e.getKey()))
            .append("</td><td>")
            .append(number(row.get("a")))
            .append("</td><td>")
            .append(number(row.get("b")))
            .append("</td><td>")
            .append(pct(row.get("delta_pct")))
            .append("</td><td>")
            .append(interval(row.get("ci95_pct")))
            .append("</td><td")
            .append(css)
            .append("><strong>")
            .append(ReportPage.esc(verdict))
            .append("</strong></td></tr>\n");
      }
      html.append("</table>\n");
    }
    if (b.get("quantiles") instanceof Map<?, ?> q && q.get("percentiles") instanceof List<?> ps) {
      List<Double> xs = doubles(ps);
      for (Map.Entry<?, ?> e : q.entrySet()) {
        if (!(e.getValue() instanceof Map<?, ?> curves)
            || !(curves.get("a") instanceof List<?> ca)
            || !(curves.get("b") instanceof List<?> cb)
            || ca.size() != xs.size()
            || cb.size() != xs.size()) {
          continue;
        }
        String name = String.valueOf(e.getKey());
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
                        new Charts.Series("baseline", "#888888", doubles(ca), false, true),
                        new Charts.Series("this run", Charts.color(0), doubles(cb))),
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
   * @param run the run record
   * @param figure the summary figure's name, e.g. {@code requests/s}
   * @return HTML, empty without a baseline or for a figure that is no compared metric
   */
  static String note(Map<String, Object> run, String figure) {
    String metric = SUMMARY_METRICS.get(figure);
    if (metric == null
        || !(run.get("baseline") instanceof Map<?, ?> b)
        || !(b.get("metrics") instanceof Map<?, ?> metrics)
        || !(metrics.get(metric) instanceof Map<?, ?> row)) {
      return "";
    }
    String verdict = String.valueOf(row.get("verdict"));
    String css = "better".equals(verdict) ? "good" : "worse".equals(verdict) ? "bad" : "";
    return " <span class=\""
        + css
        + "\">(baseline "
        + number(row.get("a"))
        + ": "
        + ReportPage.esc(verdict)
        + ", "
        + pct(row.get("delta_pct"))
        + " "
        + interval(row.get("ci95_pct"))
        + ")</span>";
  }

  private static List<String> strings(List<?> list) {
    List<String> out = new ArrayList<>();
    for (Object o : list) {
      out.add(String.valueOf(o));
    }
    return out;
  }

  private static List<Double> doubles(List<?> list) {
    List<Double> out = new ArrayList<>();
    for (Object o : list) {
      out.add(o instanceof Number n ? n.doubleValue() : null);
    }
    return out;
  }

  private static String number(Object v) {
    return v instanceof Number n ? Decimals.ms(n.doubleValue()) : "–";
  }

  private static String pct(Object v) {
    return v instanceof Number n ? String.format(Locale.ROOT, "%+.1f%%", n.doubleValue()) : "–";
  }

  private static String interval(Object v) {
    if (v instanceof List<?> l
        && l.size() == 2
        && l.get(0) instanceof Number lo
        && l.get(1) instanceof Number hi) {
      return String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]", lo.doubleValue(), hi.doubleValue());
    }
    return "–";
  }
}
