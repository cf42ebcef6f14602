package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.conversation.ConversationTurnsSimulation;
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
 * Conversations against a real llama.cpp server ({@code scripts/llama-server.sh start}: random
 * weights, the Qwen3 vocabulary and chat template, one slot): 2 warmup and 3 measured conversations
 * of 3 to 4 turns, each with a system prompt of its own (1,024 tokens, a fresh seed), 48-token user
 * messages, 20 output tokens. From turn 2 the server's cached tokens reach the previous turn's
 * prompt and reply less one block (llama.cpp's granularity is one token: the reply's last token,
 * sampled but never fed through the model); the TTFT of later turns, which prefill only the new
 * message, is below turn 1's, which prefills the system prompt too, at equal new-message length.
 *
 * <p>A random-weights model samples sub-word splits that the tokenizer does not give back when the
 * reply's text is sent in the next turn (and llama.cpp trims a reply's leading space), so its
 * replies are cached only up to where the two part. The replies here are held to digits with a
 * logit bias (Qwen's tokenizer makes each digit a token of its own, however they follow each
 * other), as a real model's text mostly tokenizes back to what it generated.
 *
 * <p>Runs when {@code LLAMA_BASE_URL} or {@code -Dllm.it.llamaBaseUrl} names the server's {@code
 * /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server fails.
 */
@Tag("forked")
class LlamaConversationTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaConversationTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  /** The Qwen3 vocabulary's ids of the digits 0 to 9. */
  private static final String DIGIT_IDS = "15,16,17,18,19,20,21,22,23,24";

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
  void laterTurnsFindThePreviousPromptAndReplyAndStartSooner() throws Exception {
    Path folder = Files.createDirectories(results.resolve("conversations"));
    Path log = folder.resolve("gatling.log");
    Process process =
        GatlingJvm.start(
            ConversationTurnsSimulation.class,
            folder,
            List.of(
                "-Dllm.baseUrl=" + baseUrl,
                "-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"),
                "-Dllm.ignoreEos=true",
                "-Dllm.seed=" + System.currentTimeMillis() % 1_000_000_000L,
                "-Dconvtest.conversations=3",
                "-Dconvtest.systemTokens=1024",
                "-Dconvtest.systemGroups=1000",
                "-Dconvtest.logitBias=" + DIGIT_IDS),
            log);
    assertTrue(process.waitFor(600, TimeUnit.SECONDS), "Gatling did not finish within 600 s");
    String output = GatlingJvm.read(log);
    assertEquals(0, process.exitValue(), output);
    List<Path> runs = GatlingJvm.runFolders(ConversationTurnsSimulation.class, folder);
    assertEquals(1, runs.size(), output);
    JsonNode record = JSON.readTree(runs.get(0).resolve("llm-run.json").toFile());
    assertEquals("llama.cpp", record.get("target").get("server").get("engine").asText());
    assertEquals(1, record.get("cache").get("block_tokens").asInt());
    Map<String, List<JsonNode>> byConversation = new LinkedHashMap<>();
    for (String line : Files.readAllLines(runs.get(0).resolve("llm-requests.jsonl"))) {
      JsonNode r = JSON.readTree(line);
      byConversation
          .computeIfAbsent(
              r.get("phase").asText() + " " + r.get("conversation").asLong(),
              k -> new ArrayList<>())
          .add(r);
    }
    assertEquals(5, byConversation.size(), byConversation.keySet().toString());
    List<Double> firstTtft = new ArrayList<>();
    List<Double> laterTtft = new ArrayList<>();
    for (List<JsonNode> turns : byConversation.values()) {
      turns.sort((a, b) -> a.get("turn").asInt() - b.get("turn").asInt());
      firstTtft.add(turns.get(0).get("ttft_ms").asDouble());
      for (int i = 1; i < turns.size(); i++) {
        JsonNode r = turns.get(i);
        JsonNode previous = turns.get(i - 1);
        String what = r.toString();
        assertEquals("ok", r.get("status").asText(), what);
        int promptAndReply =
            previous.get("prompt_tokens").asInt() + previous.get("completion_tokens").asInt();
        LOG.info(
            "llama.cpp {} {} turn {}: prompt {}, cached {} (previous prompt and reply {}),"
                + " planned {}, {}, TTFT {} ms (turn 1: {} ms)",
            r.get("phase").asText(),
            r.get("conversation").asLong(),
            r.get("turn").asInt(),
            r.get("prompt_tokens").asInt(),
            r.get("cached_tokens").asInt(),
            promptAndReply,
            r.get("planned_cached_tokens").asInt(),
            r.get("cache").asText(),
            r.get("ttft_ms").asDouble(),
            turns.get(0).get("ttft_ms").asDouble());
        assertTrue(r.get("cached_tokens").asInt() >= promptAndReply - 1, what);
        assertEquals("hit", r.get("cache").asText(), what);
        laterTtft.add(r.get("ttft_ms").asDouble());
      }
    }
    double first = median(firstTtft);
    double later = median(laterTtft);
    LOG.info(
        "llama.cpp conversations: TTFT p50 turn 1 {} ms (cold: 1,024-token system prompt and"
            + " 48-token message), later turns {} ms (48-token message after a cached context)",
        first,
        later);
    assertTrue(later < first, "TTFT p50 of later turns " + later + " ms, of turn 1 " + first);
    JsonNode measured = record.get("conversations").get(0).get("phases").get("measured");
    assertEquals(3, measured.get("completed").asInt());
  }

  private static double median(List<Double> values) {
    List<Double> sorted = new ArrayList<>(values);
    sorted.sort(null);
    return sorted.get((sorted.size() - 1) / 2);
  }
}
