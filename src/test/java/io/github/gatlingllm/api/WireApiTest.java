package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.List;
import org.junit.jupiter.api.Test;

class WireApiTest {

  @Test
  void settingNamesAreReadCaseInsensitively() {
    assertEquals(WireApi.RESPONSES, WireApi.of("llm.endpoint", " Responses "));
    assertEquals(WireApi.MESSAGES, WireApi.of("llm.endpoint", "messages"));
    assertEquals(WireApi.CHAT, WireApi.of("llm.endpoint", "chat"));
    assertEquals(WireApi.COMPLETIONS, WireApi.of("llm.endpoint", "completions"));
  }

  @Test
  void unknownNameNamesTheSettingAndTheChoices() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> WireApi.of("llm.endpoint", "anthropic"));
    assertEquals(
        "llm.endpoint must be one of chat, completions, responses, messages, got \"anthropic\"",
        e.getMessage());
  }

  @Test
  void paths() {
    assertEquals("chat/completions", WireApi.CHAT.dialect().path());
    assertEquals("completions", WireApi.COMPLETIONS.dialect().path());
    assertEquals("responses", WireApi.RESPONSES.dialect().path());
    assertEquals("messages", WireApi.MESSAGES.dialect().path());
  }

  @Test
  void chatDialectWritesTheBodiesOfRequestBodies() {
    RequestSettings s = RequestSettings.streaming(WireApi.CHAT, "m", 4);
    assertEquals(RequestBodies.body(s, "hi"), WireApi.CHAT.dialect().body(s, "hi"));
  }

  @Test
  void completionsDialectWritesAPromptWhateverTheSettingsEndpoint() {
    RequestSettings s = RequestSettings.streaming(WireApi.CHAT, "m", 4);
    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"hi\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":4}",
        WireApi.COMPLETIONS.dialect().body(s, "hi"));
  }

  @Test
  void chatHistoryWritesToolCallsAndToolMessages() {
    RequestSettings s = RequestSettings.streaming(WireApi.CHAT, "m", 4);
    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"Weather?\"},"
            + "{\"role\":\"assistant\",\"content\":\"Checking.\",\"tool_calls\":["
            + "{\"id\":\"c1\",\"type\":\"function\",\"function\":{\"name\":\"w\","
            + "\"arguments\":\"{}\"}}]},"
            + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"21 C\"},"
            + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":["
            + "{\"id\":\"c2\",\"type\":\"function\",\"function\":{\"name\":\"w\","
            + "\"arguments\":\"{}\"}}]},"
            + "{\"role\":\"tool\",\"tool_call_id\":\"c2\",\"content\":\"22 C\"}],"
            + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":4}",
        WireApi.CHAT
            .dialect()
            .body(
                s,
                List.of(
                    new Turn.Message("user", "Weather?"),
                    new Turn.Message("assistant", "Checking."),
                    new Turn.ToolCall("c1", "w", "{}"),
                    new Turn.ToolResult("c1", "21 C"),
                    new Turn.ToolCall("c2", "w", "{}"),
                    new Turn.ToolResult("c2", "22 C"))));
  }

  @Test
  void completionsRefuseToolCalls() {
    RequestSettings s = RequestSettings.streaming(WireApi.COMPLETIONS, "m", 4);
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                WireApi.COMPLETIONS
                    .dialect()
                    .body(
                        s, List.of(new Turn.Message("user", "x"), new Turn.ToolResult("c", "y"))));
    assertEquals(
        "completions has no tool calls: a history with tool calls or results needs chat,"
            + " responses or messages",
        e.getMessage());
  }

  @Test
  void completionsHistoryIsATranscript() {
    RequestSettings s = RequestSettings.streaming(WireApi.COMPLETIONS, "m", 4);
    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"Hi\\n\\nHello\\n\\nMore\\n\\n\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":4}",
        WireApi.COMPLETIONS
            .dialect()
            .body(
                s,
                List.of(
                    new Turn.Message("user", "Hi"),
                    new Turn.Message("assistant", "Hello"),
                    new Turn.Message("user", "More"))));
  }

  @Test
  void headersOfTheOpenAiApis() {
    assertEquals(
        java.util.Map.of("Authorization", "Bearer k"), WireApi.CHAT.dialect().headers("k"));
    assertEquals("[DONE]", WireApi.CHAT.dialect().terminalEvent());
  }

  @Test
  void chatAgentTurnWritesMessagesThenToolsAndToolChoice() throws Exception {
    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"do\"},"
            + "{\"role\":\"assistant\",\"content\":null,\"tool_calls\":[{\"id\":\"c1\","
            + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\": 1}\"}}]},"
            + "{\"role\":\"tool\",\"tool_call_id\":\"c1\",\"content\":\"r\"}],"
            + "\"tools\":[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}],"
            + "\"tool_choice\":\"required\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        WireApi.CHAT
            .dialect()
            .agentBody(
                RequestSettings.streaming(WireApi.CHAT, "m", 64),
                List.of(
                    new Turn.Message("user", "do"),
                    new Turn.ToolCall("c1", "f", "{\"a\": 1}"),
                    new Turn.ToolResult("c1", "r")),
                Json.MAPPER.readTree("[{\"type\":\"function\",\"function\":{\"name\":\"f\"}}]"),
                "required"));
  }

  @Test
  void chatAgentTurnWithoutToolsSendsNoToolChoice() throws Exception {
    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"do\"}],"
            + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        WireApi.CHAT
            .dialect()
            .agentBody(
                RequestSettings.streaming(WireApi.CHAT, "m", 64),
                List.of(new Turn.Message("user", "do")),
                Json.MAPPER.readTree("[]"),
                "auto"));
  }

  @Test
  void completionsWriteNoAgentTurn() {
    UnsupportedOperationException e =
        assertThrows(
            UnsupportedOperationException.class,
            () ->
                WireApi.COMPLETIONS
                    .dialect()
                    .agentBody(
                        RequestSettings.streaming(WireApi.COMPLETIONS, "m", 64),
                        List.of(new Turn.Message("user", "do")),
                        null,
                        null));
    assertEquals(
        "completions takes no tools: an agent turn needs chat, responses or messages",
        e.getMessage());
  }
}
