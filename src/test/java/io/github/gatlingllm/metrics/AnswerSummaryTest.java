package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.stats.JsonForm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class AnswerSummaryTest {

  private static RequestRecordBuilder ok(double ttft, Double ttfo, int reasoning, int answer) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .startMs(0)
        .completionTokens(reasoning + answer)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .e2eMs(100.0)
        .status(RequestStatus.OK)
        .ttfoMs(ttfo)
        .reasoningTokens(reasoning)
        .reasoningTokensSource("usage")
        .answerTokens(answer);
  }

  @Test
  void ttfoReasoningTokensAndShare() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok(10, 40.0, 30, 10).build());
    a.add(ok(10, 60.0, 50, 10).build());
    a.add(ok(10, 10.0, 0, 20).build());
    AnswerSummary s = a.summary().overall().answer();
    assertEquals(3, s.ttfoMs().count());
    assertEquals(40.0, s.ttfoMs().p50());
    assertEquals(60.0, s.ttfoMs().max());
    assertEquals(80, s.reasoningTokens());
    assertEquals(40, s.answerTokens());
    assertEquals(80 / 120.0, s.reasoningShare());
    assertEquals(2, s.reasoningRequests());
    assertEquals(0, s.neverAnswered());
  }

  @Test
  void aReplyThatNeverAnsweredIsOkAndCounted() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok(10, null, 16, 0).build());
    GroupSummary g = a.summary().overall();
    assertEquals(1, g.count(RequestStatus.OK));
    assertEquals(1, g.answer().neverAnswered());
    assertEquals(0, g.answer().ttfoMs().count());
  }

  @Test
  void cancelledRequestsAreCountedButNeitherFailedNorJudged() {
    MetricsAggregator a = new MetricsAggregator(new Slo(null, null, null, 1000.0));
    a.add(ok(10, 10.0, 0, 5).cancelAfterMs(100.0).build());
    a.add(
        RequestRecord.builder()
            .request("chat")
            .phase("measured")
            .startMs(0)
            .ttftMs(20.0)
            .e2eMs(100.0)
            .status(RequestStatus.CANCELLED)
            .cancelAfterMs(100.0)
            .build());
    a.add(
        RequestRecord.builder()
            .request("chat")
            .phase("measured")
            .startMs(0)
            .e2eMs(100.0)
            .status(RequestStatus.CANCELLED)
            .cancelAfterMs(100.0)
            .build());
    GroupSummary g = a.summary().overall();
    assertEquals(2, g.count(RequestStatus.CANCELLED));
    assertEquals(new AnswerSummary.Cancellation(3, 2, 1, 1), g.answer().cancellation());
    assertEquals(1, g.goodput().offered());
    assertEquals(0, g.goodput().failed());
    assertEquals(1, g.goodput().met());
    assertEquals(1, g.ttftMs().count());
  }

  @Test
  void theCancellationObjectIsOnlyInARunThatCancels() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok(10, 10.0, 0, 5).build());
    Map<String, Object> overall = JsonForm.of(a.summary().overall());
    assertEquals(false, overall.containsKey("cancellation"));
    assertEquals(true, overall.containsKey("reasoning"));
  }

  @Test
  void sloOnTtfo() {
    Slo slo = new Slo(null, null, null, null, 50.0);
    assertEquals(List.of(), slo.missed(ok(10, 40.0, 30, 10).build()));
    assertEquals(List.of("ttfo"), slo.missed(ok(10, 60.0, 50, 10).build()));
    assertEquals(List.of("ttfo"), slo.missed(ok(10, null, 16, 0).build()));
    assertEquals("ttfo<=50ms", slo.toString());
  }
}
