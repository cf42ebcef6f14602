package io.github.gatlingllm.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Conversations through the real Gatling engine against the embedded simulator, whose prefix cache
 * (it caches the blocks a reply fills, as vLLM does) is the oracle: turn by turn, the cached tokens
 * equal the plan (the previous turn's prompt and reply, less the reply's last token, in 16-token
 * blocks); two same-seed runs, one on the chat endpoint and one on completions, send the same user
 * turns (digests); a context window ends conversations unsent, without a failed request.
 */
@Tag("forked")
@Tag("parallel")
class ConversationTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  record Run(int exit, String log, JsonNode record, List<JsonNode> requests) {}

  static Run run(Path results, String name, List<String> properties) throws Exception {
    Path folder = Files.createDirectories(results.resolve(name));
    Path log = folder.resolve("gatling.log");
    Process process = GatlingJvm.start(ConversationTurnsSimulation.class, folder, properties, log);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish within 300 s");
    String output = GatlingJvm.read(log);
    List<Path> runs = GatlingJvm.runFolders(ConversationTurnsSimulation.class, folder);
    assertEquals(1, runs.size(), output);
    JsonNode record = JSON.readTree(runs.get(0).resolve("llm-run.json").toFile());
    List<JsonNode> requests = new ArrayList<>();
    for (String line : Files.readAllLines(runs.get(0).resolve("llm-requests.jsonl"))) {
      requests.add(JSON.readTree(line));
    }
    return new Run(process.exitValue(), output, record, requests);
  }

  /** Each conversation's turns, in turn order, by phase and conversation index. */
  static Map<String, List<JsonNode>> conversations(List<JsonNode> requests) {
    Map<String, List<JsonNode>> by = new LinkedHashMap<>();
    for (JsonNode r : requests) {
      by.computeIfAbsent(
              r.get("phase").asText() + " " + r.get("conversation").asLong(),
              k -> new ArrayList<>())
          .add(r);
    }
    by.values()
        .forEach(turns -> turns.sort((a, b) -> a.get("turn").asInt() - b.get("turn").asInt()));
    return by;
  }

  @Test
  void turnByTurnTheCachedTokensAreThePlanAndSameSeedRunsSendTheSameUserTurns() throws Exception {
    Run chat = run(results, "chat", List.of("-Dllm.assert.cacheAsPlanned=1.0"));
    assertEquals(0, chat.exit(), chat.log());
    Map<String, List<JsonNode>> byConversation = conversations(chat.requests());
    assertEquals(8, byConversation.size(), byConversation.keySet().toString());
    int later = 0;
    for (List<JsonNode> turns : byConversation.values()) {
      for (int i = 0; i < turns.size(); i++) {
        JsonNode r = turns.get(i);
        String what = r.toString();
        assertEquals("ok", r.get("status").asText(), what);
        assertEquals(i + 1, r.get("turn").asInt(), what);
        assertEquals("conversations", r.get("workload").asText(), what);
        assertEquals(16, r.get("reply_digest").asText().length(), what);
        assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), what);
        if (i == 0) {
          assertEquals(64, r.get("context_tokens").asInt(), what);
          continue;
        }
        JsonNode previous = turns.get(i - 1);
        int context =
            previous.get("prompt_tokens").asInt() + previous.get("completion_tokens").asInt() - 1;
        assertEquals(context, r.get("context_tokens").asInt(), what);
        assertEquals(context / 16 * 16, r.get("planned_cached_tokens").asInt(), what);
        assertEquals(r.get("planned_cached_tokens").asInt(), r.get("cached_tokens").asInt(), what);
        assertEquals("hit", r.get("cache").asText(), what);
        later++;
      }
    }
    assertTrue(later >= 16, "later turns: " + later);

    JsonNode section = chat.record().get("conversations").get(0);
    JsonNode measured = section.get("phases").get("measured");
    assertEquals(6, measured.get("conversations").asInt());
    assertEquals(6, measured.get("completed").asInt());
    assertEquals(0, measured.get("ended_by_context_limit").asInt());
    long measuredTurns =
        chat.requests().stream().filter(r -> "measured".equals(r.get("phase").asText())).count();
    assertEquals(measuredTurns, measured.get("turns").asLong());
    assertEquals(measuredTurns, chat.record().get("load").get("requests").asLong());
    assertEquals(
        chat.requests().size() - measuredTurns,
        chat.record().get("load").get("warmup_requests").asLong());
    assertEquals(6, measured.get("duration_ms").get("count").asInt());
    assertEquals(2, section.get("phases").get("warmup").get("conversations").asInt());
    assertNotNull(measured.get("digest").textValue());
    assertEquals("as planned", chat.record().get("cache").get("verdict").asText());

    // The same seed on the completions endpoint: the same user turns, by their digests.
    Run completions = run(results, "completions", List.of("-Dllm.endpoint=completions"));
    assertEquals(0, completions.exit(), completions.log());
    JsonNode again = completions.record().get("conversations").get(0).get("phases");
    assertEquals(measured.get("digest"), again.get("measured").get("digest"));
    assertEquals(
        section.get("phases").get("warmup").get("digest"), again.get("warmup").get("digest"));
    Map<String, String> chatDigests = userDigests(chat.requests());
    assertEquals(chatDigests, userDigests(completions.requests()));
    for (JsonNode r : completions.requests()) {
      if (r.get("turn").asInt() > 1) {
        assertEquals("hit", r.get("cache").asText(), r.toString());
      }
    }
  }

  private static Map<String, String> userDigests(List<JsonNode> requests) {
    Map<String, String> by = new java.util.TreeMap<>();
    for (JsonNode r : requests) {
      by.put(
          r.get("phase").asText() + " " + r.get("conversation") + " " + r.get("turn"),
          r.get("digest").asText());
    }
    return by;
  }

  @Test
  void aContextWindowEndsConversationsUnsentWithoutAFailedRequest() throws Exception {
    // Turn 1: 64 + 48 planned, so about 112 prompt tokens, 20 out; turn 2 about 112 + 20 + 48 +
    // 16 of template + 20 max_tokens = 216 > 200: every conversation ends after its first turn.
    Run run = run(results, "window", List.of("-Dllm.maxContextTokens=200"));
    assertEquals(0, run.exit(), run.log());
    for (JsonNode r : run.requests()) {
      assertEquals(1, r.get("turn").asInt(), r.toString());
      assertEquals("ok", r.get("status").asText(), r.toString());
    }
    JsonNode measured = run.record().get("conversations").get(0).get("phases").get("measured");
    assertEquals(6, measured.get("conversations").asInt());
    assertEquals(6, measured.get("ended_by_context_limit").asInt());
    assertEquals(6, measured.get("turns").asInt());
    assertEquals(
        200,
        run.record().get("conversations").get(0).get("spec").get("max_context_tokens").asInt());
    assertTrue(run.log().contains("would exceed llm.maxContextTokens=200"), run.log());
    assertFalse(run.log().contains("HTTP 400"));
  }

  @Test
  void anOpenLoopGivesEachArrivingUserOneConversation() throws Exception {
    Run run = run(results, "open", List.of("-Dconvtest.open=true"));
    assertEquals(0, run.exit(), run.log());
    Map<String, List<JsonNode>> byConversation = conversations(run.requests());
    assertEquals(8, byConversation.size(), byConversation.keySet().toString());
    for (List<JsonNode> turns : byConversation.values()) {
      assertTrue(turns.size() >= 3 && turns.size() <= 4, turns.toString());
      for (int i = 0; i < turns.size(); i++) {
        assertEquals(i + 1, turns.get(i).get("turn").asInt());
        assertEquals("ok", turns.get(i).get("status").asText());
      }
    }
    JsonNode measured = run.record().get("conversations").get(0).get("phases").get("measured");
    assertEquals(6, measured.get("completed").asInt());
    assertTrue(run.log().contains("its 6 measured conversations are handed out"), run.log());
  }
}
