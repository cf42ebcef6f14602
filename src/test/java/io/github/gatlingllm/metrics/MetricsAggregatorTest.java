package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.stats.Distribution;
import io.github.gatlingllm.stats.JsonForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class MetricsAggregatorTest {

  private static RequestRecord ok(
      String name, String phase, long startMs, double ttft, List<Double> itl, double e2e) {
    return RequestRecord.builder()
        .request(name)
        .phase(phase)
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .cachedTokens(40)
        .completionTokens(10)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .itlMs(itl)
        .e2eMs(e2e)
        .outputTokensPerS(10 / (e2e / 1000))
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  private static RequestRecord failed(String name, long startMs, RequestStatus status) {
    return RequestRecord.builder()
        .request(name)
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .completionTokens(1)
        .completionTokensExact(true)
        .ttftMs(1.0)
        .timeToFirstEventMs(1.0)
        .itlMs(List.of())
        .e2eMs(5.0)
        .httpStatus(500)
        .status(status)
        .error("x")
        .build();
  }

  @Test
  void percentilesOfOneToHundredMilliseconds() {
    MetricsAggregator a = new MetricsAggregator();
    for (int i = 1; i <= 100; i++) {
      a.add(ok("chat", "measured", 0, i, List.of(), 1000));
    }
    assertEquals(
        new Distribution(100, 50.5, 1.0, 50.0, 90.0, 95.0, 99.0, 100.0),
        a.summary().overall().ttftMs());
  }

  @Test
  void wholeMillisecondPercentilesPrintExactlyAtAnyScale() {
    MetricsAggregator a = new MetricsAggregator();
    for (double ttft : List.of(34.0, 1500.0, 61_234.0)) {
      a.add(ok("chat", "measured", 0, ttft, List.of(), 70_000));
    }
    assertEquals(
        new Distribution(3, 20922.667, 34.0, 1500.0, 61234.0, 61234.0, 61234.0, 61234.0),
        a.summary().overall().ttftMs());
  }

  @Test
  void beyondTheExactLimitPercentilesKeepThreeSignificantDigits() {
    MetricsAggregator a = new MetricsAggregator();
    List<Double> itl = new ArrayList<>();
    for (int i = 1; i <= MetricsAggregator.EXACT_LIMIT + 10; i++) {
      itl.add(i * 0.001);
    }
    a.add(ok("chat", "measured", 0, 1, itl, 100));
    Distribution d = a.summary().overall().itlMs();
    assertEquals(32.8, d.p50());
    assertEquals(64.9, d.p99());
  }

  @Test
  void everyInterTokenIntervalCounts() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 0, 10, List.of(1.0, 2.0, 3.0), 100));
    a.add(ok("chat", "measured", 0, 10, List.of(4.0), 100));
    assertEquals(
        new Distribution(4, 2.5, 1.0, 2.0, 4.0, 4.0, 4.0, 4.0), a.summary().overall().itlMs());
  }

  @Test
  void microsecondResolution() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 0, 0.125, List.of(), 100));
    assertEquals(0.125, a.summary().overall().ttftMs().p50());
  }

  @Test
  void microsecondTimesKeepTheirPrecisionAndTheMeanIsRoundedToTheMicrosecond() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 0, 2.517, List.of(), 100));
    a.add(ok("chat", "measured", 0, 2.518, List.of(), 100));
    a.add(ok("chat", "measured", 0, 0.25, List.of(), 100));
    assertEquals(
        new Distribution(3, 1.762, 0.25, 2.517, 2.518, 2.518, 2.518, 2.518),
        a.summary().overall().ttftMs());
  }

  @Test
  void valuesAreKeptInWholeMicroseconds() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 0, 0.3333333, List.of(0.0004, 0.0005), 100));
    GroupSummary s = a.summary().overall();
    assertEquals(new Distribution(1, 0.333, 0.333, 0.333, 0.333, 0.333, 0.333, 0.333), s.ttftMs());
    assertEquals(new Distribution(2, 0.001, 0.0, 0.0, 0.001, 0.001, 0.001, 0.001), s.itlMs());
  }

  @Test
  void failedRequestsCountByStatusButNotInLatencies() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 0, 10, List.of(), 100));
    a.add(failed("chat", 0, RequestStatus.REJECTED));
    a.add(failed("chat", 0, RequestStatus.REJECTED));
    a.add(failed("chat", 0, RequestStatus.TIMEOUT));
    GroupSummary s = a.summary().overall();
    assertEquals(4, s.requests());
    assertEquals(1, s.count(RequestStatus.OK));
    assertEquals(2, s.count(RequestStatus.REJECTED));
    assertEquals(1, s.count(RequestStatus.TIMEOUT));
    assertEquals(0, s.count(RequestStatus.HTTP_ERROR));
    assertEquals(1, s.ttftMs().count());
    assertEquals(100, s.promptTokens());
    assertEquals(10, s.completionTokens());
  }

  @Test
  void tokenSumsCacheRatioAndThroughputOverTheWindow() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 1000, 10, List.of(), 1000));
    a.add(ok("chat", "measured", 1500, 10, List.of(), 1500));
    GroupSummary s = a.summary().overall();
    assertEquals(200, s.promptTokens());
    assertEquals(80, s.cachedTokens());
    assertEquals(0.4, s.cacheHitRatio());
    assertEquals(20, s.completionTokens());
    assertEquals(1000L, s.windowStartMs());
    assertEquals(3000L, s.windowEndMs());
    assertEquals(1.0, s.requestsPerS());
    assertEquals(10.0, s.outputTokensPerS());
    assertEquals(
        new Distribution(2, 8.334, 6.667, 6.667, 10.0, 10.0, 10.0, 10.0),
        s.outputTokensPerSPerRequest());
  }

  @Test
  void noCachedTokensReportedMeansNoRatio() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(
        RequestRecord.builder()
            .request("chat")
            .startMs(0)
            .promptTokens(100)
            .promptTokensExact(true)
            .completionTokens(1)
            .completionTokensExact(true)
            .e2eMs(10.0)
            .httpStatus(200)
            .status(RequestStatus.OK)
            .build());
    assertNull(a.summary().overall().cacheHitRatio());
  }

  @Test
  void emptyAggregator() {
    GroupSummary s = new MetricsAggregator().summary().overall();
    assertEquals(0, s.requests());
    assertNull(s.windowStartMs());
    assertNull(s.requestsPerS());
    assertEquals(Distribution.EMPTY, s.e2eMs());
  }

  @Test
  void groupsPerNameAndPhaseSorted() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("completions", "measured", 0, 30, List.of(), 100));
    a.add(ok("chat", "warmup", 0, 20, List.of(), 100));
    a.add(ok("chat", "measured", 0, 10, List.of(), 100));
    a.add(ok("chat", null, 0, 40, List.of(), 100));
    MetricsSummary s = a.summary();
    List<String> keys = new ArrayList<>();
    for (GroupSummary g : s.groups()) {
      keys.add(g.request() + "/" + g.phase());
    }
    assertEquals(
        List.of("chat/null", "chat/measured", "chat/warmup", "completions/measured"), keys);
    assertEquals(20.0, s.group("chat", "warmup").ttftMs().max());
    // Overall leaves the warmup phase out.
    assertEquals(3, s.overall().ttftMs().count());
    assertEquals(40.0, s.overall().ttftMs().max());
  }

  @Test
  void concurrentAddsAreAllCounted() throws Exception {
    MetricsAggregator a = new MetricsAggregator();
    ExecutorService pool = Executors.newFixedThreadPool(8);
    List<Future<?>> futures = new ArrayList<>();
    for (int t = 0; t < 8; t++) {
      String name = "r" + (t % 2);
      futures.add(
          pool.submit(
              () -> {
                for (int i = 1; i <= 1000; i++) {
                  a.add(ok(name, "measured", i, i % 100 + 1, List.of(1.0, 2.0), 500));
                }
              }));
    }
    for (Future<?> f : futures) {
      f.get();
    }
    pool.shutdown();
    MetricsSummary s = a.summary();
    assertEquals(8000, s.overall().requests());
    assertEquals(16000, s.overall().itlMs().count());
    assertEquals(4000, s.group("r0", "measured").ttftMs().count());
    assertEquals(80000, s.overall().completionTokens());
    assertEquals(1.5, s.overall().itlMs().mean());
  }

  @Test
  void recordForm() {
    MetricsAggregator a = new MetricsAggregator();
    a.add(ok("chat", "measured", 0, 10, List.of(5.0), 1000));
    Map<String, Object> record = JsonForm.of(a.summary());
    assertEquals(List.of("overall", "groups"), List.copyOf(record.keySet()));
    @SuppressWarnings("unchecked")
    Map<String, Object> overall = (Map<String, Object>) record.get("overall");
    assertEquals(
        List.of(
            "requests",
            "status",
            "prompt_tokens",
            "cached_tokens",
            "cache_hit_ratio",
            "completion_tokens",
            "window_start_ms",
            "window_end_ms",
            "requests_per_s",
            "output_tokens_per_s",
            "ttft_ms",
            "itl_ms",
            "tpot_ms",
            "e2e_ms",
            "output_tokens_per_s_per_request",
            "ttfo_ms",
            "reasoning"),
        List.copyOf(overall.keySet()));
    assertEquals(
        Map.of(
            "ok", 1L,
            "http_error", 0L,
            "rejected", 0L,
            "timeout", 0L,
            "stream_error", 0L,
            "connect_error", 0L,
            "cut_by_run_end", 0L,
            "cancelled", 0L),
        overall.get("status"));
    @SuppressWarnings("unchecked")
    List<Map<String, Object>> groups = (List<Map<String, Object>>) record.get("groups");
    assertEquals("chat", groups.get(0).get("request"));
    assertEquals("measured", groups.get(0).get("phase"));
    assertEquals(
        "{count=1, mean=5.0, min=5.0, p50=5.0, p90=5.0, p95=5.0, p99=5.0, max=5.0}",
        groups.get(0).get("itl_ms").toString());
    assertEquals(
        "{count=0, mean=null, min=null, p50=null, p90=null, p95=null, p99=null, max=null}",
        groups.get(0).get("tpot_ms").toString());
  }
}
