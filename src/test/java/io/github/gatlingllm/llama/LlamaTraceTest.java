package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.trace.TraceRunSimulation;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A small trace replayed against a real llama.cpp server ({@code scripts/llama-server.sh start}:
 * the Qwen3 vocabulary and chat template, one slot): one session whose prompt grows by a 64-token
 * block a turn, so each turn's leading blocks are the previous turn's prompt, and each row's cached
 * tokens equal its plan (the previous prompt's blocks and Qwen3's 3-token ChatML lead, at
 * llama.cpp's one-token granularity), its prompt exactly its {@code input_length} in Qwen3 tokens.
 *
 * <p>Runs when {@code LLAMA_BASE_URL} (environment) or {@code -Dllm.it.llamaBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails. The seed comes from the clock, so no earlier run left these blocks in the cache.
 */
@Tag("forked")
class LlamaTraceTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final int ROWS = 6;

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
  void aGrowingSessionGetsItsPlannedCachedTokens() throws Exception {
    List<String> rows = new ArrayList<>();
    for (int k = 0; k < ROWS; k++) {
      StringBuilder ids = new StringBuilder();
      for (int b = 0; b < k + 3; b++) {
        ids.append(b == 0 ? "" : ", ").append(b);
      }
      rows.add(
          "{\"timestamp\": "
              + k * 1500
              + ", \"input_length\": "
              + (k + 3) * 64
              + ", \"output_length\": 4, \"hash_ids\": ["
              + ids
              + "]}");
    }
    Path trace = results.resolve("session.jsonl");
    Files.write(trace, rows);
    Path log = results.resolve("gatling.log");
    Process process =
        GatlingJvm.start(
            TraceRunSimulation.class,
            results,
            List.of(
                "-Dllm.trace=" + trace,
                "-Dllm.baseUrl=" + baseUrl,
                "-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"),
                "-Dllm.seed=" + System.currentTimeMillis() % 1_000_000_000L),
            log);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish within 300 s");
    String output = GatlingJvm.read(log);
    assertEquals(0, process.exitValue(), output);
    List<Path> runs = GatlingJvm.runFolders(TraceRunSimulation.class, results);
    assertEquals(1, runs.size(), output);
    List<JsonNode> requests = new ArrayList<>();
    for (String line : Files.readAllLines(runs.get(0).resolve("llm-requests.jsonl"))) {
      requests.add(JSON.readTree(line));
    }
    requests.sort((a, b) -> Long.compare(a.get("index").asLong(), b.get("index").asLong()));
    assertEquals(ROWS, requests.size(), output);
    for (int k = 0; k < ROWS; k++) {
      JsonNode r = requests.get(k);
      String row = r.toString();
      assertEquals("ok", r.get("status").asText(), row);
      assertEquals(k, r.get("trace_row").asInt(), row);
      // Qwen3's ChatML lead is 3 tokens before the prompt, and the template's tail after it.
      assertEquals((k + 3) * 64, r.get("planned_tokens").asInt(), row);
      int lead = r.get("prompt_tokens").asInt() - (k + 3) * 64;
      assertTrue(lead >= 3 && lead <= 16, "prompt tokens beyond the template: " + row);
      assertEquals(4, r.get("completion_tokens").asInt(), row);
      int planned = r.get("planned_cached_tokens").asInt();
      assertEquals(k == 0 ? 3 : 3 + (k + 2) * 64, planned, row);
      int cached = r.get("cached_tokens").asInt();
      // The plan within llama.cpp's block (one token), and the opening bracket of the next block's
      // nonce, which every block shares (the first row: nothing of it, or the template's lead and
      // that bracket from an earlier request).
      assertTrue(
          cached >= (k == 0 ? 0 : planned - 1) && cached <= planned + 2, "cached vs plan: " + row);
      assertEquals(k == 0 ? "miss" : "hit", r.get("cache").asText(), row);
    }
  }
}
