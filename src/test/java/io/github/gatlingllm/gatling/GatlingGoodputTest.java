package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real Gatling run (its own JVM) with an SLO no request can meet (TTFT within 1 ms, where the
 * simulator takes 60 ms) and {@code llm.assert.goodputRatio}: the build fails through Gatling's own
 * assertion on the {@code chat SLO} rows, the log names the missed criterion, the run record has
 * the goodput, and Gatling's {@code index.html} links the LLM report once the JVM has exited.
 */
@Tag("forked")
class GatlingGoodputTest {

  @TempDir Path results;

  @Test
  void anUnmetSloFailsTheBuildAndNamesWhatWasMissed() throws Exception {
    Path log = results.resolve("gatling.log");
    Process process =
        GatlingJvm.start(
            OracleSimulation.class,
            results,
            List.of(
                "-Dllm.requests=8",
                "-Dllm.warmupRequests=0",
                "-Dllm.concurrency=2",
                "-Dllm.slo.ttftMs=1",
                "-Dllm.slo.e2eMs=10000",
                "-Dllm.assert.goodputRatio=0.95"),
            log);
    try {
      assertTrue(process.waitFor(180, TimeUnit.SECONDS), "Gatling did not finish within 180 s");
    } finally {
      process.destroyForcibly();
    }
    String output = GatlingJvm.read(log);

    assertEquals(2, process.exitValue(), output);
    assertTrue(
        output.contains(
            "goodput ratio 0.0 < 0.95 (slo ttft<=1ms, e2e<=10000ms): 8 of 8 requests missed"
                + " ttft<=1ms (llm.assert.goodputRatio, request chat)"),
        output);
    assertTrue(
        output.contains(
            "chat SLO: percentage of successful events is greater than or equal to 95.0 : false"),
        output);
    List<Path> runs = GatlingJvm.runFolders(OracleSimulation.class, results);
    assertEquals(1, runs.size(), output);
    Path run = runs.get(0);
    JsonNode goodput = GatlingJvm.runRecord(run).get("metrics").get("overall").get("goodput");
    assertEquals(8, goodput.get("offered").asInt());
    assertEquals(0, goodput.get("met").asInt());
    assertEquals(8, goodput.get("missed").get("ttft").asInt());
    assertEquals(0, goodput.get("missed").get("e2e").asInt());
    assertEquals(9, Files.readAllLines(run.resolve("llm-requests.csv")).size());
    assertTrue(Files.readString(run.resolve("index.html")).contains("id=\"llm_report_link\""));
  }
}
