package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/**
 * The fast path of the event parser gives, for every payload, the event the Jackson path gives, or
 * nothing (and the Jackson path reads it).
 */
class ChunkScannerTest {

  private static final String VLLM_CHUNK =
      "{\"id\":\"chatcmpl-0123\",\"object\":\"chat.completion.chunk\",\"created\":1700000000,"
          + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" word\"},"
          + "\"logprobs\":null,\"finish_reason\":null}]}";

  private static final String LLAMA_CPP_CHUNK =
      "{\"choices\":[{\"finish_reason\":null,\"index\":0,\"delta\":{\"content\":\"Hello\"}}],"
          + "\"created\":1733000000,\"id\":\"chatcmpl-x\",\"model\":\"gpt-3.5-turbo\","
          + "\"system_fingerprint\":\"b4000-abc\",\"object\":\"chat.completion.chunk\","
          + "\"timings\":{\"prompt_n\":1,\"prompt_ms\":0.25,\"predicted_per_second\":1.5e2}}";

  private static final String USAGE_CHUNK =
      "{\"id\":\"x\",\"object\":\"chat.completion.chunk\",\"choices\":[],\"usage\":{"
          + "\"prompt_tokens\":530,\"total_tokens\":594,\"completion_tokens\":64,"
          + "\"prompt_tokens_details\":{\"cached_tokens\":256},"
          + "\"completion_tokens_details\":{\"reasoning_tokens\":12}}}";

  private static final String LAST_CHUNK =
      "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}],"
          + "\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3}}";

  /** Payloads the fast path reads: the common shapes of the servers a user meets. */
  private static final List<String> READ =
      List.of(
          VLLM_CHUNK,
          LLAMA_CPP_CHUNK,
          USAGE_CHUNK,
          LAST_CHUNK,
          "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Let me think\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning\":\"a\",\"reasoning_content\":\"a\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\","
              + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"function_call\":{\"name\":\"f\"}}}]}",
          "{\"choices\":[{\"index\":0,\"text\":\" the\",\"finish_reason\":null}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"line\\nbreak \\\"quoted\\\" \\\\ \\/ \\t\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"delta\":{\"content\":\"bc\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"choices\":[{\"delta\":{\"content\":\"b\"}}]}",
          "  {\"choices\" : [ { \"delta\" : { \"content\" : \"x\" } } ] }\r\n",
          "{\"choices\":[{\"finish_reason\":\"stop\"},{\"finish_reason\":\"length\"}]}",
          "{\"usage\":{\"prompt_tokens\":\"12\",\"completion_tokens\":null}}",
          "{\"usage\":{\"prompt_tokens\":0,\"completion_tokens\":999999999}}",
          "{\"usage\":null,\"choices\":null}",
          "{\"message\":\"hi\",\"type\":\"x\",\"code\":1,\"choices\":[]}",
          "{\"a\":[1,-2.5e-3,0,0.0,1E+2,true,false,null,{\"b\":[]},\"s\"],\"choices\":[]}",
          "{\"choices\":[{\"delta\":{\"content\":\"caf\u00e9\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"\\u00e9\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"\u20ac \ud83d\ude00 \u4e2d\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"\\ud83d\\ude00 \\uD800 \\u00E9\"}}]}",
          "{\"choices\":[{\"delta\":{\"reasoning_content\":\"\u00fcber \\u003c\"}}]}",
          "{}");

  /** Payloads the fast path reads with the text wanted (an agent's or a conversation's turn). */
  private static final List<String> READ_TEXT =
      List.of(
          VLLM_CHUNK,
          LLAMA_CPP_CHUNK,
          USAGE_CHUNK,
          LAST_CHUNK,
          "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"reasoning_content\":\"Let me think\"}}]}",
          "{\"choices\":[{\"delta\":{\"reasoning\":\"ab\",\"reasoning_content\":\"abc\"}}]}",
          "{\"choices\":[{\"delta\":{\"reasoning\":\"\",\"reasoning_content\":\"abc\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":null,\"content\":\"x\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"function_call\":null}}]}",
          "{\"choices\":[{\"index\":0,\"text\":\" the\",\"finish_reason\":null}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"line\\nbreak \\\"quoted\\\" \\\\ \\/ \\t\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"\\b\\f\\r\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"delta\":{\"content\":\"bc\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a\"}}],\"choices\":[{\"text\":\"b\"}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"<think>\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a < b\\u003c/think>\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"caf\u00e9 \u20ac \ud83d\ude00\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"\\ud83d\\ude00 \\uD800 \\u00E9\"}}]}",
          "  {\"choices\" : [ { \"delta\" : { \"content\" : \"x\" } } ] }\r\n",
          "{\"message\":\"hi\",\"type\":\"x\",\"code\":1,\"choices\":[]}",
          "{}");

  /** Tool calls the fast path reads into deltas when the text is wanted. */
  private static final List<String> READ_TOOL_CALLS =
      List.of(
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\","
              + "\"type\":\"function\",\"function\":{\"name\":\"f\",\"arguments\":\"{\\\"a\\\"\"}}]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,"
              + "\"function\":{\"arguments\":\":\\\"th\"}}]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1,\"id\":null,\"function\":"
              + "{\"name\":7,\"arguments\":\"\\u00e9\",\"arguments\":\"x\"}},{\"index\":\"2\"},3]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"function\":\"f\",\"name\":\"n\",\"id\":\"a\",\"id\":\"b\"}]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{}],\"content\":\"x\"}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[1]}}]}",
          "{\"choices\":[{\"index\":0,\"delta\":{\"function_call\":{\"name\":\"f\"}}}]}",
          "{\"choices\":[{\"delta\":{\"function_call\":{\"index\":3,\"id\":\"i\",\"arguments\":\"{}\"}}}]}",
          "{\"choices\":[{\"message\":{\"tool_calls\":[{\"id\":\"c\",\"type\":\"function\","
              + "\"function\":{\"name\":\"f\",\"arguments\":\"{}\"}}]}}]}");

  /** Tool calls the fast path leaves to the Jackson path when the text is wanted. */
  private static final List<String> LEFT_TEXT =
      List.of(
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":-1}]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":1.0}]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":12345678901}]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"id\":\"a\u0001\"}]}}]}",
          "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,}]}}]}");

  /** Payloads the fast path leaves to the Jackson path. */
  private static final List<String> LEFT =
      List.of(
          "{\"choices\":[{\"delta\":{\"content\":\"<think>\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"\\u003cthink>\"}}]}",
          "{\"choices\":[{\"delta\":{\"content\":\"a < b\"}}]}",
          "{\"error\":{\"message\":\"boom\",\"type\":\"server_error\"}}",
          "{\"error\":null,\"choices\":[]}",
          "{\"object\":\"error\",\"message\":\"boom\"}",
          "{\"usage\":{\"prompt_tokens\":1234567890}}",
          "{\"usage\":{\"prompt_tokens\":-1}}",
          "{\"usage\":{\"prompt_tokens\":1.0}}",
          "{\"choices\":[{\"text\":{\"a\":1}}]}",
          "{\"choices\":[{\"finish_reason\":[\"stop\"]}]}",
          "{\"object\":{\"choices\":[]}}",
          "{\"choices\":[],}",
          "{\"choices\":[]} x",
          "{\"choices\":[]}{}",
          "{\"a\":01}",
          "{\"a\":1.}",
          "{\"a\":.5}",
          "{\"a\":+1}",
          "{\"a\":NaN}",
          "{\"a\":tru}",
          "{\"a\":\"\\x\"}",
          "{\"a\":\"tab\tinside\"}",
          "{\"a\\u0062\":1}",
          "{'a':1}",
          "{\"a\":1",
          "{\"choices\":[{\"delta\":{\"content\":\"x\"}}]");

  @Test
  void theCommonPayloadsAreReadAsTheJacksonPathReadsThem() {
    readAsTheJacksonPath(READ, false);
  }

  @Test
  void aVllmContentChunkIsReadByTheFastPath() {
    byte[] bytes = VLLM_CHUNK.getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(StreamEvent.Kind.CHUNK, 5, 0, 0, null, null, null, null, null, null),
        ChunkScanner.scan(bytes, 0, bytes.length, false));
  }

  @Test
  void theUsageOfALastChunkIsReadByTheFastPath() {
    byte[] bytes = USAGE_CHUNK.getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(
            StreamEvent.Kind.CHUNK,
            0,
            0,
            0,
            null,
            null,
            null,
            new Usage(530, 64, 256, 12),
            null,
            null),
        ChunkScanner.scan(bytes, 0, bytes.length, false));
  }

  @Test
  void unusualPayloadsAreLeftToTheJacksonPath() {
    leftToTheJacksonPath(LEFT, false);
  }

  @Test
  void theCommonPayloadsWithTheirTextAreReadAsTheJacksonPathReadsThem() {
    readAsTheJacksonPath(READ_TEXT, true);
  }

  @Test
  void aVllmContentChunkKeepsItsText() {
    byte[] bytes = VLLM_CHUNK.getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(StreamEvent.Kind.CHUNK, 5, 0, 0, " word", null, null, null, null, null),
        ChunkScanner.scan(bytes, 0, bytes.length, true));
  }

  @Test
  void escapesAndUtf8AreDecodedInAKeptText() {
    byte[] bytes =
        "{\"choices\":[{\"delta\":{\"content\":\"\\u00e9t\u00e9 \\\"\\n\ud83d\ude00\"}}]}"
            .getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(
            StreamEvent.Kind.CHUNK,
            8,
            0,
            0,
            "\u00e9t\u00e9 \"\n\ud83d\ude00",
            null,
            null,
            null,
            null,
            null),
        ChunkScanner.scan(bytes, 0, bytes.length, true));
  }

  @Test
  void twoChoicesJoinTheirKeptTexts() {
    byte[] bytes =
        "{\"choices\":[{\"delta\":{\"content\":\"a\"}},{\"text\":\"bc\"}]}"
            .getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(StreamEvent.Kind.CHUNK, 3, 0, 0, "abc", null, null, null, null, null),
        ChunkScanner.scan(bytes, 0, bytes.length, true));
  }

  @Test
  void theFirstReasoningTextIsKept() {
    byte[] bytes =
        "{\"choices\":[{\"delta\":{\"reasoning\":\"ab\",\"reasoning_content\":\"abc\"}}]}"
            .getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(StreamEvent.Kind.CHUNK, 0, 3, 0, null, "ab", null, null, null, null),
        ChunkScanner.scan(bytes, 0, bytes.length, true));
  }

  @Test
  void toolCallsAreReadAsTheJacksonPathReadsThemWhenTheTextIsWanted() {
    readAsTheJacksonPath(READ_TOOL_CALLS, true);
  }

  @Test
  void aToolCallDeltaIsKept() {
    byte[] bytes =
        ("{\"choices\":[{\"index\":0,\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"call_1\","
                + "\"type\":\"function\",\"function\":{\"name\":\"search\",\"arguments\":\"{\\\"q\"}}]},"
                + "\"finish_reason\":null}]}")
            .getBytes(StandardCharsets.UTF_8);
    assertEquals(
        new StreamEvent(
            StreamEvent.Kind.CHUNK,
            0,
            0,
            1,
            null,
            null,
            null,
            null,
            null,
            List.of(new ToolCallDelta(0, "call_1", "search", "{\"q"))),
        ChunkScanner.scan(bytes, 0, bytes.length, true));
  }

  @Test
  void oddToolCallsAreLeftToTheJacksonPathWhenTheTextIsWanted() {
    leftToTheJacksonPath(LEFT_TEXT, true);
  }

  @Test
  void unusualPayloadsAreLeftToTheJacksonPathWhenTheTextIsWanted() {
    // The payloads left for a '<' are read when the text is wanted (READ_TEXT has such ones).
    leftToTheJacksonPath(
        LEFT.stream()
            .filter(p -> !p.contains("<think>") && !p.contains("a < b") && !p.contains("u003c"))
            .toList(),
        true);
  }

  /** Byte sequences that are not well-formed UTF-8, inside a content text: left to Jackson. */
  private static final int[][] ILL_FORMED = {
    {0x80}, // a continuation byte alone
    {0xC0, 0x80}, // overlong NUL
    {0xC1, 0xBF}, // overlong
    {0xE0, 0x80, 0x80}, // overlong
    {0xED, 0xA0, 0x80}, // a surrogate, U+D800
    {0xF0, 0x80, 0x80, 0x80}, // overlong
    {0xF4, 0x90, 0x80, 0x80}, // above U+10FFFF
    {0xF5, 0x80, 0x80, 0x80}, // no such lead byte
    {0xFF},
    {0xC3}, // cut short by the closing quote
    {0xE2, 0x82}, // cut short
    {0xC3, 0x41} // a lead byte then ASCII
  };

  @Test
  void illFormedUtf8IsLeftToTheJacksonPath() {
    for (int[] sequence : ILL_FORMED) {
      byte[] head = "{\"choices\":[{\"delta\":{\"content\":\"a".getBytes(StandardCharsets.UTF_8);
      byte[] tail = "b\"}}]}".getBytes(StandardCharsets.UTF_8);
      byte[] bytes = new byte[head.length + sequence.length + tail.length];
      System.arraycopy(head, 0, bytes, 0, head.length);
      for (int k = 0; k < sequence.length; k++) {
        bytes[head.length + k] = (byte) sequence[k];
      }
      System.arraycopy(tail, 0, bytes, head.length + sequence.length, tail.length);
      String what = java.util.Arrays.toString(sequence);
      assertNull(ChunkScanner.scan(bytes, 0, bytes.length, true), what);
      assertNull(ChunkScanner.scan(bytes, 0, bytes.length, false), what);
    }
  }

  @Test
  void aPayloadInsideALargerArrayIsReadFromItsRangeOnly() {
    byte[] bytes = ("xx" + VLLM_CHUNK + "yy").getBytes(StandardCharsets.UTF_8);
    assertEquals(
        jackson(VLLM_CHUNK.getBytes(StandardCharsets.UTF_8)),
        ChunkScanner.scan(bytes, 2, bytes.length - 2, false));
  }

  @Test
  void generatedAndDamagedPayloadsAreReadAsTheJacksonPathReadsThemOrLeftToIt() {
    generatedPayloads(false);
  }

  @Test
  void generatedAndDamagedPayloadsWithTheirTextAreReadAsTheJacksonPathReadsThemOrLeftToIt() {
    generatedPayloads(true);
  }

  private static void generatedPayloads(boolean keepText) {
    SplittableRandom random = new SplittableRandom(23);
    int read = 0;
    for (int n = 0; n < 20_000; n++) {
      StringBuilder json = new StringBuilder();
      object(random, json, 0, true);
      byte[] bytes = json.toString().getBytes(StandardCharsets.UTF_8);
      if (random.nextInt(3) == 0) {
        bytes = damage(random, bytes);
      }
      StreamEvent fast = ChunkScanner.scan(bytes, 0, bytes.length, keepText);
      if (fast != null) {
        read++;
        assertEquals(jackson(bytes, keepText), fast, new String(bytes, StandardCharsets.UTF_8));
      }
    }
    // The generator mostly makes payloads inside the subset: the comparison is not vacuous.
    assertEquals(true, read > 5_000, "read " + read);
  }

  /** Each payload is read by the fast path, as the Jackson path reads it. */
  private static void readAsTheJacksonPath(List<String> payloads, boolean keepText) {
    for (String payload : payloads) {
      byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
      StreamEvent fast = ChunkScanner.scan(bytes, 0, bytes.length, keepText);
      assertNotNull(fast, payload);
      assertEquals(jackson(bytes, keepText), fast, payload);
    }
  }

  /** Each payload is left to the Jackson path. */
  private static void leftToTheJacksonPath(List<String> payloads, boolean keepText) {
    for (String payload : payloads) {
      byte[] bytes = payload.getBytes(StandardCharsets.UTF_8);
      assertNull(ChunkScanner.scan(bytes, 0, bytes.length, keepText), payload);
    }
  }

  private static StreamEvent jackson(byte[] bytes) {
    return jackson(bytes, false);
  }

  private static StreamEvent jackson(byte[] bytes, boolean keepText) {
    return StreamEventParser.parse(bytes, 0, bytes.length, keepText, false);
  }

  private static final String[] KEYS = {
    "choices",
    "usage",
    "object",
    "delta",
    "message",
    "text",
    "finish_reason",
    "content",
    "reasoning_content",
    "reasoning",
    "tool_calls",
    "function_call",
    "prompt_tokens",
    "completion_tokens",
    "prompt_tokens_details",
    "cached_tokens",
    "completion_tokens_details",
    "reasoning_tokens",
    "id",
    "index",
    "role",
    "type",
    "code",
    "model",
    "created",
    "logprobs",
    "function",
    "name",
    "arguments"
  };

  private static final String[] STRINGS = {
    "\"\"",
    "\"word\"",
    "\" the\"",
    "\"stop\"",
    "\"length\"",
    "\"error\"",
    "\"chat.completion.chunk\"",
    "\"a\\nb\"",
    "\"q\\\"q\"",
    "\"s\\/s\"",
    "\"<think>\"",
    "\"caf\u00e9\"",
    "\"\\u00e9\"",
    "\"\u20ac\ud83d\ude00\u4e2d\"",
    "\"\\ud83d\\ude00\"",
    "\"\\uD800x\"",
    "\"a\\u003cb\"",
    "\"\\b\\f\\r\\t\""
  };

  private static final String[] SCALARS = {
    "0", "7", "64", "530", "999999999", "1234567890", "-1", "1.5", "2e3", "true", "false", "null"
  };

  private static void object(SplittableRandom random, StringBuilder out, int depth, boolean top) {
    out.append('{');
    space(random, out);
    int members = random.nextInt(top ? 1 : 0, 5);
    for (int m = 0; m < members; m++) {
      if (m > 0) {
        out.append(',');
        space(random, out);
      }
      String key =
          top && m == 0 ? (random.nextBoolean() ? "choices" : "usage") : pick(random, KEYS);
      out.append('"').append(key).append('"');
      space(random, out);
      out.append(':');
      space(random, out);
      value(random, out, key, depth + 1);
      space(random, out);
    }
    out.append('}');
  }

  private static void value(SplittableRandom random, StringBuilder out, String key, int depth) {
    int pick = random.nextInt(10);
    if (depth < 5 && (key.equals("choices") || key.equals("tool_calls")) && pick < 7) {
      array(random, out, depth);
    } else if (depth < 5
        && (key.endsWith("details")
            || key.equals("usage")
            || key.equals("delta")
            || key.equals("message")
            || key.equals("function_call")
            || key.equals("function"))
        && pick < 7) {
      object(random, out, depth, false);
    } else if (pick < 5) {
      out.append(pick(random, STRINGS));
    } else if (pick < 9 || depth >= 5) {
      out.append(pick(random, SCALARS));
    } else if (random.nextBoolean()) {
      array(random, out, depth);
    } else {
      object(random, out, depth, false);
    }
  }

  private static void array(SplittableRandom random, StringBuilder out, int depth) {
    out.append('[');
    int n = random.nextInt(0, 4);
    for (int k = 0; k < n; k++) {
      if (k > 0) {
        out.append(',');
      }
      space(random, out);
      if (random.nextInt(4) > 0) {
        object(random, out, depth + 1, false);
      } else {
        out.append(pick(random, SCALARS));
      }
      space(random, out);
    }
    out.append(']');
  }

  private static void space(SplittableRandom random, StringBuilder out) {
    if (random.nextInt(6) == 0) {
      out.append(pick(random, new String[] {" ", "\n", "\t", "\r\n", "  "}));
    }
  }

  private static byte[] damage(SplittableRandom random, byte[] bytes) {
    if (bytes.length < 2) {
      return bytes;
    }
    byte[] out = bytes.clone();
    int at = random.nextInt(out.length);
    switch (random.nextInt(4)) {
      case 3 -> {
        int[] bytesToPut = {0x80, 0xBF, 0xC0, 0xC3, 0xE2, 0xED, 0xF0, 0xF4, 0xF5, 0xFF};
        out[at] = (byte) bytesToPut[random.nextInt(bytesToPut.length)];
      }
      case 0 -> {
        String bytesToPut = " {}[],:\"\\0-.eE\u0001x";
        out[at] = (byte) bytesToPut.charAt(random.nextInt(bytesToPut.length()));
      }
      case 1 -> {
        byte[] shorter = new byte[out.length - 1];
        System.arraycopy(out, 0, shorter, 0, at);
        System.arraycopy(out, at + 1, shorter, at, out.length - at - 1);
        out = shorter;
      }
      default -> {
        byte[] longer = new byte[out.length + 1];
        System.arraycopy(out, 0, longer, 0, at);
        longer[at] = (byte) ",}]\"".charAt(random.nextInt(4));
        System.arraycopy(out, at, longer, at + 1, out.length - at);
        out = longer;
      }
    }
    return out;
  }

  private static String pick(SplittableRandom random, String[] values) {
    return values[random.nextInt(values.length)];
  }
}
