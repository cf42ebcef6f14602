package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issues 30.1, 30.2 and 29.5 through the real Gatling engine against the embedded simulator: Global
 * counts the real requests only, {@code llm.assertions} finds a request inside a group, joined with
 * the user's own assertions in one call, a second call that drops them is refused, and the console
 * and the LLM page lead with each assertion's verdict, the same as Gatling's exit code.
 */
@Tag("forked")
@Tag("parallel")
class AssertionRunsTest {

  @TempDir Path results;

  @Test
  void aGroupedRequestPassesLlmAssertionsAndGlobalCountsOnlyRequests() throws Exception {
    DslRun run = DslRun.run(GroupedAssertionsSimulation.class, results).exits(0);

    assertEquals(22, run.requests().size());
    // 22 requests: Global Information counts them, not the E2E/TTFT/TPOT figures.
    assertEquals(List.of(22L, 22L, 0L), run.row("Global"));
    assertEquals(List.of(), run.row("chat TTFT"));
    assertTrue(
        run.log.contains("chat E2E: percentage of failed events is less than 1.0 : true"), run.log);
    assertTrue(run.log.contains("Global: count of all events is 22.0 : true"), run.log);
    assertTrue(
        run.log.contains("turn / chat: percentage of successful events is 100.0 : true"), run.log);
    assertTrue(
        run.log.contains("chat TTFT: max of response time is less than 60000.0 : true"), run.log);
    assertTrue(run.log.contains("LLM assertions: all 4 passed"), run.log);
    assertTrue(
        run.log.contains("  passed chat E2E: percentage of failed events is less than 1.0"),
        run.log);

    JsonNode record = run.record();
    assertEquals("passed", record.get("assertions_verdict").asText());
    assertEquals(4, record.get("assertion_results").size());
    JsonNode first = record.get("assertion_results").get(0);
    assertEquals(
        "chat E2E: percentage of failed events is less than 1.0", first.get("assertion").asText());
    assertTrue(first.get("passed").asBoolean());
    assertEquals(0.0, first.get("actual").asDouble());
    assertEquals(1.0, record.get("assertions").get("failed_percent_below").get("chat").asDouble());
    String page = Files.readString(run.folder().resolve("llm-report.html"));
    assertTrue(page.contains("<h2 id=\"assertions\" class=\"good\">Assertions: all 4 passed</h2>"));
    assertFalse(page.contains("FAILED"));
  }

  @Test
  void aFailingLlmAssertionIsFailedOnThePageAndTheConsoleAndFailsTheBuild() throws Exception {
    DslRun run =
        DslRun.run(
                GroupedAssertionsSimulation.class,
                results,
                "-Dllm.slo.ttftMs=0.001",
                "-Dllm.assert.goodputRatio=0.9")
            .exits(2);

    String slo = "chat SLO: percentage of successful events is greater than or equal to 90.0";
    // Gatling's own verdict, then ours, printed before it and the same.
    assertTrue(run.log.contains(slo + " : false (actual : 0.0)"), run.log);
    assertTrue(run.log.contains("LLM assertions: 1 of 5 FAILED (Gatling's build fails)"), run.log);
    assertTrue(run.log.contains("  FAILED " + slo + " (actual 0)"), run.log);
    assertTrue(
        run.log.indexOf("LLM assertions:") < run.log.indexOf("LLM summary:"),
        "the assertions lead the LLM summary:\n" + run.log);

    JsonNode record = run.record();
    assertEquals("failed", record.get("assertions_verdict").asText());
    JsonNode sloResult = record.get("assertion_results").get(1);
    assertEquals(slo, sloResult.get("assertion").asText());
    assertFalse(sloResult.get("passed").asBoolean());
    assertEquals(0.0, sloResult.get("actual").asDouble());
    String page = Files.readString(run.folder().resolve("llm-report.html"));
    assertTrue(
        page.contains(
            "<h2 id=\"assertions\" class=\"bad\">Assertions: 1 of 5 FAILED (Gatling&#39;s build"
                + " fails)</h2>"),
        page);
    assertTrue(
        page.contains(
            "<tr class=\"failed\"><td class=\"l bad\"><strong>FAILED</strong></td><td class=\"l"
                + " bad\">"
                + slo
                + "</td><td class=\"bad\">0</td></tr>"),
        page);
    assertTrue(
        page.indexOf("id=\"assertions\"") < page.indexOf("<h2>Summary</h2>"),
        "the assertions come first");
  }

  @Test
  void figuresAsRequestsShowsTheFiguresAsRowsAtTheSameAssertionPaths() throws Exception {
    DslRun run =
        DslRun.run(GroupedAssertionsSimulation.class, results, "-Dllm.figuresAsRequests=true")
            .exits(2);

    // The old rows: each request counts as chat, chat E2E, chat TTFT and chat TPOT in Global.
    assertEquals(List.of(20L, 20L, 0L), run.row("chat TTFT"));
    assertEquals(List.of(88L, 88L, 0L), run.row("Global"));
    assertTrue(run.log.contains("Global: count of all events is 22.0 : false"), run.log);
    assertTrue(
        run.log.contains("chat E2E: percentage of failed events is less than 1.0 : true"), run.log);
    assertTrue(
        run.log.contains("chat TTFT: max of response time is less than 60000.0 : true"), run.log);
    assertTrue(run.log.contains("LLM assertions: 1 of 4 FAILED (Gatling's build fails)"), run.log);
  }

  @Test
  void aSecondAssertionsCallThatDropsTheLlmOnesIsRefusedBeforeAnyLoad() throws Exception {
    DslRun run = DslRun.run(DroppedAssertionsSimulation.class, results);

    assertTrue(run.exitCode != 0, run.log);
    assertTrue(
        run.log.contains(
            "llm.assertions(...): 1 of its assertions is not in setUp(...)'s (chat E2E: percentage"
                + " of failed events is less than 1.0): a later .assertions(...) call replaced"
                + " them (Gatling keeps only the last call)"),
        run.log);
    assertFalse(DslRun.anyRunRecord(results) && run.requests().size() > 0, run.log);
  }
}
