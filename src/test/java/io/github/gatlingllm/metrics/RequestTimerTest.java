package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
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

  private static void feed(RequestTimer t, long nanos, String data) {
    t.onEvent(nanos, StreamEvent.parse(data));
  }

  @Test
  void llamaCppChatStreamWithSeparateUsageEvent() {
    RequestTimer t = new RequestTimer(100, 100_000_000L);
    feed(t, 105_000_000L, ROLE);
    feed(t, 150_000_000L, content("a"));
    feed(t, 170_000_000L, content("b"));
    feed(t, 200_000_000L, content("c"));
    feed(t, 201_000_000L, FINISH);
    feed(t, 202_000_000L, USAGE);
    feed(t, 203_000_000L, "[DONE]");
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
        t.finish(t.lastEventNanos(), null));
  }

  @Test
  void roleOnlyFirstChunkIsTheFirstEventButNotTheFirstToken() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 13_000_000L, ROLE);
    feed(t, 389_000_000L, content("x"));
    feed(t, 390_000_000L, "[DONE]");
    RequestTimings r = t.finish(390_000_000L, null);
    assertEquals(13.0, r.timeToFirstEventMs());
    assertEquals(389.0, r.ttftMs());
  }

  @Test
  void emptyContentChunksAreNotTokens() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, EMPTY_CONTENT);
    feed(t, 20_000_000L, content("a"));
    feed(t, 25_000_000L, EMPTY_CONTENT);
    feed(t, 40_000_000L, content("b"));
    feed(t, 41_000_000L, "[DONE]");
    RequestTimings r = t.finish(41_000_000L, null);
    assertEquals(20.0, r.ttftMs());
    assertEquals(List.of(20.0), r.itlMs());
    assertEquals(2, r.completionTokens());
    assertEquals(false, r.completionTokensExact());
  }

  @Test
  void reasoningOnlyChunksAreTokens() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 5_000_000L, ROLE);
    feed(t, 30_000_000L, "{\"choices\":[{\"delta\":{\"reasoning_content\":\"Let\"}}]}");
    feed(t, 45_000_000L, "{\"choices\":[{\"delta\":{\"reasoning\":\" me\"}}]}");
    feed(t, 46_000_000L, "[DONE]");
    RequestTimings r = t.finish(46_000_000L, null);
    assertEquals(30.0, r.ttftMs());
    assertEquals(List.of(15.0), r.itlMs());
  }

  @Test
  void toolCallDeltasAreTokens() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 5_000_000L, ROLE);
    feed(
        t,
        60_000_000L,
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"id\":\"c\",\"type\":\"function\","
            + "\"function\":{\"name\":\"f\",\"arguments\":\"\"}}]}}]}");
    feed(
        t,
        72_000_000L,
        "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,"
            + "\"function\":{\"arguments\":\"{}\"}}]}}]}");
    feed(t, 80_000_000L, "{\"choices\":[{\"delta\":{},\"finish_reason\":\"tool_calls\"}]}");
    feed(t, 81_000_000L, "[DONE]");
    RequestTimings r = t.finish(81_000_000L, null);
    assertEquals(60.0, r.ttftMs());
    assertEquals(List.of(12.0), r.itlMs());
    assertEquals("tool_calls", r.finishReason());
  }

  @Test
  void usageOnTheLastContentChunkIsNotSpread() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, "{\"choices\":[{\"text\":\"a\"}]}");
    feed(t, 20_000_000L, "{\"choices\":[{\"text\":\"b\"}]}");
    feed(
        t,
        30_000_000L,
        "{\"choices\":[{\"text\":\"c\",\"finish_reason\":\"length\"}],"
            + "\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":3}}");
    feed(t, 31_000_000L, "[DONE]");
    RequestTimings r = t.finish(31_000_000L, null);
    assertEquals(List.of(10.0, 10.0), r.itlMs());
    assertEquals(3, r.completionTokens());
    assertEquals(true, r.completionTokensExact());
    assertEquals(5, r.promptTokens());
    assertEquals(true, r.promptTokensExact());
    assertEquals(null, r.cachedTokens());
  }

  @Test
  void usageOnASeparateEmptyChoicesChunk() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 20_000_000L, content("b"));
    feed(t, 21_000_000L, USAGE);
    feed(t, 22_000_000L, "[DONE]");
    RequestTimings r = t.finish(22_000_000L, 50);
    assertEquals(List.of(10.0), r.itlMs());
    assertEquals(3, r.completionTokens());
    assertEquals(true, r.completionTokensExact());
    assertEquals(12, r.promptTokens());
    assertEquals(true, r.promptTokensExact());
    assertEquals(8, r.cachedTokens());
  }

  @Test
  void missingUsageCountsTokenChunksAndTakesTheFallbackPromptCount() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 20_000_000L, content("b"));
    feed(t, 30_000_000L, content("c"));
    feed(t, 40_000_000L, "[DONE]");
    RequestTimings r = t.finish(40_000_000L, 50);
    assertEquals(3, r.completionTokens());
    assertEquals(false, r.completionTokensExact());
    assertEquals(50, r.promptTokens());
    assertEquals(false, r.promptTokensExact());
    assertEquals(null, r.cachedTokens());
    assertEquals(15.0, r.tpotMs());
  }

  @Test
  void missingUsageAndNoFallbackLeavesPromptTokensUnknown() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, "[DONE]");
    RequestTimings r = t.finish(10_000_000L, null);
    assertEquals(null, r.promptTokens());
    assertEquals(false, r.promptTokensExact());
  }

  @Test
  void missingDoneIsAStreamError() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 20_000_000L, content("b"));
    RequestTimings r = t.finish(25_000_000L, null);
    assertEquals(StreamOutcome.NO_DONE, r.outcome());
    assertEquals("stream ended without [DONE]", r.streamError());
    assertEquals(25.0, r.e2eMs());
    assertEquals(List.of(10.0), r.itlMs());
  }

  @Test
  void noEventAtAll() {
    RequestTimings r = new RequestTimer(1000, 1_000_000_000L).finish(1_500_000_000L, null);
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
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(
        t,
        20_000_000L,
        "{\"error\":{\"code\":500,\"message\":\"KV cache full\",\"type\":\"server_error\"}}");
    feed(t, 21_000_000L, "[DONE]");
    RequestTimings r = t.finish(21_000_000L, null);
    assertEquals(StreamOutcome.ERROR_EVENT, r.outcome());
    assertEquals("error event: server_error (500): KV cache full", r.streamError());
  }

  @Test
  void invalidJsonIsAStreamError() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 20_000_000L, "{\"choices\":[");
    feed(t, 21_000_000L, "[DONE]");
    RequestTimings r = t.finish(21_000_000L, null);
    assertEquals(StreamOutcome.MALFORMED, r.outcome());
    assertEquals(
        "invalid data (Unexpected end-of-input: expected close marker for Array):"
            + " {\"choices\":[",
        r.streamError());
  }

  @Test
  void durationsComeFromTheNanosAndStartMsIsOnlyRecorded() {
    RequestTimer t = new RequestTimer(1_700_000_000_000L, 42_000_000_000L);
    feed(t, 42_013_000_000L, ROLE);
    feed(t, 42_402_000_000L, content("a"));
    feed(t, 42_602_000_000L, content("b"));
    feed(t, 42_992_000_000L, "[DONE]");
    RequestTimings r = t.finish(42_992_000_000L, null);
    assertEquals(1_700_000_000_000L, r.startMs());
    assertEquals(13.0, r.timeToFirstEventMs());
    assertEquals(402.0, r.ttftMs());
    assertEquals(List.of(200.0), r.itlMs());
    assertEquals(992.0, r.e2eMs());
  }

  @Test
  void aGapOf2517400NanosIs2517Milliseconds() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 12_517_400L, content("b"));
    assertEquals(List.of(2.517), t.finish(12_517_400L, null).itlMs());
  }

  @Test
  void subMillisecondGapsAreKept() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 1_000_000L, content("a"));
    feed(t, 1_250_000L, content("b"));
    feed(t, 1_375_000L, content("c"));
    feed(t, 1_376_000L, content("d"));
    assertEquals(List.of(0.25, 0.125, 0.001), t.finish(1_376_000L, null).itlMs());
  }

  @Test
  void gapsRoundToTheNearestMicrosecondHalfUp() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 1_000_000L, content("a"));
    feed(t, 1_000_499L, content("b"));
    feed(t, 1_001_999L, content("c"));
    feed(t, 1_003_499L, content("d"));
    assertEquals(List.of(0.0, 0.002, 0.002), t.finish(1_003_499L, null).itlMs());
  }

  @Test
  void ttftFirstEventAndE2eRoundToTheMicrosecond() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 345_499L, ROLE);
    feed(t, 12_345_678L, content("a"));
    feed(t, 20_000_000L, content("b"));
    feed(t, 45_000_500L, content("c"));
    RequestTimings r = t.finish(45_000_500L, null);
    assertEquals(0.345, r.timeToFirstEventMs());
    assertEquals(12.346, r.ttftMs());
    assertEquals(List.of(7.654, 25.001), r.itlMs());
    assertEquals(45.001, r.e2eMs());
  }

  @Test
  void tpotIsWorkedOutFromTheRoundedE2eAndTtftAndRoundedToTheMicrosecond() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 12_345_678L, content("a"));
    feed(t, 20_000_000L, content("b"));
    feed(t, 45_000_500L, content("c"));
    // (45.001 - 12.346) / 2 = 16.3275
    assertEquals(16.328, t.finish(45_000_500L, null).tpotMs());
  }

  @Test
  void aSpreadGapIsRoundedFromItsNanos() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, contentWithUsage("a", 1));
    feed(t, 20_000_000L, contentWithUsage("bcd", 4));
    assertEquals(List.of(3.333, 3.333, 3.333), t.finish(20_000_000L, null).itlMs());
  }

  @Test
  void nanoTimeWrappingAroundDoesNoHarm() {
    RequestTimer t = new RequestTimer(0, Long.MAX_VALUE - 500_000L);
    feed(t, Long.MAX_VALUE - 250_000L, content("a"));
    feed(t, Long.MIN_VALUE + 2_017_399L, content("b"));
    RequestTimings r = t.finish(Long.MIN_VALUE + 2_017_399L, null);
    assertEquals(0.25, r.ttftMs());
    assertEquals(List.of(2.267), r.itlMs());
    assertEquals(2.517, r.e2eMs());
  }

  @Test
  void lastEventNanosIsTheStartBeforeAnyEvent() {
    RequestTimer t = new RequestTimer(0, 7_000L);
    assertEquals(7_000L, t.lastEventNanos());
    feed(t, 9_000L, ROLE);
    assertEquals(9_000L, t.lastEventNanos());
  }

  @Test
  void nonStreamedE2eRoundsToTheMicrosecond() {
    StreamEvent body = StreamEvent.parseResponse("{\"choices\":[{\"text\":\"abc\"}]}");
    assertEquals(
        2.517, RequestTimer.nonStreaming(0, 5_000_000L, 7_517_400L, body, null, 3).e2eMs());
  }

  @Test
  void tpotIsAbsentWithOneToken() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 40_000_000L, contentWithUsage("a", 1));
    feed(t, 50_000_000L, "[DONE]");
    RequestTimings r = t.finish(50_000_000L, null);
    assertEquals(null, r.tpotMs());
    assertEquals(List.of(), r.itlMs());
    assertEquals(20.0, r.outputTokensPerS());
  }

  @Test
  void tpotWithTwoTokens() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 40_000_000L, content("a"));
    feed(t, 70_000_000L, contentWithUsage("b", 2));
    feed(t, 80_000_000L, "[DONE]");
    RequestTimings r = t.finish(80_000_000L, null);
    assertEquals(40.0, r.tpotMs());
    assertEquals(25.0, r.outputTokensPerS());
  }

  @Test
  void chunkOfKTokensSpreadsItsGapWhenUsageIsContinuous() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(
        t,
        5_000_000L,
        "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":\"\"}}],"
            + "\"usage\":{\"prompt_tokens\":4,\"completion_tokens\":0}}");
    feed(t, 10_000_000L, contentWithUsage("a", 1));
    feed(t, 20_000_000L, contentWithUsage("b", 2));
    feed(t, 50_000_000L, contentWithUsage("cde", 5));
    feed(t, 60_000_000L, contentWithUsage("f", 6));
    feed(t, 61_000_000L, "[DONE]");
    RequestTimings r = t.finish(61_000_000L, null);
    assertEquals(List.of(10.0, 10.0, 10.0, 10.0, 10.0), r.itlMs());
    assertEquals(6, r.completionTokens());
    assertEquals(10.2, r.tpotMs());
  }

  @Test
  void kTokensInTheFirstChunkAddNoInterval() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, contentWithUsage("abc", 3));
    feed(t, 20_000_000L, contentWithUsage("d", 4));
    feed(t, 21_000_000L, "[DONE]");
    assertEquals(List.of(10.0), t.finish(21_000_000L, null).itlMs());
  }

  @Test
  void gapIsNotSpreadWhenThePreviousChunkHadNoUsage() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 20_000_000L, contentWithUsage("bcd", 4));
    feed(t, 21_000_000L, "[DONE]");
    assertEquals(List.of(10.0), t.finish(21_000_000L, null).itlMs());
  }

  @Test
  void eventsAfterDoneAreIgnored() {
    RequestTimer t = new RequestTimer(0, 0L);
    feed(t, 10_000_000L, content("a"));
    feed(t, 20_000_000L, "[DONE]");
    feed(t, 30_000_000L, content("b"));
    RequestTimings r = t.finish(20_000_000L, null);
    assertEquals(1, r.completionTokens());
    assertEquals(StreamOutcome.COMPLETE, r.outcome());
  }

  @Test
  void negativeIntervalsCountAsZero() {
    RequestTimer t = new RequestTimer(100, 100_000_000L);
    feed(t, 120_000_000L, content("a"));
    feed(t, 118_000_000L, content("b"));
    feed(t, 119_000_000L, "[DONE]");
    RequestTimings r = t.finish(90_000_000L, null);
    assertEquals(List.of(0.0), r.itlMs());
    assertEquals(0.0, r.e2eMs());
    assertEquals(null, r.outputTokensPerS());
  }

  @Test
  void finishTwiceIsRefused() {
    RequestTimer t = new RequestTimer(0, 0L);
    t.finish(1_000_000L, null);
    assertThrows(IllegalStateException.class, () -> t.finish(2_000_000L, null));
    assertThrows(IllegalStateException.class, () -> t.onEvent(3_000_000L, StreamEvent.DONE));
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
        RequestTimer.nonStreaming(1000, 1_000_000_000L, 1_200_000_000L, body, 100, 50));
  }

  @Test
  void nonStreamedBodyWithoutUsageTakesTheFallbacks() {
    StreamEvent body =
        StreamEvent.parseResponse(
            "{\"choices\":[{\"text\":\"abc\",\"finish_reason\":\"length\"}]}");
    RequestTimings r = RequestTimer.nonStreaming(0, 0L, 500_000_000L, body, 100, 8);
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
            0L,
            5_000_000L,
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
