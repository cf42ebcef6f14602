package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.conversation.ConversationTurnsSimulation;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@code llm.responses.history=server} on the simulator, behind a recording proxy: a later turn of
 * a conversation or an agent session sends only its new items and {@code previous_response_id}, the
 * id the previous reply's {@code response.created} gave; the run's records (prompt and cached
 * tokens, cache outcomes, tool calls, digests) are those of the same seed with the whole history
 * sent every turn, since the server's context is the same.
 */
@Tag("forked")
@Tag("parallel")
class ServerHistoryRunsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  private ProxiedRun run(Class<?> simulation, String name, String history) throws Exception {
    ProxiedRun p =
        ProxiedRun.run(
            simulation,
            results.resolve(name),
            "-Dllm.endpoint=responses",
            "-Dllm.responses.history=" + history);
    assertEquals(0, p.run().exitCode, p.run().log);
    return p;
  }

  /** The id a Responses stream's {@code response.created} gives. */
  private static String createdId(String reply) throws Exception {
    for (String line : reply.split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode e = JSON.readTree(line.substring(5));
        if (e.path("type").asText().equals("response.created")) {
          return e.get("response").get("id").asText();
        }
      }
    }
    throw new AssertionError("no response.created in " + reply);
  }

  /** The call ids of a Responses stream's function_call items, in order. */
  private static List<String> callIds(String reply) throws Exception {
    List<String> ids = new ArrayList<>();
    for (String line : reply.split("\n")) {
      if (line.startsWith("data:")) {
        JsonNode e = JSON.readTree(line.substring(5));
        if (e.path("type").asText().equals("response.output_item.done")
            && e.path("item").path("type").asText().equals("function_call")) {
          ids.add(e.get("item").get("call_id").asText());
        }
      }
    }
    return ids;
  }

  private static Map<String, List<ProxiedRun.Exchange>> bySession(ProxiedRun p) {
    Map<String, List<ProxiedRun.Exchange>> by = new LinkedHashMap<>();
    for (ProxiedRun.Exchange e : p.exchanges()) {
      if (e.session() != null) {
        // (the client's warm-up request before the load carries no session)
        by.computeIfAbsent(e.session(), k -> new ArrayList<>()).add(e);
      }
    }
    return by;
  }

  /** Per session and turn: status, prompt and cached tokens, cache outcome, tool calls, digest. */
  private static Map<String, String> figures(DslRun run) {
    Map<String, String> by = new TreeMap<>();
    for (JsonNode r : run.requests()) {
      by.put(
          r.get("phase").asText() + "-" + r.get("conversation").asLong() + "#" + r.get("turn"),
          r.get("status").asText()
              + " prompt "
              + r.get("prompt_tokens")
              + " cached "
              + r.get("cached_tokens")
              + " "
              + r.get("cache").asText()
              + "/"
              + r.get("cache_planned").asText()
              + " calls "
              + r.path("tool_calls")
              + " "
              + r.get("digest").asText());
    }
    return by;
  }

  @Test
  void agentTurnsSendTheirToolResultsAndThePreviousResponseId() throws Exception {
    ProxiedRun server = run(AgentTurnsSimulation.class, "agents-server", "server");
    Map<String, List<ProxiedRun.Exchange>> sessions = bySession(server);
    assertEquals(5, sessions.size(), sessions.keySet().toString());
    for (Map.Entry<String, List<ProxiedRun.Exchange>> e : sessions.entrySet()) {
      List<ProxiedRun.Exchange> turns = e.getValue();
      assertEquals(3, turns.size(), e.getKey());
      JsonNode first = turns.get(0).request();
      assertFalse(first.has("previous_response_id"), first.toString());
      // system prompt and task
      assertEquals(2, first.get("input").size(), first.toString());
      for (int t = 1; t < turns.size(); t++) {
        JsonNode request = turns.get(t).request();
        String what = e.getKey() + " turn " + (t + 1) + ": " + request;
        assertEquals(
            createdId(turns.get(t - 1).reply()),
            request.get("previous_response_id").asText(),
            what);
        List<String> calls = callIds(turns.get(t - 1).reply());
        JsonNode input = request.get("input");
        assertEquals(calls.size(), input.size(), what);
        for (int i = 0; i < calls.size(); i++) {
          assertEquals("function_call_output", input.get(i).get("type").asText(), what);
          assertEquals(calls.get(i), input.get(i).get("call_id").asText(), what);
        }
        // a stored response carries no tools over: sent again
        assertEquals(3, request.get("tools").size(), what);
        assertEquals("auto", request.get("tool_choice").asText(), what);
      }
    }
    JsonNode block = server.run().record().get("sessions").get(0);
    assertEquals(12, block.get("turns_sent").asLong());
    assertEquals(4, block.get("measured").get("ended").get("completed").asLong());
    assertEquals(12, block.get("measured").get("tool_calls").asLong());
    for (JsonNode r : server.run().requests()) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), r.toString());
      if (r.get("turn").asInt() > 1) {
        assertEquals(
            r.get("planned_cached_tokens").asInt(), r.get("cached_tokens").asInt(), r.toString());
      }
    }

    ProxiedRun client = run(AgentTurnsSimulation.class, "agents-client", "client");
    for (ProxiedRun.Exchange x : client.exchanges()) {
      assertFalse(x.request().has("previous_response_id"), x.request().toString());
    }
    assertEquals(figures(client.run()), figures(server.run()));
  }

  @Test
  void conversationTurnsSendTheirUserMessageAndThePreviousResponseId() throws Exception {
    ProxiedRun server = run(ConversationTurnsSimulation.class, "chats-server", "server");
    Map<String, List<ProxiedRun.Exchange>> conversations = bySession(server);
    // 2 warmup and 6 measured conversations
    assertEquals(8, conversations.size(), conversations.keySet().toString());
    int later = 0;
    for (Map.Entry<String, List<ProxiedRun.Exchange>> e : conversations.entrySet()) {
      List<ProxiedRun.Exchange> turns = e.getValue();
      assertTrue(turns.size() >= 3, e.getKey());
      JsonNode first = turns.get(0).request();
      assertFalse(first.has("previous_response_id"), first.toString());
      assertEquals("system", first.at("/input/0/role").asText(), first.toString());
      for (int t = 1; t < turns.size(); t++) {
        JsonNode request = turns.get(t).request();
        String what = e.getKey() + " turn " + (t + 1) + ": " + request;
        assertEquals(
            createdId(turns.get(t - 1).reply()),
            request.get("previous_response_id").asText(),
            what);
        assertEquals(1, request.get("input").size(), what);
        assertEquals("user", request.at("/input/0/role").asText(), what);
        later++;
      }
    }
    assertTrue(later >= 16, "later turns: " + later);
    for (JsonNode r : server.run().requests()) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), r.toString());
    }
    assertTrue(server.run().log.contains("cache as planned"), server.run().log);

    ProxiedRun client = run(ConversationTurnsSimulation.class, "chats-client", "client");
    assertEquals(figures(client.run()), figures(server.run()));
    assertNotNull(server.run().record().get("conversations"));
  }

  @Test
  void serverHistoryOnAnotherApiStopsTheRunBeforeAnyLoad() throws Exception {
    DslRun run =
        DslRun.run(
            ConversationTurnsSimulation.class,
            results,
            "-Dllm.endpoint=messages",
            "-Dllm.responses.history=server");
    run.stopsWithOneLine(
        "llm.responses.history: got \"server\", but llm(\"chat\") speaks messages, which keeps no"
            + " history on the server (only the Responses API has previous_response_id): use"
            + " llm.endpoint=responses (or llm(\"chat\").responses()), or"
            + " llm.responses.history=client");
    assertFalse(DslRun.anyRunRecord(results), run.log);
  }
}
