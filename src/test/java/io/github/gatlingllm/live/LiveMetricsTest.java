package io.github.gatlingllm.live;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.levels.LoadLevel;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.List;
import java.util.stream.Collectors;
import org.junit.jupiter.api.Test;

/** {@link LiveMetrics}: what each record adds, what each gauge serves, in the text format. */
class LiveMetricsTest {

  private static final LiveMetrics.Gauges QUIET =
      new LiveMetrics.Gauges(() -> 0, List::of, () -> null);

  /** An ok measured chat request: 100 prompt tokens (60 cached), 4 output tokens. */
  private static io.github.gatlingllm.metrics.RequestRecordBuilder request(RequestStatus status) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .startMs(1_000)
        .promptTokens(100)
        .promptTokensExact(true)
        .cachedTokens(60)
        .completionTokens(4)
        .completionTokensExact(true)
        .ttftMs(30.0)
        .timeToFirstEventMs(30.0)
        .itlMs(List.of(10.0, 12.0, 40.0))
        .tpotMs(20.0)
        .e2eMs(92.0)
        .finishReason("length")
        .httpStatus(status == RequestStatus.OK ? 200 : 500)
        .status(status);
  }

  /** The lines of a scrape whose name starts with a prefix, comments left out. */
  private static String lines(LiveMetrics metrics, String prefix) {
    return metrics
        .scrapeText()
        .lines()
        .filter(l -> l.startsWith(prefix))
        .collect(Collectors.joining("\n"));
  }

  /** One line of a scrape, by its exact series (name and labels), or "" when absent. */
  private static String line(LiveMetrics metrics, String series) {
    return metrics
        .scrapeText()
        .lines()
        .filter(l -> l.startsWith(series + " "))
        .findFirst()
        .orElse("");
  }

  @Test
  void anOkRequestIsCountedByRequestStatusAndPhase() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).build());
    m.add(request(RequestStatus.OK).build());
    assertEquals(
        "gatling_llm_requests_total{phase=\"measured\",request=\"chat\",status=\"ok\"} 2.0",
        lines(m, "gatling_llm_requests_total"));
  }

  @Test
  void anOkRequestAddsItsInputOutputAndCachedTokens() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).build());
    assertEquals(
        "gatling_llm_input_tokens_total{phase=\"measured\",request=\"chat\"} 100.0\n"
            + "gatling_llm_output_tokens_total{phase=\"measured\",request=\"chat\"} 4.0\n"
            + "gatling_llm_cached_tokens_total{phase=\"measured\",request=\"chat\"} 60.0",
        lines(m, "gatling_llm_input_tokens_total")
            + "\n"
            + lines(m, "gatling_llm_output_tokens_total")
            + "\n"
            + lines(m, "gatling_llm_cached_tokens_total"));
  }

  @Test
  void theTimingsGoToTheirBucketsInSeconds() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).build());
    String labels = "{phase=\"measured\",request=\"chat\"";
    assertEquals(
        List.of(
            "gatling_llm_ttft_seconds_bucket" + labels + ",le=\"0.025\"} 0",
            "gatling_llm_ttft_seconds_bucket" + labels + ",le=\"0.05\"} 1",
            "gatling_llm_ttft_seconds_sum" + labels + "} 0.03",
            "gatling_llm_tpot_seconds_bucket" + labels + ",le=\"0.025\"} 1",
            "gatling_llm_e2e_seconds_bucket" + labels + ",le=\"0.075\"} 0",
            "gatling_llm_e2e_seconds_bucket" + labels + ",le=\"0.1\"} 1",
            "gatling_llm_e2e_seconds_count" + labels + "} 1"),
        List.of(
            line(m, "gatling_llm_ttft_seconds_bucket" + labels + ",le=\"0.025\"}"),
            line(m, "gatling_llm_ttft_seconds_bucket" + labels + ",le=\"0.05\"}"),
            line(m, "gatling_llm_ttft_seconds_sum" + labels + "}"),
            line(m, "gatling_llm_tpot_seconds_bucket" + labels + ",le=\"0.025\"}"),
            line(m, "gatling_llm_e2e_seconds_bucket" + labels + ",le=\"0.075\"}"),
            line(m, "gatling_llm_e2e_seconds_bucket" + labels + ",le=\"0.1\"}"),
            line(m, "gatling_llm_e2e_seconds_count" + labels + "}")));
  }

  @Test
  void eachGapBetweenTokensIsOneItlObservation() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).build());
    String labels = "{phase=\"measured\",request=\"chat\"";
    assertEquals(
        List.of(
            "gatling_llm_itl_seconds_bucket" + labels + ",le=\"0.01\"} 1",
            "gatling_llm_itl_seconds_bucket" + labels + ",le=\"0.025\"} 2",
            "gatling_llm_itl_seconds_bucket" + labels + ",le=\"0.05\"} 3",
            "gatling_llm_itl_seconds_count" + labels + "} 3"),
        List.of(
            line(m, "gatling_llm_itl_seconds_bucket" + labels + ",le=\"0.01\"}"),
            line(m, "gatling_llm_itl_seconds_bucket" + labels + ",le=\"0.025\"}"),
            line(m, "gatling_llm_itl_seconds_bucket" + labels + ",le=\"0.05\"}"),
            line(m, "gatling_llm_itl_seconds_count" + labels + "}")));
  }

  @Test
  void aFailedRequestIsCountedButAddsNoTokensNorTimings() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.HTTP_ERROR).build());
    assertEquals(
        List.of(
            "gatling_llm_requests_total{phase=\"measured\",request=\"chat\",status=\"http_error\"}"
                + " 1.0",
            "gatling_llm_output_tokens_total{phase=\"measured\",request=\"chat\"} 0.0",
            "gatling_llm_ttft_seconds_count{phase=\"measured\",request=\"chat\"} 0"),
        List.of(
            lines(m, "gatling_llm_requests_total"),
            lines(m, "gatling_llm_output_tokens_total"),
            line(m, "gatling_llm_ttft_seconds_count{phase=\"measured\",request=\"chat\"}")));
  }

  @Test
  void aServerThatReportsNoCachedTokensAddsNone() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).cachedTokens(null).build());
    assertEquals(
        "gatling_llm_cached_tokens_total{phase=\"measured\",request=\"chat\"} 0.0",
        lines(m, "gatling_llm_cached_tokens_total"));
  }

  @Test
  void aRequestWithoutAPhaseIsPhaseNone() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).phase(null).build());
    assertEquals(
        "gatling_llm_requests_total{phase=\"none\",request=\"chat\",status=\"ok\"} 1.0",
        lines(m, "gatling_llm_requests_total"));
  }

  @Test
  void aShardLabelsEverySeries() {
    LiveMetrics m = new LiveMetrics("2", QUIET);
    m.add(request(RequestStatus.OK).build());
    assertEquals(
        List.of(
            "gatling_llm_requests_total{phase=\"measured\",request=\"chat\",shard=\"2\",status=\"ok\"}"
                + " 1.0",
            "gatling_llm_requests_in_flight{shard=\"2\"} 0.0"),
        List.of(
            lines(m, "gatling_llm_requests_total"), lines(m, "gatling_llm_requests_in_flight")));
  }

  @Test
  void aLateFirstRequestSetsTheLagGaugeAndHistogram() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).sentMs(1_012.5).scheduledMs(1_000.0).build());
    assertEquals(
        List.of(
            "gatling_llm_client_schedule_lag_seconds 0.0125",
            "gatling_llm_schedule_lag_seconds_bucket{le=\"0.01\"} 0",
            "gatling_llm_schedule_lag_seconds_bucket{le=\"0.025\"} 1"),
        List.of(
            lines(m, "gatling_llm_client_schedule_lag_seconds"),
            line(m, "gatling_llm_schedule_lag_seconds_bucket{le=\"0.01\"}"),
            line(m, "gatling_llm_schedule_lag_seconds_bucket{le=\"0.025\"}")));
  }

  @Test
  void aFirstRequestSentBeforeItsDueTimeHasLagZero() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).sentMs(999.6).scheduledMs(1_000.0).build());
    assertEquals(
        "gatling_llm_client_schedule_lag_seconds 0.0",
        lines(m, "gatling_llm_client_schedule_lag_seconds"));
  }

  @Test
  void withoutAScheduledRequestTheLagGaugeHasNoSample() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    m.add(request(RequestStatus.OK).build());
    assertEquals("", lines(m, "gatling_llm_client_schedule_lag_seconds"));
  }

  @Test
  void theGaugesReadTheRunAtEachScrape() {
    LiveMetrics m =
        new LiveMetrics(
            null,
            new LiveMetrics.Gauges(
                () -> 7,
                () ->
                    List.of(
                        new LoadLevel("chat", true, 8, 1, 0, 10_000),
                        new LoadLevel("open", false, 2.5, 0, 0, 10_000)),
                () -> 0.4375));
    assertEquals(
        List.of(
            "gatling_llm_requests_in_flight 7.0",
            "gatling_llm_load_level{scenario=\"chat\",unit=\"users\"} 8.0\n"
                + "gatling_llm_load_level{scenario=\"open\",unit=\"users_per_second\"} 2.5",
            "gatling_llm_client_cpu_share 0.4375"),
        List.of(
            lines(m, "gatling_llm_requests_in_flight"),
            lines(m, "gatling_llm_load_level"),
            lines(m, "gatling_llm_client_cpu_share")));
  }

  @Test
  void anUnknownCpuShareAndNoLevelServeNoSample() {
    LiveMetrics m = new LiveMetrics(null, QUIET);
    assertEquals("", lines(m, "gatling_llm_load_level") + lines(m, "gatling_llm_client_cpu_share"));
  }

  @Test
  void onceTheRunIsOverNoLoadLevelIsServed() {
    LiveMetrics m =
        new LiveMetrics(
            null,
            new LiveMetrics.Gauges(
                () -> 0, () -> List.of(new LoadLevel("chat", true, 4, 0, 0, 600_000)), () -> null));
    m.runEnded();
    assertEquals("", lines(m, "gatling_llm_load_level"));
  }
}
