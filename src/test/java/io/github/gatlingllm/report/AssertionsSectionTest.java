package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.record.Assertions;
import io.github.gatlingllm.record.RunRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link AssertionsSection}: each assertion's verdict first, on the page and the console. */
class AssertionsSectionTest {

  private static Map<String, Object> result(
      String assertion, boolean passed, Double actual, String error) {
    Map<String, Object> r = new LinkedHashMap<>();
    r.put("assertion", assertion);
    r.put("passed", passed);
    r.put("actual", actual);
    r.put("error", error);
    return r;
  }

  /** The assertions as the page gets them: through the typed run record. */
  private static Assertions assertions(Map<String, Object> run) {
    return RunRecord.of(run).assertions();
  }

  private static Map<String, Object> run(String verdict, List<Map<String, Object>> results) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("assertions_verdict", verdict);
    run.put("assertion_results", results);
    return run;
  }

  private static final Map<String, Object> PASSED =
      result("chat E2E: percentage of failed events is less than 1.0", true, 0.0, null);
  private static final Map<String, Object> FAILED =
      result(
          "chat SLO: percentage of successful events is greater than or equal to 95.0",
          false,
          71.25,
          null);

  @Test
  void aRunWithoutAssertionsShowsNothing() {
    assertEquals("", AssertionsSection.html(null));
    assertEquals(List.of(), AssertionsSection.lines(null));
  }

  @Test
  void passedAssertionsAreSaidPassedInGreen() {
    assertEquals(
        "<h2 id=\"assertions\" class=\"good\">Assertions: passed</h2>\n"
            + "<table id=\"assertion-results\">\n"
            + "<tr><th class=\"l\">verdict</th><th class=\"l\">assertion</th><th>actual</th></tr>\n"
            + "<tr class=\"passed\"><td class=\"l good\"><strong>passed</strong></td>"
            + "<td class=\"l\">chat E2E: percentage of failed events is less than 1.0</td>"
            + "<td>0</td></tr>\n</table>\n",
        AssertionsSection.html(assertions(run("passed", List.of(PASSED)))));
  }

  @Test
  void aFailedAssertionIsSaidFailedInRedWithItsFigure() {
    String html = AssertionsSection.html(assertions(run("failed", List.of(PASSED, FAILED))));
    assertEquals(
        true,
        html.startsWith(
            "<h2 id=\"assertions\" class=\"bad\">Assertions: 1 of 2 FAILED (Gatling&#39;s build"
                + " fails)</h2>"),
        html);
    assertEquals(
        true,
        html.contains(
            "<tr class=\"failed\"><td class=\"l bad\"><strong>FAILED</strong></td><td class=\"l"
                + " bad\">chat SLO: percentage of successful events is greater than or equal to"
                + " 95.0</td><td class=\"bad\">71.25</td></tr>"),
        html);
  }

  @Test
  void theConsoleLeadsWithEachVerdict() {
    assertEquals(
        List.of(
            "LLM assertions: 1 of 2 FAILED (Gatling's build fails)",
            "  passed chat E2E: percentage of failed events is less than 1.0 (actual 0)",
            "  FAILED chat SLO: percentage of successful events is greater than or equal to 95.0"
                + " (actual 71.25)"),
        AssertionsSection.lines(assertions(run("failed", List.of(PASSED, FAILED)))));
  }

  @Test
  void anUnresolvedPathSaysWhy() {
    Map<String, Object> missing =
        result(
            "chat: percentage of failed events is less than 1.0",
            false,
            null,
            "Could not find stats matching assertion path List(chat)");
    assertEquals(
        List.of(
            "LLM assertions: 1 of 1 FAILED (Gatling's build fails)",
            "  FAILED chat: percentage of failed events is less than 1.0 (Could not find stats"
                + " matching assertion path List(chat))"),
        AssertionsSection.lines(assertions(run("failed", List.of(missing)))));
  }

  @Test
  void assertionsNotCheckedSayWhy() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("assertions_verdict", "not_checked");
    run.put(
        "assertions_not_checked",
        "the run was interrupted before Gatling closed its log: see Gatling's own lines after this"
            + " run's");
    assertEquals(
        List.of(
            "LLM assertions: not checked: the run was interrupted before Gatling closed its log:"
                + " see Gatling's own lines after this run's"),
        AssertionsSection.lines(assertions(run)));
    assertEquals(
        "<h2 id=\"assertions\">Assertions: not checked</h2>\n<p>the run was interrupted before"
            + " Gatling closed its log: see Gatling&#39;s own lines after this run&#39;s</p>\n",
        AssertionsSection.html(assertions(run)));
  }
}
