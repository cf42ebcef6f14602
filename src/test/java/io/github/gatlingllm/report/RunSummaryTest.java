package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.record.RunRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunSummaryTest {

  private static Map<String, Object> run() {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("ok", 8L);
    status.put("http_error", 0L);
    status.put("timeout", 2L);
    Map<String, Object> overall = new LinkedHashMap<>();
    overall.put("requests", 10L);
    overall.put("status", status);
    overall.put("prompt_tokens", 2048L);
    overall.put("completion_tokens", 256L);
    overall.put("window_start_ms", 1_000_000L);
    overall.put("window_end_ms", 1_016_000L);
    overall.put("requests_per_s", 0.5);
    overall.put("output_tokens_per_s", 16.0);
    overall.put("ttft_ms", Map.of("p50", 12.5, "p99", 40.125));
    overall.put("itl_ms", Map.of("p50", 2.0, "p99", 5.5));
    overall.put("tpot_ms", Map.of("p50", 2.25, "p99", 4.0));
    overall.put("e2e_ms", Map.of("p50", 80.0, "p99", 120.5));
    Map<String, Object> goodput = new LinkedHashMap<>();
    goodput.put("offered", 10L);
    goodput.put("met", 7L);
    goodput.put("attainment", 0.7);
    overall.put("goodput", goodput);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("load", Map.of("concurrency", 3, "peak_concurrency", 4));
    run.put("metrics", Map.of("overall", overall));
    run.put("assertions", Map.of("goodput_ratio", 0.9));
    return run;
  }

  @Test
  void figuresAreReadFromTheOverallMetrics() {
    assertEquals(
        List.of(
            new RunSummary.Figure("duration", "16 s"),
            new RunSummary.Figure("requests", "10 (ok 8, timeout 2)"),
            new RunSummary.Figure("requests/s", "0.5"),
            new RunSummary.Figure("input tokens/s", "128"),
            new RunSummary.Figure("output tokens/s", "16"),
            new RunSummary.Figure("total tokens/s", "144"),
            new RunSummary.Figure("mean input tokens a request", "256"),
            new RunSummary.Figure("mean output tokens a request", "32"),
            new RunSummary.Figure("peak concurrency", "4"),
            new RunSummary.Figure("TTFT p50 / p99, ms", "12.5 / 40.125"),
            new RunSummary.Figure("ITL p50 / p99, ms", "2 / 5.5"),
            new RunSummary.Figure("TPOT p50 / p99, ms", "2.25 / 4"),
            new RunSummary.Figure("E2E p50 / p99, ms", "80 / 120.5")),
        RunSummary.of(run()).figures());
  }

  @Test
  void theConsoleGetsTheSameFiguresInAFewLines() {
    Map<String, Object> run = run();
    run.put(
        "cache",
        Map.of(
            "verdict",
            "below plan",
            "observed_hit_ratio",
            0.1,
            "planned_hit_ratio",
            0.5,
            "workloads",
            List.of(Map.of())));
    assertEquals(
        List.of(
            "LLM summary: 10 requests (ok 8, timeout 2) in 16 s, peak concurrency 4",
            "  throughput: 0.5 requests/s; tokens/s input 128, output 16, total 144; a request 256"
                + " input, 32 output tokens (mean)",
            "  latency p50 / p99, ms: TTFT 12.5 / 40.125, ITL 2 / 5.5, TPOT 2.25 / 4, E2E 80 /"
                + " 120.5",
            "  cache below plan (observed hit ratio 0.1, planned 0.5); SLO: 7 of 10 requests met"
                + " the SLO (attainment 0.7): below 0.9"),
        RunSummary.of(run).lines());
  }

  private static Map<String, Object> emptyRun(String failedStatus) {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("ok", 0L);
    status.put("connect_error", 0L);
    status.put("cut_by_run_end", 0L);
    status.put(failedStatus, 4L);
    Map<String, Object> overall = new LinkedHashMap<>();
    overall.put("requests", 4L);
    overall.put("status", status);
    overall.put("prompt_tokens", 0L);
    overall.put("completion_tokens", 0L);
    overall.put("window_start_ms", 1_000_000L);
    overall.put("window_end_ms", 1_002_000L);
    overall.put("requests_per_s", 0.0);
    overall.put("output_tokens_per_s", 0.0);
    Map<String, Object> cache = new LinkedHashMap<>();
    cache.put("requests", 0L);
    cache.put("verdict", "unknown");
    cache.put("planned_requests", 4L);
    cache.put(
        "verdict_reason",
        "none of the 4 measured requests with a cache plan succeeded (4 failed), so no cache hit"
            + " was observed");
    cache.put("workloads", List.of());
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("load", Map.of("peak_concurrency", 1));
    run.put("metrics", Map.of("overall", overall));
    run.put("cache", cache);
    return run;
  }

  @Test
  void aRunWithoutASuccessfulRequestSaysSoInWords() {
    assertEquals(
        List.of(
            "LLM summary: 4 requests (connect_error 4) in 2 s, peak concurrency 1",
            "  throughput: 0 requests/s: no request succeeded, so there are no token or latency"
                + " figures",
            "  cache: no verdict: none of the 4 measured requests with a cache plan succeeded (4"
                + " failed), so no cache hit was observed"),
        RunSummary.of(emptyRun("connect_error")).lines());
  }

  @Test
  void aRunWithoutASuccessfulRequestHasNoTokenOrLatencyFigure() {
    List<RunSummary.Figure> figures = RunSummary.of(emptyRun("connect_error")).figures();
    assertEquals(
        new RunSummary.Figure("mean input tokens a request", "no request succeeded"),
        figures.get(6));
    assertEquals(
        new RunSummary.Figure("TTFT p50 / p99, ms", "no request succeeded"), figures.get(9));
  }

  @Test
  void aRunWhoseEveryRequestWasCutSaysSoApartFromFailures() {
    Map<String, Object> run = emptyRun("cut_by_run_end");
    Map<String, Object> goodput = new LinkedHashMap<>();
    goodput.put("offered", 0L);
    goodput.put("met", 0L);
    goodput.put("attainment", null);
    @SuppressWarnings("unchecked")
    Map<String, Object> overall =
        (Map<String, Object>) ((Map<String, Object>) run.get("metrics")).get("overall");
    overall.put("goodput", goodput);
    RunSummary s = RunSummary.of(run);
    assertEquals(
        new RunSummary.Figure("requests", "4 (4 cut by the run's end)"), s.figures().get(1));
    assertEquals(
        "no request was judged against the SLO (requests cut by the run's end never are)",
        s.sloVerdict());
  }

  @Test
  void aRunWithoutACachePlanHasNoCacheVerdict() {
    Map<String, Object> run = emptyRun("connect_error");
    run.put("cache", Map.of("requests", 0L, "verdict", "unknown", "workloads", List.of()));
    assertNull(RunSummary.of(run).cacheVerdict());
  }

  @Test
  void clientFiguresStayOutOfTheLatencyLine() {
    Map<String, Object> run = run();
    run.put("client", Map.of("schedule_lag_ms", Map.of("p50", 1.5, "p99", 3.0)));
    assertEquals(
        "  latency p50 / p99, ms: TTFT 12.5 / 40.125, ITL 2 / 5.5, TPOT 2.25 / 4, E2E 80 / 120.5",
        RunSummary.of(run).lines().get(2));
  }

  @Test
  void aClosedLoopHasNoScheduleLagFigure() {
    Map<String, Object> run = run();
    Map<String, Object> lag = new LinkedHashMap<>();
    lag.put("count", 0L);
    lag.put("p50", null);
    lag.put("p99", null);
    run.put("client", Map.of("schedule_lag_ms", lag));
    assertEquals(false, String.join("\n", RunSummary.of(run).lines()).contains("schedule lag"));
  }

  @Test
  void reasoningAndCancellationGetFiguresAndLines() {
    Map<String, Object> run = run();
    @SuppressWarnings("unchecked")
    Map<String, Object> overall =
        (Map<String, Object>) ((Map<String, Object>) run.get("metrics")).get("overall");
    overall.put("ttfo_ms", Map.of("p50", 300.0, "p99", 900.5));
    Map<String, Object> reasoning = new LinkedHashMap<>();
    reasoning.put("requests_reasoning", 8L);
    reasoning.put("never_answered", 1L);
    // The share as the record writes it, of the tokens beside it.
    reasoning.put("reasoning_tokens", 6254L);
    reasoning.put("answer_tokens", 3746L);
    reasoning.put("reasoning_share", 0.6254);
    reasoning.put("reasoning_tokens_per_request", Map.of("mean", 120.5, "p99", 400.0));
    overall.put("reasoning", reasoning);
    overall.put("cancellation", Map.of("chosen", 3L, "cancelled", 2L, "completed_first", 1L));
    RunSummary s = RunSummary.of(run);
    assertEquals(
        List.of(
            new RunSummary.Figure("TTFO (first answer token) p50 / p99, ms", "300 / 900.5"),
            new RunSummary.Figure("reasoning tokens a request, mean / p99", "120.5 / 400"),
            new RunSummary.Figure("share of output spent reasoning", "62.5%"),
            new RunSummary.Figure("cancelled by the client", "2 of 3 chosen (1 ended first)")),
        s.figures().subList(13, 17));
    assertEquals(
        List.of(
            "  latency p50 / p99, ms: TTFT 12.5 / 40.125, ITL 2 / 5.5, TPOT 2.25 / 4, E2E 80 /"
                + " 120.5, TTFO 300 / 900.5",
            "  reasoning: 120.5 / 400 tokens a request (mean / p99), 62.5% of the output",
            "  cancelled by the client: 2 of 3 chosen (1 ended first)"),
        s.lines().subList(2, 5));
    assertEquals(
        List.of(
            "1 request reasoned and never answered (status ok, no TTFO): max_tokens ran out while"
                + " thinking, or the model gave no answer"),
        s.warnings());
  }

  @Test
  void peakConcurrencyFallsBackToTheOlderField() {
    Map<String, Object> run = run();
    run.put("load", Map.of("concurrency", 3));
    assertEquals(
        new RunSummary.Figure("peak concurrency", "3"), RunSummary.of(run).figures().get(8));
  }

  @Test
  void anEmptyRecordHasNoFigureButDoesNotFail() {
    RunSummary s = RunSummary.of(Map.of());
    assertEquals(new RunSummary.Figure("duration", "–"), s.figures().get(0));
    assertEquals(new RunSummary.Figure("TTFT p50 / p99, ms", "– / –"), s.figures().get(9));
    assertNull(s.cacheVerdict());
    assertNull(s.sloVerdict());
    assertEquals(List.of(), s.warnings());
  }

  @Test
  void aMaxDurationStopSaysInOneLineHowManyRequestsWereCut() {
    Map<String, Object> run = run();
    run.put("interrupted", true);
    run.put("end_reason", "max_duration");
    run.put("requests_cut_by_run_end", 6);
    assertEquals(
        List.of(
            "the run was interrupted (max_duration): 6 LLM requests were still in flight,"
                + " recorded with status cut_by_run_end and what was measured until then (left"
                + " out of the latency figures and the goodput)"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aSaturationStopWithOneRequestCutIsNotAnInterruption() {
    Map<String, Object> run = run();
    run.put("interrupted", false);
    run.put("end_reason", "saturation_stop");
    run.put("requests_cut_by_run_end", 1);
    assertEquals(
        List.of(
            "the run ended (saturation_stop): 1 LLM request was still in flight, recorded with"
                + " status cut_by_run_end and what was measured until then (left out of the"
                + " latency figures and the goodput)"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aDeadTargetIsTheFirstWarningWithTheRequestsItFailed() {
    Map<String, Object> run = run();
    run.put("interrupted", true);
    run.put("end_reason", "target_down");
    run.put("requests_cut_by_run_end", 0);
    Map<String, Object> down = new LinkedHashMap<>();
    down.put("stopped", true);
    down.put("back_at", null);
    down.put("failed_requests", 144L);
    down.put("message", "TARGET DOWN at 02:06:42 (2.0 s into the run): ...");
    run.put("target_down", down);
    assertEquals(
        List.of(
            "TARGET DOWN at 02:06:42 (2.0 s into the run): .... 144 requests failed to connect"
                + " or got a server error while it was down (left out of the latency figures); the"
                + " run stopped rather than spend the rest of its prompt budget on a dead target",
            "the run was interrupted (target_down): the figures cover the requests that finished"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aSilentTargetIsAWarningThatSaysTheRunStopped() {
    Map<String, Object> run = run();
    run.put("interrupted", true);
    run.put("end_reason", "target_silent");
    run.put("requests_cut_by_run_end", 8);
    Map<String, Object> episode = new LinkedHashMap<>();
    episode.put("silent_s", 2.4);
    episode.put("in_flight", 8);
    episode.put("ended", "run_end");
    Map<String, Object> silent = new LinkedHashMap<>();
    silent.put("silent_seconds", 2);
    silent.put("stopped", true);
    silent.put("episode_count", 1);
    silent.put("episodes", List.of(episode));
    silent.put("message", "TARGET SILENT at 02:06:42 (5.1 s into the run): ... (...)");
    run.put("target_silent", silent);
    assertEquals(
        List.of(
            "TARGET SILENT at 02:06:42 (5.1 s into the run): ... (...). The run stopped rather"
                + " than wait on a silent target; its requests in flight were cut and recorded"
                + " (cut_by_run_end)",
            "the run was interrupted (target_silent): 8 LLM requests were still in flight,"
                + " recorded with status cut_by_run_end and what was measured until then (left"
                + " out of the latency figures and the goodput)"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aTargetSilentTwiceWhileTheRunWentOnSaysHowTheLastEnded() {
    Map<String, Object> run = run();
    run.put("interrupted", false);
    run.put("end_reason", "budget_spent");
    run.put("requests_cut_by_run_end", 0);
    Map<String, Object> silent = new LinkedHashMap<>();
    silent.put("stopped", false);
    silent.put("episode_count", 2);
    silent.put(
        "episodes",
        List.of(
            Map.of("silent_s", 12.0, "ended", "bytes"), Map.of("silent_s", 3.5, "ended", "bytes")));
    silent.put("message", "TARGET SILENT at 02:11:00 (9.1 s into the run): ...");
    run.put("target_silent", silent);
    assertEquals(
        List.of(
            "TARGET SILENT at 02:11:00 (9.1 s into the run): .... 2 silent episodes in all; the"
                + " last: bytes came again after 3.5 s of silence"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aTargetThatCameBackSaysWhen() {
    Map<String, Object> run = run();
    run.put("interrupted", false);
    run.put("end_reason", "budget_spent");
    run.put("requests_cut_by_run_end", 0);
    Map<String, Object> down = new LinkedHashMap<>();
    down.put("stopped", false);
    down.put("back_at", "2026-12-02T02:11:05Z");
    down.put("failed_requests", 1L);
    down.put("message", "TARGET DOWN at 02:11:00 (9.1 s into the run): ...");
    run.put("target_down", down);
    assertEquals(
        List.of(
            "TARGET DOWN at 02:11:00 (9.1 s into the run): .... 1 request failed to connect or got"
                + " a server error while it was down (left out of the latency figures); it"
                + " answered again at 2026-12-02T02:11:05Z"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aSignalIsSaidAsSuch() {
    Map<String, Object> run = run();
    run.put("interrupted", true);
    run.put("end_reason", "interrupted");
    run.put("requests_cut_by_run_end", 0);
    assertEquals(
        List.of(
            "the run was interrupted (Ctrl+C or SIGTERM): the figures cover the requests that"
                + " finished"),
        RunSummary.of(run).warnings());
  }

  @Test
  void aRunThatEndedWithNothingInFlightHasNoEndingWarning() {
    Map<String, Object> run = run();
    run.put("interrupted", false);
    run.put("end_reason", "budget_spent");
    run.put("requests_cut_by_run_end", 0);
    assertEquals(List.of(), RunSummary.of(run).warnings());
  }

  @Test
  void warningsComeFromTheClientTheCacheAndAnInterruption() {
    Map<String, Object> run = run();
    run.put("interrupted", true);
    run.put("cache", Map.of("warm_start", true, "warm_start_message", "12 prompts were cached"));
    run.put(
        "client", Map.of("warnings", List.of("lag p99 42 ms at level 2", "CPU 95% at level 3")));
    assertEquals(
        List.of(
            "the run was interrupted: the figures cover the requests that finished",
            "warm start: 12 prompts were cached",
            "client: lag p99 42 ms at level 2",
            "client: CPU 95% at level 3"),
        RunSummary.of(run).warnings());
  }

  @Test
  void anOpenLoopsClientLagAndCpuAreFigures() {
    Map<String, Object> run = run();
    run.put(
        "client",
        Map.of(
            "schedule_lag_ms",
            Map.of("count", 100L, "p50", 0.25, "p99", 12.5),
            "cpu_share",
            Map.of("p50", 0.4, "max", 0.93)));
    List<RunSummary.Figure> figures = RunSummary.of(run).figures();
    assertEquals(
        List.of(
            new RunSummary.Figure("client schedule lag p50 / p99, ms", "0.25 / 12.5"),
            new RunSummary.Figure("client CPU share, most", "0.93")),
        figures.subList(13, 15));
    assertEquals(
        "  client: schedule lag p50 / p99, ms 0.25 / 12.5; CPU share, most 0.93",
        RunSummary.of(run).lines().get(4));
  }

  private static Map<String, Object> withStatus(long requests, Map<String, Object> status) {
    Map<String, Object> overall = new LinkedHashMap<>();
    overall.put("requests", requests);
    overall.put("status", status);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("metrics", Map.of("overall", overall));
    return run;
  }

  @Test
  void aRunWhoseRequestsMostlyFailedSaysSo() {
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("ok", 79L);
    status.put("connect_error", 1921L);
    status.put("timeout", 0L);
    Map<String, Object> run = withStatus(2000, status);
    assertEquals(
        "most requests failed: 1921 of 2000 measured (connect_error 1921); the latency and token"
            + " figures are those of the 79 that succeeded",
        RunSummary.mostFailed(RunRecord.of(run)));
    assertEquals(List.of(RunSummary.mostFailed(RunRecord.of(run))), RunSummary.of(run).warnings());
  }

  @Test
  void halfFailedOrCutRequestsAreNotMostFailed() {
    Map<String, Object> half = new LinkedHashMap<>();
    half.put("ok", 10L);
    half.put("timeout", 10L);
    assertNull(RunSummary.mostFailed(RunRecord.of(withStatus(20, half))));
    Map<String, Object> cut = new LinkedHashMap<>();
    cut.put("ok", 2L);
    cut.put("cut_by_run_end", 8L);
    assertNull(RunSummary.mostFailed(RunRecord.of(withStatus(10, cut))));
  }
}
