package io.github.gatlingllm.api;

import static java.nio.charset.StandardCharsets.UTF_8;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.nio.ByteBuffer;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Random;
import org.junit.jupiter.api.Test;

class SseParserTest {

  /** A parser that collects each event's data, decoded as UTF-8. */
  private static final class Collector {
    final List<String> data = new ArrayList<>();
    final SseParser parser;

    Collector() {
      parser = new SseParser((b, from, to) -> data.add(new String(b, from, to - from, UTF_8)));
    }

    Collector feed(String chunk) {
      return feed(chunk.getBytes(UTF_8));
    }

    Collector feed(byte[] chunk) {
      parser.feed(chunk, 0, chunk.length);
      return this;
    }
  }

  private static List<String> parse(String... chunks) {
    Collector c = new Collector();
    for (String chunk : chunks) {
      c.feed(chunk);
    }
    c.parser.end();
    return c.data;
  }

  private static List<String> parseBytes(byte[]... chunks) {
    Collector c = new Collector();
    for (byte[] chunk : chunks) {
      c.feed(chunk);
    }
    c.parser.end();
    return c.data;
  }

  private static byte[] bytes(int... values) {
    byte[] b = new byte[values.length];
    for (int i = 0; i < values.length; i++) {
      b[i] = (byte) values[i];
    }
    return b;
  }

  @Test
  void oneEvent() {
    assertEquals(List.of("hello"), parse("data: hello\n\n"));
  }

  @Test
  void severalEventsInOneChunk() {
    assertEquals(List.of("a", "b", "c"), parse("data: a\n\ndata: b\n\ndata: c\n\n"));
  }

  @Test
  void multiLineDataIsJoinedWithLf() {
    assertEquals(List.of("a\nb\nc"), parse("data: a\ndata: b\ndata: c\n\n"));
  }

  @Test
  void eventWithoutDataIsNotDispatched() {
    assertEquals(List.of(), parse("event: ping\nid: 1\n\n"));
  }

  @Test
  void emptyDataFieldDispatchesEmptyData() {
    assertEquals(List.of(""), parse("data:\n\n"));
  }

  @Test
  void dataWithoutColonIsAnEmptyValue() {
    assertEquals(List.of(""), parse("data\n\n"));
  }

  @Test
  void twoEmptyDataFieldsAreOneLf() {
    assertEquals(List.of("\n"), parse("data\ndata:\n\n"));
  }

  @Test
  void valueWithoutLeadingSpace() {
    assertEquals(List.of("x"), parse("data:x\n\n"));
  }

  @Test
  void onlyOneLeadingSpaceIsStripped() {
    assertEquals(List.of(" two"), parse("data:  two\n\n"));
  }

  @Test
  void trailingSpaceIsKept() {
    assertEquals(List.of("[DONE] "), parse("data: [DONE] \n\n"));
  }

  @Test
  void colonsInTheValueAreKept() {
    assertEquals(List.of("{\"a\":\"b:c\"}"), parse("data: {\"a\":\"b:c\"}\n\n"));
  }

  @Test
  void lfLineEnds() {
    assertEquals(List.of("a\nb", "c"), parse("data: a\ndata: b\n\ndata: c\n\n"));
  }

  @Test
  void crLineEnds() {
    assertEquals(List.of("a\nb", "c"), parse("data: a\rdata: b\r\rdata: c\r\r"));
  }

  @Test
  void crlfLineEnds() {
    assertEquals(List.of("a\nb", "c"), parse("data: a\r\ndata: b\r\n\r\ndata: c\r\n\r\n"));
  }

  @Test
  void mixedLineEnds() {
    assertEquals(List.of("a\nb\nc", "d"), parse("data: a\r\ndata: b\ndata: c\r\n\ndata: d\n\r"));
  }

  @Test
  void lfCrIsTwoLineEnds() {
    assertEquals(List.of("a"), parse("data: a\n\r"));
  }

  @Test
  void crlfSplitBetweenCrAndLf() {
    assertEquals(List.of("a\nb"), parse("data: a\r", "\ndata: b\r", "\n\r", "\n"));
  }

  @Test
  void blankLineSplitBetweenCrAndLf() {
    Collector c = new Collector().feed("data: a\r\n\r");
    assertEquals(List.of("a"), c.data);
    c.feed("\n");
    assertEquals(List.of("a"), c.data);
    assertEquals(1, c.parser.events());
  }

  @Test
  void commentLinesAreIgnored() {
    assertEquals(List.of("a\nb"), parse(": ping\n\ndata: a\n: keep-alive\ndata: b\n\n"));
  }

  @Test
  void commentWithoutSpace() {
    assertEquals(List.of("a"), parse(":\n:x\ndata: a\n\n"));
  }

  @Test
  void otherFieldsAreIgnored() {
    assertEquals(
        List.of("a"), parse("event: message\nid: 7\nretry: 1000\nfoo: bar\ndata: a\nid\n\n"));
  }

  @Test
  void fieldNameIsExactAndCaseSensitive() {
    assertEquals(
        List.of(), parse("Data: a\ndatas: b\ndat: c\n data: d\nd: e\ndata : f\ndataa\n\n"));
  }

  @Test
  void blankLinesWithNothingPendingDispatchNothing() {
    Collector c = new Collector().feed("\n\n\r\n\r\rdata: a\n\n\n\n\r\n");
    assertEquals(List.of("a"), c.data);
    assertEquals(1, c.parser.events());
  }

  @Test
  void utf8BomAtStartIsStripped() {
    assertEquals(List.of("a"), parse("\uFEFFdata: a\n\n"));
  }

  @Test
  void utf8BomSplitAcrossChunks() {
    assertEquals(
        List.of("a"),
        parseBytes(bytes(0xEF), bytes(0xBB), bytes(0xBF, 'd'), "ata: a\n\n".getBytes(UTF_8)));
  }

  @Test
  void onlyOneBomIsStripped() {
    assertEquals(List.of("b"), parse("\uFEFF\uFEFFdata: a\n\ndata: b\n\n"));
  }

  @Test
  void bomAfterTheStartIsNotStripped() {
    assertEquals(List.of("a"), parse("data: a\n\n\uFEFFdata: b\n\n"));
  }

  @Test
  void cutShortBomMakesTheLineAnUnknownField() {
    assertEquals(
        List.of("b"), parseBytes(bytes(0xEF, 0xBB), "data: a\n\ndata: b\n\n".getBytes(UTF_8)));
  }

  @Test
  void bomAloneIsNoEvent() {
    Collector c = new Collector().feed(bytes(0xEF, 0xBB, 0xBF));
    c.parser.end();
    assertEquals(List.of(), c.data);
    assertFalse(c.parser.hasPartialEvent());
  }

  @Test
  void splitInsideTheFieldName() {
    assertEquals(List.of("a"), parse("da", "t", "a", ": a\n\n"));
  }

  @Test
  void splitBetweenColonAndSpace() {
    assertEquals(List.of("a"), parse("data:", " a\n\n"));
  }

  @Test
  void splitInsideAUtf8Char() {
    byte[] all = "data: é中\n\n".getBytes(UTF_8);
    assertEquals(
        List.of("é中"),
        parseBytes(
            Arrays.copyOfRange(all, 0, 7),
            Arrays.copyOfRange(all, 7, 9),
            Arrays.copyOfRange(all, 9, all.length)));
  }

  @Test
  void oneByteChunks() {
    Collector c = new Collector();
    for (byte b : "data: a\ndata: b\r\n\r\n: c\rdata: d\r\r".getBytes(UTF_8)) {
      c.feed(new byte[] {b});
    }
    assertEquals(List.of("a\nb", "d"), c.data);
  }

  @Test
  void emptyChunksChangeNothing() {
    assertEquals(List.of("a"), parse("", "data: a\n", "", "\n", ""));
  }

  @Test
  void longDataLineFedInSmallChunks() {
    String line = "x".repeat(100_000);
    byte[] all = ("data: " + line + "\n\n").getBytes(UTF_8);
    Collector c = new Collector();
    for (int i = 0; i < all.length; i += 1000) {
      c.parser.feed(all, i, Math.min(1000, all.length - i));
    }
    assertEquals(List.of(line), c.data);
  }

  @Test
  void dataUpToTheLimitIsDispatched() {
    List<String> out = new ArrayList<>();
    SseParser parser =
        new SseParser((b, from, to) -> out.add(new String(b, from, to - from, UTF_8)), 5);
    byte[] chunk = "data: ab\ndata: cd\n\n".getBytes(UTF_8);
    parser.feed(chunk, 0, chunk.length);
    assertEquals(List.of("ab\ncd"), out);
  }

  @Test
  void dataOverTheLimitThrows() {
    SseParser parser = new SseParser((b, from, to) -> {}, 5);
    byte[] chunk = "data: abcdef".getBytes(UTF_8);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> parser.feed(chunk, 0, chunk.length));
    assertEquals(
        "SSE event data over the limit of 5 bytes: 6 bytes so far and no blank line to end the"
            + " event",
        e.getMessage());
  }

  @Test
  void dataOverTheLimitAcrossLinesThrows() {
    SseParser parser = new SseParser((b, from, to) -> {}, 5);
    byte[] chunk = "data: abc\ndata: d\ndata: e".getBytes(UTF_8);
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> parser.feed(chunk, 0, chunk.length));
    assertEquals(
        "SSE event data over the limit of 5 bytes: 6 bytes so far and no blank line to end the"
            + " event",
        e.getMessage());
  }

  @Test
  void defaultLimitIs16MiB() {
    assertEquals(16_777_216, SseParser.DEFAULT_MAX_DATA_BYTES);
  }

  @Test
  void longCommentIsNotHeldNorLimited() {
    SseParser parser = new SseParser((b, from, to) -> {}, 5);
    byte[] chunk = (": " + "x".repeat(1000)).getBytes(UTF_8);
    parser.feed(chunk, 0, chunk.length);
    assertTrue(parser.hasPartialEvent());
  }

  @Test
  void limitBelowOneIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SseParser((b, f, t) -> {}, 0));
    assertEquals("maxDataBytes must be >= 1, got 0", e.getMessage());
  }

  @Test
  void nullListenerIsRejected() {
    assertThrows(NullPointerException.class, () -> new SseParser(null));
  }

  @Test
  void rangeOutsideTheArrayIsRejected() {
    SseParser parser = new SseParser((b, f, t) -> {});
    assertThrows(IndexOutOfBoundsException.class, () -> parser.feed(new byte[4], 2, 3));
  }

  @Test
  void onlyTheGivenRangeIsRead() {
    Collector c = new Collector();
    byte[] src = "xxdata: a\n\nyy".getBytes(UTF_8);
    c.parser.feed(src, 2, 9);
    c.parser.end();
    assertEquals(List.of("a"), c.data);
    assertFalse(c.parser.hasPartialEvent());
  }

  @Test
  void endDiscardsAnEventWithoutBlankLine() {
    Collector c = new Collector().feed("data: a\n\ndata: b\n");
    c.parser.end();
    assertEquals(List.of("a"), c.data);
    assertTrue(c.parser.hasPartialEvent());
  }

  @Test
  void endAfterACompleteEventHasNoPartialEvent() {
    Collector c = new Collector().feed("data: a\n\n");
    c.parser.end();
    assertEquals(List.of("a"), c.data);
    assertFalse(c.parser.hasPartialEvent());
  }

  @Test
  void unfinishedLineIsAPartialEvent() {
    Collector c = new Collector().feed("data: a\n\n: pi");
    assertTrue(c.parser.hasPartialEvent());
  }

  @Test
  void unfinishedFieldNameIsAPartialEvent() {
    Collector c = new Collector().feed("data: a\n\nda");
    assertTrue(c.parser.hasPartialEvent());
  }

  @Test
  void completeLinesWithoutDataAreNoPartialEvent() {
    Collector c = new Collector().feed("data: a\n\nevent: x\n: ping\n");
    assertFalse(c.parser.hasPartialEvent());
  }

  @Test
  void emptyStreamHasNoPartialEvent() {
    Collector c = new Collector();
    c.parser.end();
    assertFalse(c.parser.hasPartialEvent());
  }

  @Test
  void endTwiceKeepsTheAnswer() {
    Collector c = new Collector().feed("data: a");
    c.parser.end();
    c.parser.end();
    assertTrue(c.parser.hasPartialEvent());
    assertEquals(List.of(), c.data);
  }

  @Test
  void feedAfterEndIsRejected() {
    SseParser parser = new SseParser((b, f, t) -> {});
    parser.end();
    IllegalStateException e =
        assertThrows(IllegalStateException.class, () -> parser.feed(new byte[1], 0, 1));
    assertEquals("feed after end(): the stream has ended", e.getMessage());
  }

  @Test
  void eventsCountsDispatchedEventsOnly() {
    Collector c = new Collector().feed("data: a\n\nevent: x\n\n\n: c\n\ndata: b\n\ndata: c\n");
    assertEquals(2, c.parser.events());
  }

  @Test
  void listenerGetsTheDataRangeOnly() {
    List<int[]> ranges = new ArrayList<>();
    SseParser parser = new SseParser((b, from, to) -> ranges.add(new int[] {from, to}));
    byte[] chunk = "data: abc\n\ndata:\n\n".getBytes(UTF_8);
    parser.feed(chunk, 0, chunk.length);
    assertEquals(2, ranges.size());
    assertEquals(3, ranges.get(0)[1] - ranges.get(0)[0]);
    assertEquals(0, ranges.get(1)[1] - ranges.get(1)[0]);
  }

  @Test
  void heapByteBufferIsReadFromPositionToLimit() {
    Collector c = new Collector();
    byte[] array = "xxxdata: a\n\ndata: b\n\nyy".getBytes(UTF_8);
    ByteBuffer buffer = ByteBuffer.wrap(array, 1, array.length - 2).slice();
    buffer.position(2).limit(buffer.limit() - 1);
    c.parser.feed(buffer);
    assertEquals(List.of("a", "b"), c.data);
    assertEquals(buffer.limit(), buffer.position());
  }

  @Test
  void directByteBufferIsRead() {
    Collector c = new Collector();
    String line = "y".repeat(20_000);
    byte[] all = ("data: a\n\ndata: " + line + "\n\n").getBytes(UTF_8);
    ByteBuffer buffer = ByteBuffer.allocateDirect(all.length + 4);
    buffer.put(all).flip();
    c.parser.feed(buffer);
    assertEquals(List.of("a", line), c.data);
    assertFalse(buffer.hasRemaining());
  }

  @Test
  void readOnlyByteBufferIsRead() {
    Collector c = new Collector();
    c.parser.feed(ByteBuffer.wrap("data: a\n\n".getBytes(UTF_8)).asReadOnlyBuffer());
    assertEquals(List.of("a"), c.data);
  }

  @Test
  void byteBufferAfterEndIsRejected() {
    SseParser parser = new SseParser((b, f, t) -> {});
    parser.end();
    assertThrows(IllegalStateException.class, () -> parser.feed(ByteBuffer.allocateDirect(1)));
  }

  /** An OpenAI chat completion stream with usage, as vLLM sends it (LF line ends). */
  private static final String CHAT_STREAM =
      "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
          + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
          + "\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}\n\n"
          + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
          + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Héllo\"},"
          + "\"logprobs\":null,\"finish_reason\":null}]}\n\n"
          + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
          + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" 世界 😀\"},"
          + "\"logprobs\":null,\"finish_reason\":null}]}\n\n"
          + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
          + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},"
          + "\"logprobs\":null,\"finish_reason\":\"stop\",\"stop_reason\":null}]}\n\n"
          + "data: {\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
          + "\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
          + "\"total_tokens\":15,\"completion_tokens\":3}}\n\n"
          + "data: [DONE]\n\n";

  private static final List<String> CHAT_DATA =
      List.of(
          "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
              + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\","
              + "\"content\":\"\"},\"logprobs\":null,\"finish_reason\":null}]}",
          "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
              + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"Héllo\"},"
              + "\"logprobs\":null,\"finish_reason\":null}]}",
          "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
              + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\" 世界 😀\"},"
              + "\"logprobs\":null,\"finish_reason\":null}]}",
          "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
              + "\"model\":\"m\",\"choices\":[{\"index\":0,\"delta\":{\"content\":\"\"},"
              + "\"logprobs\":null,\"finish_reason\":\"stop\",\"stop_reason\":null}]}",
          "{\"id\":\"chatcmpl-1\",\"object\":\"chat.completion.chunk\",\"created\":1,"
              + "\"model\":\"m\",\"choices\":[],\"usage\":{\"prompt_tokens\":12,"
              + "\"total_tokens\":15,\"completion_tokens\":3}}",
          "[DONE]");

  @Test
  void chatStreamInOneChunk() {
    assertEquals(CHAT_DATA, parse(CHAT_STREAM));
  }

  @Test
  void chatStreamSplitInTwoAtEveryByte() {
    byte[] all = CHAT_STREAM.getBytes(UTF_8);
    for (int at = 0; at <= all.length; at++) {
      Collector c = new Collector();
      c.parser.feed(all, 0, at);
      c.parser.feed(all, at, all.length - at);
      c.parser.end();
      assertEquals(CHAT_DATA, c.data, "split at byte " + at);
      assertFalse(c.parser.hasPartialEvent(), "split at byte " + at);
    }
  }

  /** Every edge case at once: BOM, comments, other fields, CR, CRLF, multi-line and empty data. */
  private static final String MIXED_STREAM =
      "\uFEFF: hello\r\n"
          + "retry: 1000\r\n"
          + "\r\n"
          + "event: message\rid: 1\rdata: {\"a\":\"é\"}\rdata:  b\r\r"
          + "data\n"
          + "\n"
          + "data:x\r\n"
          + ": keep-alive\r\n"
          + "data: 中😀\r\n"
          + "\r\n"
          + "Data: no\n"
          + "\n"
          + "data: [DONE]\n"
          + "\n";

  private static final List<String> MIXED_DATA =
      List.of("{\"a\":\"é\"}\n b", "", "x\n中😀", "[DONE]");

  @Test
  void mixedStreamInOneChunk() {
    assertEquals(MIXED_DATA, parse(MIXED_STREAM));
  }

  @Test
  void mixedStreamSplitInTwoAtEveryByte() {
    byte[] all = MIXED_STREAM.getBytes(UTF_8);
    for (int at = 0; at <= all.length; at++) {
      Collector c = new Collector();
      c.parser.feed(all, 0, at);
      c.parser.feed(all, at, all.length - at);
      c.parser.end();
      assertEquals(MIXED_DATA, c.data, "split at byte " + at);
    }
  }

  @Test
  void streamsSplitAtRandomPlaces() {
    Random random = new Random(42);
    byte[] chat = CHAT_STREAM.getBytes(UTF_8);
    byte[] mixed = MIXED_STREAM.getBytes(UTF_8);
    for (int round = 0; round < 2_000; round++) {
      boolean isChat = round % 2 == 0;
      byte[] all = isChat ? chat : mixed;
      Collector c = new Collector();
      int i = 0;
      while (i < all.length) {
        int n = Math.min(all.length - i, random.nextInt(40));
        c.parser.feed(all, i, n);
        i += n;
      }
      c.parser.end();
      assertEquals(isChat ? CHAT_DATA : MIXED_DATA, c.data, "round " + round);
    }
  }
}
