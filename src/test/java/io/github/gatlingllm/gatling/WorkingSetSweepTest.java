package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A working-set sweep in a Gatling JVM of its own against the embedded simulator, whose prefix
 * cache is the oracle: with a cache of C = 1,536 tokens and group prefixes of P (about 230 tokens),
 * the steps of at most C / P groups keep their prefixes cached and the first step beyond loses
 * them: the cliff lands where C / P says. The server's /metrics is scraped along the way.
 */
@Tag("forked")
class WorkingSetSweepTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  @Test
  void theCliffLandsWhereCapacityOverPrefixSays() throws Exception {
    Path log = results.resolve("gatling.log");
    Process process = GatlingJvm.start(SweepCliffSimulation.class, results, List.of(), log);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish within 300 s");
    assertEquals(0, process.exitValue(), () -> "Gatling failed:\n" + GatlingJvm.read(log));
    List<Path> runs = GatlingJvm.runFolders(SweepCliffSimulation.class, results);
    assertEquals(1, runs.size(), () -> "run folders: " + runs + "\n" + GatlingJvm.read(log));
    JsonNode record = JSON.readTree(runs.get(0).resolve("llm-run.json").toFile());

    JsonNode sweep = record.get("working_set_sweep").get(0);
    assertEquals("working-set", sweep.get("name").asText());
    JsonNode steps = sweep.get("steps");
    assertEquals(5, steps.size(), sweep.toString());
    int[] groups = {1, 2, 4, 8, 16};
    for (int i = 0; i < groups.length; i++) {
      JsonNode step = steps.get(i);
      assertEquals(groups[i], step.get("groups").asInt());
      assertEquals("working-set g" + groups[i], step.get("workload").asText());
      assertEquals("c1_in256_out128_g" + groups[i], step.get("case_id").asText());
      assertEquals(48, step.get("requests").asInt());
      assertEquals(48, step.get("ok").asInt());
    }
    long capacity = 16L * SweepCliffSimulation.CACHE_BLOCKS;
    assertEquals(capacity, sweep.get("capacity_tokens").asLong());
    double prefix = steps.get(0).get("prefix_tokens").asDouble();
    double predicted = sweep.get("predicted_cliff_groups").asDouble();
    assertEquals(Math.round(capacity / prefix * 100) / 100.0, predicted, 0.05);

    // Up to C / P groups the cache keeps the prefixes; past it, it does not.
    for (int i = 0; i < groups.length; i++) {
      double retained = steps.get(i).get("retained").asDouble();
      if (groups[i] <= predicted) {
        assertTrue(retained >= 0.85, "step " + groups[i] + " retained " + retained);
      } else {
        assertTrue(retained < 0.8, "step " + groups[i] + " retained " + retained);
      }
    }
    JsonNode cliff = sweep.get("cliff");
    assertEquals(8, cliff.get("groups").asInt(), sweep.toString());
    assertEquals(4, cliff.get("after_groups").asInt(), sweep.toString());
    assertTrue(4 <= predicted && predicted < 8, "C / P = " + predicted);
    // With the cache lost, prefill is paid again: TTFT p50 grows.
    assertTrue(
        steps.get(4).get("ttft_p50_ms").asDouble() > steps.get(2).get("ttft_p50_ms").asDouble(),
        steps.toString());

    JsonNode server = record.get("server_metrics");
    assertEquals("gatling-llm simulator", server.get("engine").asText());
    assertEquals(capacity, server.get("cache_config").get("capacity_tokens").asLong());
    assertTrue(server.get("samples").size() >= 2, server.toString());
    if (server.get("failed_scrapes").asLong() == 0) {
      // Both counted every prompt token of the run: the server's counters and the usage.
      assertEquals(
          server.get("run_hit_rate").asDouble(),
          server.get("prefix_cache_hit_rate").asDouble(),
          server.toString());
    }
    String page = Files.readString(runs.get(0).resolve("llm-report.html"));
    assertTrue(page.contains("<h2>Working-set sweep: working-set</h2>"), "report section");
    assertTrue(page.contains("<h2>Server metrics</h2>"), "report section");
    assertTrue(page.contains("data-chart=\"sweep-working-set-hit-ratio\""), "sweep chart");
    assertTrue(page.contains("data-chart=\"server-kv-cache\""), "KV cache chart");
  }
}
