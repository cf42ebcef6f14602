package io.github.gatlingllm.report;

import io.github.gatlingllm.record.Assertions;
import java.util.ArrayList;
import java.util.List;

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
   * @param a the run's assertions, or null
   * @return the HTML, empty when the run has no assertion
   */
  static String html(Assertions a) {
    if (a == null) {
      return "";
    }
    StringBuilder html = new StringBuilder();
    if (Assertions.NOT_CHECKED.equals(a.verdict())) {
      html.append("<h2 id=\"assertions\">Assertions: not checked</h2>\n<p>")
          .append(ReportPage.esc(a.notChecked()))
          .append("</p>\n");
      return html.toString();
    }
    List<Assertions.Result> results = results(a);
    boolean passed = Assertions.PASSED.equals(a.verdict());
    html.append("<h2 id=\"assertions\" class=\"")
        .append(passed ? "good" : "bad")
        .append("\">Assertions: ")
        .append(ReportPage.esc(headline(results.size(), a.failed())))
        .append("</h2>\n<table id=\"assertion-results\">\n")
        .append("<tr><th class=\"l\">verdict</th><th class=\"l\">assertion</th>")
        .append("<th>actual</th></tr>\n");
    for (Assertions.Result r : results) {
      boolean ok = r.passed();
      html.append("<tr class=\"")
          .append(ok ? "passed" : "failed")
          .append("\"><td class=\"l ")
          .append(ok ? "good" : "bad")
          .append("\"><strong>")
          .append(ok ? "passed" : "FAILED")
          .append("</strong></td><td class=\"l")
          .append(ok ? "" : " bad")
          .append("\">")
          .append(ReportPage.esc(r.assertion()))
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
   * @param a the run's assertions, or null
   * @return the lines, empty when the run has no assertion
   */
  static List<String> lines(Assertions a) {
    List<String> out = new ArrayList<>();
    if (a == null) {
      return out;
    }
    if (Assertions.NOT_CHECKED.equals(a.verdict())) {
      out.add("LLM assertions: not checked: " + a.notChecked());
      return out;
    }
    List<Assertions.Result> results = results(a);
    out.add("LLM assertions: " + headline(results.size(), a.failed()));
    for (Assertions.Result r : results) {
      out.add(
          "  "
              + (r.passed() ? "passed " : "FAILED ")
              + r.assertion()
              + (r.error() != null ? " (" + r.error() + ")" : " (actual " + actual(r) + ")"));
    }
    return out;
  }

  private static List<Assertions.Result> results(Assertions a) {
    return a.results() == null ? List.of() : a.results();
  }

  private static String headline(int all, int failed) {
    if (failed == 0) {
      return all == 1 ? "passed" : "all " + all + " passed";
    }
    return failed + " of " + all + " FAILED (Gatling's build fails)";
  }

  private static String actual(Assertions.Result r) {
    if (r.actual() != null) {
      return Decimals.fmt(r.actual());
    }
    return ReportPage.esc(r.error());
  }
}
