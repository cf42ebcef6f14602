package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.Levels;
import io.github.gatlingllm.stats.JsonForm;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LevelTrackerTest {

  /** 1 user for 10 s, a ramp to 2 over 2 s, 2 users for 10 s. */
  private static final Injection STEPPED =
      new Injection(
          "chat",
          true,
          List.of(
              new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 10_000),
              new Step(Type.RAMP_CONCURRENT_USERS, 1, 2, 2_000),
              new Step(Type.CONSTANT_CONCURRENT_USERS, 2, 2, 10_000)),
          List.of());

  static RequestRecord request(String phase, long startMs, RequestStatus status) {
    boolean ok = status == RequestStatus.OK;
    return RequestRecord.builder()
        .request("chat")
        .phase(phase)
        .startMs(startMs)
        .promptTokens(ok ? 100 : null)
        .promptTokensExact(ok)
        .completionTokens(ok ? 10 : null)
        .completionTokensExact(ok)
        .ttftMs(ok ? 20.0 : null)
        .timeToFirstEventMs(ok ? 20.0 : null)
        .itlMs(ok ? List.of(5.0) : null)
        .tpotMs(ok ? 5.0 : null)
        .e2eMs(100.0)
        .outputTokensPerS(ok ? 100.0 : null)
        .finishReason(ok ? "length" : null)
        .httpStatus(ok ? 200 : 500)
        .status(status)
        .error(ok ? null : "boom")
        .build();
  }

  static RequestRecord ok(long startMs) {
    return request("measured", startMs, RequestStatus.OK);
  }

  @Test
  void planPlacesEachSteadyStepAfterTheStepsBeforeIt() {
    assertEquals(
        List.of(
            new LoadLevel("chat", true, 1, 0, 1_000, 11_000),
            new LoadLevel("chat", true, 2, 2, 13_000, 23_000)),
        LoadLevel.plan(STEPPED, 1_000));
  }

  @Test
  void leadIsTheLeadingIdleSteps() {
    Injection open =
        new Injection(
            "chat",
            false,
            List.of(
                new Step(Type.NOTHING_FOR, 0, 0, 3_000),
                new Step(Type.CONSTANT_USERS_PER_SEC, 0, 0, 1_000),
                new Step(Type.CONSTANT_USERS_PER_SEC, 2, 2, 5_000),
                new Step(Type.NOTHING_FOR, 0, 0, 3_000)),
            List.of());
    assertEquals(4_000, LoadLevel.leadMs(open));
    assertEquals(0, LoadLevel.leadMs(STEPPED));
  }

  @Test
  void requestsBelongToTheLevelTheyStartedInAndRampsAreLeftOut() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    for (long start : List.of(1_000L, 5_000L, 10_999L)) {
      t.add("chat", ok(start));
    }
    t.add("chat", ok(11_000)); // the ramp
    t.add("chat", ok(12_999)); // the ramp
    for (long start : List.of(13_000L, 14_000L, 15_000L, 22_999L)) {
      t.add("chat", ok(start));
    }
    t.add("chat", ok(23_000)); // after the profile
    t.add("chat", request("warmup", 2_000, RequestStatus.OK));

    List<LevelResult> results = t.results();
    assertEquals(2, results.size());
    assertEquals(3, results.get(0).summary().requests());
    assertEquals(4, results.get(1).summary().requests());
    assertEquals(2, t.rampRequests());
    assertEquals(1, t.outsideRequests());
    assertEquals(0, t.unplacedRequests());
    assertEquals(10L, t.toRecord(results, null).leftOut().measuredTotal());
    // 3 + 4 in levels, 2 in the ramp, 1 after: the 10 measured requests
    assertEquals(
        10,
        results.get(0).summary().requests()
            + results.get(1).summary().requests()
            + t.rampRequests()
            + t.outsideRequests());
    assertEquals(
        "Each level holds the measured requests that started in it; left out of every level: 2"
            + " measured requests started during ramps between levels, 1 measured request started"
            + " outside the injection profile.",
        t.note());
  }

  @Test
  void ratesArePerSecondOfTheLevel() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    for (int i = 0; i < 5; i++) {
      t.add("chat", ok(1_000 + i * 1_000));
    }
    t.add("chat", request("measured", 9_000, RequestStatus.HTTP_ERROR));
    LevelResult level = t.results().get(0);
    assertEquals(10.0, level.durationS());
    assertEquals(0.5, level.requestsPerS());
    assertEquals(5.0, level.outputTokensPerS());
    assertEquals(50.0, level.inputTokensPerS());
    assertEquals(1.0 / 6, level.errorRatio());
    Map<String, Object> record = JsonForm.of(level.entry(null));
    assertEquals(
        List.of(
            "index",
            "scenario",
            "kind",
            "concurrency",
            "start_ms",
            "end_ms",
            "duration_s",
            "requests",
            "status"),
        new ArrayList<>(record.keySet()).subList(0, 9));
    assertEquals(0.5, record.get("requests_per_s"));
    assertEquals(5.0, record.get("output_tokens_per_s"));
    assertEquals(50.0, record.get("input_tokens_per_s"));
    assertEquals(1L, record.get("concurrency"));
    assertEquals("closed", record.get("kind"));
    assertEquals(6L, record.get("requests"));
  }

  @Test
  void aWarmupInTheLevelMovesItsMeasuredStartToTheWarmupEnd() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.add("chat", request("warmup", 1_000, RequestStatus.OK)); // ends at 1 100
    t.add("chat", ok(1_100));
    LevelResult level = t.results().get(0);
    assertEquals(1_100, level.measuredFromMs());
    assertEquals(9.9, level.durationS());
    assertEquals(1_100L, level.entry(null).measuredFromMs());
    assertEquals(1, level.summary().requests());
  }

  @Test
  void aRunThatStopsCutsItsLevelShortAndLeavesOutTheLevelsItNeverReached() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.add("chat", ok(2_000));
    t.add("chat", ok(3_000));
    t.started("chat", 5_000);
    t.add("chat", ok(5_000)); // the last request ends at 5 100
    List<LevelResult> results = t.results(t.slots(), 6_000);
    assertEquals(1, results.size());
    // Measured to the last request's end (5 100), not to the stop (6 000): after it the client
    // had nothing in flight.
    assertEquals(4.1, results.get(0).durationS());
    assertEquals(3 / 4.1, results.get(0).requestsPerS(), 1e-12);
    assertEquals(true, results.get(0).cutShort());
    assertEquals(true, results.get(0).entry(null).cutShort());
    assertEquals(5_100L, results.get(0).entry(null).measuredToMs());
  }

  @Test
  void aRunThatEndsWithItsBudgetMeasuresItsLevelAsTheRunsWindow() {
    // One level of 1 user, a warmup, then measured requests until the budget is spent: the
    // level's window is the measured requests' (first start to last end), as the run summary's,
    // so both give the same requests/s.
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.add("chat", request("warmup", 1_000, RequestStatus.OK)); // ends at 1 100
    t.add("chat", ok(1_350)); // first measured start, after a 250 ms gap, mid-bin
    t.add("chat", ok(1_400));
    t.add("chat", ok(1_520)); // last end 1 620, mid-bin
    LevelResult level = t.results(t.slots(), 2_050).get(0); // the record written 430 ms later
    assertEquals(1_350, level.measuredFromMs());
    assertEquals(1_620, level.measuredToMs());
    assertEquals(3 / 0.27, level.requestsPerS(), 1e-9);
    // every output token counts, those of the edge bins too: 30 tokens in 0.27 s
    assertEquals(30 / 0.27, level.outputTokensPerS(), 1e-9);
  }

  @Test
  void aLevelCutWithNothingEndedInItKeepsItsTimeToTheStop() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.add("chat", ok(2_000)); // ends 2 100
    t.started("chat", 13_500);
    t.add("chat", request("measured", 13_500, RequestStatus.CUT_BY_RUN_END)); // ends 13 600
    List<LevelResult> results = t.results(t.slots(), 13_600);
    assertEquals(2, results.size());
    assertEquals(13_600, results.get(1).measuredToMs());
    assertEquals(13_000, results.get(1).measuredFromMs());
  }

  @Test
  void theClientHookGetsTheLevelWindow() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.add("chat", ok(2_000));
    LevelEntry record =
        t.results()
            .get(0)
            .entry((start, end) -> new LevelEntry.Client(null, (end - start) / 100_000.0));
    assertEquals(0.1, record.client().clientCpu());
  }

  @Test
  void anOpenLevelHasARate() {
    Injection open =
        new Injection(
            "chat",
            false,
            List.of(
                new Step(Type.NOTHING_FOR, 0, 0, 2_000),
                new Step(Type.CONSTANT_USERS_PER_SEC, 2.5, 2.5, 4_000)),
            List.of());
    LevelTracker t = new LevelTracker(List.of(open), Slo.NONE);
    // the first user arrives after the 2 s of nothing: the profile started at 1 000
    t.started("chat", 3_000);
    t.add("chat", ok(3_500));
    LevelResult level = t.results().get(0);
    assertEquals(new LoadLevel("chat", false, 2.5, 1, 3_000, 7_000), level.level());
    assertEquals(2.5, level.entry(null).rate());
    assertEquals("open", level.entry(null).kind());
  }

  @Test
  void rootsShareTheFirstAnchorAndAndThenChildrenHaveTheirOwn() {
    Injection first =
        new Injection(
            "a", true, List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 5_000)), List.of());
    Injection other =
        new Injection(
            "b",
            true,
            List.of(
                new Step(Type.CONSTANT_CONCURRENT_USERS, 0, 0, 1_000),
                new Step(Type.CONSTANT_CONCURRENT_USERS, 3, 3, 5_000)),
            List.of());
    Injection child =
        new Injection(
            "c",
            true,
            List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 2, 2, 5_000)),
            List.of("a"));
    LevelTracker t = new LevelTracker(List.of(first, other, child), Slo.NONE);
    t.started("a", 10_000);
    t.started("b", 11_040); // late by 40 ms: b's levels still start with a's clock
    t.started("c", 15_200);
    assertEquals(
        List.of(
            new LoadLevel("a", true, 1, 0, 10_000, 15_000),
            new LoadLevel("b", true, 3, 1, 11_000, 16_000),
            new LoadLevel("c", true, 2, 0, 15_200, 20_200)),
        t.slots().stream().map(LevelTracker.Slot::level).toList());
  }

  @Test
  void aRequestOfNoKnownScenarioGoesToTheOnlyLevelledOneElseIsUnplaced() {
    LevelTracker one = new LevelTracker(List.of(STEPPED), Slo.NONE);
    one.started(null, 1_000);
    assertEquals(new LoadLevel("chat", true, 1, 0, 1_000, 11_000), one.add(null, ok(2_000)));

    Injection other =
        new Injection(
            "other",
            true,
            List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 10_000)),
            List.of());
    LevelTracker two = new LevelTracker(List.of(STEPPED, other), Slo.NONE);
    two.started("chat", 1_000);
    assertNull(two.add(null, ok(2_000)));
    assertEquals(1, two.unplacedRequests());
  }

  @Test
  void pendingCountsRequestsStartedAndNotYetAdded() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.started("chat", 2_000);
    t.add("chat", ok(1_000));
    assertEquals(1, t.slots().get(0).pending());
  }

  /** A level's entry as llm-run.json writes it (Jackson, one line). */
  private static String json(LevelResult level, LevelEntry.Client client) throws Exception {
    return new ObjectMapper().writeValueAsString(level.entry((start, end) -> client));
  }

  @Test
  void anEntryWithAWarmupAGoodputACutAndExtraFieldsIsWrittenInTheRecordsOrder() throws Exception {
    // The text the hand-built map wrote before the entry was typed: the keys, their order and
    // their values (the goodput's rates per second of the level, the extra fields last).
    LevelTracker t = new LevelTracker(List.of(STEPPED), new Slo(50.0, null, null, null));
    t.started("chat", 1_000);
    t.add("chat", request("warmup", 1_000, RequestStatus.OK)); // ends at 1 100
    t.add("chat", ok(1_350));
    t.add("chat", ok(1_400));
    LevelResult level = t.results(t.slots(), 2_050).get(0);
    assertEquals(
        "{\"index\":0,\"scenario\":\"chat\",\"kind\":\"closed\",\"concurrency\":1,\"start_ms\":1000,"
            + "\"end_ms\":11000,\"duration_s\":0.15,\"measured_from_ms\":1350,\"measured_to_ms\":1500,"
            + "\"cut_short\":true,\"requests\":2,\"status\":{\"ok\":2,\"http_error\":0,\"rejected\":0,"
            + "\"timeout\":0,\"stream_error\":0,\"connect_error\":0,\"cut_by_run_end\":0,\"cancelled\":0},"
            + "\"prompt_tokens\":200,\"cached_tokens\":0,\"cache_hit_ratio\":null,\"completion_tokens\":20,"
            + "\"window_start_ms\":1350,\"window_end_ms\":1500,\"requests_per_s\":13.333333333333334,"
            + "\"output_tokens_per_s\":133.33333333333334,\"ttft_ms\":{\"count\":2,\"mean\":20.0,"
            + "\"min\":20.0,\"p50\":20.0,\"p90\":20.0,\"p95\":20.0,\"p99\":20.0,\"max\":20.0},\"itl_ms\":{\"count\":2,"
            + "\"mean\":5.0,\"min\":5.0,\"p50\":5.0,\"p90\":5.0,\"p95\":5.0,\"p99\":5.0,\"max\":5.0},"
            + "\"tpot_ms\":{\"count\":2,\"mean\":5.0,\"min\":5.0,\"p50\":5.0,\"p90\":5.0,\"p95\":5.0,"
            + "\"p99\":5.0,\"max\":5.0},\"e2e_ms\":{\"count\":2,\"mean\":100.0,\"min\":100.0,\"p50\":100.0,"
            + "\"p90\":100.0,\"p95\":100.0,\"p99\":100.0,\"max\":100.0},\"output_tokens_per_s_per_request\":{\"count\":2,"
            + "\"mean\":100.0,\"min\":100.0,\"p50\":100.0,\"p90\":100.0,\"p95\":100.0,\"p99\":100.0,"
            + "\"max\":100.0},\"goodput\":{\"slo\":{\"ttft_ms\":50.0,\"itl_ms\":null,\"tpot_ms\":null,"
            + "\"e2e_ms\":null},\"offered\":2,\"met\":2,\"failed\":0,\"missed\":{\"ttft\":0},\"attainment\":1.0,"
            + "\"goodput_requests_per_s\":13.333333333333334,\"goodput_output_tokens_per_s\":133.33333333333334},"
            + "\"ttfo_ms\":{\"count\":0,\"mean\":null,\"min\":null,\"p50\":null,\"p90\":null,\"p95\":null,"
            + "\"p99\":null,\"max\":null},\"reasoning\":{\"requests_reasoning\":0,\"never_answered\":0,"
            + "\"reasoning_tokens\":0,\"answer_tokens\":0,\"reasoning_share\":null,\"reasoning_tokens_per_request\":{\"count\":0,"
            + "\"mean\":null,\"min\":null,\"p50\":null,\"p90\":null,\"p95\":null,\"p99\":null,\"max\":null},"
            + "\"reasoning_tpot_ms\":{\"count\":0,\"mean\":null,\"min\":null,\"p50\":null,\"p90\":null,"
            + "\"p95\":null,\"p99\":null,\"max\":null},\"answer_tpot_ms\":{\"count\":0,\"mean\":null,"
            + "\"min\":null,\"p50\":null,\"p90\":null,\"p95\":null,\"p99\":null,\"max\":null}},\"input_tokens_per_s\":1333.3333333333335,"
            + "\"scenario_index\":0,\"offered_requests_per_s\":13.333333333333334,\"completed_requests\":2,"
            + "\"client_cpu\":0.5}",
        json(level, new LevelEntry.Client(null, 0.5)));
  }

  @Test
  void goodputRatesArePerSecondOfTheLevel() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), new Slo(50.0, null, null, null));
    t.started("chat", 1_000);
    t.add("chat", ok(1_000));
    t.add("chat", ok(2_000));
    Goodput goodput = t.results().get(0).entry(null).summary().goodput();
    assertEquals(1.0, goodput.attainment());
    assertEquals(0.2, goodput.requestsPerS());
    assertEquals(2.0, goodput.outputTokensPerS());
  }

  @Test
  void theRecordHasLevelsANoteAndTheLeftOutCounts() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    assertNull(t.toRecord(t.results(), null));
    t.started("chat", 1_000);
    t.add("chat", ok(12_000));
    Map<String, Object> record = t.toRecord(t.results(), null).fields();
    assertEquals(
        List.of("levels", "levels_note", "levels_left_out", "levels_anchor"),
        List.copyOf(record.keySet()));
    assertEquals(
        Map.of("ramps", 1L, "outside", 0L, "unplaced", 0L, "not_sent", 0L, "measured_total", 1L),
        JsonForm.of(record.get("levels_left_out")));
  }

  @Test
  void aPromptHandedOutAndNeverSentIsLeftOutAndCountedSoTheLevelsAddUpToTheMeasured() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.started("chat", 1_000);
    t.add("chat", ok(5_000));
    t.notSent(request("measured", 6_000, RequestStatus.CUT_BY_RUN_END));
    t.notSent(request("warmup", 6_000, RequestStatus.CUT_BY_RUN_END));
    Levels record = t.toRecord(t.results(), null);
    assertEquals(new Levels.LeftOut(0, 0, 0, 1L, 2, null), record.leftOut());
    assertEquals(1, t.results().get(0).summary().requests());
    assertEquals(
        "Each level holds the measured requests that started in it; left out of every level: 1"
            + " measured request handed out but never sent (the run ended first).",
        record.note());
  }

  /** 10 users/s for 2 s, then 20 users/s for 2 s. */
  private static final Injection OPEN =
      new Injection(
          "chat",
          false,
          List.of(
              new Step(Type.CONSTANT_USERS_PER_SEC, 10, 10, 2_000),
              new Step(Type.CONSTANT_USERS_PER_SEC, 20, 20, 2_000)),
          List.of());

  /** A successful request of 100 prompt and 10 output tokens: 5 at the TTFT, 5 an ITL later. */
  static RequestRecord streamed(long startMs, double ttftMs, double itlMs) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .completionTokens(10)
        .completionTokensExact(true)
        .ttftMs(ttftMs)
        .timeToFirstEventMs(ttftMs)
        .itlMs(List.of(itlMs))
        .tpotMs(itlMs)
        .e2eMs(ttftMs + itlMs)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  @Test
  void throughputIsWhatTheLevelServedNotWhatStartedInIt() {
    LevelTracker t = new LevelTracker(List.of(OPEN), Slo.NONE);
    t.started("chat", 0);
    t.add("chat", streamed(0, 500, 500)); // tokens at 500, 1000; ends 1000
    t.add("chat", streamed(1_500, 400, 400)); // tokens at 1900, 2300; ends 2300
    t.add("chat", streamed(1_900, 1_000, 1_000)); // tokens at 2900, 3900; ends 3900
    t.add("chat", streamed(3_000, 2_000, 1_000)); // tokens at 5000, 6000: after every level
    List<LevelResult> results = t.results();
    LevelResult first = results.get(0);
    assertEquals(3, first.summary().requests());
    assertEquals(1.5, first.offeredRequestsPerS());
    assertEquals(0.5, first.requestsPerS());
    assertEquals(7.5, first.outputTokensPerS());
    assertEquals(100.0, first.inputTokensPerS());
    LevelResult second = results.get(1);
    assertEquals(1, second.summary().requests());
    assertEquals(0.5, second.offeredRequestsPerS());
    assertEquals(1.0, second.requestsPerS());
    assertEquals(7.5, second.outputTokensPerS());
    assertEquals(50.0, second.inputTokensPerS());
    LevelEntry record = second.entry(null);
    assertEquals(1, record.scenarioIndex());
    assertEquals(0.5, record.offeredRequestsPerS());
    assertEquals(2L, record.completedRequests());
  }

  @Test
  void aLevelCutShortServedOnlyUpToTheStop() {
    LevelTracker t = new LevelTracker(List.of(OPEN), Slo.NONE);
    t.started("chat", 0);
    t.add("chat", streamed(1_500, 400, 400)); // tokens at 1900, 2300; ends 2300
    t.add("chat", streamed(1_900, 1_000, 1_000)); // tokens at 2900, 3900; ends 3900
    LevelResult second = t.results(t.slots(), 3_000).get(1);
    assertEquals(1.0, second.durationS());
    assertEquals(1.0, second.requestsPerS());
    assertEquals(10.0, second.outputTokensPerS());
  }

  @Test
  void eachScenarioCountsItsOwnLevels() {
    Injection open =
        new Injection(
            "batch",
            false,
            List.of(
                new Step(Type.CONSTANT_USERS_PER_SEC, 1, 1, 10_000),
                new Step(Type.RAMP_USERS_PER_SEC, 1, 2, 2_000),
                new Step(Type.CONSTANT_USERS_PER_SEC, 2, 2, 10_000)),
            List.of());
    LevelTracker t = new LevelTracker(List.of(STEPPED, open), Slo.NONE);
    t.started("chat", 1_000);
    t.started("batch", 1_000);
    List<LevelResult> results = t.results();
    assertEquals(List.of(0, 1, 2, 3), results.stream().map(LevelResult::index).toList());
    assertEquals(
        List.of("chat", "batch", "chat", "batch"),
        results.stream().map(r -> r.level().scenario()).toList());
    assertEquals(List.of(0, 0, 1, 1), results.stream().map(LevelResult::scenarioIndex).toList());
  }

  @Test
  void rootLevelsAreAnchoredOnTheInjectorStartWhenItCanBeRead() {
    LevelTracker t = new LevelTracker(List.of(OPEN), Slo.NONE);
    t.injectorStart(scenario -> "chat".equals(scenario) ? 750L : null);
    t.started("chat", 1_000);
    assertEquals(new LoadLevel("chat", false, 10, 0, 750, 2_750), t.slots().get(0).level());
    assertEquals(
        "Gatling's injector start (250 ms before the first-request estimate)",
        t.rootAnchorSource());
    Levels record = t.toRecord(t.results(), null);
    assertEquals(
        new Levels.Anchor(
            750L, "Gatling's injector start (250 ms before the first-request estimate)", null),
        record.anchor());
  }

  @Test
  void withoutAnOpenInjectionTheAnchorIsEstimatedAndSaidSo() {
    LevelTracker t = new LevelTracker(List.of(STEPPED), Slo.NONE);
    t.injectorStart(
        scenario -> {
          throw new IllegalStateException("moved");
        });
    t.started("chat", 1_000);
    assertEquals(1_000, t.slots().get(0).level().startMs());
    assertEquals(
        "estimated: the first LLM request of a root scenario less its profile's leading idle"
            + " steps (no open injection in progress to read Gatling's injector start from, or"
            + " its internals moved)",
        t.rootAnchorSource());
  }

  @Test
  void anExcludedScenarioHasNoLevelsAndItsRequestsAreUnplaced() {
    // the capacity search's scenario: its profile's step is no load level, the search sets its load
    Injection search =
        new Injection(
            "search",
            false,
            List.of(new Step(Type.CONSTANT_USERS_PER_SEC, 32, 32, 60_000)),
            List.of());
    LevelTracker t = new LevelTracker(List.of(STEPPED, search), Slo.NONE);
    t.exclude("search");
    assertNull(t.started("search", 1_000));
    t.started("chat", 1_000);
    t.add("chat", ok(2_000));
    assertNull(t.add("search", ok(2_000)));
    assertEquals(
        List.of("chat", "chat"), t.slots().stream().map(s -> s.level().scenario()).toList());
    assertEquals(1, t.unplacedRequests());
    assertEquals(1, t.results().get(0).summary().requests());
  }
}
