package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ArrayNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Issue 32: agent sessions end to end on the simulator's tool-calling mode (it calls tools in the
 * first 2 loops under {@code tool_choice: auto}). A recording proxy in front of a simulator keeps
 * each chat request's body and session header and the reply's bytes, so the test sees what went on
 * the wire: turn n+1 sends turn n's tool calls exactly as received.
 */
@Tag("forked")
@Tag("parallel")
class AgentSessionRunsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  private record Exchange(String session, JsonNode request, String reply) {}

  private record Proxied(DslRun run, List<Exchange> exchanges) {}

  private Proxied run(String name, String... properties) throws Exception {
    ProxiedRun p = ProxiedRun.run(AgentTurnsSimulation.class, results.resolve(name), properties);
    assertEquals(0, p.run().exitCode, p.run().log);
    List<Exchange> seen = new ArrayList<>();
    for (ProxiedRun.Exchange e : p.exchanges()) {
      seen.add(new Exchange(e.session(), e.request(), e.reply()));
    }
    return new Proxied(p.run(), seen);
  }

  /** The tool calls of a reply, streamed or not: [{id, type, function: {name, arguments}}]. */
  private static ArrayNode replyCalls(String reply) throws Exception {
    ArrayNode calls = JSON.createArrayNode();
    if (!reply.startsWith("data:")) {
      JsonNode c = JSON.readTree(reply).path("choices").path(0).path("message").path("tool_calls");
      if (c.isArray()) {
        calls.addAll((ArrayNode) c);
      }
      return calls;
    }
    Map<Integer, String[]> byIndex = new TreeMap<>();
    for (String line : reply.split("\n")) {
      if (!line.startsWith("data:") || line.contains("[DONE]")) {
        continue;
      }
      JsonNode deltas = JSON.readTree(line.substring(5)).path("choices").path(0).path("delta");
      for (JsonNode d : deltas.path("tool_calls")) {
        String[] call = byIndex.computeIfAbsent(d.path("index").asInt(), i -> new String[3]);
        if (call[0] == null && d.hasNonNull("id")) {
          call[0] = d.get("id").asText();
        }
        JsonNode f = d.path("function");
        if (call[1] == null && f.hasNonNull("name")) {
          call[1] = f.get("name").asText();
        }
        if (f.hasNonNull("arguments")) {
          call[2] = (call[2] == null ? "" : call[2]) + f.get("arguments").asText();
        }
      }
    }
    for (String[] c : byIndex.values()) {
      var o = calls.addObject().put("id", c[0]).put("type", "function");
      o.putObject("function").put("name", c[1]).put("arguments", c[2] == null ? "" : c[2]);
    }
    return calls;
  }

  private static Map<String, List<Exchange>> bySession(List<Exchange> exchanges) {
    Map<String, List<Exchange>> by = new LinkedHashMap<>();
    for (Exchange e : exchanges) {
      if (e.session() != null) {
        by.computeIfAbsent(e.session(), k -> new ArrayList<>()).add(e);
      }
    }
    return by;
  }

  @Test
  void turnsAreThreadedEndsCountedRecordsCarryTheSessionAndTheCacheHoldsItsPlan() throws Exception {
    Proxied p = run("completed");
    Map<String, List<Exchange>> sessions = bySession(p.exchanges());
    // 1 warmup and 4 measured sessions of 3 turns: 2 loops of tool calls, then a plain reply
    assertEquals(5, sessions.size(), sessions.keySet().toString());
    for (Map.Entry<String, List<Exchange>> e : sessions.entrySet()) {
      List<Exchange> turns = e.getValue();
      assertEquals(3, turns.size(), e.getKey());
      for (int t = 0; t + 1 < turns.size(); t++) {
        ArrayNode sent = (ArrayNode) turns.get(t).request().get("messages");
        ArrayNode next = (ArrayNode) turns.get(t + 1).request().get("messages");
        ArrayNode calls = replyCalls(turns.get(t).reply());
        assertTrue(calls.size() > 0, e.getKey() + " turn " + (t + 1) + ": " + turns.get(t).reply());
        // the next turn sends everything so far, then the reply, then one tool message a call
        for (int i = 0; i < sent.size(); i++) {
          assertEquals(sent.get(i), next.get(i), e.getKey() + " message " + i);
        }
        JsonNode assistant = next.get(sent.size());
        assertEquals("assistant", assistant.get("role").asText());
        assertEquals(calls, assistant.get("tool_calls"), e.getKey() + " turn " + (t + 2));
        assertEquals(sent.size() + 1 + calls.size(), next.size(), e.getKey());
        for (int i = 0; i < calls.size(); i++) {
          JsonNode tool = next.get(sent.size() + 1 + i);
          assertEquals("tool", tool.get("role").asText());
          assertEquals(calls.get(i).get("id").asText(), tool.get("tool_call_id").asText());
        }
        assertEquals("auto", turns.get(t).request().get("tool_choice").asText());
        assertEquals(3, turns.get(t).request().get("tools").size());
      }
      assertEquals(0, replyCalls(turns.get(2).reply()).size(), e.getKey());
    }

    JsonNode block = p.run().record().get("sessions").get(0);
    assertEquals("agents", block.get("workload").asText());
    assertEquals(12, block.get("turns_sent").asLong());
    assertEquals(4, block.get("measured").get("count").asLong());
    assertEquals(4, block.get("measured").get("ended").get("completed").asLong());
    assertEquals(0, block.get("measured").get("ended").get("loop_limit").asLong());
    // the simulator's first loop calls 1 tool, its second 2
    assertEquals(12, block.get("measured").get("tool_calls").asLong());
    assertEquals(1, block.get("warmup").get("count").asLong());

    int measured = 0;
    for (JsonNode r : p.run().requests()) {
      if (!"measured".equals(r.get("phase").asText())) {
        continue;
      }
      measured++;
      String id = r.get("session_id").asText();
      assertTrue(id.matches("agenttest-measured-[0-3]"), id);
      int turn = r.get("turn").asInt();
      List<Exchange> turns = sessions.get(id);
      assertNotNull(turns, id);
      assertEquals(replyCalls(turns.get(turn - 1).reply()).size(), r.get("tool_calls").asInt());
      // one user: every turn's cache is as planned, later turns to the token
      assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), r.toString());
      if (turn > 1) {
        assertEquals(
            r.get("planned_cached_tokens").asInt(), r.get("cached_tokens").asInt(), r.toString());
      }
    }
    assertEquals(12, measured);

    // A/A: the same seed twice sends the same texts
    Proxied again = run("again");
    assertEquals(
        block.get("phase_digest").asText(),
        again.run().record().get("sessions").get(0).get("phase_digest").asText());
    assertEquals(digests(p.run().requests()), digests(again.run().requests()));
  }

  private static Map<String, String> digests(List<JsonNode> requests) {
    Map<String, String> by = new TreeMap<>();
    for (JsonNode r : requests) {
      by.put(r.get("session_id").asText() + "#" + r.get("turn").asInt(), r.get("digest").asText());
    }
    return by;
  }

  @Test
  void aLoopLimitAndAContextLimitEndSessions() throws Exception {
    JsonNode loops = run("loops", "-Dllm.agent.toolCalls=1").run().record().get("sessions").get(0);
    assertEquals(4, loops.get("measured").get("ended").get("loop_limit").asLong());
    assertEquals(8, loops.get("turns_sent").asLong());

    // turns 1 and 2 fit 300 tokens with max_tokens 24; turn 3 (two more tool results) does not
    DslRun windowRun = run("window", "-Dllm.maxContextTokens=300").run();
    JsonNode window = windowRun.record().get("sessions").get(0);
    assertEquals(4, window.get("measured").get("ended").get("context_limit").asLong());
    assertEquals(8, window.get("turns_sent").asLong(), windowRun.requests().toString());
    for (JsonNode r : windowRun.requests()) {
      assertTrue(r.get("prompt_tokens").asInt() + 24 <= 300, r.toString());
    }
  }

  /** The tool calls of a Responses or Messages stream, in order: [id, name, arguments]. */
  private static List<List<String>> streamedCalls(String reply) throws Exception {
    List<List<String>> calls = new ArrayList<>();
    StringBuilder input = null;
    String[] open = null;
    for (String line : reply.split("\n")) {
      if (!line.startsWith("data:")) {
        continue;
      }
      JsonNode e = JSON.readTree(line.substring(5));
      String type = e.path("type").asText();
      if (type.equals("response.output_item.done")
          && e.path("item").path("type").asText().equals("function_call")) {
        JsonNode item = e.get("item");
        calls.add(
            List.of(
                item.get("call_id").asText(),
                item.get("name").asText(),
                item.get("arguments").asText()));
      } else if (type.equals("content_block_start")
          && e.path("content_block").path("type").asText().equals("tool_use")) {
        open =
            new String[] {
              e.get("content_block").get("id").asText(), e.get("content_block").get("name").asText()
            };
        input = new StringBuilder();
      } else if (type.equals("content_block_delta")
          && e.path("delta").path("type").asText().equals("input_json_delta")) {
        input.append(e.get("delta").get("partial_json").asText());
      } else if (type.equals("content_block_stop") && open != null) {
        calls.add(List.of(open[0], open[1], input.toString()));
        open = null;
      }
    }
    return calls;
  }

  /** The history array a Responses ({@code input}) or Messages ({@code messages}) body sends. */
  private static JsonNode history(JsonNode request) {
    return request.has("input") ? request.get("input") : request.get("messages");
  }

  /** Every tool call a Responses or Messages body threads back, in order: [id, name, arguments]. */
  private static List<List<String>> sentCalls(JsonNode request) {
    List<List<String>> calls = new ArrayList<>();
    for (JsonNode item : history(request)) {
      if (item.path("type").asText().equals("function_call")) {
        calls.add(
            List.of(
                item.get("call_id").asText(),
                item.get("name").asText(),
                item.get("arguments").asText()));
      }
      for (JsonNode block : item.path("content")) {
        if (block.path("type").asText().equals("tool_use")) {
          calls.add(
              List.of(
                  block.get("id").asText(),
                  block.get("name").asText(),
                  block.get("input").toString()));
        }
      }
    }
    return calls;
  }

  private void runsOn(String endpoint) throws Exception {
    Proxied p = run(endpoint, "-Dllm.endpoint=" + endpoint);
    JsonNode block = p.run().record().get("sessions").get(0);
    assertEquals(12, block.get("turns_sent").asLong(), p.run().log);
    assertEquals(4, block.get("measured").get("ended").get("completed").asLong());
    assertEquals(12, block.get("measured").get("tool_calls").asLong());

    Map<String, List<Exchange>> sessions = bySession(p.exchanges());
    assertEquals(5, sessions.size(), sessions.keySet().toString());
    for (Map.Entry<String, List<Exchange>> e : sessions.entrySet()) {
      List<Exchange> turns = e.getValue();
      assertEquals(3, turns.size(), e.getKey());
      for (int t = 0; t + 1 < turns.size(); t++) {
        JsonNode sent = history(turns.get(t).request());
        JsonNode next = history(turns.get(t + 1).request());
        for (int i = 0; i < sent.size(); i++) {
          assertEquals(sent.get(i), next.get(i), e.getKey() + " item " + i);
        }
        List<List<String>> replied = streamedCalls(turns.get(t).reply());
        assertTrue(replied.size() > 0, e.getKey() + " turn " + (t + 1));
        List<List<String>> threaded = new ArrayList<>(sentCalls(turns.get(t).request()));
        threaded.addAll(replied);
        // the calls as received, byte for byte (Messages: the input object as streamed)
        assertEquals(threaded, sentCalls(turns.get(t + 1).request()), e.getKey());
      }
      assertEquals(0, streamedCalls(turns.get(2).reply()).size(), e.getKey());
      JsonNode request = turns.get(0).request();
      assertEquals(3, request.get("tools").size());
      if (endpoint.equals("responses")) {
        assertEquals("function", request.at("/tools/0/type").asText());
        assertTrue(request.at("/tools/0/parameters").isObject(), request.toString());
        assertEquals("auto", request.get("tool_choice").asText());
      } else {
        assertTrue(request.at("/tools/0/input_schema").isObject(), request.toString());
        assertEquals("{\"type\":\"auto\"}", request.get("tool_choice").toString());
      }
    }

    int measured = 0;
    for (JsonNode r : p.run().requests()) {
      if (!"measured".equals(r.get("phase").asText())) {
        continue;
      }
      measured++;
      String id = r.get("session_id").asText();
      int turn = r.get("turn").asInt();
      assertEquals(
          streamedCalls(sessions.get(id).get(turn - 1).reply()).size(),
          r.get("tool_calls").asInt());
      assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), r.toString());
      if (turn > 1) {
        assertEquals(
            r.get("planned_cached_tokens").asInt(), r.get("cached_tokens").asInt(), r.toString());
      }
    }
    assertEquals(12, measured);
  }

  @Test
  void onTheResponsesApiSessionsThreadFunctionCallsAndCacheAsPlanned() throws Exception {
    runsOn("responses");
  }

  @Test
  void onTheMessagesApiSessionsThreadToolUseBlocksAndCacheAsPlanned() throws Exception {
    runsOn("messages");
  }

  /** The tool calls of a whole Responses or Messages body, in order: [id, name, arguments]. */
  private static List<List<String>> bodyCalls(String reply) throws Exception {
    List<List<String>> calls = new ArrayList<>();
    JsonNode body = JSON.readTree(reply);
    for (JsonNode item : body.path("output")) {
      if (item.path("type").asText().equals("function_call")) {
        calls.add(
            List.of(
                item.get("call_id").asText(),
                item.get("name").asText(),
                item.get("arguments").asText()));
      }
    }
    for (JsonNode block : body.path("content")) {
      if (block.path("type").asText().equals("tool_use")) {
        calls.add(
            List.of(
                block.get("id").asText(),
                block.get("name").asText(),
                block.get("input").toString()));
      }
    }
    return calls;
  }

  @ParameterizedTest
  @ValueSource(strings = {"responses", "messages"})
  void nonStreamedSessionsReadTheirCallsFromTheWholeBody(String endpoint) throws Exception {
    Proxied p = run(endpoint + "-whole", "-Dllm.endpoint=" + endpoint, "-Dllm.stream=false");
    JsonNode block = p.run().record().get("sessions").get(0);
    assertEquals(12, block.get("turns_sent").asLong(), p.run().log);
    assertEquals(4, block.get("measured").get("ended").get("completed").asLong());
    assertEquals(12, block.get("measured").get("tool_calls").asLong());
    assertEquals(0, block.get("measured").get("malformed_tool_calls").asLong());
    Map<String, List<Exchange>> sessions = bySession(p.exchanges());
    assertEquals(5, sessions.size(), sessions.keySet().toString());
    for (Map.Entry<String, List<Exchange>> e : sessions.entrySet()) {
      List<Exchange> turns = e.getValue();
      assertEquals(3, turns.size(), e.getKey());
      for (int t = 0; t + 1 < turns.size(); t++) {
        assertFalse(turns.get(t).request().get("stream").asBoolean());
        List<List<String>> replied = bodyCalls(turns.get(t).reply());
        assertTrue(replied.size() > 0, e.getKey() + " turn " + (t + 1));
        List<List<String>> threaded = new ArrayList<>(sentCalls(turns.get(t).request()));
        threaded.addAll(replied);
        assertEquals(threaded, sentCalls(turns.get(t + 1).request()), e.getKey());
      }
      assertEquals(0, bodyCalls(turns.get(2).reply()).size(), e.getKey());
    }
    for (JsonNode r : p.run().requests()) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      if ("measured".equals(r.get("phase").asText())) {
        String id = r.get("session_id").asText();
        int turn = r.get("turn").asInt();
        assertEquals(
            bodyCalls(sessions.get(id).get(turn - 1).reply()).size(), r.get("tool_calls").asInt());
        assertEquals(r.get("cache_planned").asText(), r.get("cache").asText(), r.toString());
      }
    }
  }

  @Test
  void onMessagesCallsCutAtTheOutputLimitAreThreadedAsObjectsAndCounted() throws Exception {
    // 6 output tokens cut the simulator's tool calls mid-arguments (finish max_tokens)
    Proxied p = run("messages-cut", "-Dllm.endpoint=messages", "-Dllm.outputTokens=6");
    JsonNode measured = p.run().record().get("sessions").get(0).get("measured");
    assertTrue(measured.get("malformed_tool_calls").asLong() > 0, measured.toString());
    assertEquals(0, measured.get("ended").get("error").asLong(), measured.toString());
    assertFalse(p.run().log.contains("not sent"), p.run().log);
    int cut = 0;
    for (Map.Entry<String, List<Exchange>> e : bySession(p.exchanges()).entrySet()) {
      List<Exchange> turns = e.getValue();
      for (int t = 0; t + 1 < turns.size(); t++) {
        List<List<String>> replied = streamedCalls(turns.get(t).reply());
        List<List<String>> sent = sentCalls(turns.get(t + 1).request());
        List<List<String>> threaded = sent.subList(sent.size() - replied.size(), sent.size());
        for (int i = 0; i < replied.size(); i++) {
          String received = replied.get(i).get(2);
          JsonNode input = JSON.readTree(threaded.get(i).get(2));
          assertTrue(input.isObject(), e.getKey() + ": " + threaded.get(i));
          assertEquals(replied.get(i).subList(0, 2), threaded.get(i).subList(0, 2), e.getKey());
          boolean whole;
          try {
            whole = JSON.readTree(received).isObject();
          } catch (java.io.IOException x) {
            whole = false;
          }
          if (!whole) {
            cut++;
            // the received start of the object, closed: every key received that had a value
            assertTrue(received.startsWith("{"), received);
          } else {
            assertEquals(JSON.readTree(received), input, e.getKey());
          }
        }
      }
    }
    assertTrue(cut > 0, "no call was cut");
  }
}
