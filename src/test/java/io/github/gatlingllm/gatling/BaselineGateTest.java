package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Real Gatling runs (each its own JVM; three in all) against two embedded simulators whose decode
 * speed differs by 20% (20 and 24 ms a token): {@code report --compare} calls ITL and E2E worse
 * with an interval excluding no change and the same server twice neither better nor worse; a run
 * gated ({@code llm.baseline}, {@code llm.assert.noRegressionPct=5}) against the faster server's
 * run fails the build with Gatling's exit code 2 and says which metric and by how much; the same
 * server passes.
 */
@Tag("forked")
class BaselineGateTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private Path run(String name, int decodeMs, int exitCode, String... more) throws Exception {
    Path results = Files.createDirectories(dir.resolve(name));
    List<String> properties =
        new java.util.ArrayList<>(List.of("-Dllm.simulator.decodeMsPerToken=" + decodeMs));
    properties.addAll(List.of(more));
    return GatlingJvm.run(BaselineSimulation.class, results, properties, exitCode, 300);
  }

  private static String log(Path run) throws Exception {
    try (var files = Files.list(run.getParent())) {
      Path log =
          files.filter(p -> p.getFileName().toString().startsWith("gatling-")).findFirst().get();
      return GatlingJvm.read(log);
    }
  }

  private static JsonNode compare(Path a, Path b) throws Exception {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code =
        io.github.gatlingllm.cli.GatlingLlm.run(
            new String[] {"report", "--compare", a.toString(), b.toString(), "--json"},
            new PrintWriter(out, true),
            new PrintWriter(err, true));
    assertEquals(0, code, err.toString());
    return JSON.readTree(out.toString());
  }

  @Test
  void aSlowerServerIsWorseAndFailsTheGateAndTheSameServerPasses() throws Exception {
    // Three runs, each read by several checks: the gated runs are also the B runs of the
    // comparisons (a gate only reads the baseline after the run; the measurements are the same as
    // an ungated run's), so the slower server and the A/A pair need no run of their own.
    Path fast = run("fast", 20, 0);
    Path gatedSlow =
        run("gated-slow", 24, 2, "-Dllm.baseline=" + fast, "-Dllm.assert.noRegressionPct=5");
    Path gatedSame =
        run("gated-same", 20, 0, "-Dllm.baseline=" + fast, "-Dllm.assert.noRegressionPct=5");

    JsonNode slowerRun = compare(fast, gatedSlow);
    JsonNode slower = slowerRun.get("metrics");
    // The medians and the throughput: the tails of 80 requests on a busy machine are honestly
    // unclear.
    // Throughput's interval lies below no change, but its noise floor (its spread over a short
    // run's thirds: a closed loop's start and drain) may exceed the change on a busy machine, so
    // it reads worse or unclear there (docs/comparing.md: worse in 0 of 5 pairs at load 13-28;
    // seen in CI: -14.5% against a 13.7% floor), never better.
    for (String metric :
        List.of("itl_p50_ms", "tpot_p50_ms", "e2e_p50_ms", "output_tokens_per_s")) {
      JsonNode m = slower.get(metric);
      if (metric.endsWith("_ms")) {
        assertEquals("worse", m.get("verdict").asText(), metric + " " + slower);
      } else {
        assertNotEquals("better", m.get("verdict").asText(), metric + " " + slower);
        assertNotEquals("same", m.get("verdict").asText(), metric + " " + slower);
      }
      assertTrue(
          m.get("ci95_pct").get(metric.endsWith("_ms") ? 0 : 1).asDouble()
                  * (metric.endsWith("_ms") ? 1 : -1)
              > 0,
          metric + " " + m);
    }
    assertEquals("worse", slowerRun.get("verdict").get("overall").asText(), slowerRun.toString());
    assertTrue(
        slowerRun.get("verdict").get("line").asText().startsWith("verdict: B worse ("),
        slowerRun.toString());
    // The same server twice (an A/A pair): no metric better or worse, the tails included, and the
    // overall verdict same or unclear. Per-request intervals called such pairs better or worse
    // (issue 29: TTFT p90 -18.5%, ITL p99 -31.3%); time blocks and the noise floor do not.
    JsonNode sameRun = compare(fast, gatedSame);
    JsonNode same = sameRun.get("metrics");
    same.fieldNames()
        .forEachRemaining(
            metric -> {
              String verdict = same.get(metric).get("verdict").asText();
              assertNotEquals("better", verdict, metric + " " + same);
              assertNotEquals("worse", verdict, metric + " " + same);
            });
    assertTrue(
        List.of("same", "unclear").contains(sameRun.get("verdict").get("overall").asText()),
        sameRun.toString());
    // A run compared with itself: every metric the same, no interval needed.
    JsonNode itself = compare(fast, fast);
    assertEquals("same", itself.get("verdict").get("overall").asText(), itself.toString());

    String output = log(gatedSlow);
    assertTrue(
        output.contains("REGRESSION against baseline: itl_p50_ms worse than the baseline by"),
        output);
    assertTrue(
        output.contains(
            "BASELINE itl_p50_ms: percentage of successful events is greater than or equal to"
                + " 100.0 : false"),
        output);
    JsonNode baseline = GatlingJvm.runRecord(gatedSlow).get("baseline");
    assertEquals(fast.toString(), baseline.get("folder").asText());
    assertTrue(baseline.get("rows_logged").asBoolean());
    List<String> failed = new java.util.ArrayList<>();
    baseline.get("failed").forEach(f -> failed.add(f.asText()));
    assertTrue(failed.containsAll(List.of("itl_p50_ms", "e2e_p50_ms")), failed.toString());
    assertEquals("worse", baseline.get("metrics").get("itl_p50_ms").get("verdict").asText());
    assertTrue(baseline.get("same_prompts").asBoolean(), baseline.toString());
    assertTrue(Files.readString(gatedSlow.resolve("llm-report.html")).contains("id=\"baseline\""));

    JsonNode passed = GatlingJvm.runRecord(gatedSame).get("baseline");
    assertEquals(0, passed.get("failed").size(), passed.toString());
    assertTrue(
        log(gatedSame)
            .contains(
                "BASELINE itl_p50_ms: percentage of successful events is greater than or equal to"
                    + " 100.0 : true"),
        log(gatedSame));
  }
}
