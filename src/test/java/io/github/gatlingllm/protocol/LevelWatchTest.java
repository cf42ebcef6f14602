package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.SaturationBlock;
import io.github.gatlingllm.settings.LlmSettings;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.concurrent.atomic.AtomicLong;
import org.junit.jupiter.api.Test;

class LevelWatchTest {

  /** 1, 2 and 4 users, 10 s each, from 0. */
  private static final Injection THREE =
      new Injection(
          "chat",
          true,
          List.of(
              new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 10_000),
              new Step(Type.CONSTANT_CONCURRENT_USERS, 2, 2, 10_000),
              new Step(Type.CONSTANT_CONCURRENT_USERS, 4, 4, 10_000)),
          List.of());

  private static LlmSettings settings(String... keyValues) {
    Properties properties = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return LlmSettings.from(properties, Map.of(), name -> null);
  }

  private static RequestRecord request(long startMs, double ttftMs) {
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
        .itlMs(List.of(1.0))
        .tpotMs(1.0)
        .e2eMs(ttftMs + 9)
        .outputTokensPerS(100.0)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  /** Sends {@code n} requests of the TTFT in the level starting at {@code fromMs}. */
  private static void level(LevelWatch watch, long fromMs, int n, double ttftMs) {
    for (int i = 0; i < n; i++) {
      long start = fromMs + i * (10_000 / n);
      watch.started("chat", "chat", start);
      watch.record(request(start, ttftMs), start + 100);
    }
  }

  /**
   * Issue 43: a level's figures are queued for the aggregator thread; its judgement applies what is
   * queued first, so it judges every request of the level. Without the drain the second level has
   * no TTFT yet and is not found over-saturated.
   */
  @Test
  void aLevelsQueuedFiguresAreAppliedBeforeItIsJudged() {
    AtomicLong inFlight = new AtomicLong();
    LevelWatch watch =
        new LevelWatch(
            List.of(THREE), settings("llm.stopWhenSaturated", "true"), null, inFlight::get);
    java.util.ArrayDeque<Runnable> queued = new java.util.ArrayDeque<>();
    watch.aggregatedBy(
        () -> {
          while (!queued.isEmpty()) {
            queued.poll().run();
          }
        });
    for (long[] level : new long[][] {{0, 20}, {10_000, 80}}) {
      for (int i = 0; i < 10; i++) {
        long start = level[0] + i * 1_000L;
        watch.started("chat", "chat", start);
        RequestRecord r = request(start, level[1]);
        LevelWatch.Placement p = watch.placement(r);
        queued.add(() -> p.slot().aggregate(r));
        watch.record(p, start + 100);
      }
    }
    assertEquals(false, queued.isEmpty());
    String stop = watch.stopNow(20_000);
    assertEquals(true, queued.isEmpty());
    assertEquals(
        true,
        stop != null && stop.contains("TTFT p50 went 20 -> 80 ms (4.0x)"),
        String.valueOf(stop));
  }

  @Test
  void anOverSaturatedLevelStopsTheRunWhenMoreLevelsFollow() {
    AtomicLong inFlight = new AtomicLong();
    LevelWatch watch =
        new LevelWatch(
            List.of(THREE), settings("llm.stopWhenSaturated", "true"), null, inFlight::get);
    level(watch, 0, 10, 20);
    level(watch, 10_000, 10, 80); // same throughput, TTFT 4x
    assertNull(watch.stopNow(19_999));
    String stop = watch.stopNow(20_000);
    assertEquals(
        "gatling-llm: over-saturated, stopping (llm.stopWhenSaturated): level 1 (2 users): 2x"
            + " users over level 0 (1 user) gave +0.0% output tokens/s (10.0 -> 10.0), none of the"
            + " +100% an unsaturated server gives them, while TTFT p50 went 20 -> 80 ms (4.0x) and"
            + " E2E p50 went 29 -> 89 ms (3.1x): the added users only added latency, by"
            + " closed-loop scaling"
            + " (Little's law; llm.saturation.minScaling 0.25, llm.saturation.ttftGrowth 1.5)",
        stop);
    assertNull(watch.stopNow(20_001));

    Map<String, Object> info = new LinkedHashMap<>(Map.of("load", Map.of("requests", 20)));
    watch.addTo(info, 2, 25_000, (start, end) -> new LevelEntry.Client(null, 0.5));
    List<LevelEntry> levels = RunRecord.of(info).levels();
    // the third level began after the stop and has no request
    assertEquals(2, levels.size());
    assertEquals(0.5, levels.get(1).client().clientCpu());
    assertEquals(true, RunRecord.of(info).saturation().verdict().stoppedEarly());
    @SuppressWarnings("unchecked")
    Map<String, Object> load = (Map<String, Object>) info.get("load");
    assertEquals(2L, load.get("peak_concurrency"));
    assertEquals(
        List.of(
            "chat (closed): constantConcurrentUsers(1).during(10s),"
                + " constantConcurrentUsers(2).during(10s), constantConcurrentUsers(4).during(10s)"),
        load.get("profiles"));
  }

  @Test
  void aLevelIsJudgedOnlyOnceItsRequestsHaveEnded() {
    AtomicLong inFlight = new AtomicLong(1);
    LevelWatch watch =
        new LevelWatch(
            List.of(THREE), settings("llm.stopWhenSaturated", "true"), null, inFlight::get);
    level(watch, 0, 10, 20);
    level(watch, 10_000, 9, 80);
    watch.started("chat", "chat", 19_900); // still in flight at the level's end
    assertNull(watch.stopNow(20_000));
    watch.record(request(19_900, 80), 20_050);
    assertEquals(true, watch.stopNow(20_050) != null);
  }

  @Test
  void withoutEarlyStopTheRunGoesOn() {
    LevelWatch watch = new LevelWatch(List.of(THREE), settings(), null, () -> 0);
    level(watch, 0, 10, 20);
    level(watch, 10_000, 10, 80);
    assertNull(watch.stopNow(20_000));
  }

  @Test
  void aSingleStepEndedByItsBudgetIsToldToGetMoreRequests() {
    // Issue 40 item 8: the quickstart's shape, one steady step of 8 users for up to 10 minutes,
    // whose 8 requests of 809 ms E2E were spent in 3 s.
    Injection one =
        new Injection(
            "chat",
            true,
            List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 8, 8, 600_000)),
            List.of());
    LevelWatch watch = new LevelWatch(List.of(one), settings(), null, () -> 0);
    for (int i = 0; i < 8; i++) {
      long start = i * 250L;
      watch.started("chat", "chat", start);
      watch.record(request(start, 800), start + 809);
    }
    Map<String, Object> info = new LinkedHashMap<>(Map.of("load", Map.of("requests", 8)));
    watch.addTo(info, 8, LevelWatch.levelsUntil(RunEnd.Reason.BUDGET_SPENT, 3_000), null, true);
    assertEquals(
        List.of(
            "level 0 of chat (8 users) lasted 2.6 s, under 10 times its E2E p50 (809 ms): its"
                + " figures are unreliable (it ended when the run's request budget was spent, not"
                + " at its step's end: give the run more requests, e.g. prompts().requests(n) or"
                + " -Dllm.requests)"),
        RunRecord.of(info).levelsBlock().warnings());
  }

  @Test
  void anSloLoadBoundWithoutTwoLevelsIsRefusedBeforeAnyLoad() {
    Injection one =
        new Injection(
            "chat",
            true,
            List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 8, 8, 60_000)),
            List.of());
    LevelWatch watch =
        new LevelWatch(
            List.of(one),
            settings("llm.slo.ttftMs", "100", "llm.assert.sloLoadAtLeast", "4"),
            null,
            () -> 0);
    assertEquals(
        "llm.assert.sloLoadAtLeast: 4.0 needs a scenario whose injection profile has 2 load"
            + " levels or more (steady steps such as constantConcurrentUsers or"
            + " constantUsersPerSec, e.g. sweep()), got 1 in chat",
        assertThrows(IllegalArgumentException.class, () -> watch.announce(null)).getMessage());
  }

  /** 6, 12 and 18 users a second, 5 s each, from 0, in a scenario of their own. */
  private static final Injection OPEN_SCENARIO =
      new Injection(
          "open steps",
          false,
          List.of(
              new Step(Type.CONSTANT_USERS_PER_SEC, 6, 6, 5_000),
              new Step(Type.CONSTANT_USERS_PER_SEC, 12, 12, 5_000),
              new Step(Type.CONSTANT_USERS_PER_SEC, 18, 18, 5_000)),
          List.of());

  /** What {@link LevelWatch#announce} warns, as logged. */
  private static String announced(LevelWatch watch) {
    ch.qos.logback.classic.Logger logger =
        (ch.qos.logback.classic.Logger) org.slf4j.LoggerFactory.getLogger(LevelWatch.class);
    ch.qos.logback.core.read.ListAppender<ch.qos.logback.classic.spi.ILoggingEvent> appender =
        new ch.qos.logback.core.read.ListAppender<>();
    appender.start();
    logger.addAppender(appender);
    try {
      watch.announce(null);
    } finally {
      logger.detachAppender(appender);
    }
    return appender.list.stream()
        .filter(e -> e.getLevel() == ch.qos.logback.classic.Level.WARN)
        .map(ch.qos.logback.classic.spi.ILoggingEvent::getFormattedMessage)
        .findFirst()
        .orElse(null);
  }

  @Test
  void theEarlyStopLineOfAnOpenLoopStatesTheOpenLoopRule() {
    LevelWatch watch =
        new LevelWatch(
            List.of(OPEN_STEPS), settings("llm.stopWhenSaturated", "true"), null, () -> 0);
    assertEquals(
        "EARLY STOP ON (llm.stopWhenSaturated): the run stops at the end of the first load level"
            + " whose TTFT p50 (E2E p50 when not streamed) grows 1.5x over the level before while"
            + " it serves fewer requests than it is offered, by more than 5% of them and more than"
            + " 3 requests, or whose errors exceed 5%",
        announced(watch));
  }

  @Test
  void theEarlyStopLineOfAClosedLoopStatesTheClosedLoopRule() {
    LevelWatch watch =
        new LevelWatch(List.of(THREE), settings("llm.stopWhenSaturated", "true"), null, () -> 0);
    assertEquals(
        "EARLY STOP ON (llm.stopWhenSaturated): the run stops at the end of the first load level"
            + " whose TTFT p50 (E2E p50 when not streamed; in a closed loop, TTFT or E2E p50)"
            + " grows 1.5x over the level before while its added users give less than 0.25 of the"
            + " output tokens/s they would give an unsaturated server (closed-loop scaling,"
            + " Little's law), or less than 5%, or whose errors exceed 5%",
        announced(watch));
  }

  @Test
  void theEarlyStopLineOfBothLoopsStatesEachRule() {
    LevelWatch watch =
        new LevelWatch(
            List.of(THREE, OPEN_SCENARIO),
            settings(
                "llm.stopWhenSaturated",
                "true",
                "llm.saturation.ttftGrowth",
                "2",
                "llm.saturation.throughputGain",
                "0.1"),
            null,
            () -> 0);
    assertEquals(
        "EARLY STOP ON (llm.stopWhenSaturated): the run stops at the end of the first load level"
            + " whose TTFT p50 (E2E p50 when not streamed; in a closed loop, TTFT or E2E p50)"
            + " grows 2x over the level before while, in a closed loop, its added users give less"
            + " than 0.25 of the output tokens/s they would give an unsaturated server"
            + " (closed-loop scaling, Little's law), or less than 10% or, in an open loop, it serves"
            + " fewer requests than it is offered, by more than 10% of them and more than 3"
            + " requests, or whose errors exceed 5%",
        announced(watch));
  }

  /** Sends 10 requests in the level from {@code fromMs}, {@code slow} of them with a 80 ms TTFT. */
  private static void levelWithSlow(LevelWatch watch, long fromMs, int slow) {
    for (int i = 0; i < 10; i++) {
      long start = fromMs + i * 1_000L;
      watch.started("chat", "chat", start);
      watch.record(request(start, i < slow ? 80 : 20), start + 100);
    }
  }

  private static SaturationBlock saturationOf(LlmSettings settings) {
    LevelWatch watch = new LevelWatch(List.of(THREE), settings, null, () -> 0);
    levelWithSlow(watch, 0, 0); // attainment 1.0 at 1 user
    levelWithSlow(watch, 10_000, 1); // 0.9 at 2 users
    levelWithSlow(watch, 20_000, 5); // 0.5 at 4 users
    Map<String, Object> info = new LinkedHashMap<>(Map.of("load", Map.of("requests", 30)));
    watch.addTo(info, 4, 30_000, null);
    return RunRecord.of(info).saturation().verdict();
  }

  @Test
  void aLevelMeetsTheSloAtTheLevelAttainmentNotAtTheRunsGoodputAssertion() {
    // The run's assertion (0.5) does not move when a level meets the SLO: 0.95 by default.
    SaturationBlock byDefault =
        saturationOf(settings("llm.slo.ttftMs", "50", "llm.assert.goodputRatio", "0.5"));
    assertEquals(0.95, byDefault.sloRatio());
    assertEquals(1.5, byDefault.sloLoad(), 1e-9); // 1 + (1 - 0.95) / (1 - 0.9)
    SaturationBlock set =
        saturationOf(settings("llm.slo.ttftMs", "50", "llm.slo.levelAttainment", "0.85"));
    assertEquals(0.85, set.sloRatio());
    assertEquals(2.25, set.sloLoad(), 1e-9); // 2 + 2 * (0.9 - 0.85) / (0.9 - 0.5)
  }

  /** 1, 2, 3 and 4 users/s, 10 s each, from 0. */
  private static final Injection OPEN_STEPS =
      new Injection(
          "chat",
          false,
          List.of(
              new Step(Type.CONSTANT_USERS_PER_SEC, 1, 1, 10_000),
              new Step(Type.CONSTANT_USERS_PER_SEC, 2, 2, 10_000),
              new Step(Type.CONSTANT_USERS_PER_SEC, 3, 3, 10_000),
              new Step(Type.CONSTANT_USERS_PER_SEC, 4, 4, 10_000)),
          List.of());

  /** The open steps served as offered; the last request ends at 39,850 ms. */
  private static Map<String, Object> openStepsEndingAt(RunEnd.Reason reason, long endMs) {
    LevelWatch watch = new LevelWatch(List.of(OPEN_STEPS), settings(), null, () -> 0);
    level(watch, 0, 10, 20);
    level(watch, 10_000, 20, 20);
    level(watch, 20_000, 30, 20);
    level(watch, 30_000, 40, 20);
    Map<String, Object> info = new LinkedHashMap<>(Map.of("load", Map.of("requests", 100)));
    watch.addTo(info, 1, LevelWatch.levelsUntil(reason, endMs), null);
    return info;
  }

  @Test
  void anOpenLoopWhoseInjectionIsOverDoesNotCutItsLastLevel() {
    // the run ends 110 ms before the last level's end: its last user arrived and was served
    Map<String, Object> info = openStepsEndingAt(RunEnd.Reason.INJECTION_OVER, 39_890);
    List<LevelEntry> levels = RunRecord.of(info).levels();
    assertEquals(4, levels.size());
    assertNull(levels.get(3).cutShort());
    assertEquals(10.0, levels.get(3).durationS());
    assertEquals(4.0, levels.get(3).summary().requestsPerS());
    SaturationBlock saturation = RunRecord.of(info).saturation().verdict();
    assertEquals(4, saturation.levels());
    assertEquals(4.0, saturation.maxLoad().doubleValue());
  }

  @Test
  void anOpenLoopStoppedBeforeItsLastLevelsEndCutsThatLevel() {
    Map<String, Object> info = openStepsEndingAt(RunEnd.Reason.TARGET_DOWN, 39_890);
    List<LevelEntry> levels = RunRecord.of(info).levels();
    assertEquals(true, levels.get(3).cutShort());
    assertEquals(3, RunRecord.of(info).saturation().verdict().levels());
  }

  @Test
  void theCurrentLevelIsTheStepThatHoldsTheInstant() {
    LevelWatch watch = new LevelWatch(List.of(THREE), settings(), null, () -> 0);
    watch.started("chat", "chat", 0);
    assertEquals(
        List.of(
            List.of(new io.github.gatlingllm.levels.LoadLevel("chat", true, 1, 0, 0, 10_000)),
            List.of(new io.github.gatlingllm.levels.LoadLevel("chat", true, 2, 1, 10_000, 20_000)),
            List.of()),
        List.of(watch.current(9_999), watch.current(10_000), watch.current(30_000)));
  }

  @Test
  void beforeTheFirstRequestNoLevelIsCurrent() {
    LevelWatch watch = new LevelWatch(List.of(THREE), settings(), null, () -> 0);
    assertEquals(List.of(), watch.current(5_000));
  }
}
