package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ResponsesDialectTest {

  private static final Dialect RESPONSES = WireApi.RESPONSES.dialect();
  private static final RequestSettings STREAMING =
      RequestSettings.streaming(WireApi.CHAT, "qwen3", 64);

  private static final String TOOLS =
      "[{\"type\":\"function\",\"function\":{\"name\":\"grep\",\"description\":\"Search files.\","
          + "\"parameters\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}}]";

  private static final List<Turn> AGENT_HISTORY =
      List.of(
          new Turn.Message("system", "Be terse."),
          new Turn.Message("user", "Fix the bug."),
          new Turn.ToolCall("call_1", "grep", "{\"q\":\"bug\"}"),
          new Turn.ToolResult("call_1", "src/A.java:3"));

  @Test
  void promptBodyIsInputWithMaxOutputTokens() {
    assertEquals(
        "{\"model\":\"qwen3\",\"input\":\"Hello\",\"stream\":true,\"max_output_tokens\":64}",
        RESPONSES.body(STREAMING, "Hello"));
  }

  @Test
  void promptBodyWritesTheOptionalFieldsAndExtrasLast() {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("store", false);
    extra.put("reasoning", Map.of("summary", "auto"));
    RequestSettings s =
        new RequestSettings(
            WireApi.COMPLETIONS, "m", 8, "max_completion_tokens", false, true, true, 0.5, extra);
    assertEquals(
        "{\"model\":\"m\",\"input\":\"x\",\"stream\":false,\"max_output_tokens\":8,"
            + "\"ignore_eos\":true,\"temperature\":0.5,\"store\":false,"
            + "\"reasoning\":{\"summary\":\"auto\"}}",
        RESPONSES.body(s, "x"));
  }

  @Test
  void historyIsInputItemsWithFunctionCallsAndOutputs() {
    List<Turn> history =
        List.of(
            new Turn.Message("system", "Be terse."),
            new Turn.Message("user", "Weather in Paris?"),
            new Turn.Message("assistant", "Checking."),
            new Turn.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"),
            new Turn.ToolResult("call_1", "{\"temp\":21}"),
            new Turn.Message("user", "Thanks"));
    assertEquals(
        "{\"model\":\"qwen3\",\"input\":["
            + "{\"type\":\"message\",\"role\":\"system\",\"content\":\"Be terse.\"},"
            + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
            + "{\"type\":\"message\",\"role\":\"assistant\","
            + "\"content\":[{\"type\":\"output_text\",\"text\":\"Checking.\"}]},"
            + "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"get_weather\","
            + "\"arguments\":\"{\\\"city\\\":\\\"Paris\\\"}\"},"
            + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\","
            + "\"output\":\"{\\\"temp\\\":21}\"},"
            + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Thanks\"}],"
            + "\"stream\":true,\"max_output_tokens\":64}",
        RESPONSES.body(STREAMING, history));
  }

  @Test
  void serverHistoryNamesThePreviousResponseAndSendsOnlyNewItems() {
    assertTrue(RESPONSES.keepsHistoryOnServer());
    assertEquals(
        "{\"model\":\"qwen3\",\"previous_response_id\":\"resp_1\",\"input\":["
            + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"And tomorrow?\"}],"
            + "\"stream\":true,\"max_output_tokens\":64}",
        RESPONSES.body(STREAMING, List.of(new Turn.Message("user", "And tomorrow?")), "resp_1"));
  }

  @Test
  void emptyHistoryIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RESPONSES.body(STREAMING, List.of()));
    assertEquals("history must hold at least one turn, got none", e.getMessage());
  }

  @Test
  void extraBodyMustNotSetInput() {
    RequestSettings s =
        new RequestSettings(
            WireApi.CHAT, "m", 8, "max_tokens", true, true, null, null, Map.of("input", "x"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RESPONSES.check(s));
    assertEquals(
        "extraBody must not set \"input\": the responses body sets it; reserved keys there: model,"
            + " input, stream, max_output_tokens, previous_response_id",
        e.getMessage());
  }

  @Test
  void keyGoesInAuthorization() {
    assertEquals(Map.of("Authorization", "Bearer sk-1"), RESPONSES.headers("sk-1"));
    assertEquals(Map.of(), RESPONSES.headers(null));
  }

  @Test
  void pathAndTerminalEvent() {
    assertEquals("responses", RESPONSES.path());
    assertEquals("response.completed", RESPONSES.terminalEvent());
  }

  @Test
  void nonStreamedBodyFromLlamaCpp() {
    StreamEvent e =
        RESPONSES.parseResponse(
            "{\"completed_at\":1796185954,\"created_at\":1796185954,"
                + "\"id\":\"resp_uDP9Ul0T5Sl53LUCzT5s4qJilMxAimh8\",\"model\":\"qwen3-vocab-random\","
                + "\"object\":\"response\",\"output\":[{\"content\":[{\"type\":\"output_text\","
                + "\"annotations\":[],\"logprobs\":[],\"text\":\"x Mbps灯具\"}],"
                + "\"id\":\"msg_z9lK\",\"role\":\"assistant\",\"status\":\"completed\","
                + "\"type\":\"message\"}],\"status\":\"completed\",\"usage\":{\"input_tokens\":10,"
                + "\"output_tokens\":3,\"total_tokens\":13,"
                + "\"input_tokens_details\":{\"cached_tokens\":5}}}");
    assertEquals(StreamEvent.Kind.CHUNK, e.kind());
    assertEquals("x Mbps灯具", e.content());
    assertEquals(new Usage(10, 3, 5, null), e.usage());
    assertEquals("completed", e.finishReason());
    assertNull(e.reasoning());
  }

  @Test
  void nonStreamedBodyWithReasoningAndFunctionCall() {
    StreamEvent e =
        RESPONSES.parseResponse(
            "{\"object\":\"response\",\"status\":\"incomplete\",\"error\":null,"
                + "\"incomplete_details\":{\"reason\":\"max_output_tokens\"},"
                + "\"output\":[{\"type\":\"reasoning\",\"summary\":[{\"type\":\"summary_text\","
                + "\"text\":\"Think.\"}]},{\"type\":\"function_call\",\"call_id\":\"c\","
                + "\"name\":\"f\",\"arguments\":\"{}\"}],\"usage\":{\"input_tokens\":4,"
                + "\"output_tokens\":9,\"output_tokens_details\":{\"reasoning_tokens\":7}}}");
    assertEquals("Think.", e.reasoning());
    assertEquals(1, e.toolCallDeltas());
    assertEquals(new Usage(4, 9, null, 7), e.usage());
    assertEquals("max_output_tokens", e.finishReason());
  }

  @Test
  void errorBodyOfLlamaCpp() {
    String body =
        "{\"error\":{\"code\":400,\"message\":\"llama.cpp does not support"
            + " 'previous_response_id'.\",\"type\":\"invalid_request_error\"}}";
    StreamEvent e = RESPONSES.parseResponse(body);
    assertEquals(StreamEvent.Kind.ERROR, e.kind());
    assertEquals(
        "invalid_request_error (400): llama.cpp does not support 'previous_response_id'.",
        e.error().describe());
    assertEquals(
        "invalid_request_error (400): llama.cpp does not support 'previous_response_id'.",
        RESPONSES.describeError(body, "application/json"));
  }

  @Test
  void notJsonIsMalformed() {
    StreamEvent e = RESPONSES.parseResponse("<html>");
    assertEquals(StreamEvent.Kind.MALFORMED, e.kind());
  }

  @Test
  void agentBodyWritesFlatFunctionToolsAndToolChoice() throws Exception {
    assertEquals(
        "{\"model\":\"qwen3\",\"input\":["
            + "{\"type\":\"message\",\"role\":\"system\",\"content\":\"Be terse.\"},"
            + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Fix the bug.\"},"
            + "{\"type\":\"function_call\",\"call_id\":\"call_1\",\"name\":\"grep\","
            + "\"arguments\":\"{\\\"q\\\":\\\"bug\\\"}\"},"
            + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"src/A.java:3\"}],"
            + "\"tools\":[{\"type\":\"function\",\"name\":\"grep\",\"description\":\"Search files.\","
            + "\"parameters\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}],"
            + "\"tool_choice\":\"required\",\"stream\":true,\"max_output_tokens\":64}",
        RESPONSES.agentBody(STREAMING, AGENT_HISTORY, Json.MAPPER.readTree(TOOLS), "required"));
  }

  @Test
  void agentBodyWithoutToolsWritesNoToolChoice() {
    assertEquals(
        "{\"model\":\"qwen3\",\"input\":["
            + "{\"type\":\"message\",\"role\":\"user\",\"content\":\"Fix the bug.\"}],"
            + "\"stream\":true,\"max_output_tokens\":64}",
        RESPONSES.agentBody(
            STREAMING, List.of(new Turn.Message("user", "Fix the bug.")), null, "auto"));
  }

  @Test
  void agentBodyOfServerHistoryNamesThePreviousResponseAndSendsToolsAgain() throws Exception {
    assertEquals(
        "{\"model\":\"qwen3\",\"previous_response_id\":\"resp_7\",\"input\":["
            + "{\"type\":\"function_call_output\",\"call_id\":\"call_1\",\"output\":\"src/A.java:3\"}],"
            + "\"tools\":[{\"type\":\"function\",\"name\":\"grep\",\"description\":\"Search files.\","
            + "\"parameters\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}],"
            + "\"tool_choice\":\"auto\",\"stream\":true,\"max_output_tokens\":64}",
        RESPONSES.agentBody(
            STREAMING,
            List.of(new Turn.ToolResult("call_1", "src/A.java:3")),
            Json.MAPPER.readTree(TOOLS),
            "auto",
            "resp_7"));
  }

  @Test
  void nonStreamedFunctionCallsAreToolCallEntries() {
    StreamEvent e =
        RESPONSES.parseResponse(
            "{\"id\":\"resp_9\",\"object\":\"response\",\"status\":\"completed\","
                + "\"output\":[{\"type\":\"function_call\",\"call_id\":\"call_a\",\"name\":\"grep\","
                + "\"arguments\":\"{\\\"q\\\":\\\"x\\\"}\"},{\"type\":\"function_call\","
                + "\"call_id\":\"call_b\",\"name\":\"ls\",\"arguments\":\"{\\\"p\\\":\"}],"
                + "\"usage\":{\"input_tokens\":4,\"output_tokens\":9}}");
    assertEquals(
        List.of(
            new ToolCallDelta(0, "call_a", "grep", "{\"q\":\"x\"}"),
            new ToolCallDelta(1, "call_b", "ls", "{\"p\":")),
        e.toolCalls());
    assertEquals(2, e.toolCallDeltas());
  }

  @Test
  void nonStreamedBodyGivesItsIdForTheNextTurn() {
    assertEquals(
        "resp_9",
        RESPONSES.responseId(
            "{\"id\":\"resp_9\",\"object\":\"response\",\"error\":null,\"output\":[]}"));
  }

  @Test
  void anErrorBodyGivesNoId() {
    assertNull(
        RESPONSES.responseId(
            "{\"id\":\"x\",\"error\":{\"message\":\"no\",\"type\":\"invalid_request_error\"}}"));
  }
}
