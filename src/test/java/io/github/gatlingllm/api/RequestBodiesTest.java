package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RequestBodiesTest {

  @Test
  void chatStreamingWithUsage() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"Hello\"}],"
            + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        RequestBodies.body(RequestSettings.streaming(WireApi.CHAT, "qwen3", 64), "Hello"));
  }

  @Test
  void completionsStreamingWithUsage() {
    assertEquals(
        "{\"model\":\"qwen3\",\"prompt\":\"Hello\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        RequestBodies.body(RequestSettings.streaming(WireApi.COMPLETIONS, "qwen3", 64), "Hello"));
  }

  @Test
  void noStreamOptionsWithoutUsage() {
    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"stream\":true,"
            + "\"max_tokens\":8}",
        RequestBodies.body(
            new RequestSettings(WireApi.CHAT, "m", 8, "max_tokens", true, false, null, null, null),
            "x"));
  }

  @Test
  void noStreamOptionsWhenNotStreaming() {
    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"x\",\"stream\":false,\"max_tokens\":8}",
        RequestBodies.body(
            new RequestSettings(
                WireApi.COMPLETIONS, "m", 8, "max_tokens", false, true, null, null, null),
            "x"));
  }

  @Test
  void maxCompletionTokensIgnoreEosTemperatureAndExtraInOrder() {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("seed", 7);
    extra.put("stop", List.of("\n\n", "END"));
    extra.put("logit_bias", Map.of("50256", -100));
    extra.put("user", null);
    assertEquals(
        "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}],\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_completion_tokens\":128,"
            + "\"ignore_eos\":true,\"temperature\":0.0,\"seed\":7,\"stop\":[\"\\n\\n\",\"END\"],"
            + "\"logit_bias\":{\"50256\":-100},\"user\":null}",
        RequestBodies.body(
            new RequestSettings(
                WireApi.CHAT, "m", 128, "max_completion_tokens", true, true, true, 0.0, extra),
            "x"));
  }

  @Test
  void promptIsEscaped() {
    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"say \\\"hi\\\"\\n\\tté \\u0001\\\\\",\"stream\":false,"
            + "\"max_tokens\":1}",
        RequestBodies.body(
            new RequestSettings(
                WireApi.COMPLETIONS, "m", 1, "max_tokens", false, false, null, null, null),
            "say \"hi\"\n\tté \u0001\\"));
  }

  @Test
  void ignoreEosFalseIsSent() {
    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"x\",\"stream\":false,\"max_tokens\":1,\"ignore_eos\":false,"
            + "\"temperature\":0.7}",
        RequestBodies.body(
            new RequestSettings(
                WireApi.COMPLETIONS, "m", 1, "max_tokens", false, false, false, 0.7, null),
            "x"));
  }

  @Test
  void theThreadBufferIsReusedWithoutLeftovers() {
    RequestSettings s = RequestSettings.streaming(WireApi.COMPLETIONS, "m", 1);
    RequestBodies.body(s, "a much longer prompt than the next one");
    assertEquals(
        "{\"model\":\"m\",\"prompt\":\"b\",\"stream\":true,"
            + "\"stream_options\":{\"include_usage\":true},\"max_tokens\":1}",
        RequestBodies.body(s, "b"));
  }

  private static final java.util.List<ChatMessage> CONVERSATION =
      java.util.List.of(
          new ChatMessage("system", "Be brief."),
          new ChatMessage("user", "[a1] hi"),
          new ChatMessage("assistant", "the model"),
          new ChatMessage("user", "[b2] more"));

  @Test
  void aConversationTurnSendsEveryMessageInOrder() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"system\",\"content\":\"Be brief.\"},"
            + "{\"role\":\"user\",\"content\":\"[a1] hi\"},"
            + "{\"role\":\"assistant\",\"content\":\"the model\"},"
            + "{\"role\":\"user\",\"content\":\"[b2] more\"}],"
            + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        RequestBodies.body(RequestSettings.streaming(WireApi.CHAT, "qwen3", 64), CONVERSATION));
  }

  @Test
  void aConversationTurnToCompletionsSendsTheTranscript() {
    assertEquals(
        "{\"model\":\"qwen3\",\"prompt\":\"Be brief.\\n\\n[a1] hi\\n\\nthe model\\n\\n"
            + "[b2] more\\n\\n\",\"stream\":true,\"stream_options\":{\"include_usage\":true},"
            + "\"max_tokens\":64}",
        RequestBodies.body(
            RequestSettings.streaming(WireApi.COMPLETIONS, "qwen3", 64), CONVERSATION));
    // The next turn's transcript starts with this one and the reply as received.
    assertEquals("Be brief.\n\n[a1] hi\n\n", ChatMessage.transcript(CONVERSATION.subList(0, 2)));
  }
}
