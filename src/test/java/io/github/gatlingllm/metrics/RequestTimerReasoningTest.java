package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestTimerReasoningTest {

  /** One token a word: enough to see which text was counted. */
  private static final java.util.function.ToIntFunction<String> WORDS =
      text -> text.isBlank() ? 0 : text.trim().split("\\s+").length;

  private static String reasoning(String field, String text) {
    return "{\"choices\":[{\"delta\":{\"" + field + "\":\"" + text + "\"}}]}";
  }

  private static String content(String text) {
    return "{\"choices\":[{\"delta\":{\"content\":\"" + text + "\"}}]}";
  }

  private static final String TOOL_CALL =
      "{\"choices\":[{\"delta\":{\"tool_calls\":[{\"index\":0,\"function\":{\"name\":\"f\"}}]}}]}";

  private static String usage(int completion, Integer reasoning) {
    return "{\"choices\":[],\"usage\":{\"prompt_tokens\":5,\"completion_tokens\":"
        + completion
        + (reasoning == null
            ? ""
            : ",\"completion_tokens_details\":{\"reasoning_tokens\":" + reasoning + "}")
        + "}}";
  }

  /** Feeds as the listener does: keeping text while the timer wants it. */
  private static void feed(RequestTimer t, long nanos, String data) {
    t.onEvent(nanos, StreamEvent.parse(data, t.wantsText()));
  }

  @Test
  void reasoningContentThenContentWithUsageDetails() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, reasoning("reasoning_content", "let"));
    feed(t, 20_000_000L, reasoning("reasoning_content", " me think"));
    feed(t, 47_500_000L, content("Hello"));
    feed(t, 57_500_000L, content(" world"));
    feed(t, 58_000_000L, usage(5, 3));
    feed(t, 58_000_000L, "[DONE]");
    RequestTimings timings = t.finish(60_000_000L, null);
    assertEquals(10.0, timings.ttftMs());
    assertEquals(List.of(10.0, 27.5, 10.0), timings.itlMs());
    assertEquals(new AnswerTimings(47.5, 3, "usage", 2, 12.5, 12.5, 2), t.answer(WORDS));
  }

  @Test
  void reasoningFieldCountedWithTheTokenizerWithoutUsage() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, reasoning("reasoning", "one two"));
    feed(t, 20_000_000L, reasoning("reasoning", " three"));
    feed(t, 30_000_000L, content("Hi"));
    feed(t, 30_000_000L, "[DONE]");
    t.finish(30_000_000L, null);
    assertEquals(new AnswerTimings(30.0, 3, "tokenizer", 1, 6.667, null, 2), t.answer(WORDS));
  }

  @Test
  void reasoningCountedAsChunksWithoutACounter() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, reasoning("reasoning", "one two"));
    feed(t, 20_000_000L, reasoning("reasoning", " three"));
    feed(t, 30_000_000L, content("Hi"));
    feed(t, 30_000_000L, "[DONE]");
    t.finish(30_000_000L, null);
    assertEquals(new AnswerTimings(30.0, 2, "chunks", 1, 10.0, null, 2), t.answer(null));
  }

  @Test
  void thinkTagsInsideContentAreReasoning() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, content("<think>"));
    feed(t, 20_000_000L, content("\\nhmm"));
    feed(t, 30_000_000L, content(" ok"));
    feed(t, 40_000_000L, content("</think>"));
    feed(t, 50_000_000L, content("\\n\\n"));
    feed(t, 60_000_000L, content("Answer"));
    feed(t, 70_000_000L, content(" here"));
    feed(t, 71_000_000L, usage(7, null));
    feed(t, 71_000_000L, "[DONE]");
    RequestTimings timings = t.finish(71_000_000L, null);
    assertEquals(10.0, timings.ttftMs());
    // "<think> hmm ok</think>": the tags are words here
    AnswerTimings a = t.answer(WORDS);
    assertEquals(60.0, a.ttfoMs());
    assertEquals(3, a.reasoningTokens());
    assertEquals("tokenizer", a.reasoningTokensSource());
    assertEquals(4, a.answerTokens());
    assertEquals(5, a.answerItlFrom());
  }

  @Test
  void thinkBlockAndAnswerInOneEvent() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, content("<think>a b</think>\\n\\nYes"));
    feed(t, 10_000_000L, "[DONE]");
    t.finish(10_000_000L, null);
    AnswerTimings a = t.answer(WORDS);
    assertEquals(10.0, a.ttfoMs());
    assertEquals(2, a.reasoningTokens());
  }

  @Test
  void bareCloseMakesEverythingBeforeItReasoning() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, content("Okay"));
    feed(t, 20_000_000L, content(" so"));
    feed(t, 30_000_000L, content("</think>"));
    feed(t, 40_000_000L, content("Done"));
    feed(t, 40_000_000L, "[DONE]");
    t.finish(40_000_000L, null);
    AnswerTimings a = t.answer(WORDS);
    assertEquals(40.0, a.ttfoMs());
    assertEquals(3, a.reasoningTokens());
    assertEquals("chunks", a.reasoningTokensSource());
    assertEquals(1, a.answerTokens());
  }

  @Test
  void reasoningThatNeverAnswersHasNoTtfo() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, reasoning("reasoning_content", "a"));
    feed(t, 20_000_000L, reasoning("reasoning_content", " b"));
    feed(t, 30_000_000L, reasoning("reasoning_content", " c"));
    feed(t, 31_000_000L, usage(3, 3));
    feed(t, 31_000_000L, "[DONE]");
    RequestTimings timings = t.finish(31_000_000L, null);
    assertEquals(StreamOutcome.COMPLETE, timings.outcome());
    assertEquals(new AnswerTimings(null, 3, "usage", 0, 10.5, null, null), t.answer(WORDS));
  }

  @Test
  void aToolCallIsTheFirstAnswerToken() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, reasoning("reasoning_content", "call it"));
    feed(t, 25_000_000L, TOOL_CALL);
    feed(t, 25_000_000L, "[DONE]");
    t.finish(25_000_000L, null);
    assertEquals(25.0, t.answer(WORDS).ttfoMs());
  }

  @Test
  void withoutReasoningTtfoIsTtft() {
    RequestTimer t = new RequestTimer(0, 0);
    feed(t, 10_000_000L, content("\\n"));
    feed(t, 20_000_000L, content("Hi"));
    feed(t, 21_000_000L, usage(2, null));
    feed(t, 21_000_000L, "[DONE]");
    t.finish(21_000_000L, null);
    assertEquals(new AnswerTimings(10.0, 0, "tokenizer", 2, null, 11.0, 0), t.answer(WORDS));
  }

  @Test
  void textIsNotKeptOnceTheAnswerStarted() {
    RequestTimer t = new RequestTimer(0, 0);
    assertEquals(true, t.wantsText());
    feed(t, 10_000_000L, content("Hi"));
    assertEquals(false, t.wantsText());
  }

  @Test
  void answerBeforeFinishIsRefused() {
    RequestTimer t = new RequestTimer(0, 0);
    assertThrows(IllegalStateException.class, () -> t.answer(null));
  }

  @Test
  void nonStreamedReasoningFromUsage() {
    StreamEvent body =
        StreamEvent.parseResponse(
            "{\"choices\":[{\"message\":{\"content\":\"Hi\",\"reasoning_content\":\"a b\"}}],"
                + "\"usage\":{\"completion_tokens\":3,"
                + "\"completion_tokens_details\":{\"reasoning_tokens\":2}}}");
    assertEquals(
        new AnswerTimings(null, 2, "usage", 1, null, null, null),
        RequestTimer.nonStreamingAnswer(body, 3, WORDS));
  }

  @Test
  void nonStreamedReasoningCountedFromTheBody() {
    StreamEvent body =
        StreamEvent.parseResponse(
            "{\"choices\":[{\"message\":{\"content\":\"Hi\",\"reasoning_content\":\"a b\"}}]}");
    assertEquals(
        new AnswerTimings(null, 2, "tokenizer", 1, null, null, null),
        RequestTimer.nonStreamingAnswer(body, 3, WORDS));
  }
}
