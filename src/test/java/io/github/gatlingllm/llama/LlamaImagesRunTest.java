package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.QuickstartSimulation;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.testing.TestTokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * The extension's own image prompts ({@code llm.images.*}, issue 45) in the real Gatling engine
 * against llama.cpp with a projector ({@code scripts/llama-server.sh start-vision}: every image 256
 * tokens, see {@link LlamaImagesTest}). The quickstart, one user (the server's one slot),
 * shared-prefix prompts of 256 tokens (half shared within 2 groups), 4 warmup and 16 measured
 * requests of 8 output tokens, run twice with the same fresh seed: text only, then with two 256x256
 * PNG images a prompt, the first its group's (before the text, in the group's shared prefix), the
 * second its own, counted by the known rule {@code llm.images.tokens=256}.
 *
 * <p>Checked: every request with images is answered ok with its 2 images; the server counts them:
 * each request's {@code prompt_tokens} is the same request's text-only count plus 512; the shared
 * image is found in the server's cache: each group's first measured request finds only the
 * template's 3 tokens (its group's image is new), every later one at least the 3 + 256 of the
 * template and the image (with the group's shared text: 387 planned), each outcome as planned, the
 * run's verdict {@code as planned}.
 *
 * <p>Runs when {@code LLAMA_VISION_BASE_URL} or {@code -Dllm.it.llamaVisionBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails.
 */
@Tag("forked")
class LlamaImagesRunTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaImagesRunTest.class);

  private static String baseUrl;

  @TempDir Path results;

  @BeforeAll
  static void server() {
    String url =
        System.getProperty("llm.it.llamaVisionBaseUrl", System.getenv("LLAMA_VISION_BASE_URL"));
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no llama.cpp image server is named (LLAMA_VISION_BASE_URL or"
                + " -Dllm.it.llamaVisionBaseUrl): .ci/run starts one with"
                + " scripts/llama-server.sh start-vision");
      }
      Assumptions.abort(
          "no llama.cpp image server: set LLAMA_VISION_BASE_URL (eval \"$(scripts/llama-server.sh"
              + " start-vision)\"; export LLAMA_VISION_BASE_URL) to run these tests");
    }
    baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private record Run(JsonNode record, List<JsonNode> requests) {}

  private Run run(String name, long seed, String... more) throws Exception {
    Path folder = Files.createDirectories(results.resolve(name));
    List<String> properties = new ArrayList<>();
    properties.add("-Dllm.baseUrl=" + baseUrl);
    properties.add("-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"));
    properties.add("-Dllm.ignoreEos=true");
    properties.add("-Dllm.seed=" + seed);
    properties.add("-Dllm.concurrency=1");
    properties.add("-Dllm.prefixGroups=2");
    properties.add("-Dllm.warmupRequests=4");
    properties.add("-Dllm.requests=16");
    properties.add("-Dllm.outputTokens=8");
    properties.addAll(List.of(more));
    Path run = GatlingJvm.run(QuickstartSimulation.class, folder, properties, 0, 300);
    return new Run(GatlingJvm.runRecord(run), GatlingJvm.requests(run));
  }

  private static String key(JsonNode r) {
    return r.get("phase").asText() + " " + r.get("index").asInt();
  }

  @Test
  void sharedImagesAreSentCountedByTheServerAndFoundInItsCacheAsPlanned() throws Exception {
    long seed = System.currentTimeMillis() % 1_000_000_000L;
    Run text = run("text", seed);
    Run images =
        run(
            "images",
            seed,
            "-Dllm.images.count=2",
            "-Dllm.images.shared=1",
            "-Dllm.images.width=256",
            "-Dllm.images.height=256",
            "-Dllm.images.tokens=256");
    Map<String, JsonNode> textOnly = new HashMap<>();
    for (JsonNode r : text.requests()) {
      textOnly.put(key(r), r);
    }
    assertEquals(20, images.requests().size());
    Map<Integer, Integer> measuredOfGroup = new HashMap<>();
    int hits = 0;
    for (JsonNode r : images.requests()) {
      String what = r.toString();
      assertEquals("ok", r.get("status").asText(), what);
      assertEquals(2, r.get("images").asInt(), what);
      assertTrue(r.get("image_bytes").asLong() > 0, what);
      assertTrue(r.get("prompt_tokens_exact").asBoolean(), what);
      // the server counts each image as 256 tokens: the same text alone was 512 fewer
      JsonNode same = textOnly.get(key(r));
      assertEquals(same.get("prompt_tokens").asInt() + 512, r.get("prompt_tokens").asInt(), what);
      assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), what);
      if (!"measured".equals(r.get("phase").asText())) {
        continue;
      }
      int nth = measuredOfGroup.merge(r.get("prefix_group").asInt(), 1, Integer::sum);
      if (nth == 1) {
        // its group's image is new to the server: the template's lead only
        assertEquals("miss", r.get("cache").asText(), what);
        assertEquals(3, r.get("cached_tokens").asInt(), what);
      } else {
        // the group's image (and its shared text) found in the server's cache
        assertEquals("hit", r.get("cache").asText(), what);
        assertEquals(3 + 256 + 128, r.get("planned_cached_tokens").asInt(), what);
        assertTrue(r.get("cached_tokens").asInt() >= 3 + 256 + 128, what);
        hits++;
      }
    }
    assertEquals(14, hits);
    JsonNode cache = images.record().get("cache");
    LOG.info(
        "llama.cpp with images: prompt tokens {} (text only {}), cached {}, verdict {}, outcomes {},"
            + " images {}",
        images.requests().stream().map(r -> r.get("prompt_tokens").asInt()).toList(),
        text.requests().stream().map(r -> r.get("prompt_tokens").asInt()).toList(),
        images.requests().stream().map(r -> r.get("cached_tokens").asInt()).toList(),
        cache.get("verdict").asText(),
        cache.get("outcomes"),
        images.record().get("images"));
    assertEquals("as planned", cache.get("verdict").asText(), cache.toString());
    assertEquals(16, images.record().get("images").get("requests_with_images").asLong());
    assertEquals(32, images.record().get("images").get("images").asLong());
  }
}
