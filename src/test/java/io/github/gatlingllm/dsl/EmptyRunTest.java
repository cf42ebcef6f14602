package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run in which no request succeeded says so in words, on the console, in {@code llm-run.json} and
 * on the report page: no NaN, no "0 measured", no dashes for the token and latency figures.
 */
@Tag("forked")
class EmptyRunTest {

  private static final String NO_FIGURES =
      "throughput: 0 requests/s: no request succeeded, so there are no token or latency figures";

  @TempDir Path results;

  @Test
  void aRunWhoseEveryRequestFailedSaysSoInWords() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    DslRun run =
        DslRun.run(
            EmptyRunSimulation.class,
            results,
            "-Dllm.baseUrl=http://127.0.0.1:" + port + "/v1",
            // The pre-flight would stop a run against a closed port before any load: this one
            // must send its requests and see each fail.
            "-Dllm.preflight=false");
    String record = Files.readString(run.folder().resolve("llm-run.json"));
    String page = Files.readString(run.folder().resolve("llm-report.html"));
    String noVerdict =
        "no verdict: none of the 4 measured requests with a cache plan succeeded (4 failed), so no"
            + " cache hit was observed";

    assertFalse(run.log.contains("NaN"), run.log);
    assertFalse(record.contains("NaN"), record);
    assertFalse(page.replace("isNaN(", "").contains("NaN"), page);
    assertFalse(run.log.contains("0 measured requests"), run.log);
    assertFalse(run.log.contains("– input"), run.log);
    assertEquals(1, run.count("LLM summary: 4 requests (connect_error 4) in "), run.log);
    assertEquals(1, run.count(NO_FIGURES), run.log);
    assertEquals(1, run.count("RunContext - cache: " + noVerdict), run.log);
    assertEquals(1, run.count("  cache: " + noVerdict + "; SLO: 0 of 4 requests met"), run.log);
    assertEquals(0, run.count("latency p50 / p99"), run.log);
    JsonNode cache = run.record().get("cache");
    assertEquals("unknown", cache.get("verdict").asText());
    assertEquals(4, cache.get("planned_requests").asLong());
    assertEquals(
        "none of the 4 measured requests with a cache plan succeeded (4 failed), so no cache hit"
            + " was observed",
        cache.get("verdict_reason").asText());
    assertTrue(
        page.contains("<td class=\"l\"><span class=\"bad\">" + noVerdict + "</span></td>"), page);
    assertTrue(page.contains("<td class=\"l\">no request succeeded</td>"), page);
    assertTrue(
        page.contains("<p>no request succeeded, so there are no latency figures.</p>"), page);
    assertTrue(
        page.contains("not known: no request of the run reported prompt tokens in its usage"),
        page);
  }

  @Test
  void aRunWhoseEveryRequestWasCutSaysSoInWords() throws Exception {
    DslRun run = DslRun.run(AllCutSimulation.class, results);
    String record = Files.readString(run.folder().resolve("llm-run.json"));
    String page = Files.readString(run.folder().resolve("llm-report.html"));

    assertFalse(run.log.contains("NaN"), run.log);
    assertFalse(record.contains("NaN"), record);
    assertFalse(page.replace("isNaN(", "").contains("NaN"), page);
    assertFalse(run.log.contains("saw null"), run.log);
    assertFalse(run.log.contains("0 of 0"), run.log);
    assertFalse(page.contains("0 of 0"), page);
    assertEquals(2, run.record().get("requests_cut_by_run_end").asInt());
    assertEquals(1, run.count("LLM summary: 2 requests (2 cut by the run's end) in "), run.log);
    assertEquals(1, run.count(NO_FIGURES), run.log);
    assertEquals(
        1,
        run.count(
            "  cache: no verdict: none of the 2 measured requests with a cache plan succeeded (2"
                + " cut by the run's end), so no cache hit was observed; SLO: no request was"
                + " judged against the SLO (requests cut by the run's end never are)"),
        run.log);
    assertEquals(
        1,
        run.count(
            "SLO ttft<=500ms: no request was judged against it (requests cut by the run's end"
                + " never are)"),
        run.log);
    assertTrue(
        page.contains(
            "<p>No request failed (requests outside warmup).</p>\n<p id=\"cut-requests\">"
                + "2 requests outside warmup were cut by the run&#39;s end, not failed: still in flight"
                + " when the run ended (max_duration), recorded with what was measured until then.</p>"),
        page);
  }
}
