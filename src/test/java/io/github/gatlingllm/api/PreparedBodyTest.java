package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.prompt.Prompt;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * A prompt's body copied around its JSON string prepared ahead ({@link Prompt#jsonBytes}) is the
 * body escaped and encoded at send time, byte for byte, on every API.
 */
class PreparedBodyTest {

  private static final String QUOTES = "say \"hi\" to C:\\temp\\new and a/b";

  private static final String CONTROLS = controls();

  private static final String UNICODE = "caf\u00e9 \u2028 \u2029 \u00ff \u0100 \u20ac";

  private static final String EMOJI = "\uD83D\uDE00 \uD83E\uDDD1\u200D\uD83D\uDCBB ok";

  private static final String CJK =
      "\u4f60\u597d\uff0c\u4e16\u754c\u3002\u65e5\u672c\u8a9e\ud55c\uad6d\uc5b4";

  /** A lone high surrogate and a lone low one: written through as they are. */
  private static final String LONE_SURROGATES = "a\uD83Db \uDE00c";

  private static String controls() {
    StringBuilder sb = new StringBuilder();
    for (char c = 0; c < 0x20; c++) {
      sb.append(c);
    }
    return sb.append('\u007f').toString();
  }

  /** About 350,000 chars (an 87,000-token prompt's size), every kind above repeated. */
  private static String longText() {
    StringBuilder sb = new StringBuilder();
    String[] parts = {
      "plain words of a long prompt ", QUOTES, CONTROLS, UNICODE, EMOJI, CJK, LONE_SURROGATES
    };
    for (int i = 0; sb.length() < 350_000; i++) {
      sb.append(parts[i % parts.length]);
    }
    return sb.toString();
  }

  private static RequestSettings settings(WireApi api) {
    Map<String, Object> extra = new LinkedHashMap<>();
    extra.put("top_p", 0.9);
    return new RequestSettings(api, "qwen3", 64, "max_tokens", true, true, true, 0.5, extra);
  }

  private static void assertSameBodies(String text) {
    for (WireApi api : WireApi.values()) {
      RequestSettings s = settings(api);
      Dialect dialect = api.dialect();
      assertArrayEquals(
          dialect.body(s, text).getBytes(StandardCharsets.UTF_8),
          dialect.bodyBytes(s, text, Prompt.jsonBytes(text)),
          api.toString());
    }
  }

  @Test
  void quotesAndBackslashes() {
    assertSameBodies(QUOTES);
  }

  @Test
  void controlCharacters() {
    assertSameBodies(CONTROLS);
  }

  @Test
  void unicodeBeyondAscii() {
    assertSameBodies(UNICODE);
  }

  @Test
  void emoji() {
    assertSameBodies(EMOJI);
  }

  @Test
  void cjk() {
    assertSameBodies(CJK);
  }

  @Test
  void loneSurrogates() {
    assertSameBodies(LONE_SURROGATES);
  }

  @Test
  void emptyText() {
    assertSameBodies("");
  }

  @Test
  void veryLongText() {
    assertSameBodies(longText());
  }

  @Test
  void theRequestBodiesOverloadAsTheDialect() {
    RequestSettings s = settings(WireApi.COMPLETIONS);
    assertArrayEquals(
        RequestBodies.body(s, LONE_SURROGATES).getBytes(StandardCharsets.UTF_8),
        RequestBodies.bodyBytes(s, LONE_SURROGATES, Prompt.jsonBytes(LONE_SURROGATES)));
  }

  @Test
  void chatBodyOfAPreparedPromptLiterally() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":"
            + "\"a \\\"q\\\" \\\\ \\n\\t\\u0001 \u00e9 \uD83D\uDE00 \u4f60\"}],"
            + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}",
        utf8(
            WireApi.CHAT
                .dialect()
                .bodyBytes(
                    RequestSettings.streaming(WireApi.CHAT, "qwen3", 64),
                    "a \"q\" \\ \n\t\u0001 \u00e9 \uD83D\uDE00 \u4f60",
                    Prompt.jsonBytes("a \"q\" \\ \n\t\u0001 \u00e9 \uD83D\uDE00 \u4f60"))));
  }

  @Test
  void responsesBodyOfAPreparedPromptLiterally() {
    assertEquals(
        "{\"model\":\"qwen3\",\"input\":\"tab\\there\",\"stream\":true,"
            + "\"max_output_tokens\":64}",
        utf8(
            WireApi.RESPONSES
                .dialect()
                .bodyBytes(
                    RequestSettings.streaming(WireApi.RESPONSES, "qwen3", 64),
                    "tab\there",
                    Prompt.jsonBytes("tab\there"))));
  }

  @Test
  void messagesBodyOfAPreparedPromptLiterally() {
    assertEquals(
        "{\"model\":\"qwen3\",\"messages\":[{\"role\":\"user\",\"content\":\"say \\\"x\\\"\"}],"
            + "\"stream\":true,\"max_tokens\":64}",
        utf8(
            WireApi.MESSAGES
                .dialect()
                .bodyBytes(
                    RequestSettings.streaming(WireApi.MESSAGES, "qwen3", 64),
                    "say \"x\"",
                    Prompt.jsonBytes("say \"x\""))));
  }

  @Test
  void aNullJsonStringEscapesTheTextHere() {
    RequestSettings s = RequestSettings.streaming(WireApi.MESSAGES, "qwen3", 64);
    assertArrayEquals(
        WireApi.MESSAGES.dialect().body(s, QUOTES).getBytes(StandardCharsets.UTF_8),
        WireApi.MESSAGES.dialect().bodyBytes(s, QUOTES, null));
  }

  @Test
  void aPreparedPromptOutsideABodysBytesIsRefused() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () ->
                RequestBodies.build(
                    g -> {
                      g.writeStartObject();
                      Bodies.writePromptField(g, "prompt", "x", Prompt.jsonBytes("x"));
                      g.writeEndObject();
                    }));
    assertEquals("a prepared prompt is placed only in RequestBodies.bytes", e.getMessage());
  }

  @Test
  void aWriterThatPlacesNoPreparedPromptIsRefused() {
    IllegalStateException e =
        assertThrows(
            IllegalStateException.class,
            () -> RequestBodies.bytes(g -> g.writeString("x"), Prompt.jsonBytes("x")));
    assertEquals("the body's writer placed no prompt", e.getMessage());
  }

  private static String utf8(byte[] bytes) {
    return new String(bytes, StandardCharsets.UTF_8);
  }
}
