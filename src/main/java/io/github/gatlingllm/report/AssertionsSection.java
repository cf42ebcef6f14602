package io.github.gatlingllm.report;

import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/**
 * Not API. The run's Gatling assertions as the first thing the report page and the console summary
 * say: one line each, passed or FAILED, with the figure Gatling checked it against; from the run
 * record's {@code assertions_verdict}, {@code assertion_results} and {@code
 * assertions_not_checked}. A run without assertions shows nothing.
 */
final class AssertionsSection {

  private AssertionsSection() {}

  /**
   * The page's block, right under the title.
   *
   * @param run the run record
   * @return the HTML, empty when the run has no assertion
   */
  static String html(Map<String, Object> run) {
    Object verdict = run.get("assertions_verdict");
    if (verdict == null) {
      return "";
    }
    StringBuilder html = new StringBuilder();
    List<?> results = run.get("assertion_results") instanceof List<?> l ? l : List.of();
    if ("not_checked".equals(verdict)) {
      html.append("<h2 id=\"assertions\">Assertions: not checked</h2>\n<p>")
          .append(ReportPage.esc(run.get("assertions_not_checked")))
          .append("</p>\n");
      return html.toString();
    }
    int failed = failed(results);
    boolean passed = "passed".equals(verdict);
    html.append("<h2 id=\"assertions\" class=\"")
        .append(passed ? "good" : "bad")
        .append("\">Assertions: ")
        .append(ReportPage.esc(headline(results.size(), failed)))
        .append("</h2>\n<table id=\"assertion-results\">\n")
        .append("<tr><th class=\"l\">verdict</th><th class=\"l\">assertion</th>")
        .append("<th>actual</th></tr>\n");
    for (Object o : results) {
      if (!(o instanceof Map<?, ?> r)) {
        continue;
      }
      boolean ok = Boolean.TRUE.equals(r.get("passed"));
      html.append("<tr class=\"")
          .append(ok ? "passed" : "failed")
          .append("\"><td class=\"l ")
          .append(ok ? "good" : "bad")
          .append("\"><strong>")
          .append(ok ? "passed" : "FAILED")
          .append("</strong></td><td class=\"l")
          .append(ok ? "" : " bad")
          .append("\">")
          .append(ReportPage.esc(r.get("assertion")))
          .append("</td><td")
          .append(ok ? "" : " class=\"bad\"")
          .append(">")
          .append(actual(r))
          .append("</td></tr>\n");
    }
    return html.append("</table>\n").toString();
  }

  /**
   * The console's lines, first of the LLM summary.
   *
   * @param run the run record
   * @return the lines, empty when the run has no assertion
   */
  static List<String> lines(Map<String, Object> run) {
    Object verdict = run.get("assertions_verdict");
    List<String> out = new ArrayList<>();
    if (verdict == null) {
      return out;
    }
    if ("not_checked".equals(verdict)) {
      out.add("LLM assertions: not checked: " + run.get("assertions_not_checked"));
      return out;
    }
    List<?> results = run.get("assertion_results") instanceof List<?> l ? l : List.of();
    out.add("LLM assertions: " + headline(results.size(), failed(results)));
    for (Object o : results) {
      if (o instanceof Map<?, ?> r) {
        boolean ok = Boolean.TRUE.equals(r.get("passed"));
        out.add(
            "  "
                + (ok ? "passed " : "FAILED ")
                + r.get("assertion")
                + (r.get("error") != null
                    ? " (" + r.get("error") + ")"
                    : " (actual " + actual(r) + ")"));
      }
    }
    return out;
  }

  private static int failed(List<?> results) {
    int failed = 0;
    for (Object o : results) {
      if (o instanceof Map<?, ?> r && !Boolean.TRUE.equals(r.get("passed"))) {
        failed++;
      }
    }
    return failed;
  }

  private static String headline(int all, int failed) {
    if (failed == 0) {
      return all == 1 ? "passed" : "all " + all + " passed";
    }
    return failed + " of " + all + " FAILED (Gatling's build fails)";
  }

  private static String actual(Map<?, ?> r) {
    if (r.get("actual") instanceof Number n) {
      return Decimals.fmt(n.doubleValue());
    }
    return ReportPage.esc(r.get("error"));
  }
}
