package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.testing.RecordingProxy;
import io.github.gatlingllm.testing.RecordingProxy.Exchange;
import io.github.gatlingllm.testing.TestTokenizers;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
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
 * Issue 32's check against llama.cpp: agent sessions whose every turn the real engine answers with
 * a streamed tool call, threaded back live. The server is {@code scripts/llama-server.sh
 * start-tools}: llama.cpp with the Qwen3 vocabulary and chat template and a crafted model ({@code
 * scripts/llama-model.py --tool-call}) that answers each turn with {@code fetch_orders_0 {"unit":
 * 7}}, which llama.cpp's own template, grammar ({@code tool_choice: required}) and tool-call parser
 * turn into {@code tool_calls} deltas. A recording proxy in front of it keeps what went on the
 * wire.
 *
 * <p>{@link LlamaAgentSessionSimulation}: 1 warmup and 3 measured sessions of 4 turns (3 tool
 * loops, then the loop limit). Checked: every session ends {@code loop_limit}; turn n+1 sends turn
 * n's messages and its tool call exactly as received (id, name, arguments); each tool result is 48
 * tokens; every request carries {@code X-Session-Affinity} with the record's {@code session_id};
 * from turn 2 the server's cached tokens are the previous turn's prompt and reply less one (the
 * reply's last token, sampled but never fed through the model; llama.cpp's block is one token), as
 * the session's cache plan has it. The same on the Responses and Messages endpoints.
 *
 * <p>Runs when {@code LLAMA_TOOLS_BASE_URL} or {@code -Dllm.it.llamaToolsBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails.
 */
@Tag("forked")
class LlamaAgentSessionTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaAgentSessionTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private static String baseUrl;

  @TempDir Path results;

  @BeforeAll
  static void server() {
    String url =
        System.getProperty("llm.it.llamaToolsBaseUrl", System.getenv("LLAMA_TOOLS_BASE_URL"));
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no llama.cpp tool-call server is named (LLAMA_TOOLS_BASE_URL or"
                + " -Dllm.it.llamaToolsBaseUrl): .ci/run starts one with"
                + " scripts/llama-server.sh start-tools");
      }
      Assumptions.abort(
          "no llama.cpp tool-call server: set LLAMA_TOOLS_BASE_URL (eval \"$(scripts/llama-server.sh"
              + " start-tools)\"; export LLAMA_TOOLS_BASE_URL) to run these tests");
    }
    baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }

  private record Run(JsonNode record, List<JsonNode> requests, Map<String, List<Exchange>> wire) {}

  private Run run(String name, String... properties) throws Exception {
    try (RecordingProxy proxy = RecordingProxy.start(baseUrl, "X-Session-Affinity", 0)) {
      Path folder = Files.createDirectories(results.resolve(name));
      Path log = folder.resolve("gatling.log");
      List<String> all = new ArrayList<>();
      all.add("-Dllm.baseUrl=" + proxy.baseUrl());
      all.add("-Dllm.tokenizer=" + TestTokenizers.folder().resolve("qwen3"));
      // the catalog whose first tool is the model's call
      all.add("-Dllm.seed=7");
      all.addAll(List.of(properties));
      Process process = GatlingJvm.start(LlamaAgentSessionSimulation.class, folder, all, log);
      assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish within 300 s");
      String output = GatlingJvm.read(log);
      assertEquals(0, process.exitValue(), output);
      List<Path> runs = GatlingJvm.runFolders(LlamaAgentSessionSimulation.class, folder);
      assertEquals(1, runs.size(), output);
      return new Run(
          GatlingJvm.runRecord(runs.get(0)), GatlingJvm.requests(runs.get(0)), proxy.bySession());
    }
  }

  /** Every session ended at the loop limit after 3 loops of one call each: 4 turns a session. */
  private static void sessionsEndAtTheLoopLimit(Run run) {
    JsonNode block = run.record().get("sessions").get(0);
    assertEquals("agents", block.get("workload").asText());
    assertEquals(12, block.get("turns_sent").asLong(), run.requests().toString());
    assertEquals(4, block.get("warmup_turns_sent").asLong());
    assertEquals(3, block.get("measured").get("count").asLong());
    assertEquals(3, block.get("measured").get("ended").get("loop_limit").asLong());
    assertEquals(0, block.get("measured").get("ended").get("completed").asLong());
    assertEquals(0, block.get("measured").get("ended").get("error").asLong());
    assertEquals(12, block.get("measured").get("tool_calls").asLong());
    assertEquals(1, block.get("warmup").get("ended").get("loop_limit").asLong());
    assertEquals(4, run.wire().size(), run.wire().keySet().toString());
  }

  /**
   * Each measured record: ok, one call of 22 tokens, its session header, and from turn 2 the
   * server's cache holding the previous prompt and reply less one, as planned.
   */
  private static void laterTurnsFindThePreviousPromptAndReply(Run run, String endpoint) {
    Map<String, List<JsonNode>> bySession = new java.util.TreeMap<>();
    for (JsonNode r : run.requests()) {
      if ("measured".equals(r.get("phase").asText())) {
        bySession.computeIfAbsent(r.get("session_id").asText(), k -> new ArrayList<>()).add(r);
      }
    }
    assertEquals(
        List.of("llamatools-measured-0", "llamatools-measured-1", "llamatools-measured-2"),
        List.copyOf(bySession.keySet()));
    for (Map.Entry<String, List<JsonNode>> e : bySession.entrySet()) {
      List<JsonNode> turns = e.getValue();
      turns.sort((a, b) -> a.get("turn").asInt() - b.get("turn").asInt());
      assertEquals(4, turns.size(), e.getKey());
      List<Exchange> wire = run.wire().get(e.getKey());
      assertNotNull(wire, e.getKey() + " never carried its X-Session-Affinity header");
      assertEquals(4, wire.size(), e.getKey());
      for (int i = 0; i < turns.size(); i++) {
        JsonNode r = turns.get(i);
        String what = endpoint + " " + r;
        assertEquals(i + 1, r.get("turn").asInt(), what);
        assertEquals("ok", r.get("status").asText(), what);
        assertEquals(1, r.get("tool_calls").asInt(), what);
        assertEquals(22, r.get("completion_tokens").asInt(), what);
        assertEquals(200, wire.get(i).status(), what);
        if (i == 0) {
          // the measured phase's system prompt is its own (the warmup's differs): the first
          // session's turn 1 misses as planned; each later one finds the system prompt and tools
          // as the server's template renders them (its tool instructions included): a hit as
          // planned, never a warm start
          boolean first = "llamatools-measured-0".equals(e.getKey());
          assertEquals(first ? "miss" : "hit", r.get("cache_planned").asText(), what);
          assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), what);
          assertEquals(false, r.path("cache_warm_start").asBoolean(false), what);
          continue;
        }
        JsonNode previous = turns.get(i - 1);
        int promptAndReply =
            previous.get("prompt_tokens").asInt() + previous.get("completion_tokens").asInt();
        LOG.info(
            "llama.cpp tool-call model, {} {} turn {}: prompt {}, cached {} (previous prompt and"
                + " reply {}), planned {}, {}",
            endpoint,
            e.getKey(),
            r.get("turn").asInt(),
            r.get("prompt_tokens").asInt(),
            r.get("cached_tokens").asInt(),
            promptAndReply,
            r.get("planned_cached_tokens").asInt(),
            r.get("cache").asText());
        assertEquals(promptAndReply - 1, r.get("cached_tokens").asInt(), what);
        assertEquals(r.get("planned_cached_tokens").asInt(), r.get("cached_tokens").asInt(), what);
        assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), what);
      }
    }
  }

  @Test
  void chatSessionsThreadTheModelsToolCallsAndTheCacheHoldsThePlan() throws Exception {
    Run run = run("chat");
    sessionsEndAtTheLoopLimit(run);
    var tokens = TestTokenizers.qwen3();
    for (Map.Entry<String, List<Exchange>> e : run.wire().entrySet()) {
      List<Exchange> turns = e.getValue();
      assertEquals(4, turns.size(), e.getKey());
      for (int t = 0; t < turns.size(); t++) {
        JsonNode request = turns.get(t).request();
        assertEquals("required", request.get("tool_choice").asText());
        assertEquals("fetch_orders_0", request.at("/tools/0/function/name").asText());
        ArrayNode calls = RecordingProxy.chatCalls(turns.get(t).reply());
        assertEquals(
            1, calls.size(), e.getKey() + " turn " + (t + 1) + ": " + turns.get(t).reply());
        assertEquals("fetch_orders_0", calls.get(0).at("/function/name").asText());
        assertEquals("{\"unit\": 7}", calls.get(0).at("/function/arguments").asText());
        if (t + 1 == turns.size()) {
          continue;
        }
        ArrayNode sent = (ArrayNode) request.get("messages");
        ArrayNode next = (ArrayNode) turns.get(t + 1).request().get("messages");
        // the next turn: everything so far, the reply's call as received, one tool message
        for (int i = 0; i < sent.size(); i++) {
          assertEquals(sent.get(i), next.get(i), e.getKey() + " message " + i);
        }
        assertEquals(sent.size() + 2, next.size(), e.getKey());
        JsonNode assistant = next.get(sent.size());
        assertEquals("assistant", assistant.get("role").asText());
        assertEquals(calls, assistant.get("tool_calls"), e.getKey() + " turn " + (t + 2));
        JsonNode tool = next.get(sent.size() + 1);
        assertEquals("tool", tool.get("role").asText());
        assertEquals(calls.get(0).get("id").asText(), tool.get("tool_call_id").asText());
        assertEquals(48, tokens.count(tool.get("content").asText()), tool.toString());
      }
    }
    laterTurnsFindThePreviousPromptAndReply(run, "chat");
  }

  private void runsOn(String endpoint) throws Exception {
    Run run = run(endpoint, "-Dllm.endpoint=" + endpoint);
    sessionsEndAtTheLoopLimit(run);
    for (Map.Entry<String, List<Exchange>> e : run.wire().entrySet()) {
      List<Exchange> turns = e.getValue();
      for (int t = 0; t < turns.size(); t++) {
        JsonNode request = turns.get(t).request();
        if (endpoint.equals("responses")) {
          assertEquals("required", request.get("tool_choice").asText());
          assertEquals("fetch_orders_0", request.at("/tools/0/name").asText());
        } else {
          assertEquals("{\"type\":\"any\"}", request.get("tool_choice").toString());
          assertEquals("fetch_orders_0", request.at("/tools/0/name").asText());
        }
        List<List<String>> replied = RecordingProxy.streamedCalls(turns.get(t).reply());
        assertEquals(1, replied.size(), e.getKey() + " turn " + (t + 1) + turns.get(t).reply());
        assertEquals("fetch_orders_0", replied.get(0).get(1));
        assertEquals("{\"unit\": 7}", replied.get(0).get(2));
        if (t + 1 == turns.size()) {
          continue;
        }
        JsonNode sent = RecordingProxy.history(turns.get(t).request());
        JsonNode next = RecordingProxy.history(turns.get(t + 1).request());
        for (int i = 0; i < sent.size(); i++) {
          assertEquals(sent.get(i), next.get(i), e.getKey() + " item " + i);
        }
        List<List<String>> threaded =
            new ArrayList<>(RecordingProxy.sentCalls(turns.get(t).request()));
        threaded.addAll(replied);
        List<List<String>> got = RecordingProxy.sentCalls(turns.get(t + 1).request());
        assertEquals(threaded.size(), got.size(), e.getKey());
        for (int i = 0; i < got.size(); i++) {
          assertEquals(threaded.get(i).subList(0, 2), got.get(i).subList(0, 2), e.getKey());
          if (endpoint.equals("responses")) {
            // Responses threads the arguments string as received, byte for byte
            assertEquals(threaded.get(i).get(2), got.get(i).get(2), e.getKey());
          } else {
            // Messages threads the input as a JSON object: the same value
            assertEquals(
                JSON.readTree(threaded.get(i).get(2)),
                JSON.readTree(got.get(i).get(2)),
                e.getKey());
          }
        }
      }
    }
    laterTurnsFindThePreviousPromptAndReply(run, endpoint);
  }

  @Test
  void onTheResponsesApiTheSessionsThreadFunctionCallsAndCacheAsPlanned() throws Exception {
    runsOn("responses");
  }

  @Test
  void onTheMessagesApiTheSessionsThreadToolUseBlocksAndCacheAsPlanned() throws Exception {
    runsOn("messages");
  }
}
