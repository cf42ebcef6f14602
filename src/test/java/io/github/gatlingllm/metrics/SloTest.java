package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.stats.JsonForm;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SloTest {

  /** A streamed request: TTFT, ITLs, TPOT and E2E as given, 10 output tokens. */
  static RequestRecord streamed(
      long startMs, Double ttft, List<Double> itl, Double tpot, double e2e, RequestStatus status) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .cachedTokens(0)
        .completionTokens(10)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .itlMs(itl)
        .tpotMs(tpot)
        .e2eMs(e2e)
        .finishReason("length")
        .httpStatus(200)
        .status(status)
        .error(status == RequestStatus.OK ? null : "x")
        .build();
  }

  @Test
  void aRequestWithinEveryBoundMeetsIt() {
    Slo slo = new Slo(100.0, 30.0, 20.0, 300.0);
    assertEquals(
        List.of(),
        slo.missed(streamed(0, 100.0, List.of(30.0, 10.0), 20.0, 300.0, RequestStatus.OK)));
  }

  @Test
  void everyMissedBoundIsNamedInOrder() {
    Slo slo = new Slo(100.0, 30.0, 20.0, 300.0);
    assertEquals(
        List.of("ttft", "itl", "tpot", "e2e"),
        slo.missed(streamed(0, 101.0, List.of(10.0, 31.0), 20.5, 301.0, RequestStatus.OK)));
  }

  @Test
  void oneLongGapMissesTheItlBoundEvenWhenTpotHolds() {
    Slo slo = new Slo(null, 50.0, 20.0, null);
    assertEquals(
        List.of("itl"),
        slo.missed(streamed(0, 10.0, List.of(1.0, 1.0, 51.0), 17.7, 63.0, RequestStatus.OK)));
  }

  @Test
  void aFailedRequestIsFailedWhateverItsTimes() {
    assertEquals(
        List.of("failed"),
        new Slo(1000.0, null, null, null)
            .missed(streamed(0, 1.0, List.of(), null, 2.0, RequestStatus.HTTP_ERROR)));
  }

  @Test
  void unmeasuredTtftMissesButOneTokenMeetsTpotAndItl() {
    Slo slo = new Slo(null, 5.0, 5.0, null);
    assertEquals(List.of(), slo.missed(streamed(0, 40.0, List.of(), null, 41.0, RequestStatus.OK)));
    assertEquals(
        List.of("ttft", "itl", "tpot"),
        new Slo(100.0, 5.0, 5.0, null)
            .missed(streamed(0, null, null, null, 41.0, RequestStatus.OK)));
  }

  @Test
  void describesItsBounds() {
    assertEquals("ttft<=500ms, e2e<=2000.5ms", new Slo(500.0, null, null, 2000.5).toString());
    assertEquals("none", Slo.NONE.toString());
  }

  @Test
  void boundsMustBePositive() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Slo(0.0, null, null, null));
    assertEquals(
        "ttft_ms must be a finite number of milliseconds > 0 or unset, got 0.0", e.getMessage());
  }

  @Test
  void readsItsRecord() {
    Slo slo = new Slo(500.0, null, 25.0, null);
    assertEquals(slo, Slo.fromRecord(JsonForm.of(slo)));
    assertEquals(Slo.NONE, Slo.fromRecord(null));
  }

  @Test
  void aggregatesAttainmentAndGoodputOverTheWindow() {
    MetricsAggregator a = new MetricsAggregator(new Slo(100.0, null, null, 1000.0));
    a.add(streamed(0, 50.0, List.of(), null, 500.0, RequestStatus.OK));
    a.add(streamed(0, 150.0, List.of(), null, 1500.0, RequestStatus.OK));
    a.add(streamed(1000, 50.0, List.of(), null, 1000.0, RequestStatus.OK));
    a.add(streamed(1000, null, List.of(), null, 5.0, RequestStatus.REJECTED));
    Goodput g = a.summary().overall().goodput();
    assertEquals(4, g.offered());
    assertEquals(2, g.met());
    assertEquals(1, g.failed());
    assertEquals(Map.of("ttft", 1L, "e2e", 1L), g.missed());
    assertEquals(0.5, g.attainment());
    // Window 0 .. 2000 ms: 2 good requests and their 20 output tokens in 2 s.
    assertEquals(1.0, g.requestsPerS());
    assertEquals(10.0, g.outputTokensPerS());
    assertEquals(
        "goodput ratio 0.5 < 0.95 (slo ttft<=100ms, e2e<=1000ms): 1 of 4 requests missed"
            + " ttft<=100ms, 1 missed e2e<=1000ms, 1 failed",
        g.shortfall(0.95));
    assertNull(g.shortfall(0.5));
    assertEquals(
        "SLO ttft<=100ms, e2e<=1000ms: 2 of 4 requests met it (attainment 0.5); goodput 1.00"
            + " requests/s, 10.00 output tokens/s",
        g.describe());
  }

  @Test
  void noRequestJudgedIsSaidInWords() {
    Goodput g =
        new Goodput(new Slo(500.0, null, null, null), 0, 0, 0, Map.of("ttft", 0L), null, 0.0, 0.0);
    assertEquals(
        "SLO ttft<=500ms: no request was judged against it (requests cut by the run's end never"
            + " are)",
        g.describe());
  }

  @Test
  void withoutSloThereIsNoGoodput() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(streamed(0, 50.0, List.of(), null, 500.0, RequestStatus.OK));
    assertNull(a.summary().overall().goodput());
  }
}
