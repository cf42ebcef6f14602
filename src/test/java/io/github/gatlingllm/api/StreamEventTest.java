package io.github.gatlingllm.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.api.StreamEvent.Kind;
import java.util.HexFormat;
import java.util.List;
import org.junit.jupiter.api.Test;

class StreamEventTest {

  private static StreamEvent chunk(
      int content, int reasoning, int tools, String finish, Usage usage) {
    return new StreamEvent(
        Kind.CHUNK, content, reasoning, tools, null, null, finish, usage, null, null);
  }

  private static StreamEvent malformed(String message) {
    return new StreamEvent(
        Kind.MALFORMED, 0, 0, 0, null, null, null, null, new ApiError(message, null, null), null);
  }

  @Test
  void doneMarker() {
    assertSame(StreamEvent.DONE, StreamEvent.parse("[DONE]"));
  }

  @Test
  void doneMarkerWithSurroundingWhitespace() {
    assertSame(StreamEvent.DONE, StreamEvent.parse(" [DONE]\n"));
  }

  @Test
  void roleOnlyDeltaWithNullContentIsNotAToken() {
    StreamEvent e =
        StreamEvent.parse(
            "{\"choices\":[{\"finish_reason\":null,\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":null}}],"
                + "\"created\":1,\"id\":\"chatcmpl-1\",\"model\":\"m\","
                + "\"object\":\"chat.completion.chunk\"}");
    assertEquals(chunk(0, 0, 0, null, null), e);
    assertFalse(e.isTokenBearing());
  }

  @Test
  void roleOnlyDeltaWithEmptyContentIsNotAToken() {
    StreamEvent e =
        StreamEvent.parse(
            "{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[{\"index\":0,"
                + "\"delta\":{\"role\":\"assistant\",\"content\":\"\"},\"logprobs\":null,"
                + "\"finish_reason\":null}]}");
    assertEquals(chunk(0, 0, 0, null, null), e);
    assertFalse(e.isTokenBearing());
  }

  @Test
  void contentDeltaIsAToken() {
    StreamEvent e =
        StreamEvent.parse("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}");
    assertEquals(chunk(2, 0, 0, null, null), e);
    assertTrue(e.isTokenBearing());
  }

  @Test
  void nonAsciiContentIsCountedAndKeptInJavaChars() {
    // é (1 char), 中 (1 char), 😀 (2 chars, a surrogate pair), and an escaped é.
    assertEquals(
        new StreamEvent(Kind.CHUNK, 5, 0, 0, "é中😀é", null, null, null, null, null),
        StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"é中😀\\u00e9\"}}]}", true));
  }

  @Test
  void contentTextIsKeptOnlyWhenAskedFor() {
    assertEquals(
        new StreamEvent(Kind.CHUNK, 3, 0, 0, "a\"b", null, null, null, null, null),
        StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"a\\\"b\"}}]}", true));
  }

  @Test
  void reasoningContentOnlyIsAToken() {
    StreamEvent e =
        StreamEvent.parse(
            "{\"choices\":[{\"delta\":{\"content\":null,\"reasoning_content\":\"Let me\"}}]}",
            true);
    assertEquals(new StreamEvent(Kind.CHUNK, 0, 6, 0, null, "Let me", null, null, null, null), e);
    assertTrue(e.isTokenBearing());
  }

  @Test
  void reasoningFieldOfNewerVllmIsAToken() {
    StreamEvent e = StreamEvent.parse("{\"choices\":[{\"delta\":{\"reasoning\":\"Hmm\"}}]}");
    assertEquals(chunk(0, 3, 0, null, null), e);
    assertTrue(e.isTokenBearing());
  }

  @Test
  void reasoningUnderBothNamesIsCountedOnce() {
    assertEquals(
        chunk(0, 3, 0, null, null),
        StreamEvent.parse(
            "{\"choices\":[{\"delta\":{\"reasoning\":\"Hmm\",\"reasoning_content\":\"Hmm\"}}]}"));
  }

  @Test
  void toolCallDeltasAreTokens() {
    StreamEvent e =
        StreamEvent.parse(
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"get_weather\","
                + "\"arguments\":\"\"}}]}}]}");
    assertEquals(chunk(0, 0, 1, null, null), e);
    assertTrue(e.isTokenBearing());
  }

  @Test
  void toolCallArgumentDeltaIsAToken() {
    assertEquals(
        chunk(0, 0, 1, null, null),
        StreamEvent.parse(
            "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
                + "\"function\":{\"arguments\":\"{\\\"city\\\":\"}}]}}]}"));
  }

  @Test
  void toolCallFirstDeltaKeptWithText() {
    assertEquals(
        List.of(new ToolCallDelta(0, "call_1", "get_weather", "")),
        StreamEvent.parse(
                "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null,"
                    + "\"tool_calls\":[{\"index\":0,\"id\":\"call_1\",\"type\":\"function\","
                    + "\"function\":{\"name\":\"get_weather\",\"arguments\":\"\"}}]}}]}",
                true)
            .toolCalls());
  }

  @Test
  void toolCallArgumentPieceKeptAsReceived() {
    assertEquals(
        List.of(new ToolCallDelta(1, null, null, "{\"city\": \"Par")),
        StreamEvent.parse(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,"
                    + "\"function\":{\"arguments\":\"{\\\"city\\\": \\\"Par\"}}]}}]}",
                true)
            .toolCalls());
  }

  @Test
  void toolCallEntriesFromBytesAsFromString() {
    String data =
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\","
            + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}},{\"index\":1,\"id\":\"b\","
            + "\"function\":{\"name\":\"g\",\"arguments\":\"{\\\"x\\\":1}\"}}]}}]}";
    byte[] bytes = data.getBytes(UTF_8);
    assertEquals(
        List.of(new ToolCallDelta(0, "a", "f", "{}"), new ToolCallDelta(1, "b", "g", "{\"x\":1}")),
        StreamEvent.parse(bytes, 0, bytes.length, true).toolCalls());
  }

  @Test
  void toolCallEntriesNotKeptWithoutText() {
    assertEquals(
        null,
        StreamEvent.parse(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"a\","
                    + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}",
                false)
            .toolCalls());
  }

  @Test
  void toolCallEntryOfWrongTypesKeptAsAbsent() {
    assertEquals(
        List.of(new ToolCallDelta(null, null, null, null)),
        StreamEvent.parse(
                "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":\"0\",\"id\":7,"
                    + "\"function\":{\"name\":[\"f\"],\"arguments\":{\"x\":1}}}]}}]}",
                true)
            .toolCalls());
  }

  @Test
  void legacyFunctionCallKeptAsAnEntry() {
    assertEquals(
        List.of(new ToolCallDelta(null, null, "f", "{\"a\"")),
        StreamEvent.parse(
                "{\"choices\":[{\"delta\":{\"function_call\":{\"name\":\"f\","
                    + "\"arguments\":\"{\\\"a\\\"\"}}}]}",
                true)
            .toolCalls());
  }

  @Test
  void emptyToolCallsArrayIsNotAToken() {
    assertFalse(
        StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"\",\"tool_calls\":[]}}]}")
            .isTokenBearing());
  }

  @Test
  void completionsTextIsAToken() {
    assertEquals(
        chunk(5, 0, 0, null, null),
        StreamEvent.parse(
            "{\"choices\":[{\"text\":\" word\",\"index\":0,\"logprobs\":null,"
                + "\"finish_reason\":null}],\"object\":\"text_completion\"}"));
  }

  @Test
  void finishReasonIsRead() {
    assertEquals(
        chunk(0, 0, 0, "length", null),
        StreamEvent.parse(
            "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}"));
  }

  @Test
  void usageOnAChunkWithEmptyChoices() {
    assertEquals(
        chunk(0, 0, 0, null, new Usage(12, 64, 8)),
        StreamEvent.parse(
            "{\"choices\":[],\"created\":1,\"id\":\"c\",\"model\":\"m\","
                + "\"object\":\"chat.completion.chunk\",\"usage\":{\"completion_tokens\":64,"
                + "\"prompt_tokens\":12,\"total_tokens\":76,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":8}},"
                + "\"timings\":{\"prompt_n\":4,\"predicted_ms\":1.5}}"));
  }

  @Test
  void usageOnAChunkWithoutChoices() {
    assertEquals(
        chunk(0, 0, 0, null, new Usage(12, 64, null)),
        StreamEvent.parse("{\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":64}}"));
  }

  @Test
  void usageOnTheLastContentChunk() {
    assertEquals(
        chunk(1, 0, 0, "stop", new Usage(5, 3, 0)),
        StreamEvent.parse(
            "{\"choices\":[{\"text\":\".\",\"index\":0,\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":0}}}"));
  }

  @Test
  void nullUsageIsNoUsage() {
    assertEquals(
        chunk(1, 0, 0, null, null),
        StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"usage\":null}"));
  }

  @Test
  void countsThatAreNotNonNegativeIntsAreLeftOut() {
    assertEquals(
        chunk(0, 0, 0, null, new Usage(null, 3, null)),
        StreamEvent.parse(
            "{\"usage\":{\"prompt_tokens\":-1,\"completion_tokens\":3,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":99999999999}}}"));
  }

  @Test
  void errorObject() {
    StreamEvent e =
        StreamEvent.parse(
            "{\"error\":{\"code\":500,\"message\":\"context full\",\"type\":\"server_error\"}}");
    assertEquals(
        new StreamEvent(
            Kind.ERROR,
            0,
            0,
            0,
            null,
            null,
            null,
            null,
            new ApiError("context full", "server_error", "500"),
            null),
        e);
    assertEquals("server_error (500): context full", e.error().describe());
  }

  @Test
  void olderVllmTopLevelError() {
    assertEquals(
        new ApiError("boom", "BadRequestError", "400"),
        StreamEvent.parse(
                "{\"object\":\"error\",\"message\":\"boom\",\"type\":\"BadRequestError\","
                    + "\"param\":null,\"code\":400}")
            .error());
  }

  @Test
  void tgiStringError() {
    StreamEvent e =
        StreamEvent.parse("{\"error\":\"Input validation error\",\"error_type\":\"validation\"}");
    assertEquals(Kind.ERROR, e.kind());
    assertEquals(new ApiError("Input validation error", "validation", null), e.error());
  }

  @Test
  void nullErrorIsNotAnError() {
    assertEquals(
        chunk(1, 0, 0, null, null),
        StreamEvent.parse("{\"error\":null,\"choices\":[{\"delta\":{\"content\":\"a\"}}]}"));
  }

  @Test
  void invalidJson() {
    assertEquals(
        malformed(
            "invalid data (Unexpected character ('}' (code 125)): was expecting double-quote to"
                + " start field...): {\"choices\":[{\"delta\":{\"content\":\"a\"},}]}"),
        StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"a\"},}]}"));
  }

  @Test
  void truncatedJson() {
    StreamEvent e = StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"a");
    assertEquals(Kind.MALFORMED, e.kind());
    assertTrue(e.error().message().startsWith("invalid data (Unexpected end-of-input"));
  }

  @Test
  void plainTextIsNotAJsonObject() {
    assertEquals(
        malformed("invalid data (not a JSON object): upstream timed out"),
        StreamEvent.parse("upstream timed out"));
  }

  @Test
  void jsonArrayIsNotAJsonObject() {
    assertEquals(malformed("invalid data (not a JSON object): [1,2]"), StreamEvent.parse("[1,2]"));
  }

  @Test
  void trailingContentIsMalformed() {
    assertEquals(
        malformed("invalid data (trailing content after the JSON object): {\"a\":1} {\"b\":2}"),
        StreamEvent.parse("{\"a\":1} {\"b\":2}"));
  }

  @Test
  void longMalformedPayloadIsCutInTheMessage() {
    assertEquals(
        malformed("invalid data (not a JSON object): xxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxxx..."),
        StreamEvent.parse("x".repeat(100)));
  }

  @Test
  void blankPayloadIsEmpty() {
    assertSame(StreamEvent.EMPTY, StreamEvent.parse(" \n"));
  }

  @Test
  void nullPayloadIsEmpty() {
    assertSame(StreamEvent.EMPTY, StreamEvent.parse(null));
  }

  @Test
  void nonStreamedChatResponse() {
    assertEquals(
        new StreamEvent(Kind.CHUNK, 5, 0, 0, "Hello", null, "stop", new Usage(9, 2, 4), null, null),
        StreamEvent.parseResponse(
            "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\","
                + "\"choices\":[{\"index\":0,\"message\":{\"role\":\"assistant\","
                + "\"content\":\"Hello\"},\"logprobs\":null,\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":2,\"total_tokens\":11,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":4}}}"));
  }

  @Test
  void nonStreamedCompletionsResponse() {
    assertEquals(
        new StreamEvent(
            Kind.CHUNK, 6, 0, 0, " world", null, "length", new Usage(1, 1, null), null, null),
        StreamEvent.parseResponse(
            "{\"object\":\"text_completion\",\"choices\":[{\"text\":\" world\",\"index\":0,"
                + "\"finish_reason\":\"length\"}],\"usage\":{\"prompt_tokens\":1,"
                + "\"completion_tokens\":1}}"));
  }

  @Test
  void nonStreamedToolCallResponse() {
    // Issue 32 keeps a whole response's tool calls (parseResponse keeps the text): the call is
    // now part of the event.
    assertEquals(
        new StreamEvent(
            Kind.CHUNK,
            0,
            0,
            1,
            null,
            null,
            "tool_calls",
            null,
            null,
            List.of(new ToolCallDelta(null, "c", "f", "{}"))),
        StreamEvent.parseResponse(
            "{\"choices\":[{\"message\":{\"role\":\"assistant\",\"content\":null,"
                + "\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\","
                + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]},"
                + "\"finish_reason\":\"tool_calls\"}]}"));
  }

  private static StreamEvent parseBytes(String data) {
    byte[] bytes = data.getBytes(UTF_8);
    return StreamEvent.parse(bytes, 0, bytes.length);
  }

  @Test
  void bytesContentDelta() {
    assertEquals(
        chunk(2, 0, 0, null, null),
        parseBytes("{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Hi\"}}]}"));
  }

  @Test
  void bytesDoneMarker() {
    assertSame(StreamEvent.DONE, parseBytes(" [DONE]\n"));
  }

  @Test
  void bytesEmptyRangeIsEmpty() {
    assertSame(StreamEvent.EMPTY, StreamEvent.parse(new byte[3], 1, 1));
  }

  @Test
  void bytesNonAsciiContentIsCountedAndKeptInJavaChars() {
    byte[] bytes = "{\"choices\":[{\"delta\":{\"content\":\"é中😀\\u00e9\"}}]}".getBytes(UTF_8);
    assertEquals(
        new StreamEvent(Kind.CHUNK, 5, 0, 0, "é中😀é", null, null, null, null, null),
        StreamEvent.parse(bytes, 0, bytes.length, true));
  }

  @Test
  void bytesRangeInsideALargerArray() {
    byte[] bytes = "data: {\"choices\":[{\"text\":\"ab\"}]}\n\n".getBytes(UTF_8);
    assertEquals(chunk(2, 0, 0, null, null), StreamEvent.parse(bytes, 6, bytes.length - 2));
  }

  @Test
  void bytesRangeOutsideTheArrayIsRejected() {
    assertThrows(IndexOutOfBoundsException.class, () -> StreamEvent.parse(new byte[4], 2, 5));
  }

  @Test
  void bytesNullArrayIsRejected() {
    assertThrows(NullPointerException.class, () -> StreamEvent.parse(null, 0, 0));
  }

  @Test
  void bytesMalformedSnippetIsDecoded() {
    assertEquals(
        malformed("invalid data (not a JSON object): upstream é"), parseBytes("upstream é"));
  }

  @Test
  void bytesInvalidUtf8InContentIsReadAsReplacementChars() {
    byte[] bytes = "{\"choices\":[{\"text\":\"a?\"}]}".replace('?', '~').getBytes(UTF_8);
    bytes[22] = (byte) 0xFF;
    assertEquals(
        new StreamEvent(Kind.CHUNK, 2, 0, 0, "a\uFFFD", null, null, null, null, null),
        StreamEvent.parse(bytes, 0, bytes.length, true));
  }

  /** Payloads read both ways: chunks, errors, malformed ones, blank ones, Unicode at the edges. */
  private static final List<String> SAMPLES =
      List.of(
          "[DONE]",
          " [DONE]\n",
          "\t[DONE]\u000B",
          "[DONE] x",
          "[done]",
          "\u3000[DONE]\u2028",
          "\u00A0[DONE]",
          "\uFEFF[DONE]",
          "",
          " \n",
          "\u2003",
          "{\"choices\":[{\"finish_reason\":null,\"index\":0,"
              + "\"delta\":{\"role\":\"assistant\",\"content\":null}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"é中😀\\u00e9\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a\\\"b\"}}]}",
          "{\"choices\":[{\"delta\":{\"reasoning\":\"Hmm\",\"reasoning_content\":\"Hmm\"}}]}",
          "{\"choices\":[{\"delta\":{\"reasoning_content\":\"Ünïcödé 🤔\"}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
              + "\"function\":{\"arguments\":\"{\\\"city\\\":\"}}]}}]}",
          "{\"choices\":[{\"text\":\" word\",\"index\":0,\"finish_reason\":\"length\"}]}",
          "{\"choices\":[],\"usage\":{\"completion_tokens\":64,\"prompt_tokens\":12,"
              + "\"prompt_tokens_details\":{\"cached_tokens\":8}}}",
          "{\"usage\":{\"prompt_tokens\":-1,\"completion_tokens\":3,"
              + "\"prompt_tokens_details\":{\"cached_tokens\":99999999999}}}",
          "{\"error\":{\"code\":500,\"message\":\"context full\",\"type\":\"server_error\"}}",
          "{\"object\":\"error\",\"message\":\"boom\",\"type\":\"BadRequestError\",\"code\":400}",
          "{\"error\":\"Input validation error\",\"error_type\":\"validation\"}",
          "{\"error\":\"délai dépassé\"}",
          "{\"choices\":[{\"delta\":{\"content\":\"a\"},}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a",
          "{\"choices\":[{\"delta\":{\"content\":\"é\"},}]} ééééééééééééééééééééééééééééééééééééé",
          "upstream timed out",
          "[1,2]",
          "{\"a\":1} {\"b\":2}",
          "{}",
          " {}\r\n",
          "\f{}",
          "{}\u001F",
          "\u2003{}",
          "{}\u2003",
          "{}\u00A0",
          "\u00A0{}",
          "{} é",
          "x".repeat(100),
          "é".repeat(100));

  @Test
  void bytesAndStringParsesAgreeOnSamples() {
    for (String sample : SAMPLES) {
      byte[] bytes = ("xx" + sample + "yy").getBytes(UTF_8);
      for (boolean keepText : new boolean[] {false, true}) {
        assertEquals(
            StreamEvent.parse(sample, keepText),
            StreamEvent.parse(bytes, 2, bytes.length - 2, keepText),
            sample);
      }
    }
  }

  @Test
  void bytesAndStringParsesAgreeOnEveryAsciiCharAround() {
    for (char c = 0; c < 128; c++) {
      for (String sample : List.of(c + "[DONE]", "[DONE]" + c, c + "{}", "{}" + c, "" + c)) {
        byte[] bytes = sample.getBytes(UTF_8);
        assertEquals(
            StreamEvent.parse(sample),
            StreamEvent.parse(bytes, 0, bytes.length),
            "char " + (int) c);
      }
    }
  }

  @Test
  void bytesAndDecodedStringParsesAgreeOnInvalidUtf8() {
    List<byte[]> samples =
        List.of(
            new byte[] {(byte) 0xFF, '{', '}'},
            new byte[] {'{', '}', (byte) 0xC3},
            new byte[] {
              '{', '"', 'a', '"', ':', '"', (byte) 0xED, (byte) 0xA0, (byte) 0x80, '"', '}'
            },
            new byte[] {'{', '"', 'a', '"', ':', '"', (byte) 0xC0, (byte) 0x80, '"', '}'},
            new byte[] {'x', (byte) 0x80},
            new byte[] {(byte) 0xE3, (byte) 0x80});
    for (byte[] bytes : samples) {
      assertEquals(
          StreamEvent.parse(new String(bytes, UTF_8), true),
          StreamEvent.parse(bytes, 0, bytes.length, true),
          HexFormat.of().formatHex(bytes));
    }
  }
}
