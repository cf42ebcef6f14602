package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

class StreamEventReasoningTest {

  private static StreamEvent bytes(String data) {
    byte[] b = data.getBytes(StandardCharsets.UTF_8);
    return StreamEvent.parse(b, 0, b.length);
  }

  @Test
  void usageReasoningTokensAreRead() {
    StreamEvent e =
        StreamEvent.parse(
            "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":9,"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":7}}}");
    assertEquals(new Usage(5, 9, null, 7), e.usage());
  }

  @Test
  void usageWithoutDetailsHasNoReasoningTokens() {
    StreamEvent e = StreamEvent.parse("{\"usage\":{\"completion_tokens\":9}}");
    assertEquals(new Usage(null, 9, null), e.usage());
  }

  @Test
  void onlyReasoningTokensMakeAUsage() {
    StreamEvent e =
        StreamEvent.parse("{\"usage\":{\"completion_tokens_details\":{\"reasoning_tokens\":0}}}");
    assertEquals(new Usage(null, null, null, 0), e.usage());
  }

  @Test
  void contentWithAThinkTagIsKeptWithoutKeepText() {
    assertEquals(
        "<think>", bytes("{\"choices\":[{\"delta\":{\"content\":\"<think>\"}}]}").content());
    assertEquals(
        "a</think>\\n",
        StreamEvent.parse("{\"choices\":[{\"delta\":{\"content\":\"a</think>\\\\n\"}}]}")
            .content());
  }

  @Test
  void contentWithoutATagIsNotKept() {
    StreamEvent e = bytes("{\"choices\":[{\"delta\":{\"content\":\"<b>think</b>\"}}]}");
    assertNull(e.content());
    assertEquals(12, e.contentChars());
  }

  @Test
  void reasoningAndReasoningContentInOneDeltaCountOnce() {
    StreamEvent e =
        bytes("{\"choices\":[{\"delta\":{\"reasoning_content\":\"abc\",\"reasoning\":\"abc\"}}]}");
    assertEquals(3, e.reasoningChars());
  }
}
