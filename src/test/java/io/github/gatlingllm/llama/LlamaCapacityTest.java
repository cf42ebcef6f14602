package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.CapacitySearchSimulation;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.testing.TestTokenizers;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code CapacitySearchSimulation} against a real llama.cpp server ({@code scripts/llama-server.sh
 * start}: one slot, random weights, the Qwen3 vocabulary): 128-token prompts, 16 tokens out, an
 * arrival-rate search up to 4 users/s with a TTFT SLO of 2 s, levels of 3 to 20 s, a 10 s hold. A
 * healthy server: the run's assertions pass (no request failed), the search finishes, and its
 * answer is consistent with its levels (the last met below the first missed, each level's verdict
 * its attainment against the threshold).
 *
 * <p>Runs when {@code LLAMA_BASE_URL} (environment) or {@code -Dllm.it.llamaBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails.
 */
@Tag("forked")
class LlamaCapacityTest {

  private static String baseUrl;

  @TempDir Path results;

  @BeforeAll
  static void server() {
    String url = System.getProperty("llm.it.llamaBaseUrl", System.getenv("LLAMA_BASE_URL"));
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no llama.cpp server is named (LLAMA_BASE_URL or -Dllm.it.llamaBaseUrl):"
                + " .ci/run starts one with scripts/llama-server.sh start");
      }
      Assumptions.abort(
          "no llama.cpp server: set LLAMA_BASE_URL (eval \"$(scripts/llama-server.sh start)\";"
              + " export LLAMA_BASE_URL) to run these tests");
    }
    baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  @Test
  void theSearchFinishesOnAHealthyServerAndItsAnswerFollowsItsLevels() throws Exception {
    Path log = results.resolve("gatling.log");
    Process process =
        GatlingJvm.start(
            CapacitySearchSimulation.class,
            results,
            List.of(
                "-Dllm.baseUrl=" + baseUrl,
                "-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"),
                "-Dllm.inputTokens=128",
                "-Dllm.outputTokens=16",
                "-Dllm.slo.ttftMs=2000",
                "-Dllm.search.maxRate=4",
                "-Dllm.search.minSeconds=3",
                "-Dllm.search.maxSeconds=20",
                "-Dllm.search.holdSeconds=10",
                // a fresh seed: no earlier run left these prompts in the server's cache
                "-Dllm.seed=" + System.currentTimeMillis() % 1_000_000_000L),
            log);
    assertTrue(process.waitFor(600, TimeUnit.SECONDS), "Gatling did not finish within 600 s");
    String output = GatlingJvm.read(log);
    assertEquals(0, process.exitValue(), output);
    List<Path> runs = GatlingJvm.runFolders(CapacitySearchSimulation.class, results);
    assertEquals(1, runs.size(), output);
    JsonNode record = GatlingJvm.runRecord(runs.get(0));
    assertEquals("search_over", record.get("end_reason").asText(), output);
    JsonNode capacity = record.get("capacity");
    assertTrue(capacity.get("finished").asBoolean(), capacity.toString());
    double threshold = capacity.get("settings").get("level_attainment").asDouble();
    // A level meets the SLO by its attainment; a hold that missed counts its load as missed.
    java.util.TreeSet<Double> met = new java.util.TreeSet<>();
    java.util.TreeSet<Double> missed = new java.util.TreeSet<>();
    for (JsonNode level : capacity.get("levels")) {
      if (level.get("stage").asText().equals("warmup")) {
        continue;
      }
      boolean levelMet = level.get("met").asBoolean();
      assertEquals(levelMet, level.get("attainment").asDouble() >= threshold, capacity.toString());
      double load = level.get("load").asDouble();
      if (levelMet) {
        met.add(load);
      } else {
        missed.add(load);
      }
    }
    met.removeAll(missed);
    Double lastMet = met.isEmpty() ? null : met.last();
    Double firstMissed = missed.isEmpty() ? null : missed.first();
    JsonNode interval = capacity.get("interval");
    assertEquals(
        lastMet, interval.get("last_met").isNull() ? null : interval.get("last_met").asDouble());
    assertEquals(
        firstMissed,
        interval.get("first_missed").isNull() ? null : interval.get("first_missed").asDouble());
    if (lastMet != null && firstMissed != null) {
      assertTrue(lastMet < firstMissed, capacity.toString());
    }
    assertEquals(1, output.split("CAPACITY: ", -1).length - 1, output);
  }
}
