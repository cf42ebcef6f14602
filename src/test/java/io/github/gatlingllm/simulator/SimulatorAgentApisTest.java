package io.github.gatlingllm.simulator;

import static io.github.gatlingllm.simulator.SimulatorClient.words;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.api.DialectClient;
import io.github.gatlingllm.api.DialectClient.Result;
import io.github.gatlingllm.api.Json;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator calls tools on the Responses and Messages APIs as on chat ({@link
 * SimulatorToolCallTest}): a request with {@code tools} gets one {@code function_call} item or
 * {@code tool_use} block a call, read back by the client's own parsers; threaded back with their
 * results, the calls template as chat's do, so the same history counts the same tokens on every API
 * and finds the previous prompt and reply in the prefix cache.
 */
class SimulatorAgentApisTest {

  private static final String TOOLS =
      "[{\"type\":\"function\",\"function\":{\"name\":\"get_weather\",\"description\":\"Weather"
          + " now\",\"parameters\":{\"type\":\"object\",\"properties\":{\"city\":{\"type\":"
          + "\"string\"},\"days\":{\"type\":\"integer\",\"minimum\":1,\"maximum\":7}},"
          + "\"required\":[\"city\"]}}},{\"type\":\"function\",\"function\":{\"name\":\"search\","
          + "\"parameters\":{\"type\":\"object\",\"properties\":{\"level\":{\"type\":\"string\","
          + "\"enum\":[\"low\",\"high\"]}}}}}]";

  private Simulator simulator;

  @AfterEach
  void stop() {
    if (simulator != null) {
      simulator.close();
    }
  }

  private static RequestSettings settings(boolean stream) {
    return new RequestSettings(WireApi.CHAT, "m", 40, "max_tokens", stream, true, null, null, null);
  }

  private Result send(WireApi api, List<Turn> history, String choice) throws Exception {
    if (simulator == null) {
      simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0);
    }
    Result r =
        DialectClient.send(
            simulator.baseUrl(),
            api,
            api.dialect().agentBody(settings(true), history, Json.MAPPER.readTree(TOOLS), choice),
            null,
            true);
    assertEquals(200, r.status(), r.body());
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome(), r.timings().streamError());
    return r;
  }

  /** Two loops as the agent runs them: the task, then the first reply's calls and results. */
  private void twoLoops(WireApi api, String firstId, String secondIdPrefix) throws Exception {
    List<Turn> history = new ArrayList<>();
    history.add(new Turn.Message("user", words("task", 36)));
    Result first = send(api, history, "auto");
    assertEquals(
        List.of(
            new Turn.ToolCall(firstId, "get_weather", "{\"city\":\"the model is\",\"days\":2}")),
        first.parser().toolCalls());
    assertEquals(46, first.timings().promptTokens());
    assertEquals(8, first.timings().completionTokens());
    history.addAll(first.parser().toolCalls());
    history.add(new Turn.ToolResult(firstId, words("result", 50)));
    Result second = send(api, history, "auto");
    List<Turn.ToolCall> next = second.parser().toolCalls();
    assertEquals(List.of("search", "get_weather"), next.stream().map(Turn.ToolCall::name).toList());
    assertEquals("{\"level\":\"high\"}", next.get(0).arguments());
    assertTrue(next.get(0).id().startsWith(secondIdPrefix), next.get(0).id());
    // the previous prompt and reply less one token (53), rounded down to the 16-token block
    assertEquals(48, second.timings().cachedTokens());
  }

  @Test
  void responsesCallsToolsAsFunctionCallItemsAndFindsTheThreadedCallsCached() throws Exception {
    twoLoops(WireApi.RESPONSES, "call_ea08ea9b96c5f564", "call_");
  }

  @Test
  void messagesCallsToolsAsToolUseBlocksAndFindsTheThreadedCallsCached() throws Exception {
    twoLoops(WireApi.MESSAGES, "toolu_ea08ea9b96c5f564", "toolu_");
  }

  private JsonNode whole(WireApi api) throws Exception {
    simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0);
    Result r =
        DialectClient.send(
            simulator.baseUrl(),
            api,
            api.dialect()
                .agentBody(
                    settings(false),
                    List.of(new Turn.Message("user", words("task", 36))),
                    Json.MAPPER.readTree(TOOLS),
                    "auto"),
            null,
            false);
    assertEquals(200, r.status(), r.body());
    return Json.MAPPER.readTree(r.body());
  }

  @Test
  void notStreamedTheResponseOutputHoldsTheFunctionCall() throws Exception {
    JsonNode output = whole(WireApi.RESPONSES).get("output");
    assertEquals(1, output.size(), output.toString());
    assertEquals(
        "{\"id\":\"fc_1_0\",\"type\":\"function_call\",\"status\":\"completed\","
            + "\"arguments\":\"{\\\"city\\\":\\\"the model is\\\",\\\"days\\\":2}\","
            + "\"call_id\":\"call_ea08ea9b96c5f564\",\"name\":\"get_weather\"}",
        output.get(0).toString());
  }

  @Test
  void notStreamedTheMessageHoldsTheToolUseAndStopsForIt() throws Exception {
    JsonNode message = whole(WireApi.MESSAGES);
    assertEquals("tool_use", message.get("stop_reason").asText());
    assertEquals(
        "[{\"type\":\"tool_use\",\"id\":\"toolu_ea08ea9b96c5f564\",\"name\":\"get_weather\","
            + "\"input\":{\"city\":\"the model is\",\"days\":2}}]",
        message.get("content").toString());
  }
}
