package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.openai.StreamEvent;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestTimerTest {

  private static final String ROLE =
      "{\"choices\":[{\"index\":0,\"delta\":{\"role\":\"assistant\",\"content\":null}}]}";
  private static final String EMPTY_CONTENT = "{\"choices\":[{\"delta\":{\"content\":\"\"}}]}";
  private static final String FINISH =
      "{\"choices\":[{\"index\":0,\"delta\":{},\"finish_reason\":\"length\"}]}";
  private static final String USAGE =
      "{\"choices\":[],\"usage\":{\"prompt_tokens\":12,\"completion_tokens\":3,"
          + "\"prompt_tokens_details\":{\"cached_tokens\":8}}}";

  private static String content(String text) {
    return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\"" + text + "\"}}]}";
  }

  private static String contentWithUsage(String text, int completionTokens) {
    return "{\"choices\":[{\"index\":0,\"delta\":{\"content\":\""
        + text
        + "\"}}],\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":"
        + completionTokens
        + "}}";
  }

  private static void feed(RequestTimer t, long ms, String data) {
    t.onEvent(ms, StreamEvent.parse(data));
  }

  @Test
  void llamaCppChatStreamWithSeparateUsageEvent() {
    RequestTimer t = new RequestTimer(100);
    feed(t, 105, ROLE);
    feed(t, 150, content("a"));
    feed(t, 170, content("b"));
    feed(t, 200, content("c"));
    feed(t, 201, FINISH);
    feed(t, 202, USAGE);
    feed(t, 203, "[DONE]");
    assertEquals(
        new RequestTimings(
            100,
            5.0,
            50.0,
            List.of(20.0, 30.0),
            26.5,
            103.0,
            3 / 0.103,
            12,
            true,
            8,
            3,
            true,
            "length",
            StreamOutcome.COMPLETE,
            null),
        t.finish(t.lastEventMs(), null));
  }

  @Test
  void roleOnlyFirstChunkIsTheFirstEventButNotTheFirstToken() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 13, ROLE);
    feed(t, 389, content("x"));
    feed(t, 390, "[DONE]");
    RequestTimings r = t.finish(390, null);
    assertEquals(13.0, r.timeToFirstEventMs());
    assertEquals(389.0, r.ttftMs());
  }

  @Test
  void emptyContentChunksAreNotTokens() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, EMPTY_CONTENT);
    feed(t, 20, content("a"));
    feed(t, 25, EMPTY_CONTENT);
    feed(t, 40, content("b"));
    feed(t, 41, "[DONE]");
    RequestTimings r = t.finish(41, null);
    assertEquals(20.0, r.ttftMs());
    assertEquals(List.of(20.0), r.itlMs());
    assertEquals(2, r.completionTokens());
    assertEquals(false, r.completionTokensExact());
  }

  @Test
  void reasoningOnlyChunksAreTokens() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 5, ROLE);
    feed(t, 30, "{\"choices\":[{\"delta\":{\"reasoning_content\":\"Let\"}}]}");
    feed(t, 45, "{\"choices\":[{\"delta\":{\"reasoning\":\" me\"}}]}");
    feed(t, 46, "[DONE]");
    RequestTimings r = t.finish(46, null);
    assertEquals(30.0, r.ttftMs());
    assertEquals(List.of(15.0), r.itlMs());
  }

  @Test
  void toolCallDeltasAreTokens() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 5, ROLE);
    feed(
        t,
        60,
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"type\":\"function\","
            + "\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}");
    feed(
        t,
        72,
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
            + "\"function\":{\"arguments\":\"{}\"}}]}}]}");
    feed(t, 80, "{\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}");
    feed(t, 81, "[DONE]");
    RequestTimings r = t.finish(81, null);
    assertEquals(60.0, r.ttftMs());
    assertEquals(List.of(12.0), r.itlMs());
    assertEquals("tool_calls", r.finishReason());
  }

  @Test
  void usageOnTheLastContentChunkIsNotSpread() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, "{\"choices\":[{\"text\":\"a\"}]}");
    feed(t, 20, "{\"choices\":[{\"text\":\"b\"}]}");
    feed(
        t,
        30,
        "{\"choices\":[{\"text\":\"c\",\"finish_reason\":\"length\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}");
    feed(t, 31, "[DONE]");
    RequestTimings r = t.finish(31, null);
    assertEquals(List.of(10.0, 10.0), r.itlMs());
    assertEquals(3, r.completionTokens());
    assertEquals(true, r.completionTokensExact());
    assertEquals(5, r.promptTokens());
    assertEquals(true, r.promptTokensExact());
    assertEquals(null, r.cachedTokens());
  }

  @Test
  void usageOnASeparateEmptyChoicesChunk() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(t, 20, content("b"));
    feed(t, 21, USAGE);
    feed(t, 22, "[DONE]");
    RequestTimings r = t.finish(22, 50);
    assertEquals(List.of(10.0), r.itlMs());
    assertEquals(3, r.completionTokens());
    assertEquals(true, r.completionTokensExact());
    assertEquals(12, r.promptTokens());
    assertEquals(true, r.promptTokensExact());
    assertEquals(8, r.cachedTokens());
  }

  @Test
  void missingUsageCountsTokenChunksAndTakesTheFallbackPromptCount() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(t, 20, content("b"));
    feed(t, 30, content("c"));
    feed(t, 40, "[DONE]");
    RequestTimings r = t.finish(40, 50);
    assertEquals(3, r.completionTokens());
    assertEquals(false, r.completionTokensExact());
    assertEquals(50, r.promptTokens());
    assertEquals(false, r.promptTokensExact());
    assertEquals(null, r.cachedTokens());
    assertEquals(15.0, r.tpotMs());
  }

  @Test
  void missingUsageAndNoFallbackLeavesPromptTokensUnknown() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, "[DONE]");
    RequestTimings r = t.finish(10, null);
    assertEquals(null, r.promptTokens());
    assertEquals(false, r.promptTokensExact());
  }

  @Test
  void missingDoneIsAStreamError() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(t, 20, content("b"));
    RequestTimings r = t.finish(25, null);
    assertEquals(StreamOutcome.NO_DONE, r.outcome());
    assertEquals("stream ended without [DONE]", r.streamError());
    assertEquals(25.0, r.e2eMs());
    assertEquals(List.of(10.0), r.itlMs());
  }

  @Test
  void noEventAtAll() {
    RequestTimings r = new RequestTimer(1000).finish(1500, null);
    assertEquals(
        new RequestTimings(
            1000,
            null,
            null,
            List.of(),
            null,
            500.0,
            0.0,
            null,
            false,
            null,
            0,
            false,
            null,
            StreamOutcome.NO_DONE,
            "stream ended without any event"),
        r);
  }

  @Test
  void errorEventIsAStreamErrorWithItsDescription() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(
        t,
        20,
        "{\"error\":{\"code\":500,\"message\":\"KV cache full\",\"type\":\"server_error\"}}");
    feed(t, 21, "[DONE]");
    RequestTimings r = t.finish(21, null);
    assertEquals(StreamOutcome.ERROR_EVENT, r.outcome());
    assertEquals("error event: server_error (500): KV cache full", r.streamError());
  }

  @Test
  void invalidJsonIsAStreamError() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(t, 20, "{\"choices\":[");
    feed(t, 21, "[DONE]");
    RequestTimings r = t.finish(21, null);
    assertEquals(StreamOutcome.MALFORMED, r.outcome());
    assertEquals(
        "invalid data (Unexpected end-of-input: expected close marker for Array):"
            + " {\"choices\":[",
        r.streamError());
  }

  @Test
  void timestampsAreTheEventsOwnMilliseconds() {
    RequestTimer t = new RequestTimer(1_700_000_000_000L);
    feed(t, 1_700_000_000_013L, ROLE);
    feed(t, 1_700_000_000_402L, content("a"));
    feed(t, 1_700_000_000_602L, content("b"));
    feed(t, 1_700_000_000_992L, "[DONE]");
    RequestTimings r = t.finish(1_700_000_000_992L, null);
    assertEquals(1_700_000_000_000L, r.startMs());
    assertEquals(13.0, r.timeToFirstEventMs());
    assertEquals(402.0, r.ttftMs());
    assertEquals(List.of(200.0), r.itlMs());
    assertEquals(992.0, r.e2eMs());
  }

  @Test
  void tpotIsAbsentWithOneToken() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 40, contentWithUsage("a", 1));
    feed(t, 50, "[DONE]");
    RequestTimings r = t.finish(50, null);
    assertEquals(null, r.tpotMs());
    assertEquals(List.of(), r.itlMs());
    assertEquals(20.0, r.outputTokensPerS());
  }

  @Test
  void tpotWithTwoTokens() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 40, content("a"));
    feed(t, 70, contentWithUsage("b", 2));
    feed(t, 80, "[DONE]");
    RequestTimings r = t.finish(80, null);
    assertEquals(40.0, r.tpotMs());
    assertEquals(25.0, r.outputTokensPerS());
  }

  @Test
  void chunkOfKTokensSpreadsItsGapWhenUsageIsContinuous() {
    RequestTimer t = new RequestTimer(0);
    feed(
        t,
        5,
        "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],"
            + "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":0}}");
    feed(t, 10, contentWithUsage("a", 1));
    feed(t, 20, contentWithUsage("b", 2));
    feed(t, 50, contentWithUsage("cde", 5));
    feed(t, 60, contentWithUsage("f", 6));
    feed(t, 61, "[DONE]");
    RequestTimings r = t.finish(61, null);
    assertEquals(List.of(10.0, 10.0, 10.0, 10.0, 10.0), r.itlMs());
    assertEquals(6, r.completionTokens());
    assertEquals(10.2, r.tpotMs());
  }

  @Test
  void kTokensInTheFirstChunkAddNoInterval() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, contentWithUsage("abc", 3));
    feed(t, 20, contentWithUsage("d", 4));
    feed(t, 21, "[DONE]");
    assertEquals(List.of(10.0), t.finish(21, null).itlMs());
  }

  @Test
  void gapIsNotSpreadWhenThePreviousChunkHadNoUsage() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(t, 20, contentWithUsage("bcd", 4));
    feed(t, 21, "[DONE]");
    assertEquals(List.of(10.0), t.finish(21, null).itlMs());
  }

  @Test
  void eventsAfterDoneAreIgnored() {
    RequestTimer t = new RequestTimer(0);
    feed(t, 10, content("a"));
    feed(t, 20, "[DONE]");
    feed(t, 30, content("b"));
    RequestTimings r = t.finish(20, null);
    assertEquals(1, r.completionTokens());
    assertEquals(StreamOutcome.COMPLETE, r.outcome());
  }

  @Test
  void clockSteppingBackCountsAsZero() {
    RequestTimer t = new RequestTimer(100);
    feed(t, 120, content("a"));
    feed(t, 118, content("b"));
    feed(t, 119, "[DONE]");
    RequestTimings r = t.finish(90, null);
    assertEquals(List.of(0.0), r.itlMs());
    assertEquals(0.0, r.e2eMs());
    assertEquals(null, r.outputTokensPerS());
  }

  @Test
  void finishTwiceIsRefused() {
    RequestTimer t = new RequestTimer(0);
    t.finish(1, null);
    assertThrows(IllegalStateException.class, () -> t.finish(2, null));
    assertThrows(IllegalStateException.class, () -> t.onEvent(3, StreamEvent.DONE));
  }

  @Test
  void nonStreamedBody() {
    StreamEvent body =
        StreamEvent.parseResponse(
            "{\"object\":\"chat.completion\",\"choices\":[{\"index\":0,\"message\":"
                + "{\"role\":\"assistant\",\"content\":\"Hello there\"},\"finish_reason\":\"stop\"}],"
                + "\"usage\":{\"prompt_tokens\":9,\"completion_tokens\":4,"
                + "\"prompt_tokens_details\":{\"cached_tokens\":0}}}");
    assertEquals(
        new RequestTimings(
            1000,
            null,
            null,
            null,
            null,
            200.0,
            20.0,
            9,
            true,
            0,
            4,
            true,
            "stop",
            StreamOutcome.COMPLETE,
            null),
        RequestTimer.nonStreaming(1000, 1200, body, 100, 50));
  }

  @Test
  void nonStreamedBodyWithoutUsageTakesTheFallbacks() {
    StreamEvent body =
        StreamEvent.parseResponse(
            "{\"choices\":[{\"text\":\"abc\",\"finish_reason\":\"length\"}]}");
    RequestTimings r = RequestTimer.nonStreaming(0, 500, body, 100, 8);
    assertEquals(100, r.promptTokens());
    assertEquals(false, r.promptTokensExact());
    assertEquals(8, r.completionTokens());
    assertEquals(false, r.completionTokensExact());
    assertEquals(16.0, r.outputTokensPerS());
    assertEquals("length", r.finishReason());
  }

  @Test
  void nonStreamedErrorBody() {
    RequestTimings r =
        RequestTimer.nonStreaming(
            0,
            5,
            StreamEvent.parseResponse(
                "{\"error\":{\"code\":400,\"message\":\"the request exceeds the available context"
                    + " size\",\"type\":\"exceed_context_size_error\"}}"),
            null,
            null);
    assertEquals(StreamOutcome.ERROR_EVENT, r.outcome());
    assertEquals(
        "error body: exceed_context_size_error (400): the request exceeds the available context"
            + " size",
        r.streamError());
    assertEquals(null, r.completionTokens());
    assertEquals(null, r.outputTokensPerS());
  }
}
