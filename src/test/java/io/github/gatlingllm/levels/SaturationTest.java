package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
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
            goodput);
    return new LevelResult(index, level, summary, start);
  }

  private static LevelResult level(int index, double users, double tokensPerS, Double attainment) {
    return level(index, users, tokensPerS, 10, attainment, 0);
  }

  @Test
  void theSaturationPointIsTheLeastLoadWithinTheToleranceOfTheHighestThroughput() {
    Saturation s =
        Saturation.of(
            List.of(
                level(0, 1, 100, null),
                level(1, 2, 200, null),
                level(2, 4, 390, null),
                level(3, 8, 400, null)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            null);
    assertEquals(2, s.saturation().index());
    assertEquals(400.0, s.maxOutputTokensPerS());
    Map<String, Object> record = s.toRecord();
    assertEquals("concurrency", record.get("metric"));
    assertEquals(4L, record.get("saturation_concurrency"));
    assertEquals(2, record.get("saturation_level"));
    assertEquals(false, record.get("stopped_early"));
    assertNull(record.get("slo_load"));
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
    assertEquals(false, s.toRecord().get("slo_met_at_every_level"));
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
    assertEquals(true, s.toRecord().get("slo_met_at_every_level"));
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
    assertEquals(true, s.toRecord().get("stopped_early"));
    assertEquals("why", s.toRecord().get("stop_reason"));
  }

  @Test
  void aLevelWhoseTtftGrowsWhileThroughputStaysFlatIsOverSaturated() {
    assertEquals(
        "level 3 (8 users): TTFT p50 grew 4.0x over level 2 (4 users) while output throughput"
            + " changed by +2.0% (llm.saturation.ttftGrowth 1.5, llm.saturation.throughputGain"
            + " 0.05)",
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
    assertEquals(true, s.toRecord().get("still_growing"));
    assertEquals(
        "saturation of chat: no saturation seen over 3 levels: throughput still growing at the"
            + " highest level, 4 users (level 2), 10.00 requests/s, 400.0 output tokens/s",
        s.describe().get(0));
  }

  @Test
  void thePeakIsNamedApartFromTheSaturationPoint() {
    Saturation s =
        Saturation.of(
            List.of(
                level(0, 2, 300, null),
                level(1, 8, 690, null),
                level(2, 16, 704, null),
                level(3, 32, 700, null)),
            SaturationSettings.DEFAULT,
            Slo.NONE,
            null,
            null);
    Map<String, Object> record = s.toRecord();
    assertEquals(false, record.get("still_growing"));
    assertEquals(1, record.get("saturation_level"));
    assertEquals(8L, record.get("saturation_concurrency"));
    assertEquals(2, record.get("max_level"));
    assertEquals(16L, record.get("max_concurrency"));
  }

  @Test
  void eachSteppedScenarioGetsItsOwnSaturation() {
    List<LevelResult> results =
        List.of(
            of("closed", 0, 0, level(0, 1, 100, null)),
            of("open", 1, 0, level(0, 1, 50, null)),
            of("closed", 2, 1, level(1, 2, 200, null)),
            of("open", 3, 1, level(1, 2, 52, null)));
    List<Saturation> all =
        Saturation.all(results, SaturationSettings.DEFAULT, Slo.NONE, null, null);
    assertEquals(List.of("closed", "open"), all.stream().map(Saturation::scenario).toList());
    assertEquals(2, all.get(0).saturation().index());
    assertEquals(1, all.get(0).saturation().scenarioIndex());
    assertEquals(1, all.get(1).saturation().index());
    assertEquals(0, all.get(1).toRecord().get("saturation_scenario_level"));
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
            g.goodput());
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
            null);
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
    Map<String, Object> record = s.toRecord();
    assertEquals(3, record.get("saturation_level"));
    assertEquals(3L, record.get("saturation_rate"));
    assertEquals(3, record.get("over_capacity_level"));
    assertEquals(false, record.get("still_growing"));
    assertEquals(true, record.get("throughput_still_growing"));
    assertEquals(true, record.get("saturated"));
    String text =
        "saturated at 3 users/s (level 3, 2.57 requests/s, 82.0 output tokens/s): over capacity:"
            + " served 2.57 of 3.00 offered requests/s (14.4% short) while TTFT p50 grew 44.9x over"
            + " level 2 (2 users/s), 57 -> 2560 ms (llm.saturation.ttftGrowth 1.5,"
            + " llm.saturation.throughputGain 0.05)";
    assertEquals(text, record.get("verdict_text"));
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
    Map<String, Object> record = s.toRecord();
    assertNull(record.get("saturation_level"));
    assertNull(record.get("saturation_rate"));
    assertNull(record.get("over_capacity_level"));
    assertEquals(true, record.get("still_growing"));
    assertEquals(
        "no saturation seen over 3 levels: no level fell short of its offered rate while its"
            + " TTFT grew; the highest, 2 users/s (level 2), served 1.98 of 2.00 requests/s, 63.5"
            + " output tokens/s",
        record.get("verdict_text"));
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
  void aClosedLoopWithAFlatTopAndALevelOverCapacityNamesBoth() {
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
    assertEquals(2, s.verdictLevel().index());
    assertEquals(3, s.toRecord().get("over_capacity_level"));
    assertEquals(
        "saturated at 4 users (level 2, 10.00 requests/s, 390.0 output tokens/s): more users"
            + " added less than 5.0% output throughput at the highest level; peak 400.0 output"
            + " tokens/s at 8 users (level 3); level 3 (8 users) over capacity: TTFT p50 grew 4.0x"
            + " over level 2 (4 users) while output throughput changed by +2.6%"
            + " (llm.saturation.ttftGrowth 1.5, llm.saturation.throughputGain 0.05)",
        s.verdictText());
  }
}
