package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/** Every fixture gives the same events however its bytes are cut into chunks. */
class SplitStreamsTest {

  private static void sameEventsAtEverySplit(WireApi api, String fixture) {
    byte[] all = StreamFixtures.bytes(fixture);
    List<StreamEvent> whole = StreamFixtures.events(api, List.of(all));
    for (int at = 0; at <= all.length; at++) {
      List<byte[]> two =
          List.of(Arrays.copyOfRange(all, 0, at), Arrays.copyOfRange(all, at, all.length));
      assertEquals(whole, StreamFixtures.events(api, two), fixture + " split at byte " + at);
    }
    List<byte[]> bytes = new ArrayList<>(all.length);
    for (byte b : all) {
      bytes.add(new byte[] {b});
    }
    assertEquals(whole, StreamFixtures.events(api, bytes), fixture + " fed a byte at a time");
  }

  @Test
  void llamaCppResponses() {
    sameEventsAtEverySplit(WireApi.RESPONSES, "llamacpp-responses.sse");
  }

  @Test
  void openAiReasoningSummary() {
    sameEventsAtEverySplit(WireApi.RESPONSES, "openai-responses-reasoning-summary.sse");
  }

  @Test
  void vllmReasoningTextWithCrlfAndComments() {
    sameEventsAtEverySplit(WireApi.RESPONSES, "vllm-responses-reasoning-text.sse");
  }

  @Test
  void responsesFunctionCall() {
    sameEventsAtEverySplit(WireApi.RESPONSES, "openai-responses-function-call.sse");
  }

  @Test
  void llamaCppMessages() {
    sameEventsAtEverySplit(WireApi.MESSAGES, "llamacpp-messages.sse");
  }

  @Test
  void messagesThinking() {
    sameEventsAtEverySplit(WireApi.MESSAGES, "anthropic-messages-thinking.sse");
  }

  @Test
  void messagesToolUse() {
    sameEventsAtEverySplit(WireApi.MESSAGES, "anthropic-messages-tool-use.sse");
  }

  @Test
  void llamaCppChat() {
    sameEventsAtEverySplit(WireApi.CHAT, "llamacpp-chat.sse");
  }

  @Test
  void chatToolCalls() {
    sameEventsAtEverySplit(WireApi.CHAT, "openai-chat-tool-calls.sse");
  }

  @Test
  void vllmChatReasoningWithCrlfAndComments() {
    sameEventsAtEverySplit(WireApi.CHAT, "vllm-chat-reasoning.sse");
  }

  private static final List<String> CHAT_FIXTURES =
      List.of("llamacpp-chat.sse", "openai-chat-tool-calls.sse", "vllm-chat-reasoning.sse");

  /**
   * The chat dialect's events (its byte scanner where it reads, with or without the text) against
   * each {@code data:} payload read by the Jackson path alone.
   */
  private static void chatAsJackson(String fixture, boolean keepText) {
    List<byte[]> chunks = List.of(StreamFixtures.bytes(fixture));
    List<StreamEvent> reference = new ArrayList<>();
    for (byte[] block : StreamFixtures.blocks(chunks.get(0))) {
      for (String line : new String(block, StandardCharsets.UTF_8).split("\r?\n")) {
        if (line.startsWith("data: ")) {
          byte[] payload = line.substring(6).getBytes(StandardCharsets.UTF_8);
          reference.add(StreamEventParser.parse(payload, 0, payload.length, keepText, false));
        }
      }
    }
    List<StreamEvent> events = StreamFixtures.events(WireApi.CHAT, chunks, keepText);
    assertEquals(reference, events, fixture);
  }

  @Test
  void chatScannerWithTheTextReadsEveryFixtureAsJacksonDoes() {
    for (String f : CHAT_FIXTURES) {
      chatAsJackson(f, true);
    }
  }

  @Test
  void chatScannerWithoutTheTextReadsEveryFixtureAsJacksonDoes() {
    for (String f : CHAT_FIXTURES) {
      chatAsJackson(f, false);
    }
  }

  @Test
  void everyPayloadOfTheChatFixturesIsReadByTheScanner() {
    int read = 0;
    int left = 0;
    for (String f : CHAT_FIXTURES) {
      for (String line : new String(StreamFixtures.bytes(f), StandardCharsets.UTF_8).split("\n")) {
        if (line.startsWith("data: {")) {
          byte[] payload = line.substring(6).strip().getBytes(StandardCharsets.UTF_8);
          if (ChunkScanner.scan(payload, 0, payload.length, true) != null) {
            read++;
          } else {
            left++;
          }
        }
      }
    }
    // 15 + 11 + 7 payloads, the tool-call fixture's 8 tool_calls deltas among them.
    assertEquals(33, read);
    assertEquals(0, left);
  }

  @Test
  void wholeEventsOfTheVllmChatFixture() {
    List<StreamEvent> events =
        StreamFixtures.events(
            WireApi.CHAT, List.of(StreamFixtures.bytes("vllm-chat-reasoning.sse")));
    assertEquals(8, events.size());
    assertEquals(" think: a < b", events.get(2).reasoning());
    assertEquals("\u00c9t\u00e9 ", events.get(3).content());
    assertEquals("\u00e9t\u00e9 \ud83d\ude00 \"quoted\"\n", events.get(4).content());
    assertEquals(16, events.get(4).contentChars());
    assertEquals("\ud83d\ude00 <b>", events.get(5).content());
    assertEquals(StreamEvent.DONE, events.get(7));
  }

  /** An event without its texts: what the metrics read when no text is wanted. */
  private static StreamEvent counts(StreamEvent e) {
    return new StreamEvent(
        e.kind(),
        e.contentChars(),
        e.reasoningChars(),
        e.toolCallDeltas(),
        null,
        null,
        e.finishReason(),
        e.usage(),
        e.error(),
        null);
  }

  /** Events with no text wanted (the byte scanner's path) against every text kept (Jackson's). */
  private static void scannerCountsAsJackson(WireApi api, String fixture) {
    List<byte[]> chunks = List.of(StreamFixtures.bytes(fixture));
    List<StreamEvent> jackson = StreamFixtures.events(api, chunks);
    List<StreamEvent> fast = StreamFixtures.events(api, chunks, false);
    assertEquals(jackson.stream().map(SplitStreamsTest::counts).toList(), fast, fixture);
  }

  @Test
  void scannerReadsEveryFixtureAsJacksonDoes() {
    for (String f :
        List.of(
            "llamacpp-responses.sse",
            "openai-responses-reasoning-summary.sse",
            "vllm-responses-reasoning-text.sse",
            "openai-responses-function-call.sse",
            "openai-responses-failed.sse",
            "openai-responses-error.sse")) {
      scannerCountsAsJackson(WireApi.RESPONSES, f);
    }
    for (String f :
        List.of(
            "llamacpp-messages.sse",
            "anthropic-messages-thinking.sse",
            "anthropic-messages-tool-use.sse",
            "anthropic-messages-error.sse")) {
      scannerCountsAsJackson(WireApi.MESSAGES, f);
    }
  }

  @Test
  void wholeEventsOfTheVllmFixture() {
    List<StreamEvent> events =
        StreamFixtures.events(
            WireApi.RESPONSES, List.of(StreamFixtures.bytes("vllm-responses-reasoning-text.sse")));
    // 14 events (two comments dispatch none); response.incomplete gives its usage, then DONE
    assertEquals(15, events.size());
    assertEquals(StreamEvent.DONE, events.get(14));
    assertEquals("Let me", events.get(4).reasoning());
    assertEquals("été 😀", events.get(12).content());
    assertEquals(6, events.get(12).contentChars());
  }
}
