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
 * The Responses API's streams, replayed one SSE block a millisecond (the k-th block at k ms) into
 * the request timer: the fixtures are a stream captured from llama.cpp and streams in OpenAI's and
 * vLLM's documented shapes (see {@code src/test/resources/streams/README.md}).
 */
class ResponsesStreamTest {

  @Test
  void llamaCppStreamIsTimedOnItsTextDeltas() {
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, "llamacpp-responses.sse");
    assertEquals(1.0, r.timings().timeToFirstEventMs());
    assertEquals(5.0, r.timings().ttftMs());
    assertEquals(List.of(1.0, 1.0, 1.0), r.timings().itlMs());
    assertEquals(12.0, r.timings().e2eMs());
    assertEquals(15, r.timings().promptTokens());
    assertTrue(r.timings().promptTokensExact());
    assertEquals(3, r.timings().cachedTokens());
    assertEquals(4, r.timings().completionTokens());
    assertEquals("completed", r.timings().finishReason());
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
    assertNull(r.timings().streamError());
    assertEquals("resp_cBFq9vdcN1sCz88g0JSv3IQXZB14RUJZ", r.parser().responseId());
    assertTrue(r.parser().sawTerminal());
  }

  @Test
  void openAiReasoningSummaryDeltasAreTheFirstToken() {
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, "openai-responses-reasoning-summary.sse");
    assertEquals(5.0, r.timings().ttftMs());
    assertEquals(List.of(1.0, 1.0, 6.0, 1.0, 1.0), r.timings().itlMs());
    assertEquals(19.0, r.timings().e2eMs());
    assertEquals(1200, r.timings().promptTokens());
    assertEquals(1024, r.timings().cachedTokens());
    assertEquals(48, r.timings().completionTokens());
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
    assertEquals(13.0, r.answer().ttfoMs());
    assertEquals(40, r.answer().reasoningTokens());
    assertEquals(AnswerTimings.SOURCE_USAGE, r.answer().reasoningTokensSource());
    assertEquals(8, r.answer().answerTokens());
    assertEquals("resp_68a1f0", r.parser().responseId());
  }

  @Test
  void vllmReasoningTextDeltasOverCrlfWithCommentsAndIncompleteEnd() {
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, "vllm-responses-reasoning-text.sse");
    assertEquals(1.0, r.timings().timeToFirstEventMs());
    assertEquals(6.0, r.timings().ttftMs());
    assertEquals(List.of(1.0, 1.0, 6.0, 1.0), r.timings().itlMs());
    assertEquals(14.0, r.answer().ttfoMs());
    assertEquals(16.0, r.timings().e2eMs());
    assertEquals(30, r.timings().promptTokens());
    assertEquals(16, r.timings().cachedTokens());
    assertEquals(6, r.timings().completionTokens());
    assertEquals(3, r.answer().reasoningTokens());
    assertEquals("max_output_tokens", r.timings().finishReason());
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
  }

  @Test
  void functionCallArgumentDeltasAreTokensAndTheCallIsAssembled() {
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, "openai-responses-function-call.sse");
    assertEquals(3.0, r.timings().ttftMs());
    assertEquals(List.of(1.0, 1.0), r.timings().itlMs());
    assertEquals(80, r.timings().promptTokens());
    assertEquals(0, r.timings().cachedTokens());
    assertEquals(9, r.timings().completionTokens());
    assertEquals(
        List.of(new Turn.ToolCall("call_abc", "get_weather", "{\"location\":\"Paris\"}")),
        r.parser().toolCalls());
  }

  @Test
  void responseFailedIsAnErrorEventNamingWhatTheServerSaid() {
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, "openai-responses-failed.sse");
    assertEquals(StreamOutcome.ERROR_EVENT, r.timings().outcome());
    assertEquals(
        "error event: response.failed (server_error): The model failed to generate a response.",
        r.timings().streamError());
    assertEquals(3.0, r.timings().ttftMs());
    assertTrue(r.parser().sawTerminal());
  }

  @Test
  void errorEventIsAnErrorEvent() {
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, "openai-responses-error.sse");
    assertEquals(StreamOutcome.ERROR_EVENT, r.timings().outcome());
    assertEquals(
        "error event: (rate_limit_exceeded): Rate limit reached for o4-mini",
        r.timings().streamError());
    assertNull(r.timings().ttftMs());
    assertFalse(r.parser().sawTerminal());
  }

  @Test
  void streamCutBeforeResponseCompletedIsNoDone() {
    List<byte[]> blocks = StreamFixtures.blocks(StreamFixtures.bytes("llamacpp-responses.sse"));
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, blocks.subList(0, blocks.size() - 1));
    assertEquals(StreamOutcome.NO_DONE, r.timings().outcome());
    assertEquals("stream ended without response.completed", r.timings().streamError());
    assertEquals(5.0, r.timings().ttftMs());
    assertEquals(4, r.timings().completionTokens());
    assertFalse(r.timings().completionTokensExact());
    assertFalse(r.parser().sawTerminal());
  }

  @Test
  void streamCutInsideItsLastEventLeavesAPartialEvent() {
    byte[] all = StreamFixtures.bytes("llamacpp-responses.sse");
    Replay r =
        StreamFixtures.replay(
            WireApi.RESPONSES, List.of(java.util.Arrays.copyOf(all, all.length - 40)));
    assertEquals(StreamOutcome.NO_DONE, r.timings().outcome());
    assertNull(r.timings().promptTokens());
    assertTrue(r.parser().hasPartialEvent());
  }

  @Test
  void eventsAfterTheTerminalOneCarryNothing() {
    byte[] all = StreamFixtures.bytes("llamacpp-responses.sse");
    byte[] more =
        "data: {\"type\":\"response.output_text.delta\",\"delta\":\"late\"}\n\n"
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    List<byte[]> blocks = new java.util.ArrayList<>(StreamFixtures.blocks(all));
    blocks.add(more);
    Replay r = StreamFixtures.replay(WireApi.RESPONSES, blocks);
    assertEquals(List.of(1.0, 1.0, 1.0), r.timings().itlMs());
    assertEquals(4, r.timings().completionTokens());
  }
}
