package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.gatling.core.session.Session;
import io.gatling.core.session.Session$;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.settings.LlmSettings;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;
import org.junit.jupiter.api.Test;

/**
 * Schedules of open-loop users by rank, first requests only, the estimate when Gatling's injector
 * cannot be read, and the lag warning, on a Gatling-like clock ({@code nanoTime} in ms).
 */
class ClientWatchTest {

  /** 4 users over 2 s: due at 0, 500, 1000, 1500 ms; then a closed scenario. */
  private static final List<Injection> INJECTIONS =
      List.of(
          new Injection("chat", false, List.of(new Step(Type.RAMP_USERS, 4, 4, 2_000)), List.of()),
          new Injection(
              "closed",
              true,
              List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 2, 2, 1_000)),
              List.of()));

  private static final long START_MS = System.nanoTime() / 1_000_000;

  private static ClientWatch watch(Function<String, Long> injectionStart) {
    LlmSettings settings = LlmSettings.from(new Properties(), Map.of(), name -> null);
    return new ClientWatch(
        settings, INJECTIONS, null, () -> System.nanoTime() / 1_000_000, injectionStart);
  }

  private static Session user(String scenario, long id) {
    return Session$.MODULE$.apply(scenario, id, null);
  }

  @Test
  void eachUserIsDueAtItsRankByIdOnGatlingsStart() {
    ClientWatch w = watch(s -> START_MS);
    // ids handed out in injection order; users may start in another order
    w.userStarted(user("chat", 11));
    w.userStarted(user("chat", 13));
    w.userStarted(user("chat", 12));
    w.userStarted(user("chat", 14));
    double first = w.scheduledMs(w.firstSend(user("chat", 11)));
    assertEquals(500.0, w.scheduledMs(w.firstSend(user("chat", 12))) - first);
    assertEquals(1000.0, w.scheduledMs(w.firstSend(user("chat", 13))) - first);
    assertEquals(1500.0, w.scheduledMs(w.firstSend(user("chat", 14))) - first);
    ClientSummary record = w.finish();
    assertEquals(new ClientSummary.InjectionStart(4, 0), record.injectionStart());
  }

  @Test
  void onlyTheFirstRequestOfAnOpenLoopUserHasASchedule() {
    ClientWatch w = watch(s -> START_MS);
    w.userStarted(user("chat", 1));
    w.userStarted(user("closed", 2));
    assertTrue(w.firstSend(user("chat", 1)) != ClientWatch.First.NONE);
    assertSame(ClientWatch.First.NONE, w.firstSend(user("chat", 1)));
    assertSame(ClientWatch.First.NONE, w.firstSend(user("closed", 2)));
    w.userStarted(user("chat", 3));
    w.unscheduled(user("chat", 3));
    assertSame(ClientWatch.First.NONE, w.firstSend(user("chat", 3)));
    assertNull(w.scheduledMs(ClientWatch.First.NONE));
    w.finish();
  }

  @Test
  void withoutGatlingsStartTheEarliestUserStartLessItsOffsetIsTaken() {
    ClientWatch w =
        watch(
            s -> {
              throw new IllegalStateException("Gatling internals moved: no field behavior");
            });
    long before = System.nanoTime();
    w.userStarted(user("chat", 1));
    double scheduled = w.scheduledMs(w.firstSend(user("chat", 1)));
    // the user's own start: no later than now, no earlier than before it started
    assertTrue(scheduled >= w.epochMs(before) && scheduled <= w.epochMs(System.nanoTime()));
    ClientSummary record = w.finish();
    assertEquals(new ClientSummary.InjectionStart(0, 1), record.injectionStart());
    assertEquals(
        List.of(
            "the injection start is estimated (the earliest user start less its offset), not read"
                + " from Gatling's injector: Gatling internals moved: no field behavior"),
        record.notes());
  }

  @Test
  void aLagP99OverTheBoundWarnsOnceAndAQuietRunDoesNot() {
    // Issue 29 changed this on purpose: 2 late users of 100 no longer warn; 10 do.
    ClientWatch late = watch(s -> START_MS);
    for (int i = 0; i < 90; i++) {
      late.recorded(record(1_000.0 + 10 * i + 1, 1_000.0 + 10 * i));
    }
    for (int i = 0; i < 10; i++) {
      late.recorded(record(2_000.0 + 100 * i + 25, 2_000.0 + 100 * i));
    }
    ClientSummary lateRecord = late.finish();
    assertEquals(1, lateRecord.warnings().size());
    assertTrue(
        lateRecord
            .warnings()
            .get(0)
            .startsWith(
                "the client fell behind its injection profile: schedule lag p99 25.0 ms over the"
                    + " run (100 open-loop users), over llm.client.maxLagP99Ms=10 ms (10 users"
                    + " more than 10 ms late)"));
    assertEquals(25.0, lateRecord.scheduleLagMs().p99());
    // the same figures a second time: no second warning
    assertEquals(1, late.finish().warnings().size());

    ClientWatch quiet = watch(s -> START_MS);
    quiet.recorded(record(1_000.0 + 2.5, 1_000.0));
    quiet.recorded(record(1_100.0, null));
    assertEquals(List.of(), quiet.finish().warnings());
  }

  @Test
  void theFirstUsersWarmUpAndOneLevelBoundaryAreNoFallBehind() {
    // Issue 29: at the 100-user minimum the p99 is the 2nd largest lag; on every stepped run it was
    // the first user (94 ms) and one user at a level boundary (48 ms).
    ClientWatch w = watch(s -> START_MS);
    w.recorded(record(1_000.0 + 94, 1_000.0));
    for (int i = 0; i < 97; i++) {
      w.recorded(record(1_100.0 + 10 * i + 1, 1_100.0 + 10 * i));
    }
    w.recorded(record(3_000.0 + 48, 3_000.0));
    w.recorded(record(3_100.0 + 2, 3_100.0));
    ClientSummary record = w.finish();
    assertEquals(List.of(), record.warnings());
    assertEquals(
        List.of(
            "schedule lag not judged a fall-behind: p99 48.0 ms over llm.client.maxLagP99Ms=10 ms,"
                + " but only 2 of 100 open-loop users were later than it, fewer than the 10 a"
                + " tail needs (a user's start-up or a stray pause, not the client's pace)"),
        record.notes());
  }

  @Test
  void theLagVerdictNeedsAHundredUsersAndTenOfThemLate() {
    assertEquals(ClientWatch.LagVerdict.KEPT_UP, ClientWatch.lagVerdict(50, 5.0, 0, 10));
    assertEquals(ClientWatch.LagVerdict.TOO_FEW_USERS, ClientWatch.lagVerdict(99, 50.0, 2, 10));
    assertEquals(ClientWatch.LagVerdict.KEPT_UP, ClientWatch.lagVerdict(1_000, 10.0, 9, 10));
    assertEquals(ClientWatch.LagVerdict.TOO_FEW_LATE, ClientWatch.lagVerdict(112, 33.0, 9, 10));
    assertEquals(ClientWatch.LagVerdict.BEHIND, ClientWatch.lagVerdict(112, 33.0, 10, 10));
    assertEquals(ClientWatch.LagVerdict.BEHIND, ClientWatch.lagVerdict(1_000, 10.5, 11, 10));
  }

  @Test
  void twoLateUsersAreTooFewToJudge() {
    ClientWatch w = watch(s -> START_MS);
    w.recorded(record(1_000.0 + 250, 1_000.0));
    w.recorded(record(2_000.0 + 1, 2_000.0));
    ClientSummary record = w.finish();

    assertEquals(List.of(), record.warnings());
    assertTrue(
        record
            .notes()
            .contains("schedule lag not judged: 2 open-loop users, fewer than the 100 a p99 needs"),
        record.toString());
  }

  @Test
  void aShortRunGetsNoCpuWarning() {
    // a bound no run can stay under: only the span of the samples keeps the warning away
    LlmSettings settings =
        LlmSettings.from(new Properties(), Map.of("client.maxCpuShare", "0.0001"), name -> null);
    ClientWatch w =
        new ClientWatch(
            settings, INJECTIONS, null, () -> System.nanoTime() / 1_000_000, s -> START_MS);
    w.start();
    long end = System.nanoTime() + 300_000_000L;
    double burn = 0;
    while (System.nanoTime() < end) {
      burn += Math.sqrt(burn + 1);
    }
    ClientSummary record = w.finish();

    assertEquals(List.of(), record.warnings(), "burnt " + burn);
  }

  @Test
  void aWindowGivesItsLagsAndLeavesThemOutWithoutAny() {
    ClientWatch w = watch(s -> START_MS);
    w.recorded(record(1_000.5, 998.0));
    w.recorded(record(5_000.0, 4_000.0));
    w.finish();
    LevelEntry.Client window = w.forWindow(900, 2_000);
    assertEquals(2.5, window.scheduleLagMs().max());
    assertEquals(1L, window.scheduleLagMs().count());
    assertNull(w.forWindow(6_000, 7_000).scheduleLagMs());
  }

  private static RequestRecord record(double sentMs, Double scheduledMs) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs((long) sentMs)
        .e2eMs(10.0)
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build()
        .withSchedule(sentMs, scheduledMs);
  }

  @Test
  void theLiveCpuShareIsUnknownBeforeTwoSamples() {
    assertNull(watch(scenario -> null).cpuShareNow());
  }

  @Test
  void theLiveCpuShareIsAShareOnceSampled() throws InterruptedException {
    ClientWatch watch = watch(scenario -> null);
    watch.start();
    try {
      Double share = null;
      for (int i = 0; i < 40 && share == null; i++) {
        Thread.sleep(100);
        share = watch.cpuShareNow();
      }
      assertTrue(share != null && share >= 0 && share <= 1, "share " + share);
    } finally {
      watch.finish();
    }
  }

  @Test
  void aCpuShareOverOneIsCappedWithANote() {
    assertEquals(
        "client CPU share capped at 1: over a window of at least 1 s the JVM used 1.60 times the"
            + " CPU of the 2 processors it was told it has (Runtime.availableProcessors, e.g."
            + " -XX:ActiveProcessorCount below the cores it runs on)",
        ClientWatch.cpuCapNote(1.6, 2));
  }

  @Test
  void aCpuShareJustOverOneFromTheClocksIsNoNote() {
    // the wall clock and the CPU clock are read one after the other: 1.02 over 1 s is their gap
    assertNull(ClientWatch.cpuCapNote(1.02, 2));
    assertNull(ClientWatch.cpuCapNote(null, 2));
  }
}
