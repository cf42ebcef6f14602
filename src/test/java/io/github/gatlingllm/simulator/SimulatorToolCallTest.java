package io.github.gatlingllm.simulator;

import static io.github.gatlingllm.simulator.SimulatorClient.body;
import static io.github.gatlingllm.simulator.SimulatorClient.words;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.ToolCall;
import io.github.gatlingllm.api.ToolCallAssembly;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator's tool-calling mode: a chat request with {@code tools} gets streamed {@code
 * tool_calls} deltas as OpenAI sends them for its first {@value ToolTurns#AUTO_TOOL_TURNS} loops
 * under {@code tool_choice: auto}, then a text answer; the calls and results threaded back are
 * found in the prefix cache.
 */
class SimulatorToolCallTest {

  private static final String CHAT = "/v1/chat/completions";
  private static final String CACHED = "/usage/prompt_tokens_details/cached_tokens";

  private static final Map<String, Object> WEATHER =
      Map.of(
          "type",
          "function",
          "function",
          body(
              "name",
              "get_weather",
              "description",
              "Weather now",
              "parameters",
              body(
                  "type",
                  "object",
                  "properties",
                  body(
                      "city",
                      Map.of("type", "string"),
                      "days",
                      body("type", "integer", "minimum", 1, "maximum", 7)),
                  "required",
                  List.of("city"))));

  private static final Map<String, Object> SEARCH =
      Map.of(
          "type",
          "function",
          "function",
          body(
              "name",
              "search",
              "parameters",
              body(
                  "type",
                  "object",
                  "properties",
                  body("level", body("type", "string", "enum", List.of("low", "high"))))));

  private Simulator simulator;

  private SimulatorClient client() {
    simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0);
    return new SimulatorClient(simulator);
  }

  @AfterEach
  void stop() {
    if (simulator != null) {
      simulator.close();
    }
  }

  private static Map<String, Object> request(List<?> messages, Object... more) {
    Map<String, Object> map =
        body(
            "model",
            "any",
            "messages",
            messages,
            "tools",
            List.of(WEATHER, SEARCH),
            "max_tokens",
            40,
            "stream",
            true,
            "stream_options",
            Map.of("include_usage", true));
    map.putAll(body(more));
    return map;
  }

  private static ToolCallAssembly assemble(SimulatorClient.SseResponse response) {
    ToolCallAssembly calls = new ToolCallAssembly();
    for (SimulatorClient.Event e : response.events()) {
      calls.add(StreamEvent.parse(e.data(), true).toolCalls());
    }
    return calls;
  }

  private static String finishReason(SimulatorClient.SseResponse response) {
    for (SimulatorClient.Event e : response.events()) {
      if (!e.done()
          && !e.json().at("/choices/0/finish_reason").isMissingNode()
          && !e.json().at("/choices/0/finish_reason").isNull()) {
        return e.json().at("/choices/0/finish_reason").asText();
      }
    }
    return null;
  }

  private static JsonNode usage(SimulatorClient.SseResponse response) {
    for (SimulatorClient.Event e : response.events()) {
      if (!e.done() && e.json().has("usage")) {
        return e.json().get("usage");
      }
    }
    throw new AssertionError("no usage");
  }

  private static Map<String, Object> assistant(List<ToolCall> calls) {
    List<Object> wire = new ArrayList<>();
    for (ToolCall c : calls) {
      wire.add(
          body(
              "id",
              c.id(),
              "type",
              "function",
              "function",
              body("name", c.name(), "arguments", c.arguments())));
    }
    Map<String, Object> m = body("role", "assistant", "content", null, "tool_calls", wire);
    return m;
  }

  private static Map<String, Object> tool(String id, String content) {
    return body("role", "tool", "tool_call_id", id, "content", content);
  }

  @Test
  void theFirstTurnStreamsOneToolCallAsOpenAiDoes() {
    SimulatorClient client = client();
    SimulatorClient.SseResponse r =
        client.stream(CHAT, request(List.of(Map.of("role", "user", "content", words("task", 30)))));
    List<ToolCall> calls = assemble(r).calls();
    assertEquals(1, calls.size());
    assertEquals("get_weather", calls.get(0).name());
    assertEquals("{\"city\":\"the model is\",\"days\":2}", calls.get(0).arguments());
    assertEquals(true, calls.get(0).wellFormed());
    assertEquals("tool_calls", finishReason(r));
    // <tool_call> {"name": "get_weather", "arguments": {"city":"the model is","days":2}}
    // </tool_call>: 8 whitespace words
    assertEquals(8, usage(r).get("completion_tokens").asInt());
  }

  @Test
  void theHeadDeltaCarriesIndexIdTypeNameAndEmptyArguments() {
    SimulatorClient client = client();
    SimulatorClient.SseResponse r =
        client.stream(CHAT, request(List.of(Map.of("role", "user", "content", "hi"))));
    JsonNode head = null;
    for (SimulatorClient.Event e : r.events()) {
      if (!e.done() && e.json().at("/choices/0/delta").has("tool_calls")) {
        head = e.json().at("/choices/0/delta/tool_calls/0");
        break;
      }
    }
    assertEquals(0, head.get("index").asInt());
    assertEquals("function", head.get("type").asText());
    assertEquals("get_weather", head.at("/function/name").asText());
    assertEquals("", head.at("/function/arguments").asText());
    assertEquals(21, head.get("id").asText().length());
  }

  @Test
  void theSameRequestGetsTheSameCallIds() {
    SimulatorClient client = client();
    Map<String, Object> body = request(List.of(Map.of("role", "user", "content", "same")));
    assertEquals(
        assemble(client.stream(CHAT, body)).calls(), assemble(client.stream(CHAT, body)).calls());
  }

  @Test
  void theSecondLoopCallsTwoToolsAndFindsThePreviousPromptAndReplyCached() {
    SimulatorClient client = client();
    Map<String, Object> task = Map.of("role", "user", "content", words("task", 36));
    SimulatorClient.SseResponse first = client.stream(CHAT, request(List.of(task)));
    List<ToolCall> calls = assemble(first).calls();
    int prompt = usage(first).get("prompt_tokens").asInt();
    int reply = usage(first).get("completion_tokens").asInt();
    SimulatorClient.SseResponse second =
        client.stream(
            CHAT,
            request(List.of(task, assistant(calls), tool(calls.get(0).id(), words("result", 50)))));
    List<ToolCall> next = assemble(second).calls();
    assertEquals(List.of("search", "get_weather"), next.stream().map(ToolCall::name).toList());
    assertEquals("{\"level\":\"high\"}", next.get(0).arguments());
    assertEquals("{\"city\":\"is running in\",\"days\":4}", next.get(1).arguments());
    assertEquals(46, prompt);
    assertEquals(8, reply);
    // the previous prompt and reply less one token (53), rounded down to the 16-token block: 48;
    // without the reply's blocks cached, 32
    assertEquals(48, usage(second).at("/prompt_tokens_details/cached_tokens").asInt());
    assertEquals(
        (prompt + reply - 1) / 16 * 16,
        usage(second).at("/prompt_tokens_details/cached_tokens").asInt());
  }

  @Test
  void afterTwoLoopsAutoAnswersInText() {
    SimulatorClient client = client();
    List<Object> messages = new ArrayList<>();
    messages.add(Map.of("role", "user", "content", "go"));
    for (int loop = 0; loop < ToolTurns.AUTO_TOOL_TURNS; loop++) {
      List<ToolCall> calls = assemble(client.stream(CHAT, request(messages))).calls();
      messages.add(assistant(calls));
      for (ToolCall c : calls) {
        messages.add(tool(c.id(), "ok"));
      }
    }
    SimulatorClient.SseResponse answer = client.stream(CHAT, request(messages, "max_tokens", 5));
    assertEquals(true, assemble(answer).isEmpty());
    assertEquals(5, answer.contentEvents().size());
    assertEquals("length", finishReason(answer));
  }

  @Test
  void requiredCallsToolsAfterTwoLoopsToo() {
    SimulatorClient client = client();
    List<Object> messages = new ArrayList<>();
    messages.add(Map.of("role", "user", "content", "go"));
    for (int loop = 0; loop < ToolTurns.AUTO_TOOL_TURNS; loop++) {
      List<ToolCall> calls = assemble(client.stream(CHAT, request(messages))).calls();
      messages.add(assistant(calls));
      for (ToolCall c : calls) {
        messages.add(tool(c.id(), "ok"));
      }
    }
    assertEquals(
        1,
        assemble(client.stream(CHAT, request(messages, "tool_choice", "required"))).calls().size());
  }

  @Test
  void aNamedFunctionIsTheOneCalled() {
    SimulatorClient client = client();
    Map<String, Object> choice = Map.of("type", "function", "function", Map.of("name", "search"));
    List<ToolCall> calls =
        assemble(
                client.stream(
                    CHAT,
                    request(
                        List.of(Map.of("role", "user", "content", "go")), "tool_choice", choice)))
            .calls();
    assertEquals(List.of("search"), calls.stream().map(ToolCall::name).toList());
  }

  @Test
  void noneAnswersInText() {
    SimulatorClient client = client();
    SimulatorClient.SseResponse r =
        client.stream(
            CHAT, request(List.of(Map.of("role", "user", "content", "go")), "tool_choice", "none"));
    assertEquals(true, assemble(r).isEmpty());
    assertEquals("length", finishReason(r));
  }

  @Test
  void aReplyCutAtMaxTokensHasMalformedArguments() {
    SimulatorClient client = client();
    SimulatorClient.SseResponse r =
        client.stream(
            CHAT, request(List.of(Map.of("role", "user", "content", "go")), "max_tokens", 4));
    ToolCallAssembly calls = assemble(r);
    assertEquals(1, calls.malformed());
    assertEquals("length", finishReason(r));
    assertEquals(4, usage(r).get("completion_tokens").asInt());
  }

  @Test
  void notStreamedTheMessageCarriesTheCalls() {
    SimulatorClient client = client();
    JsonNode r =
        client
            .post(CHAT, request(List.of(Map.of("role", "user", "content", "go")), "stream", false))
            .json();
    assertEquals("tool_calls", r.at("/choices/0/finish_reason").asText());
    assertEquals(true, r.at("/choices/0/message/content").isNull());
    assertEquals("get_weather", r.at("/choices/0/message/tool_calls/0/function/name").asText());
    assertEquals(
        "{\"city\":\"the model is\",\"days\":2}",
        r.at("/choices/0/message/tool_calls/0/function/arguments").asText());
  }

  @Test
  void aToolResultAnsweringNoCallIsRefused() {
    SimulatorClient client = client();
    SimulatorClient.Response r =
        client.post(
            CHAT,
            request(
                List.of(
                    Map.of("role", "user", "content", "go"),
                    assistant(List.of(new ToolCall("call_a", "search", "{}", true))),
                    tool("call_b", "ok"))));
    assertEquals(400, r.status());
    assertEquals(
        "'messages[2].tool_call_id' is 'call_b', which answers no tool call of the assistant"
            + " message before it",
        r.json().at("/error/message").asText());
  }

  @Test
  void anUnknownToolChoiceIsRefused() {
    SimulatorClient client = client();
    SimulatorClient.Response r =
        client.post(
            CHAT, request(List.of(Map.of("role", "user", "content", "go")), "tool_choice", "any"));
    assertEquals(400, r.status());
    assertEquals(
        "'tool_choice' must be \"none\", \"auto\", \"required\" or {\"type\": \"function\","
            + " \"function\": {\"name\": ...}}, got \"any\"",
        r.json().at("/error/message").asText());
  }

  @Test
  void aNamedFunctionNotInToolsIsRefused() {
    SimulatorClient client = client();
    Map<String, Object> choice = Map.of("type", "function", "function", Map.of("name", "nope"));
    SimulatorClient.Response r =
        client.post(
            CHAT, request(List.of(Map.of("role", "user", "content", "go")), "tool_choice", choice));
    assertEquals(400, r.status());
    assertEquals(
        "'tool_choice' names function 'nope', which is not in 'tools'",
        r.json().at("/error/message").asText());
  }

  @Test
  void aToolWithoutANameIsRefused() {
    SimulatorClient client = client();
    Map<String, Object> body = request(List.of(Map.of("role", "user", "content", "go")));
    body.put("tools", List.of(Map.of("type", "function", "function", Map.of("description", "x"))));
    SimulatorClient.Response r = client.post(CHAT, body);
    assertEquals(400, r.status());
    assertEquals(
        "'tools[0].function.name' must be a non-empty string, got nothing",
        r.json().at("/error/message").asText());
  }
}
