package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class MessagesDialectTest {

  private static final Dialect MESSAGES = WireApi.MESSAGES.dialect();
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
  void promptBodyAlwaysSendsMaxTokens() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}],"
            + "\"stream\":true,\"max_tokens\":64}",
        MESSAGES.body(STREAMING, "Hello"));
  }

  @Test
  void maxTokensIsSentUnderItsOwnNameWhateverTheChatFieldSetting() {
    RequestSettings s =
        new RequestSettings(
            WireApi.CHAT, "m", 5, "max_completion_tokens", false, true, null, null, null);
    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],"
            + "\"stream\":false,\"max_tokens\":5}",
        MESSAGES.body(s, "x"));
  }

  @Test
  void historyPutsSystemOnTopAndToolsInContentBlocks() {
    List<Turn> history =
        List.of(
            new Turn.Message("system", "Be terse."),
            new Turn.Message("user", "Weather in Paris?"),
            new Turn.Message("assistant", "Checking."),
            new Turn.ToolCall("toolu_1", "get_weather", "{\"city\":\"Paris\"}"),
            new Turn.ToolResult("toolu_1", "21 C"),
            new Turn.Message("user", "Thanks"),
            new Turn.Message("assistant", "You are welcome."),
            new Turn.Message("user", "Bye"));
    assertEquals(
        "{\"model\":\"qwen3\",\"system\":\"Be terse.\",\"messages\":["
            + "{\"role\":\"user\",\"content\":\"Weather in Paris?\"},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"text\",\"text\":\"Checking.\"},"
            + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"get_weather\","
            + "\"input\":{\"city\":\"Paris\"}}]},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\","
            + "\"tool_use_id\":\"toolu_1\",\"content\":\"21 C\"},"
            + "{\"type\":\"text\",\"text\":\"Thanks\"}]},"
            + "{\"role\":\"assistant\",\"content\":\"You are welcome.\"},"
            + "{\"role\":\"user\",\"content\":\"Bye\"}],"
            + "\"stream\":true,\"max_tokens\":64}",
        MESSAGES.body(STREAMING, history));
  }

  @Test
  void blankArgumentsAreAnEmptyInput() {
    String body =
        MESSAGES.body(
            STREAMING,
            List.of(new Turn.Message("user", "Now?"), new Turn.ToolCall("t", "clock", "")));
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"Now?\"},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\","
            + "\"name\":\"clock\",\"input\":{}}]}],\"stream\":true,\"max_tokens\":64}",
        body);
  }

  @Test
  void argumentsCutShortAreSentAsTheObjectTheirStartMakes() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\","
            + "\"name\":\"f\",\"input\":{\"path\":\"src/ma\"}}]}],\"stream\":true,\"max_tokens\":64}",
        MESSAGES.body(
            STREAMING,
            List.of(
                new Turn.Message("user", "x"), new Turn.ToolCall("t", "f", "{\"path\":\"src/ma"))));
  }

  @Test
  void argumentsThatAreNoObjectAreSentAsAnEmptyInput() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"t\","
            + "\"name\":\"f\",\"input\":{}}]}],\"stream\":true,\"max_tokens\":64}",
        MESSAGES.body(
            STREAMING, List.of(new Turn.Message("user", "x"), new Turn.ToolCall("t", "f", "[1]"))));
  }

  @Test
  void onlySystemIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> MESSAGES.body(STREAMING, List.of(new Turn.Message("system", "x"))));
    assertEquals(
        "messages needs at least one user or assistant turn besides the system message",
        e.getMessage());
  }

  @Test
  void noServerHistory() {
    assertFalse(MESSAGES.keepsHistoryOnServer());
    assertThrows(
        UnsupportedOperationException.class,
        () -> MESSAGES.body(STREAMING, List.of(new Turn.Message("user", "x")), "msg_1"));
  }

  @Test
  void headersCarryTheKeyAndTheVersion() {
    assertEquals(
        List.of("x-api-key", "anthropic-version"),
        List.copyOf(MESSAGES.headers("sk-ant").keySet()));
    assertEquals(
        Map.of("x-api-key", "sk-ant", "anthropic-version", "2023-06-01"),
        MESSAGES.headers("sk-ant"));
    assertEquals(Map.of("anthropic-version", "2023-06-01"), MESSAGES.headers(null));
  }

  @Test
  void extraBodyMustNotSetSystem() {
    RequestSettings s =
        new RequestSettings(
            WireApi.CHAT, "m", 8, "max_tokens", true, true, null, null, Map.of("system", "x"));
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> MESSAGES.check(s));
    assertEquals(
        "extraBody must not set \"system\": the messages body sets it; reserved keys there: model,"
            + " system, messages, stream, max_tokens",
        e.getMessage());
  }

  @Test
  void nonStreamedBodyFromLlamaCpp() {
    StreamEvent e =
        MESSAGES.parseResponse(
            "{\"id\":\"chatcmpl-tc7w\",\"type\":\"message\",\"role\":\"assistant\","
                + "\"content\":[{\"type\":\"text\",\"text\":\"Amtfare\"}],"
                + "\"model\":\"qwen3-vocab-random\",\"stop_reason\":\"max_tokens\","
                + "\"stop_sequence\":null,\"usage\":{\"cache_read_input_tokens\":9,"
                + "\"input_tokens\":1,\"output_tokens\":3}}");
    assertEquals(StreamEvent.Kind.CHUNK, e.kind());
    assertEquals("Amtfare", e.content());
    assertEquals(new Usage(10, 3, 9, null), e.usage());
    assertEquals("max_tokens", e.finishReason());
  }

  @Test
  void nonStreamedBodyWithThinkingAndToolUse() {
    StreamEvent e =
        MESSAGES.parseResponse(
            "{\"type\":\"message\",\"content\":[{\"type\":\"thinking\",\"thinking\":\"Hm.\","
                + "\"signature\":\"abc\"},{\"type\":\"tool_use\",\"id\":\"t\",\"name\":\"f\","
                + "\"input\":{}}],\"stop_reason\":\"tool_use\",\"usage\":{\"input_tokens\":3,"
                + "\"cache_creation_input_tokens\":20,\"cache_read_input_tokens\":0,"
                + "\"output_tokens\":12}}");
    assertEquals("Hm.", e.reasoning());
    assertEquals(0, e.contentChars());
    assertEquals(1, e.toolCallDeltas());
    assertEquals(new Usage(23, 12, 0, null), e.usage());
    assertEquals("tool_use", e.finishReason());
  }

  @Test
  void anthropicErrorBody() {
    String body =
        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
            + "\"message\":\"max_tokens: Field required\"},\"request_id\":\"req_1\"}";
    StreamEvent e = MESSAGES.parseResponse(body);
    assertEquals(StreamEvent.Kind.ERROR, e.kind());
    assertEquals("invalid_request_error: max_tokens: Field required", e.error().describe());
    assertEquals(
        "invalid_request_error: max_tokens: Field required",
        MESSAGES.describeError(body, "application/json"));
  }

  @Test
  void llamaCppErrorBodyOnMessages() {
    assertEquals(
        "exceed_context_size_error (400): request (9009 tokens) exceeds the available context size"
            + " (8192 tokens), try increasing it",
        MESSAGES.describeError(
            "{\"error\":{\"code\":400,\"message\":\"request (9009 tokens) exceeds the available"
                + " context size (8192 tokens), try increasing it\","
                + "\"type\":\"exceed_context_size_error\",\"n_prompt_tokens\":9009,"
                + "\"n_ctx\":8192}}",
            "application/json; charset=utf-8"));
  }

  @Test
  void agentBodyWritesInputSchemaToolsAndAnyForRequired() throws Exception {
    assertEquals(
        "{\"model\":\"qwen3\",\"system\":\"Be terse.\",\"messages\":["
            + "{\"role\":\"user\",\"content\":\"Fix the bug.\"},"
            + "{\"role\":\"assistant\",\"content\":[{\"type\":\"tool_use\",\"id\":\"call_1\","
            + "\"name\":\"grep\",\"input\":{\"q\":\"bug\"}}]},"
            + "{\"role\":\"user\",\"content\":[{\"type\":\"tool_result\",\"tool_use_id\":\"call_1\","
            + "\"content\":\"src/A.java:3\"}]}],"
            + "\"tools\":[{\"name\":\"grep\",\"description\":\"Search files.\","
            + "\"input_schema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}],"
            + "\"tool_choice\":{\"type\":\"any\"},\"stream\":true,\"max_tokens\":64}",
        MESSAGES.agentBody(STREAMING, AGENT_HISTORY, Json.MAPPER.readTree(TOOLS), "required"));
  }

  @Test
  void agentBodyWritesAutoToolChoiceAsItsType() throws Exception {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"Fix the bug.\"}],"
            + "\"tools\":[{\"name\":\"grep\",\"description\":\"Search files.\","
            + "\"input_schema\":{\"type\":\"object\",\"properties\":{\"q\":{\"type\":\"string\"}}}}],"
            + "\"tool_choice\":{\"type\":\"auto\"},\"stream\":true,\"max_tokens\":64}",
        MESSAGES.agentBody(
            STREAMING,
            List.of(new Turn.Message("user", "Fix the bug.")),
            Json.MAPPER.readTree(TOOLS),
            "auto"));
  }

  @Test
  void nonStreamedToolUseBlocksAreToolCallEntriesWithTheirInputAsText() {
    StreamEvent e =
        MESSAGES.parseResponse(
            "{\"type\":\"message\",\"content\":[{\"type\":\"text\",\"text\":\"Let me look.\"},"
                + "{\"type\":\"tool_use\",\"id\":\"toolu_1\",\"name\":\"grep\","
                + "\"input\":{\"q\": \"bug\"}},{\"type\":\"tool_use\",\"id\":\"toolu_2\","
                + "\"name\":\"ls\",\"input\":{}}],\"stop_reason\":\"tool_use\"}");
    assertEquals(
        List.of(
            new ToolCallDelta(0, "toolu_1", "grep", "{\"q\":\"bug\"}"),
            new ToolCallDelta(1, "toolu_2", "ls", "{}")),
        e.toolCalls());
    assertEquals("Let me look.", e.content());
  }

  @Test
  void aMessagesBodyGivesNoResponseId() {
    assertEquals(null, MESSAGES.responseId("{\"id\":\"msg_1\",\"type\":\"message\"}"));
  }
}
