package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ChartDataTest {

  private static RequestRecord request(
      String workload,
      String name,
      long startMs,
      Double ttft,
      List<Double> itl,
      Double e2e,
      int tokens) {
    return RequestRecord.builder()
        .request(name)
        .phase("measured")
        .index(0L)
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .completionTokens(tokens)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .itlMs(itl)
        .e2eMs(e2e)
        .httpStatus(200)
        .status(RequestStatus.OK)
        .workload(workload)
        .build();
  }

  private static RequestRecord request(
      long startMs, Double ttft, List<Double> itl, Double e2e, int tokens) {
    return request(null, "chat", startMs, ttft, itl, e2e, tokens);
  }

  @Test
  void timeBinsArePerSecondUpTo2000ThenWholeRoundSeconds() {
    assertEquals(new ChartData.TimeBins(0, 1000, 2000), ChartData.TimeBins.over(0, 1_999_999));
    assertEquals(new ChartData.TimeBins(0, 2000, 1001), ChartData.TimeBins.over(0, 2_000_000));
    assertEquals(new ChartData.TimeBins(5, 5000, 1441), ChartData.TimeBins.over(5, 7_200_000));
    assertEquals(new ChartData.TimeBins(0, 1000, 1), ChartData.TimeBins.over(0, 0));
    assertEquals("per 5 s", new ChartData.TimeBins(0, 5000, 3).describe());
    assertEquals(List.of(0.0, 5.0, 10.0), new ChartData.TimeBins(0, 5000, 3).xs());
  }

  @Test
  void tokensCountAtTheirFirstTokenAndEachGapAfterIt() {
    // First token at 900 ms, then 950, 1050, 1150: 8 tokens over 4 events, 2 each.
    RequestRecord r = request(0, 900.0, List.of(50.0, 100.0, 100.0), 1200.0, 8);
    Map<ChartData.Key, String> labels = ChartData.labels(List.of(r));
    ChartData.TimeBins bins = ChartData.TimeBins.of(List.of(r));
    assertArrayEquals(
        new double[] {4, 4}, ChartData.tokensByArrival(List.of(r), bins, labels).get("chat"));
  }

  @Test
  void withoutItlsTokensSpreadEvenlyFromTheFirstTokenToTheEnd() {
    // One token at 500 ms; the other 4 over 500..2500 ms: 1, 2 and 1 in the three seconds.
    RequestRecord r = request(0, 500.0, null, 2500.0, 5);
    ChartData.TimeBins bins = ChartData.TimeBins.of(List.of(r));
    assertArrayEquals(
        new double[] {2, 2, 1},
        ChartData.tokensByArrival(List.of(r), bins, ChartData.labels(List.of(r))).get("chat"));
  }

  @Test
  void aNonStreamedAnswersTokensCountWhenItsBodyArrived() {
    RequestRecord r = request(0, null, null, 1500.0, 6);
    ChartData.TimeBins bins = ChartData.TimeBins.of(List.of(r));
    assertArrayEquals(
        new double[] {0, 6},
        ChartData.tokensByArrival(List.of(r), bins, ChartData.labels(List.of(r))).get("chat"));
  }

  @Test
  void tokensPerSecondDivideByWideBins() {
    // A 2,500 s run has 2 s bins: 10 tokens in the first bin are 5 tokens/s.
    RequestRecord first = request(0, 100.0, List.of(100.0), 300.0, 10);
    RequestRecord last = request(2_499_000, 100.0, null, 1000.0, 0);
    List<RequestRecord> rs = List.of(first, last);
    ChartData.TimeBins bins = ChartData.TimeBins.of(rs);
    assertEquals(2000, bins.binMs());
    assertEquals(5.0, ChartData.tokensByArrival(rs, bins, ChartData.labels(rs)).get("chat")[0]);
  }

  @Test
  void inFlightIsTheMostAtOnceInEachBinPerSeriesAndForAll() {
    List<RequestRecord> rs =
        List.of(
            request(null, "chat", 0, 10.0, null, 1500.0, 1),
            request(null, "chat", 200, 10.0, null, 600.0, 1),
            // Starts as the second ends: no overlap with it.
            request(null, "rag", 800, 10.0, null, 1700.0, 1));
    Map<String, double[]> peaks =
        ChartData.inFlight(rs, ChartData.TimeBins.of(rs), ChartData.labels(rs));
    assertEquals(List.of("all", "chat", "rag"), List.copyOf(peaks.keySet()));
    assertArrayEquals(new double[] {2, 2, 1}, peaks.get("all"));
    assertArrayEquals(new double[] {2, 1, 0}, peaks.get("chat"));
    assertArrayEquals(new double[] {1, 1, 1}, peaks.get("rag"));
  }

  @Test
  void aRequestStartedInTheMillisecondTheLastOneEndedDoesNotOverlapIt() {
    // One user: its second request starts at 1,000 ms (whole ms of Gatling's clock), its first
    // ended at 1,000.9 ms: one in flight, not two.
    List<RequestRecord> rs =
        List.of(request(0, 10.0, null, 1000.9, 1), request(1000, 10.0, null, 500.0, 1));
    Map<String, double[]> peaks =
        ChartData.inFlight(rs, ChartData.TimeBins.of(rs), ChartData.labels(rs));
    assertArrayEquals(new double[] {1, 1}, peaks.get("chat"));
  }

  @Test
  void ttftByStartGivesTheMedianAndMaxOfEachBin() {
    List<RequestRecord> rs =
        List.of(
            request(0, 10.0, null, 20.0, 1),
            request(100, 30.0, null, 40.0, 1),
            request(200, 20.0, null, 30.0, 1),
            request(2100, 5.0, null, 10.0, 1));
    double[][] ttft =
        ChartData.ttftByStart(rs, ChartData.TimeBins.of(rs), ChartData.labels(rs)).get("chat");
    assertArrayEquals(new double[] {20, Double.NaN, 5}, ttft[0]);
    assertArrayEquals(new double[] {30, Double.NaN, 5}, ttft[1]);
  }

  @Test
  void histogramWidthsAreRound() {
    assertEquals(2.0, ChartData.niceWidth(1.83, false));
    assertEquals(0.025, ChartData.niceWidth(0.021, false));
    assertEquals(5.0, ChartData.niceWidth(3.1, false));
    assertEquals(1.0, ChartData.niceWidth(0.4, true));
    assertEquals(5.0, ChartData.niceWidth(2.2, true));
    assertEquals(20.0, ChartData.niceWidth(12, true));
  }

  @Test
  void seriesShareTheHistogramsBins() {
    Map<String, ChartData.Values> values = new LinkedHashMap<>();
    values.put("chat", c -> List.of(61.0, 45.75, 61.3).forEach(c::accept));
    values.put("rag", c -> c.accept(140.0));
    ChartData.Histogram h = ChartData.histogram(values, false);
    // 45.75..140 over 50 bins: 1.885 wide, rounded up to 2; bins from 44 to 140 and 142.
    assertEquals(2.0, h.width());
    assertEquals(50, h.edges().size());
    assertEquals(44.0, h.edges().get(0));
    assertEquals(142.0, h.edges().get(49));
    long[] chat = h.counts().get("chat");
    assertEquals(1, chat[0]);
    assertEquals(2, chat[8]);
    assertEquals(1, h.counts().get("rag")[48]);
  }

  @Test
  void aLongTailIsCutAtThe995thPercentileAndCountedInTheLastBin() {
    // 999 ITLs of 10..19 ms and one 500 ms stall: the bins end at 19.2 ms, not 500.
    ChartData.Values itl =
        c -> {
          for (int i = 0; i < 999; i++) {
            c.accept(10 + i % 10);
          }
          c.accept(500);
        };
    ChartData.Histogram h = ChartData.histogram(Map.of("chat", itl), false);
    assertEquals(0.2, h.width());
    assertEquals(47, h.edges().size());
    assertEquals(10.0, h.edges().get(0));
    assertEquals(19.2, h.edges().get(46));
    assertEquals(1, h.above());
    assertEquals(100, h.counts().get("chat")[0]);
    assertEquals(99 + 1, h.counts().get("chat")[45]);
  }

  @Test
  void oneWholeValueMakesOneBinOfOne() {
    ChartData.Histogram h = ChartData.histogram(Map.of("chat", c -> c.accept(8)), true);
    assertEquals(List.of(8.0, 9.0), h.edges());
    assertArrayEquals(new long[] {1}, h.counts().get("chat"));
  }

  @Test
  void noValueNoHistogram() {
    assertNull(ChartData.histogram(Map.of("chat", c -> {}), false));
  }

  @Test
  void aRequestNameInSeveralWorkloadsIsLabelledWithItsWorkload() {
    List<RequestRecord> rs =
        List.of(
            request("short", "chat", 0, 1.0, null, 2.0, 1),
            request("long", "chat", 0, 1.0, null, 2.0, 1),
            request("long", "embed", 0, 1.0, null, 2.0, 1));
    assertEquals(
        List.of("long/chat", "long/embed", "short/chat"),
        List.copyOf(ChartData.labels(rs).values()));
    // Workload then request name: "long" before "short".
    assertEquals(
        List.of("embed", "chat"),
        List.copyOf(ChartData.labels(List.of(rs.get(0), rs.get(2))).values()));
  }
}
