package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.cache.CacheModesSimulation;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.testing.TestTokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Cache truth against a real llama.cpp server ({@code scripts/llama-server.sh start}: random
 * weights, the Qwen3 vocabulary and chat template): the plan at llama.cpp's one-token granularity
 * with Qwen3's 3-token ChatML lead, the verdict per mode ({@link CacheModesSimulation}: repeat,
 * shared-prefix with cold groups, shared-prefix with warm groups, unique; one request at a time),
 * and a warm start caught on a second run with the same seed (and not on the first).
 *
 * <p>Runs when {@code LLAMA_BASE_URL} (environment) or {@code -Dllm.it.llamaBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails. The first run's seed and prompt size come from the clock, so no earlier run against the
 * same server left its unique or shared-prefix prompts in the cache; its repeat prompt may be there
 * (see the test), and then that warm start must be said.
 */
@Tag("forked")
class LlamaCacheTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaCacheTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();

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

  private record Run(String log, JsonNode record, List<JsonNode> requests) {}

  private Run run(String name, List<String> properties, int expectedExit) throws Exception {
    Path folder = Files.createDirectories(results.resolve(name));
    Path log = folder.resolve("gatling.log");
    List<String> all = new ArrayList<>(properties);
    all.add("-Dllm.baseUrl=" + baseUrl);
    all.add("-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"));
    all.add("-Dllm.ignoreEos=true");
    Process process = GatlingJvm.start(CacheModesSimulation.class, folder, all, log);
    assertTrue(process.waitFor(600, TimeUnit.SECONDS), "Gatling did not finish within 600 s");
    String output = GatlingJvm.read(log);
    assertEquals(expectedExit, process.exitValue(), output);
    List<Path> runs = GatlingJvm.runFolders(CacheModesSimulation.class, folder);
    assertEquals(1, runs.size(), output);
    JsonNode record = JSON.readTree(runs.get(0).resolve("llm-run.json").toFile());
    List<JsonNode> requests = new ArrayList<>();
    for (String line : Files.readAllLines(runs.get(0).resolve("llm-requests.jsonl"))) {
      requests.add(JSON.readTree(line));
    }
    return new Run(output, record, requests);
  }

  private static Map<String, JsonNode> series(JsonNode record) {
    Map<String, JsonNode> by = new LinkedHashMap<>();
    for (JsonNode w : record.get("cache").get("workloads")) {
      by.put(w.get("workload").asText(), w);
    }
    return by;
  }

  @Test
  void everyModeIsAsPlannedAndASecondSameSeedRunIsAWarmStart() throws Exception {
    long clock = System.currentTimeMillis();
    List<String> sameSeed =
        List.of(
            "-Dllm.seed=" + clock % 1_000_000_000L,
            "-Dcachetest.inputTokens=" + (256 + clock % 97));

    Run first = run("first", sameSeed, 0);
    assertEquals("llama.cpp", first.record().get("target").get("server").get("engine").asText());
    JsonNode cache = first.record().get("cache");
    assertEquals(1, cache.get("block_tokens").asInt());
    assertEquals(3, cache.get("template_tokens").asInt());
    assertTrue(cache.get("exact_counts").asBoolean());
    for (Map.Entry<String, JsonNode> w : series(first.record()).entrySet()) {
      JsonNode s = w.getValue();
      LOG.info(
          "llama.cpp {}: planned hit ratio {}, observed {}, {}, outcomes {}, TTFT by outcome {}",
          w.getKey(),
          s.get("planned_hit_ratio").asDouble(),
          s.get("observed_hit_ratio").asDouble(),
          s.get("verdict").asText(),
          s.get("outcomes"),
          ttftP50s(s));
      assertEquals("as planned", s.get("verdict").asText(), w.getKey() + ": " + s);
    }
    assertEquals(16, series(first.record()).get("warm-groups").get("outcomes").get("hit").asInt());
    assertEquals(16, series(first.record()).get("repeat").get("outcomes").get("hit").asInt());
    assertEquals(16, series(first.record()).get("unique").get("outcomes").get("miss").asInt());
    // Only the repeat prompt can be in the cache before the run: it is the filler words' cycle
    // from one of 10 start words, so an earlier repeat prompt with the same start word (another
    // seed, any size) is a prefix of it. That is a warm start too, and it is said.
    List<JsonNode> warmStarts = new ArrayList<>();
    for (JsonNode r : first.requests()) {
      if (r.get("cache_warm_start").asBoolean()) {
        warmStarts.add(r);
      }
    }
    assertTrue(
        warmStarts.isEmpty()
            || warmStarts.size() == 1
                && warmStarts.get(0).get("request").asText().equals("chat repeat"),
        warmStarts.toString());
    assertEquals(!warmStarts.isEmpty(), cache.get("warm_start").asBoolean(), cache.toString());
    assertEquals(warmStarts.size(), cache.get("warm_start_requests").asInt());
    assertEquals(!warmStarts.isEmpty(), first.log().contains("WARM START"));

    List<String> again = new ArrayList<>(sameSeed);
    again.add("-Dcachetest.modes=unique");
    Run second = run("second", again, 0);
    JsonNode warm = second.record().get("cache");
    LOG.info(
        "llama.cpp unique, same seed again: observed hit ratio {}, planned {}, {}, TTFT by outcome"
            + " {}",
        warm.get("observed_hit_ratio").asDouble(),
        warm.get("planned_hit_ratio").asDouble(),
        warm.get("outcomes"),
        ttftP50s(warm));
    assertTrue(warm.get("warm_start").asBoolean(), warm.toString());
    assertEquals(20, warm.get("warm_start_requests").asInt(), warm.toString());
    assertEquals("above plan", warm.get("verdict").asText());
    assertTrue(second.log().contains("WARM START: the server's cache already held"));
  }

  private static Map<String, Double> ttftP50s(JsonNode series) {
    Map<String, Double> p50 = new LinkedHashMap<>();
    series
        .get("latency_by_outcome")
        .fields()
        .forEachRemaining(
            e -> p50.put(e.getKey(), e.getValue().get("ttft_ms").get("p50").asDouble()));
    return p50;
  }
}
