package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.api.FinishReason;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
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
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Every API through Gatling against a real llama.cpp server ({@code scripts/llama-server.sh start}:
 * random weights, the Qwen3 vocabulary and chat template, one slot), {@link LlamaApisSimulation} on
 * chat, Responses and Messages: each request {@code ok}, cut at its limit ({@link
 * FinishReason#LENGTH} in each API's word, but see below); the repeat prompt's prompt tokens the
 * server's, equal to the Qwen3 count of llama.cpp's own chat template of it on every API; from its
 * second request all but its last token cached, the cache outcome as planned; each conversation's 3
 * turns answered, a later turn's cache holding the previous turn's prompt (up to the reply).
 * llama.cpp ends a Responses reply cut at its limit as {@code completed}, without {@code
 * incomplete_details}: there the kind is {@link FinishReason#STOP}, its tokens the limit's. With
 * {@code llm.responses.history=server}, the run stops with one line naming the setting: llama.cpp
 * (b11669) refuses {@code previous_response_id} with HTTP 400, in the pre-flight before any load,
 * or (without the pre-flight) at the first turn that names it.
 *
 * <p>What is not exact, and so not asserted exactly: on Messages llama.cpp leaves out {@code
 * message_start}, the API's only {@code input_tokens}, when a reply's first token ends inside a
 * UTF-8 sequence (about 1 reply in 15 from this model): such a request is recorded with its prompt
 * counted by the run's tokenizer, {@code prompt_tokens_exact: false}, its cached tokens unknown; it
 * is counted here and left out of the exact checks. The server is shared with other runs on this
 * machine: a request of theirs between two of ours takes the one slot's cache, so one repeat
 * request of the five may miss (not in CI, where the server is this build's alone).
 *
 * <p>Runs when {@code LLAMA_BASE_URL} or {@code -Dllm.it.llamaBaseUrl} names the server's {@code
 * /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server fails.
 */
@Tag("forked")
class LlamaApisRunsTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaApisRunsTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static String baseUrl;
  private static HuggingFaceTokenCounter qwen3;

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
    qwen3 = TestTokenizers.qwen3();
  }

  private record Run(int exitCode, String log, Path folder) {}

  private Run run(String name, List<String> properties) throws Exception {
    Path folder = Files.createDirectories(results.resolve(name));
    Path log = folder.resolve("gatling.log");
    List<String> all = new ArrayList<>();
    all.add("-Dllm.baseUrl=" + baseUrl);
    all.add("-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"));
    all.add("-Dllm.seed=" + System.nanoTime() % 1_000_000_000L);
    all.addAll(properties);
    Process process = GatlingJvm.start(LlamaApisSimulation.class, folder, all, log);
    if (!process.waitFor(300, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      fail("Gatling did not finish within 300 s:\n" + GatlingJvm.read(log));
    }
    List<Path> runs = GatlingJvm.runFolders(LlamaApisSimulation.class, folder);
    return new Run(
        process.exitValue(), GatlingJvm.read(log), runs.size() == 1 ? runs.get(0) : null);
  }

  private static List<JsonNode> requests(Path run) throws Exception {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("llm-requests.jsonl"))) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  @ParameterizedTest
  @ValueSource(strings = {"chat", "responses", "messages"})
  void eachApiCountsAsTheServerCachesAsPlannedAndHoldsConversations(String api) throws Exception {
    Run run = run(api, List.of("-Dllm.endpoint=" + api));
    assertEquals(0, run.exitCode(), run.log());
    JsonNode record = JSON.readTree(run.folder().resolve("llm-run.json").toFile());
    assertEquals(api, record.get("target").get("endpoint").asText());
    assertEquals("llama.cpp", record.get("target").get("server").get("engine").asText());
    assertEquals(1, record.get("cache").get("block_tokens").asInt());

    // The repeat prompt does not depend on the seed: its text, and llama.cpp's template of it.
    String text =
        new PromptSource(
                PromptSpec.repeat(),
                qwen3,
                0,
                "apis_repeat",
                "measured",
                LlamaApisSimulation.INPUT_TOKENS)
            .take(0)
            .text();
    int templated = qwen3.count(applyTemplate(text));

    List<JsonNode> repeat = new ArrayList<>();
    Map<Long, List<JsonNode>> conversations = new LinkedHashMap<>();
    int inexact = 0;
    for (JsonNode r : requests(run.folder())) {
      String what = api + " " + r;
      assertEquals("ok", r.get("status").asText(), what);
      // llama.cpp (b11669) ends a Responses reply cut at max_output_tokens as "completed",
      // without incomplete_details: its finish reason cannot tell a cut reply there
      assertEquals(
          api.equals("responses") ? FinishReason.STOP : FinishReason.LENGTH,
          FinishReason.of(r.get("finish_reason").asText()),
          what);
      assertEquals(LlamaApisSimulation.OUTPUT_TOKENS, r.get("completion_tokens").asInt(), what);
      if (!r.get("prompt_tokens_exact").asBoolean()) {
        // llama.cpp's Messages API without message_start (see the class comment)
        assertEquals("messages", api, what);
        inexact++;
        continue;
      }
      if (r.get("request").asText().equals("llama repeat")) {
        repeat.add(r);
      } else {
        conversations
            .computeIfAbsent(r.get("conversation").asLong(), k -> new ArrayList<>())
            .add(r);
      }
    }
    LOG.info("llama.cpp {}: {} requests without message_start (prompt counted)", api, inexact);

    repeat.sort((a, b) -> Long.compare(a.get("index").asLong(), b.get("index").asLong()));
    int missed = 0;
    for (JsonNode r : repeat) {
      String what = api + " " + r;
      assertEquals(templated, r.get("prompt_tokens").asInt(), "the server's count: " + what);
      if (r.get("index").asLong() == 0) {
        continue;
      }
      if (r.get("cached_tokens").asInt() == templated - 1) {
        // all but the last token, which llama.cpp always evaluates again
        assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), what);
        assertEquals("hit", r.get("cache").asText(), what);
      } else {
        LOG.warn("llama.cpp {}: a repeat request missed the cache (a shared server?): {}", api, r);
        missed++;
      }
    }
    assertTrue(
        repeat.size() >= LlamaApisSimulation.REPEATS - 2, api + ": " + repeat.size() + " exact");
    assertTrue(missed <= ("true".equals(System.getenv("CI")) ? 0 : 1), api + " missed " + missed);

    assertEquals(LlamaApisSimulation.CONVERSATIONS, conversations.size(), api);
    for (List<JsonNode> turns : conversations.values()) {
      turns.sort((a, b) -> a.get("turn").asInt() - b.get("turn").asInt());
      for (int i = 1; i < turns.size(); i++) {
        JsonNode r = turns.get(i);
        JsonNode previous = turns.get(i - 1);
        if (previous.get("turn").asInt() != r.get("turn").asInt() - 1) {
          continue;
        }
        String what = api + " " + r;
        int before = previous.get("prompt_tokens").asInt();
        assertTrue(
            r.get("prompt_tokens").asInt()
                > before + previous.get("completion_tokens").asInt() + 40,
            what);
        // the previous turn's prompt, up to the assistant's header, is this turn's cached prefix
        assertTrue(r.get("cached_tokens").asInt() >= before - 4, what);
      }
    }
    JsonNode measured = record.get("conversations").get(0).get("phases").get("measured");
    assertEquals(LlamaApisSimulation.CONVERSATIONS, measured.get("completed").asInt(), api);
  }

  @Test
  void serverHistoryIsRefusedBeforeAnyLoad() throws Exception {
    Run run =
        run(
            "server-history-preflight",
            List.of(
                "-Dllm.endpoint=responses",
                "-Dllm.responses.history=server",
                "-Dllamaapis.only=chat"));
    assertEquals(1, run.exitCode(), run.log());
    // The pre-flight's second request names the first one's response: llama.cpp refuses it
    // (issue 40, item 7: before, the run sent its warmup turns and crashed at the first later one).
    String line =
        "llm.responses.history=server: the server refused previous_response_id in the pre-flight"
            + " (POST "
            + baseUrl
            + "/responses answered HTTP 400: llama.cpp does not support 'previous_response_id'.),"
            + " so it keeps no conversation history for later turns: set"
            + " llm.responses.history=client (the default) to send each turn's whole history. The"
            + " run stops before any load (-Dllm.preflight=false skips this check)";
    assertEquals(1, run.log().split(java.util.regex.Pattern.quote(line), -1).length - 1, run.log());
    for (String trace : List.of("\tat ", "Caused by:", "Run crashed", "Exception")) {
      assertFalse(run.log().contains(trace), () -> trace + " in:\n" + run.log());
    }
    assertFalse(run.log().contains("Global Information"), run.log());
  }

  @Test
  void serverHistoryStopsTheRunWithOneLineNamingTheSetting() throws Exception {
    // Without the pre-flight, the first turn that names previous_response_id finds it.
    Run run =
        run(
            "server-history",
            List.of(
                "-Dllm.endpoint=responses",
                "-Dllm.responses.history=server",
                "-Dllm.preflight=false",
                "-Dllamaapis.only=chat"));
    assertEquals(1, run.exitCode(), run.log());
    String line =
        "llm.responses.history=server: the server refused previous_response_id on its first use"
            + " (HTTP 400: invalid_request_error (400): llama.cpp does not support"
            + " 'previous_response_id'.), so it keeps no conversation history for later turns: set"
            + " llm.responses.history=client (the default) to send each turn's whole history";
    // Once, as the last line (issue 40, item 7): before, three times, after a Gatling crash and
    // with its stack trace, and no Gatling report.
    assertEquals(1, run.log().split(java.util.regex.Pattern.quote(line), -1).length - 1, run.log());
    assertTrue(run.log().stripTrailing().endsWith("\n" + line), run.log());
    for (String trace : List.of("\tat ", "Caused by:", "Run crashed", "Exception")) {
      assertFalse(run.log().contains(trace), () -> trace + " in:\n" + run.log());
    }
    assertTrue(Files.exists(run.folder().resolve("index.html")), run.log());
    assertTrue(
        Files.readString(run.folder().resolve("index.html")).contains("llm_report_link"),
        run.log());
    assertEquals(
        "crashed",
        JSON.readTree(run.folder().resolve("llm-run.json").toFile()).get("end_reason").asText());
    List<JsonNode> requests = requests(run.folder());
    for (JsonNode r : requests) {
      if (r.get("turn").asInt() == 1) {
        assertEquals("ok", r.get("status").asText(), r.toString());
      } else {
        assertEquals(400, r.get("http_status").asInt(), r.toString());
      }
    }
    assertFalse(requests.isEmpty());
  }

  private static String applyTemplate(String text) throws Exception {
    Map<String, Object> body = Map.of("messages", List.of(Map.of("role", "user", "content", text)));
    String root = baseUrl.substring(0, baseUrl.length() - "/v1".length());
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(root + "/apply-template"))
                .header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(JSON.writeValueAsString(body)))
                .timeout(Duration.ofSeconds(30))
                .build(),
            HttpResponse.BodyHandlers.ofString());
    assertEquals(200, response.statusCode(), response.body());
    return JSON.readTree(response.body()).get("prompt").asText();
  }
}
