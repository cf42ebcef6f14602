package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class StartBarrierTest {

  /** A clock that moves only when the barrier sleeps. */
  private static final class FakeTime {
    long now;
    final List<Long> sleeps = new ArrayList<>();

    FakeTime(long now) {
      this.now = now;
    }

    void sleep(long ms) {
      sleeps.add(ms);
      now += Math.min(ms, 700);
    }
  }

  @Test
  void waitsUntilTheBarrier() {
    FakeTime time = new FakeTime(1_000_000);
    long late = StartBarrier.await(1_002_000, "shard 0/2", () -> time.now, time::sleep);
    assertEquals(0, late);
    assertEquals(1_002_000, time.now);
    assertEquals(List.of(2_000L, 1_300L, 600L), time.sleeps);
  }

  @Test
  void aPassedBarrierStartsAtOnceAndSaysHowLate() {
    FakeTime time = new FakeTime(1_005_000);
    assertEquals(5_000, StartBarrier.await(1_000_000, "shard 1/2", () -> time.now, time::sleep));
    assertEquals(List.of(), time.sleeps);
  }

  @Test
  void aBarrierMoreThanAnHourAheadIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StartBarrier.check(1_700_000_000_000L + 2 * 3_600_000, 1_700_000_000_000L));
    assertEquals(
        "llm.startAt: 1700007200000 (2023-11-15T00:13:20Z) is 120 min ahead, more than 60 min:"
            + " expected epoch milliseconds near now, e.g. $(( $(date +%s) * 1000 + 60000 )) for a"
            + " minute from now",
        e.getMessage());
  }

  @Test
  void secondsForMillisecondsAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> StartBarrier.check(1_700_000_060L, 1_700_000_000_000L));
    assertEquals(
        "llm.startAt: 1700000060 (1970-01-20T16:13:20.060Z) is 28304999 min past, more than 60"
            + " min: expected epoch milliseconds near now, e.g. $(( $(date +%s) * 1000 + 60000 ))"
            + " for a minute from now",
        e.getMessage());
  }

  @Test
  void aBarrierWithinTheHourIsAllowed() {
    StartBarrier.check(1_700_000_000_000L + 3_600_000, 1_700_000_000_000L);
    StartBarrier.check(1_700_000_000_000L - 3_600_000, 1_700_000_000_000L);
  }

  @Test
  void unsetIsNoBarrier() {
    assertNull(StartBarrier.startAt(new Properties()));
  }

  @Test
  void aBarrierIsEpochMilliseconds() {
    Properties p = new Properties();
    p.setProperty("llm.startAt", " 1700000000000 ");
    assertEquals(1_700_000_000_000L, StartBarrier.startAt(p));
  }

  @Test
  void aBarrierThatIsNoNumberIsRefused() {
    Properties p = new Properties();
    p.setProperty("llm.startAt", "now");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> StartBarrier.startAt(p));
    assertEquals(
        "llm.startAt: got \"now\", expected epoch milliseconds, e.g. $(( $(date +%s) * 1000 +"
            + " 60000 )) for a minute from now",
        e.getMessage());
  }
}
