package io.github.gatlingllm.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.Capacity;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The search's controller against a fake server whose knee is known: every request it serves
 * answers in 20 ms (TTFT) while the admitted rate is at most its capacity, in 500 ms above it.
 * Arrivals at 10 users/s (every 100 ms), the SLO TTFT at most 100 ms for 95% of requests.
 */
class CapacitySearchTest {

  private static final Slo TTFT_100 = new Slo(100.0, null, null, null);

  /** What the controller told the run. */
  static final class Heard implements CapacitySearch.Listener {
    final List<String> levels = new ArrayList<>();
    String answer;
    Boolean ok;

    @Override
    public void levelJudged(String line) {
      levels.add(line);
    }

    @Override
    public void over(String answer, boolean ok) {
      this.answer = answer;
      this.ok = ok;
    }
  }

  static RequestRecord served(long startMs, double ttftMs) {
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
        .itlMs(List.of(5.0))
        .tpotMs(5.0)
        .e2eMs(ttftMs + 45)
        .outputTokensPerS(100.0)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  static SearchSettings open(double maxRate, int coarse, int holdSeconds, Double atLeast) {
    return new SearchSettings(
        false, maxRate, coarse, 0.05, holdSeconds, 0, 20, 5, 30, 0.1, atLeast);
  }

  /**
   * Runs a search to its end (or 1,000 s) against the fake server: arrivals every 100 ms from t =
   * 1,000 ms, each admitted one served at once, a tick every 100 ms.
   */
  static CapacitySearch run(SearchSettings settings, double capacity, Heard heard) {
    CapacitySearch search = new CapacitySearch(settings, TTFT_100, 0.95, 30_000, heard);
    for (long t = 1_000; t < 1_000_000 && !search.over(); t += 100) {
      if (search.admitArrival("search", t)) {
        search.started(t);
        // the level the request started in sets what the server gives it
        double load = search.currentLoad();
        search.record(served(t, load <= capacity ? 20 : 500));
      }
      search.tick(t);
    }
    return search;
  }

  @Test
  void aKneeAt7UsersPerSecondIsFoundTo5PercentAndHeld() {
    Heard heard = new Heard();
    CapacitySearch search = run(open(10, 2, 10, null), 7, heard);
    assertTrue(search.over());
    Capacity c = search.toRecord("search_over", 0, null);
    assertEquals("open", c.kind());
    assertEquals("search", c.scenario());
    assertEquals(6.875, c.maxRate());
    assertNull(c.maxUsers());
    assertNull(c.edge());
    assertEquals(new Capacity.Interval(6.875, 7.188), c.interval());
    List<String> stages = new ArrayList<>();
    List<Number> loads = new ArrayList<>();
    List<String> ends = new ArrayList<>();
    for (Capacity.Step s : c.levels()) {
      stages.add(s.stage());
      loads.add(s.load());
      ends.add(s.endedBy());
    }
    assertEquals(
        List.of("coarse", "coarse", "bisect", "bisect", "bisect", "bisect", "hold"), stages);
    assertEquals(List.of(5L, 10L, 7.5, 6.25, 6.875, 7.188, 6.875), loads);
    // the levels that met it: every TTFT 20 ms, so the p95's interval [20, 20] is within 10% of
    // the bound once it has an upper order statistic, before 73 requests make the Wilson interval
    // clear of 0.95
    assertEquals(
        List.of(
            "percentiles_known",
            "attainment_below",
            "attainment_below",
            "percentiles_known",
            "percentiles_known",
            "attainment_below",
            "hold_over"),
        ends);
    assertTrue(c.hold().held());
    assertEquals(1.0, c.hold().attainment());
    assertNull(c.hold().drift());
    assertTrue(c.finished());
    assertNull(c.stoppedBy());
    assertEquals(7, heard.levels.size());
    assertTrue(heard.answer.startsWith("CAPACITY: 6.875 users/s meets the SLO"), heard.answer);
    assertTrue(heard.answer.contains("missed at 7.188 users/s"), heard.answer);
    assertTrue(heard.answer.contains("the SLO held"), heard.answer);
    assertTrue(heard.ok);
  }

  @Test
  void admittedArrivalsFollowTheLevelsRate() {
    CapacitySearch search = run(open(10, 2, 10, null), 7, new Heard());
    for (Capacity.Step s : search.toRecord("search_over", 0, null).levels()) {
      double offered = s.level().offeredRequestsPerS();
      assertEquals(s.load().doubleValue(), offered, 0.25, s.toString());
    }
  }

  @Test
  void aHealthyServerBelowCapacityIsNeverCalledOver() {
    // A/A: the server keeps up with every load searched: at least the highest, held there.
    Heard heard = new Heard();
    CapacitySearch search = run(open(5, 2, 10, 5.0), 100, heard);
    Capacity c = search.toRecord("search_over", 0, null);
    assertEquals(SearchPlan.AT_LEAST, c.edge());
    assertEquals(5L, c.maxRate());
    assertEquals(new Capacity.Interval(5L, null), c.interval());
    for (Capacity.Step s : c.levels()) {
      assertTrue(s.met(), s.toString());
    }
    assertTrue(c.hold().held());
    assertTrue(heard.answer.startsWith("CAPACITY: at least 5 users/s"), heard.answer);
    assertTrue(heard.ok);
  }

  @Test
  void missedAtTheLowestLevelIsBelowIt() {
    Heard heard = new Heard();
    CapacitySearch search = run(open(10, 4, 10, 2.0), 1, heard);
    Capacity c = search.toRecord("search_over", 0, null);
    assertEquals(SearchPlan.BELOW, c.edge());
    assertNull(c.maxRate());
    assertEquals(new Capacity.Interval(null, 2.5), c.interval());
    assertNull(c.hold());
    assertEquals(1, c.levels().size());
    assertFalse(c.levels().get(0).met());
    assertTrue(heard.answer.startsWith("CAPACITY: below 2.5 users/s"), heard.answer);
    assertFalse(heard.ok);
  }

  @Test
  void aRunStoppedInALevelSaysTheSearchDidNotFinish() {
    Heard heard = new Heard();
    CapacitySearch search =
        new CapacitySearch(open(10, 2, 10, null), TTFT_100, 0.95, 30_000, heard);
    for (long t = 1_000; t < 3_000; t += 100) {
      if (search.admitArrival("search", t)) {
        search.started(t);
        search.record(served(t, 20));
      }
      search.tick(t);
    }
    Capacity c = search.toRecord("target_down", 3_000, null);
    assertFalse(c.finished());
    assertEquals("target_down", c.stoppedBy());
    assertEquals("run_stopped", c.levels().get(0).endedBy());
    assertNull(c.levels().get(0).met());
    assertTrue(c.answer().contains("did not finish (the run ended: target_down)"), c.answer());
    assertNull(heard.answer);
  }

  @Test
  void aLevelWaitsForItsRequestsBeforeItIsJudged() {
    Heard heard = new Heard();
    CapacitySearch search =
        new CapacitySearch(open(10, 2, 10, null), TTFT_100, 0.95, 30_000, heard);
    List<Long> inFlight = new ArrayList<>();
    long t = 1_000;
    for (; t < 40_000 && heard.levels.isEmpty(); t += 100) {
      if (search.admitArrival("search", t)) {
        search.started(t);
        inFlight.add(t);
      }
      if (t >= 32_000) {
        for (long s : inFlight) {
          search.record(served(s, 20));
        }
        inFlight.clear();
      }
      search.tick(t);
    }
    // nothing ended before 32 s: the level ran to its longest (30 s, to 31 s), then waited for its
    // requests, which ended at 32 s
    assertTrue(t > 32_000, Long.toString(t));
    Capacity.Step first = search.toRecord("search_over", t, null).levels().get(0);
    assertEquals("max_duration", first.endedBy());
    assertTrue(first.met());
  }

  @Test
  void theWarmUpRunsAtTheLowestLoadAndIsNotJudged() {
    // a cold start: the first 3 s answer in 500 ms, then the server is healthy
    Heard heard = new Heard();
    CapacitySearch search =
        new CapacitySearch(
            new SearchSettings(false, 5, 2, 0.05, 10, 3, 20, 5, 30, 0.1, null),
            TTFT_100,
            0.95,
            30_000,
            heard);
    for (long t = 1_000; t < 1_000_000 && !search.over(); t += 100) {
      if (search.admitArrival("search", t)) {
        search.started(t);
        search.record(served(t, t < 4_000 ? 500 : 20));
      }
      search.tick(t);
    }
    Capacity c = search.toRecord("search_over", 0, null);
    Capacity.Step warmup = c.levels().get(0);
    assertEquals("warmup", warmup.stage());
    assertEquals(2.5, warmup.load());
    assertEquals("warmup_over", warmup.endedBy());
    assertNull(warmup.met());
    assertEquals(SearchPlan.AT_LEAST, c.edge());
    assertEquals(5L, c.maxRate());
    assertTrue(heard.levels.get(0).startsWith("capacity search warm-up (2.5 users/s)"));
  }

  @Test
  void aHoldOfTooFewRequestsBelowTheThresholdDoesNotMoveTheAnswerDown() {
    // the server serves every 10th request of the hold late (once the 2 levels were judged): 0.9
    // of a 5 s hold meets the SLO, whose 95% interval still reaches 0.95
    Heard heard = new Heard();
    CapacitySearch search =
        new CapacitySearch(
            new SearchSettings(false, 2, 2, 0.05, 5, 0, 20, 5, 30, 0.1, null),
            TTFT_100,
            0.95,
            30_000,
            heard);
    int n = 0;
    for (long t = 1_000; t < 1_000_000 && !search.over(); t += 100) {
      if (search.admitArrival("search", t)) {
        search.started(t);
        n++;
        boolean late = heard.levels.size() >= 2 && n % 10 == 0;
        search.record(served(t, late ? 500 : 20));
      }
      search.tick(t);
    }
    Capacity c = search.toRecord("search_over", 0, null);
    assertEquals(SearchPlan.AT_LEAST, c.edge());
    assertEquals(2L, c.maxRate());
    assertFalse(c.hold().held());
    assertTrue(c.hold().attainmentHigh() >= 0.95, c.hold().toString());
    assertTrue(heard.answer.contains("too few requests to say the load misses it"), heard.answer);
  }

  @Test
  void aHoldWhoseSecondHalfMissesSaysTheCapacityDrifted() {
    CapacitySearch.Level hold =
        new CapacitySearch.Level(
            0, new SearchPlan.Step(SearchPlan.Stage.HOLD, 5), 0, 10_000, TTFT_100);
    for (long t = 0; t < 10_000; t += 200) {
      hold.add(served(t, t < 5_000 ? 20 : 500), TTFT_100);
    }
    assertEquals(1.0, hold.halfAttainment(true));
    assertEquals(0.0, hold.halfAttainment(false));
    assertEquals(
        "capacity drifted during the hold: its first half met the SLO (attainment 1.000), its"
            + " second half did not (0.000)",
        hold.drift(0.95));
  }

  @Test
  void aHoldMissedThroughoutIsNoDrift() {
    CapacitySearch.Level hold =
        new CapacitySearch.Level(
            0, new SearchPlan.Step(SearchPlan.Stage.HOLD, 5), 0, 10_000, TTFT_100);
    for (long t = 0; t < 10_000; t += 200) {
      hold.add(served(t, 500), TTFT_100);
    }
    assertNull(hold.drift(0.95));
  }

  @Test
  void noSloIsRefusedNamingTheSettings() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new CapacitySearch(open(10, 2, 10, null), Slo.NONE, 0.95, 30_000, new Heard()));
    assertTrue(e.getMessage().startsWith("llm.search: "), e.getMessage());
    assertTrue(e.getMessage().contains("llm.slo.ttftMs"), e.getMessage());
  }

  @Test
  void staleMsIsTheLargestTimeBound() {
    assertEquals(100, CapacitySearch.staleMs(TTFT_100));
    assertEquals(2000, CapacitySearch.staleMs(new Slo(100.0, null, null, 2000.0)));
    assertEquals(Long.MAX_VALUE, CapacitySearch.staleMs(new Slo(null, 20.0, null, null)));
  }
}
