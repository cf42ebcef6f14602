package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.AnswerSummary;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.SaturationBlock;
import io.github.gatlingllm.stats.Distribution;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class SaturationTest {

  private static final Slo SLO = new Slo(500.0, null, null, null);

  /** A closed level of 10 s with its output tokens/s, TTFT p50 and SLO attainment. */
  private static LevelResult level(
      int index, double users, double tokensPerS, double ttftP50, Double attainment, long failed) {
    long start = 1_000_000 + index * 10_000L;
    LoadLevel level = new LoadLevel("chat", true, users, index, start, start + 10_000);
    long completion = Math.round(tokensPerS * 10);
    long ok = 100 - failed;
    Map<RequestStatus, Long> statuses = new EnumMap<>(RequestStatus.class);
    statuses.put(RequestStatus.OK, ok);
    statuses.put(RequestStatus.HTTP_ERROR, failed);
    Distribution ttft =
        new Distribution(ok, ttftP50, ttftP50, ttftP50, ttftP50, ttftP50, ttftP50, ttftP50);
    Goodput goodput =
        attainment == null
            ? null
            : new Goodput(
                SLO,
                100,
                Math.round(attainment * 100),
                failed,
                Map.of("ttft", 0L),
                attainment,
                null,
                null);
    GroupSummary summary =
        new GroupSummary(
            null,
            null,
            100,
            statuses,
            0,
            0,
            null,
            completion,
            start,
            start + 10_000,
            null,
            null,
            ttft,
            Distribution.EMPTY,
            Distribution.EMPTY,
            Distribution.EMPTY,
            Distribution.EMPTY,
            goodput,
            AnswerSummary.EMPTY);
    return new LevelResult(index, level, summary, start);
  }

  private static LevelResult level(int index, double users, double tokensPerS, Double attainment) {
    return level(index, users, tokensPerS, 10, attainment, 0);
  }

  @Test
  void theSaturationPointIsTheLeastLoadWithinTheToleranceOfTheHighestThroughput() {
    // 8 users: 2x the users for +2.6% output tokens/s, and so (Little's law) TTFT p50 2x.
    Saturation s =
        Saturation.of(
            List.of(
                level(0, 1, 100, 10, null, 0),
                level(1, 2, 200, 10, null, 0),
                level(2, 4, 390, 10, null, 0),
                level(3, 8, 400, 20, null, 0)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            null);
    assertEquals(2, s.saturation().index());
    assertEquals(400.0, s.maxOutputTokensPerS());
    SaturationBlock record = s.toRecord();
    assertEquals("concurrency", record.metric());
    // the verdict names where the levels show saturation: 8 users, its first level over capacity
    assertEquals(8L, record.saturationLoad());
    assertEquals(3, record.saturationLevel());
    assertEquals(false, record.stoppedEarly());
    assertNull(record.sloLoad());
  }

  @Test
  void theLoadMeetingTheSloIsInterpolatedBetweenTheLevelsOnEitherSide() {
    Saturation s =
        Saturation.of(
            List.of(
                level(0, 1, 100, 1.0),
                level(1, 2, 200, 1.0),
                level(2, 4, 390, 0.97),
                level(3, 8, 400, 0.5)),
            SaturationSettings.DEFAULT,
            SLO,
            0.95,
            null);
    // 4 + (8 - 4) * (0.97 - 0.95) / (0.97 - 0.5)
    assertEquals(4 + 4 * 0.02 / 0.47, s.sloLoad(), 1e-9);
    assertEquals(2, s.sloBelow().index());
    assertEquals(3, s.sloAbove().index());
    assertEquals(false, s.toRecord().sloMetAtEveryLevel());
    assertNull(s.sloShortfall(4.1));
    assertEquals(
        "the highest load meeting the SLO is 4.17 users, below llm.assert.sloLoadAtLeast 6 users",
        s.sloShortfall(6));
  }

  @Test
  void withoutAGoodputRatioALevelMeetsTheSloAt95Percent() {
    Saturation s =
        Saturation.of(
            List.of(level(0, 1, 100, 0.96), level(1, 2, 150, 0.90)),
            SaturationSettings.DEFAULT,
            SLO,
            null,
            null);
    assertEquals(0.95, s.sloRatio());
    assertEquals(1 + 0.01 / 0.06, s.sloLoad(), 1e-9);
  }

  @Test
  void whenEveryLevelMeetsTheSloTheAnswerIsTheHighestLoad() {
    Saturation s =
        Saturation.of(
            List.of(level(0, 1, 100, 1.0), level(1, 4, 300, 0.99)),
            SaturationSettings.DEFAULT,
            SLO,
            0.95,
            null);
    assertEquals(4.0, s.sloLoad());
    assertNull(s.sloAbove());
    assertEquals(true, s.toRecord().sloMetAtEveryLevel());
  }

  @Test
  void whenTheLowestLevelMissesTheSloThereIsNoLoadMeetingIt() {
    Saturation s =
        Saturation.of(
            List.of(level(0, 1, 100, 0.5), level(1, 4, 300, 0.2)),
            SaturationSettings.DEFAULT,
            SLO,
            0.95,
            null);
    assertNull(s.sloLoad());
    assertEquals(0, s.sloAbove().index());
    assertEquals(
        "the highest load meeting the SLO is none (the lowest level, 1 user, missed it), below"
            + " llm.assert.sloLoadAtLeast 2 users",
        s.sloShortfall(2));
  }

  @Test
  void oneLevelHasNoSaturation() {
    assertNull(
        Saturation.of(
            List.of(level(0, 1, 100, null)), SaturationSettings.DEFAULT, Slo.NONE, null, null));
  }

  @Test
  void levelsAreTakenInLoadOrder() {
    Saturation s =
        Saturation.of(
            List.of(level(0, 8, 400, null), level(1, 1, 100, null)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            "why");
    assertEquals(List.of(1, 0), s.levels().stream().map(LevelResult::index).toList());
    assertEquals(true, s.toRecord().stoppedEarly());
    assertEquals("why", s.toRecord().stopReason());
  }

  @Test
  void aLevelWhoseTtftGrowsWhileThroughputStaysFlatIsOverSaturated() {
    assertEquals(
        "level 3 (8 users): 2x users over level 2 (4 users) gave +2.0% output tokens/s (400.0 ->"
            + " 408.0), 2.0% of the +100% an unsaturated server gives them, while TTFT p50 went 50"
            + " -> 200 ms (4.0x): the added users only added latency, by closed-loop scaling"
            + " (Little's law;"
            + " llm.saturation.minScaling 0.25, llm.saturation.ttftGrowth 1.5)",
        Saturation.overSaturated(
            level(2, 4, 400, 50, null, 0),
            level(3, 8, 408, 200, null, 0),
            SaturationSettings.DEFAULT));
  }

  @Test
  void aLevelWhoseThroughputGrowsIsNotOverSaturated() {
    assertNull(
        Saturation.overSaturated(
            level(1, 2, 200, 50, null, 0),
            level(2, 4, 390, 200, null, 0),
            SaturationSettings.DEFAULT));
  }

  @Test
  void aLevelWithTooManyErrorsIsOverSaturated() {
    assertEquals(
        "level 1 (2 users): 6 of 100 requests failed (6.0%), more than"
            + " llm.saturation.errorRatio 0.05",
        Saturation.overSaturated(
            level(0, 1, 100, 50, null, 0),
            level(1, 2, 200, 50, null, 6),
            SaturationSettings.DEFAULT));
  }

  @Test
  void settingsNameTheSettingTheValueAndWhatIsAllowed() {
    assertEquals(
        "llm.saturation.ttftGrowth: got 1.0, expected a finite factor > 1, e.g. 1.5",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SaturationSettings(false, 1.0, 0.05, 0.05, null))
            .getMessage());
    assertEquals(
        "llm.saturation.throughputGain: got 1.0, expected a share in [0, 1), e.g. 0.05",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SaturationSettings(false, 1.5, 1.0, 0.05, null))
            .getMessage());
    assertEquals(
        "llm.saturation.errorRatio: got -0.1, expected a share in [0, 1], e.g. 0.05",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SaturationSettings(false, 1.5, 0.05, -0.1, null))
            .getMessage());
    assertEquals(
        "llm.assert.sloLoadAtLeast: got 0.0, expected a finite load > 0 (concurrent users, or"
            + " users/s for an open profile)",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SaturationSettings(false, 1.5, 0.05, 0.05, 0.0))
            .getMessage());
  }

  /** The same figures as another scenario's level, at a given place. */
  private static LevelResult of(String scenario, int index, int scenarioIndex, LevelResult r) {
    LoadLevel l = r.level();
    return new LevelResult(
        index,
        scenarioIndex,
        new LoadLevel(scenario, l.closed(), l.load(), l.step(), l.startMs(), l.endMs()),
        r.summary(),
        r.measuredFromMs(),
        r.measuredToMs(),
        r.served());
  }

  @Test
  void aTopLevelStillGrowingIsNoSaturation() {
    Saturation s =
        Saturation.of(
            List.of(level(0, 1, 100, null), level(1, 2, 200, null), level(2, 4, 400, null)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            null);
    assertEquals(true, s.stillGrowing());
    assertEquals(true, s.toRecord().stillGrowing());
    assertEquals(
        "saturation of chat: no saturation seen over 3 levels: no level's added users gave less"
            + " than 0.25 of the output tokens/s they would give an unsaturated server while its"
            + " TTFT or E2E p50 grew 1.5x (closed-loop scaling); the highest, 4 users (level 2),"
            + " 10.00 requests/s, 400.0 output tokens/s: 2x users over level 1 (2 users) gave"
            + " +100.0% output tokens/s (200.0 -> 400.0), 100.0% of the +100% an unsaturated server"
            + " gives them, while TTFT p50 went 10 -> 10 ms (1.0x)",
        s.describe().get(0));
  }

  @Test
  void thePeakIsNamedApartFromTheSaturationPoint() {
    Saturation s =
        Saturation.of(
            List.of(
                level(0, 2, 300, 10, null, 0),
                level(1, 8, 690, 12, null, 0),
                level(2, 16, 700, 25, null, 0),
                level(3, 32, 710, 60, null, 0)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            null);
    SaturationBlock record = s.toRecord();
    assertEquals(false, record.stillGrowing());
    assertEquals(2, record.saturationLevel());
    assertEquals(16L, record.saturationLoad());
    assertEquals(3, record.maxLevel());
    assertEquals(32L, record.maxLoad());
    assertEquals(
        true, record.verdictText().endsWith("; peak 710.0 output tokens/s at 32 users (level 3)"));
  }

  @Test
  void eachSteppedScenarioGetsItsOwnSaturation() {
    List<LevelResult> results =
        List.of(
            of("closed", 0, 0, level(0, 1, 100, null)),
            of("open", 1, 0, level(0, 1, 50, null)),
            of("closed", 2, 1, level(1, 2, 200, null)),
            // 2x users for +4% output tokens/s: TTFT p50 2.5x (Little's law)
            of("open", 3, 1, level(1, 2, 52, 25, null, 0)));
    List<Saturation> all =
        Saturation.all(results, SaturationSettings.DEFAULT, Slo.NONE, null, null);
    assertEquals(List.of("closed", "open"), all.stream().map(Saturation::scenario).toList());
    assertEquals(2, all.get(0).saturation().index());
    assertEquals(1, all.get(0).saturation().scenarioIndex());
    assertEquals(1, all.get(1).saturation().index());
    // its verdict: saturated at its level 1 (run-wide 3), over capacity
    assertEquals(3, all.get(1).toRecord().saturationLevel());
    assertEquals(1, all.get(1).toRecord().saturationScenarioLevel());
    assertEquals(
        "2 stepped scenarios (closed, open) shared the server: each one's levels saw the others'"
            + " load, so each saturation is that of the scenario with the others running",
        Saturation.shared(all));
    assertNull(Saturation.shared(all.subList(0, 1)));
  }

  @Test
  void aLevelShorterThanTenE2eP50sIsFlagged() {
    LevelResult r = level(3, 16, 900, null);
    GroupSummary g = r.summary();
    Distribution e2e = new Distribution(100, 1500.0, 900.0, 1500.0, 1800.0, 1900.0, 2000.0, 2100.0);
    GroupSummary slow =
        new GroupSummary(
            g.request(),
            g.phase(),
            g.requests(),
            g.statuses(),
            g.promptTokens(),
            g.cachedTokens(),
            g.cacheHitRatio(),
            g.completionTokens(),
            g.windowStartMs(),
            g.windowEndMs(),
            g.requestsPerS(),
            g.outputTokensPerS(),
            g.ttftMs(),
            g.itlMs(),
            g.tpotMs(),
            e2e,
            g.outputTokensPerSPerRequest(),
            g.goodput(),
            AnswerSummary.EMPTY);
    LevelResult shortLevel =
        new LevelResult(3, 3, r.level(), slow, r.measuredFromMs(), r.measuredToMs(), r.served());
    assertEquals(
        List.of(
            "level 3 of chat (16 users) lasted 10.0 s, under 10 times its E2E p50 (1500 ms): its"
                + " figures are unreliable (make levels last longer, e.g. sweep's levelDuration)"),
        Saturation.shortLevels(List.of(level(0, 1, 100, null), shortLevel)));
  }

  /**
   * An open level of 60 s at a rate (users/s): its requests started and completed (served) in it,
   * its TTFT p50 and its output tokens/s.
   */
  private static LevelResult open(
      int index, double rate, long started, long completed, double ttftP50, double tokensPerS) {
    long start = 2_000_000 + index * 60_000L;
    LoadLevel level = new LoadLevel("chat", false, rate, index, start, start + 60_000);
    Map<RequestStatus, Long> statuses = new EnumMap<>(RequestStatus.class);
    statuses.put(RequestStatus.OK, started);
    Distribution ttft =
        new Distribution(started, ttftP50, ttftP50, ttftP50, ttftP50, ttftP50, ttftP50, ttftP50);
    GroupSummary summary =
        new GroupSummary(
            null,
            null,
            started,
            statuses,
            0,
            0,
            null,
            Math.round(tokensPerS * 60),
            start,
            start + 60_000,
            null,
            null,
            ttft,
            Distribution.EMPTY,
            Distribution.EMPTY,
            Distribution.EMPTY,
            Distribution.EMPTY,
            null,
            AnswerSummary.EMPTY);
    return new LevelResult(
        index,
        index,
        level,
        summary,
        start,
        start + 60_000,
        new LevelResult.Served(completed, tokensPerS * 60, 0));
  }

  private static Saturation openRun(LevelResult... levels) {
    return Saturation.of(List.of(levels), SaturationSettings.DEFAULT, Slo.NONE, null, null);
  }

  @Test
  void anOpenLevelServingLessThanOfferedWhileTtftGrowsIsSaturationThoughThroughputGrew() {
    // Issue 29: 0.5/1/2/3 users/s on llama.cpp; at 3 users/s 2.57 of 3 requests/s were served and
    // TTFT p50 went 57 -> 2,560 ms, while output throughput still grew 29%.
    Saturation s =
        openRun(
            open(0, 0.5, 30, 30, 55, 16),
            open(1, 1, 60, 60, 56, 32),
            open(2, 2, 120, 119, 57, 63.5),
            open(3, 3, 180, 154, 2560, 82));
    assertEquals(true, s.saturated());
    assertEquals(true, s.stillGrowing());
    SaturationBlock record = s.toRecord();
    assertEquals(3, record.saturationLevel());
    assertEquals(3L, record.saturationLoad());
    assertEquals(3, record.overCapacityLevel());
    assertEquals(false, record.stillGrowing());
    assertEquals(true, record.throughputStillGrowing());
    assertEquals(true, record.saturated());
    String text =
        "saturated at 3 users/s (level 3, 2.57 requests/s, 82.0 output tokens/s): over capacity:"
            + " served 2.57 of 3.00 offered requests/s (14.4% short) while TTFT p50 grew 44.9x over"
            + " level 2 (2 users/s), 57 -> 2560 ms (llm.saturation.ttftGrowth 1.5,"
            + " llm.saturation.throughputGain 0.05)";
    assertEquals(text, record.verdictText());
    assertEquals("saturation of chat: " + text, s.describe().get(0));
    assertEquals(
        "level 3 (3 users/s): served 2.57 of 3.00 offered requests/s (14.4% short) while TTFT p50"
            + " grew 44.9x over level 2 (2 users/s), 57 -> 2560 ms (llm.saturation.ttftGrowth 1.5,"
            + " llm.saturation.throughputGain 0.05)",
        Saturation.overSaturated(s.levels().get(2), s.levels().get(3), SaturationSettings.DEFAULT));
  }

  @Test
  void openLevelsServingWhatTheyWereOfferedAreNoSaturation() {
    Saturation s =
        openRun(
            open(0, 0.5, 30, 29, 55, 16),
            open(1, 1, 60, 60, 58, 32),
            open(2, 2, 120, 119, 61, 63.5));
    assertEquals(false, s.saturated());
    assertNull(s.verdictLevel());
    SaturationBlock record = s.toRecord();
    assertNull(record.saturationLevel());
    assertNull(record.saturationLoad());
    assertNull(record.overCapacityLevel());
    assertEquals(true, record.stillGrowing());
    assertEquals(
        "no saturation seen over 3 levels: no level fell short of its offered rate while its"
            + " TTFT grew; the highest, 2 users/s (level 2), served 1.98 of 2.00 requests/s, 63.5"
            + " output tokens/s",
        record.verdictText());
  }

  @Test
  void anOpenLevelWhoseThroughputIsFlatButServesWhatItIsOfferedIsNoSaturation() {
    // Rates close together: throughput grows less than 5% with the offered rate.
    Saturation s = openRun(open(0, 1, 60, 60, 55, 32), open(1, 1.02, 61, 61, 56, 32.5));
    assertEquals(false, s.stillGrowing());
    assertEquals(false, s.saturated());
  }

  @Test
  void aLowRateLevelWhoseTtftJumpsButThatServesAllButThreeRequestsIsNotOverCapacity() {
    // Noise on a shared machine: TTFT p50 doubles at 0.5 users/s; 3 requests still in flight at
    // the level's end complete in the next one.
    assertNull(
        Saturation.overSaturated(
            open(0, 0.25, 15, 15, 55, 8),
            open(1, 0.5, 30, 27, 110, 15),
            SaturationSettings.DEFAULT));
  }

  @Test
  void anOpenLevelShortOfItsOfferedLoadWithoutTtftGrowthIsNotOverCapacity() {
    assertNull(
        Saturation.overSaturated(
            open(0, 2, 120, 120, 55, 64),
            open(1, 3, 180, 150, 70, 80),
            SaturationSettings.DEFAULT));
  }

  @Test
  void aClosedLoopWithAFlatTopIsSaturatedAtItsFirstLevelOverCapacity() {
    Saturation s =
        Saturation.of(
            List.of(
                level(0, 1, 100, 50, null, 0),
                level(1, 2, 200, 50, null, 0),
                level(2, 4, 390, 60, null, 0),
                level(3, 8, 400, 240, null, 0)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            null);
    assertEquals(true, s.saturated());
    assertEquals(2, s.saturation().index());
    assertEquals(3, s.verdictLevel().index());
    assertEquals(3, s.toRecord().overCapacityLevel());
    assertEquals(
        "saturated at 8 users (level 3, 10.00 requests/s, 400.0 output tokens/s): over capacity:"
            + " 2x users over level 2 (4 users) gave +2.6% output tokens/s (390.0 -> 400.0), 2.6%"
            + " of the +100% an unsaturated server gives them, while TTFT p50 went 60 -> 240 ms"
            + " (4.0x): the added users only added latency, by closed-loop scaling (Little's law;"
            + " llm.saturation.minScaling 0.25, llm.saturation.ttftGrowth 1.5)",
        s.verdictText());
  }

  /** A latency distribution of {@code n} values with its p50 and its p90 (and above). */
  private static Distribution latency(long n, double p50, double p90) {
    return new Distribution(n, p50, p50, p50, p90, p90, p90, p90);
  }

  /**
   * A closed level of 20 s whose {@code requests} all started and succeeded in it, of 32 output
   * tokens each, served at {@code tokensPerS}, with its TTFT and E2E.
   */
  private static LevelResult closed(
      int index,
      double users,
      long requests,
      double tokensPerS,
      Distribution ttft,
      Distribution e2e) {
    long start = 3_000_000 + index * 20_000L;
    LoadLevel level = new LoadLevel("chat", true, users, index, start, start + 20_000);
    Map<RequestStatus, Long> statuses = new EnumMap<>(RequestStatus.class);
    statuses.put(RequestStatus.OK, requests);
    GroupSummary summary =
        new GroupSummary(
            null,
            null,
            requests,
            statuses,
            0,
            0,
            null,
            requests * 32,
            start,
            start + 20_000,
            null,
            null,
            ttft,
            Distribution.EMPTY,
            Distribution.EMPTY,
            e2e,
            Distribution.EMPTY,
            null,
            AnswerSummary.EMPTY);
    return new LevelResult(
        index,
        index,
        level,
        summary,
        start,
        start + 20_000,
        new LevelResult.Served(requests, tokensPerS * 20, 0));
  }

  private static Saturation closedRun(LevelResult... levels) {
    return Saturation.of(List.of(levels), SaturationSettings.DEFAULT, Slo.NONE, null, null);
  }

  @Test
  void theIssuesOneSlotLlamaCppSweepIsSaturatedAtTwoUsers() {
    // Issue 40: SweepSimulation on 1-slot llama.cpp at 1/2/4 users, 84.0/93.6/103.0 output
    // tokens/s (+11%, +10%), TTFT p50 91/406/981 ms, said "no saturation seen ... throughput still
    // growing". 2x the users for +11% is a scaling of 0.11: the added user queued.
    Saturation s =
        closedRun(
            closed(0, 1, 52, 84.0, latency(52, 91, 118), Distribution.EMPTY),
            closed(1, 2, 58, 93.6, latency(58, 406, 450), Distribution.EMPTY),
            closed(2, 4, 64, 103.0, latency(64, 981, 1100), Distribution.EMPTY));
    assertEquals(true, s.saturated());
    SaturationBlock record = s.toRecord();
    String text =
        "saturated at 2 users (level 1, 2.90 requests/s, 93.6 output tokens/s): over capacity: 2x"
            + " users over level 0 (1 user) gave +11.4% output tokens/s (84.0 -> 93.6), 11.4% of"
            + " the"
            + " +100% an unsaturated server gives them, while TTFT p50 went 91 -> 406 ms (4.5x):"
            + " the added users only added latency, by closed-loop scaling (Little's law;"
            + " llm.saturation.minScaling 0.25, llm.saturation.ttftGrowth 1.5); peak 103.0 output"
            + " tokens/s at 4 users (level 2)";
    assertEquals(text, record.verdictText());
    assertEquals("saturation of chat: " + text, s.describe().get(0));
    assertEquals(1, record.saturationLevel());
    assertEquals(2L, record.saturationLoad());
    assertEquals(1, record.overCapacityLevel());
    assertEquals(true, record.saturated());
    assertEquals(false, record.stillGrowing());
    // a fact about throughput, not the verdict: +10% at the highest level
    assertEquals(true, record.throughputStillGrowing());
    assertEquals("closed_loop_scaling", record.rule());
    assertEquals(0.25, record.minScaling());
    assertEquals(1.5, record.ttftGrowth());
    assertEquals(0.05, record.throughputGain());
    List<SaturationBlock.ScalingRow> scaling = record.scaling();
    assertEquals(2, scaling.size());
    SaturationBlock.ScalingRow first = scaling.get(0);
    assertEquals(1, first.level());
    assertEquals(0, first.levelBelow());
    assertEquals(2.0, first.usersFactor());
    assertEquals(93.6 / 84.0, first.outputTokensPerSFactor(), 1e-9);
    assertEquals(93.6 / 84.0 - 1, first.scaling(), 1e-9);
    assertEquals(406.0 / 91, first.ttftP50Factor(), 1e-9);
    assertNull(first.e2eP50Factor());
    assertEquals(true, first.latencyGrew());
    assertEquals(true, first.throughputShort());
    assertEquals(true, first.overCapacity());
    assertEquals(true, scaling.get(1).overCapacity());
  }

  @Test
  void theIssuesFiguresStopTheRunAtTwoUsers() {
    assertEquals(
        "level 1 (2 users): 2x users over level 0 (1 user) gave +11.4% output tokens/s (84.0 ->"
            + " 93.6), 11.4% of the +100% an unsaturated server gives them, while TTFT p50 went 91"
            + " -> 406 ms (4.5x): the added users only added latency, by closed-loop scaling"
            + " (Little's law;"
            + " llm.saturation.minScaling 0.25, llm.saturation.ttftGrowth 1.5)",
        Saturation.overSaturated(
            closed(0, 1, 52, 84.0, latency(52, 91, 118), Distribution.EMPTY),
            closed(1, 2, 58, 93.6, latency(58, 406, 450), Distribution.EMPTY),
            SaturationSettings.DEFAULT));
  }

  @Test
  void throughputDoublingWithTheUsersAtFlatLatencyIsNoSaturation() {
    Saturation s =
        closedRun(
            closed(0, 1, 100, 160, latency(100, 50, 60), latency(100, 250, 270)),
            closed(1, 2, 200, 320, latency(200, 50, 60), latency(200, 250, 270)),
            closed(2, 4, 400, 640, latency(400, 51, 62), latency(400, 252, 275)),
            closed(3, 8, 800, 1280, latency(800, 51, 62), latency(800, 253, 275)));
    assertEquals(false, s.saturated());
    SaturationBlock record = s.toRecord();
    assertNull(record.saturationLevel());
    assertNull(record.overCapacityLevel());
    assertEquals(true, record.stillGrowing());
    assertEquals(
        "no saturation seen over 4 levels: no level's added users gave less than 0.25 of the"
            + " output tokens/s they would give an unsaturated server while its TTFT or E2E p50"
            + " grew 1.5x (closed-loop scaling); the highest, 8 users (level 3), 40.00 requests/s,"
            + " 1280.0 output tokens/s: 2x users over level 2 (4 users) gave +100.0% output"
            + " tokens/s (640.0 -> 1280.0), 100.0% of the +100% an unsaturated server gives them,"
            + " while TTFT p50 went 51 -> 51 ms (1.0x) and E2E p50 went 252 -> 253 ms (1.0x)",
        record.verdictText());
  }

  @Test
  void noiseOfAFewPercentIsNoSaturation() {
    // Throughput within 3% of doubling, latencies within 4% of flat.
    Saturation s =
        closedRun(
            closed(0, 1, 100, 160, latency(100, 50, 60), latency(100, 250, 270)),
            closed(1, 2, 196, 313.6, latency(196, 52, 63), latency(196, 259, 280)),
            closed(2, 4, 404, 646.4, latency(404, 49, 61), latency(404, 248, 268)));
    assertEquals(false, s.saturated());
    assertNull(s.verdictLevel());
  }

  @Test
  void theSameLoadTwiceIsNoSaturation() {
    // An A/A: 4 users twice, the second 3% slower with TTFT 6% higher. No user was added, so
    // nothing can have queued behind one (today's flat-top rule called it saturated).
    Saturation s =
        closedRun(
            closed(0, 4, 400, 640, latency(400, 50, 60), latency(400, 250, 270)),
            closed(1, 4, 388, 620.8, latency(388, 53, 64), latency(388, 258, 279)));
    assertEquals(false, s.saturated());
    SaturationBlock record = s.toRecord();
    assertNull(record.saturationLevel());
    assertEquals(List.of(), record.scaling());
  }

  @Test
  void aFlatTopWhoseLatencyStayedFlatIsNoSaturation() {
    // 2x the users, the same throughput and the same latency: by Little's law the added users were
    // not in the system (a client that could not send, a pause): not the server's saturation.
    Saturation s =
        closedRun(
            closed(0, 2, 200, 320, latency(200, 50, 60), latency(200, 250, 270)),
            closed(1, 4, 200, 322, latency(200, 50, 60), latency(200, 251, 270)));
    assertEquals(false, s.stillGrowing());
    assertEquals(false, s.saturated());
  }

  @Test
  void aTtftGrowthWhileThroughputScalesIsNoSaturation() {
    // A batching server well below its capacity: 2x users for +90% output tokens/s, each prefill
    // now shares a step with another sequence's decode (TTFT p50 10 -> 16 ms, 1.6x).
    Scaling scaling =
        Scaling.of(
            closed(0, 4, 400, 640, latency(400, 10, 20), latency(400, 250, 270)),
            closed(1, 8, 760, 1216, latency(760, 16, 25), latency(760, 262, 285)),
            SaturationSettings.DEFAULT);
    assertEquals(1.6, scaling.ttftFactor(), 1e-9);
    assertEquals(0.9, scaling.scaling(), 1e-9);
    assertEquals(true, scaling.latencyGrew());
    assertEquals(false, scaling.throughputShort());
    assertEquals(false, scaling.overCapacity());
  }

  @Test
  void anE2eGrowthAloneIsLatencyGrowthInAClosedLoop() {
    // A batching server bound by its compute: 2x users for +12% output tokens/s, each request
    // decodes slower (E2E p50 1.8x) while its TTFT barely moves.
    assertEquals(
        "level 1 (2 users): 2x users over level 0 (1 user) gave +12.0% output tokens/s (190.0 ->"
            + " 212.8), 12.0% of the +100% an unsaturated server gives them, while TTFT p50 went 60"
            + " -> 70 ms (1.2x) and E2E p50 went 300 -> 540 ms (1.8x): the added users only added"
            + " latency, by"
            + " closed-loop scaling (Little's law; llm.saturation.minScaling 0.25,"
            + " llm.saturation.ttftGrowth 1.5)",
        Saturation.overSaturated(
            closed(0, 1, 118, 190, latency(118, 60, 80), latency(118, 300, 330)),
            closed(1, 2, 133, 212.8, latency(133, 70, 95), latency(133, 540, 580)),
            SaturationSettings.DEFAULT));
  }

  @Test
  void levelsCloseTogetherAreJudgedByTheThroughputGainFloor() {
    // 8 -> 9 users: a quarter of +12.5% is +3.1%, under the 5% flat-throughput bound.
    Scaling scaling =
        Scaling.of(
            closed(0, 8, 400, 640, latency(400, 50, 60), latency(400, 400, 420)),
            closed(1, 9, 410, 665.6, latency(410, 80, 90), latency(410, 450, 470)),
            SaturationSettings.DEFAULT);
    assertEquals(0.05, scaling.bound(), 1e-9);
    assertEquals(true, scaling.overCapacity());
    assertEquals(
        "1.13x users over level 0 (8 users) gave +4.0% output tokens/s (640.0 -> 665.6), 32.0% of"
            + " the +12.5% an unsaturated server gives them, while TTFT p50 went 50 -> 80 ms (1.6x)"
            + " and E2E p50 went 400 -> 450 ms (1.1x): the added users only added latency, by"
            + " closed-loop"
            + " scaling (Little's law; llm.saturation.throughputGain 0.05,"
            + " llm.saturation.ttftGrowth 1.5)",
        scaling.reason());
  }

  @Test
  void aHigherMinScalingCallsAWeakerGainSaturation() {
    LevelResult below = closed(0, 4, 400, 640, latency(400, 50, 60), latency(400, 400, 420));
    LevelResult level = closed(1, 8, 560, 896, latency(560, 90, 100), latency(560, 600, 640));
    // +40% for 2x users: a scaling of 0.4
    assertEquals(false, Scaling.of(below, level, SaturationSettings.DEFAULT).overCapacity());
    assertEquals(
        true,
        Scaling.of(below, level, new SaturationSettings(false, 1.5, 0.05, 0.05, null, null, 0.5))
            .overCapacity());
  }

  @Test
  void minScalingOutOfRangeNamesTheSetting() {
    assertEquals(
        "llm.saturation.minScaling: got 1.5, expected a share in [0, 1], e.g. 0.25",
        assertThrows(
                IllegalArgumentException.class,
                () -> new SaturationSettings(false, 1.5, 0.05, 0.05, null, null, 1.5))
            .getMessage());
  }

  @Test
  void anOpenLoopRecordsItsRuleWithoutClosedLoopScaling() {
    SaturationBlock record =
        openRun(open(0, 1, 60, 60, 55, 32), open(1, 2, 120, 119, 56, 64)).toRecord();
    assertEquals("open_loop_shortfall", record.rule());
    assertNull(record.scaling());
    assertNull(record.minScaling());
  }

  /** The level with its measured window cut at {@code toMs}. */
  private static LevelResult cutAt(LevelResult r, long toMs, long requests) {
    return new LevelResult(
        r.index(),
        r.scenarioIndex(),
        r.level(),
        r.summary(),
        r.measuredFromMs(),
        toMs,
        new LevelResult.Served(requests, requests * 32.0, 0));
  }

  @Test
  void aShortLevelEndedByTheRequestBudgetAsksForMoreRequestsNotALongerLevel() {
    // Issue 40 item 8: a single steady step whose run ended with its budget lasted 3.0 s of its
    // nominal 20 s: only more requests make it longer.
    LevelResult one =
        cutAt(
            closed(0, 8, 40, 400, latency(40, 90, 120), latency(40, 800, 900)),
            3_000_000 + 3_000,
            40);
    assertEquals(
        List.of(
            "level 0 of chat (8 users) lasted 3.0 s, under 10 times its E2E p50 (800 ms): its"
                + " figures are unreliable (it ended when the run's request budget was spent, not"
                + " at its step's end: give the run more requests, e.g. prompts().requests(n) or"
                + " -Dllm.requests)"),
        Saturation.shortLevels(List.of(one), true));
  }

  @Test
  void aShortLevelTheRunStoppedInSaysItWasCutShort() {
    // The level after an over-saturated one, stopped 1.2 s into it (llm.stopWhenSaturated).
    LevelResult cut =
        cutAt(
            closed(2, 4, 6, 150, latency(6, 550, 630), latency(6, 660, 670)),
            3_000_000 + 40_000 + 1_200,
            6);
    assertEquals(
        List.of(
            "level 2 of chat (4 users) lasted 1.2 s, under 10 times its E2E p50 (660 ms): its"
                + " figures are unreliable (cut short: the run stopped 1.2 s into it, before its"
                + " step's end)"),
        Saturation.shortLevels(List.of(cut), false));
  }
}
