package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.api.StreamFixtures.Replay;
import io.github.gatlingllm.metrics.AnswerTimings;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Anthropic's Messages API streams, replayed one SSE block a millisecond (the k-th block at k ms)
 * into the request timer: a stream captured from llama.cpp and streams in Anthropic's documented
 * shapes (see {@code src/test/resources/streams/README.md}).
 */
class MessagesStreamTest {

  @Test
  void llamaCppStreamCountsCacheReadInThePrompt() {
    Replay r = StreamFixtures.replay(WireApi.MESSAGES, "llamacpp-messages.sse");
    assertEquals(1.0, r.timings().timeToFirstEventMs());
    assertEquals(3.0, r.timings().ttftMs());
    assertEquals(List.of(1.0, 1.0, 1.0), r.timings().itlMs());
    assertEquals(9.0, r.timings().e2eMs());
    assertEquals(15, r.timings().promptTokens());
    assertTrue(r.timings().promptTokensExact());
    assertEquals(14, r.timings().cachedTokens());
    assertEquals(4, r.timings().completionTokens());
    assertTrue(r.timings().completionTokensExact());
    assertEquals("max_tokens", r.timings().finishReason());
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
    assertNull(r.parser().responseId());
    assertTrue(r.parser().sawTerminal());
  }

  @Test
  void thinkingDeltasAreTheFirstTokenAndPingAndSignatureAreNot() {
    Replay r = StreamFixtures.replay(WireApi.MESSAGES, "anthropic-messages-thinking.sse");
    assertEquals(4.0, r.timings().ttftMs());
    assertEquals(List.of(1.0, 4.0, 1.0), r.timings().itlMs());
    assertEquals(9.0, r.answer().ttfoMs());
    assertEquals(13.0, r.timings().e2eMs());
    assertEquals(2160, r.timings().promptTokens());
    assertEquals(2048, r.timings().cachedTokens());
    assertEquals(64, r.timings().completionTokens());
    assertEquals("end_turn", r.timings().finishReason());
    assertEquals(2, r.answer().reasoningTokens());
    assertEquals(AnswerTimings.SOURCE_CHUNKS, r.answer().reasoningTokensSource());
  }

  @Test
  void inputJsonDeltasAreTokensAndTheToolUseIsAssembled() {
    Replay r = StreamFixtures.replay(WireApi.MESSAGES, "anthropic-messages-tool-use.sse");
    assertEquals(3.0, r.timings().ttftMs());
    assertEquals(List.of(3.0, 1.0, 1.0, 1.0), r.timings().itlMs());
    assertEquals(472, r.timings().promptTokens());
    assertEquals(0, r.timings().cachedTokens());
    assertEquals(89, r.timings().completionTokens());
    assertEquals("tool_use", r.timings().finishReason());
    assertEquals(
        List.of(
            new Turn.ToolCall(
                "toolu_01T1x", "get_weather", "{\"location\": \"San Francisco, CA\"}")),
        r.parser().toolCalls());
  }

  @Test
  void errorEventIsAnErrorEventNamingItsType() {
    Replay r = StreamFixtures.replay(WireApi.MESSAGES, "anthropic-messages-error.sse");
    assertEquals(StreamOutcome.ERROR_EVENT, r.timings().outcome());
    assertEquals("error event: overloaded_error: Overloaded", r.timings().streamError());
    assertEquals(4.0, r.timings().ttftMs());
    assertEquals(10, r.timings().promptTokens());
    assertNull(r.timings().cachedTokens());
    assertFalse(r.parser().sawTerminal());
  }

  @Test
  void streamCutBeforeMessageStopIsNoDone() {
    List<byte[]> blocks = StreamFixtures.blocks(StreamFixtures.bytes("llamacpp-messages.sse"));
    Replay r = StreamFixtures.replay(WireApi.MESSAGES, blocks.subList(0, blocks.size() - 1));
    assertEquals(StreamOutcome.NO_DONE, r.timings().outcome());
    assertEquals("stream ended without message_stop", r.timings().streamError());
    assertEquals(4, r.timings().completionTokens());
    assertEquals("max_tokens", r.timings().finishReason());
  }

  @Test
  void streamCutBeforeMessageDeltaCountsTokenEvents() {
    List<byte[]> blocks = StreamFixtures.blocks(StreamFixtures.bytes("llamacpp-messages.sse"));
    Replay r = StreamFixtures.replay(WireApi.MESSAGES, blocks.subList(0, 6));
    assertEquals(StreamOutcome.NO_DONE, r.timings().outcome());
    assertEquals(15, r.timings().promptTokens());
    assertEquals(4, r.timings().completionTokens());
    assertFalse(r.timings().completionTokensExact());
  }
}
