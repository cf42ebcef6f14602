package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.stats.Distribution;
import java.util.List;
import org.junit.jupiter.api.Test;

class ScheduleLagTest {

  @Test
  void percentilesAreByNearestRankInMicroseconds() {
    ScheduleLag lag = new ScheduleLag();
    for (int i = 1; i <= 100; i++) {
      lag.add(1_000 + i, i * 0.5);
    }
    assertEquals(
        new Distribution(100, 25.25, 0.5, 25.0, 45.0, 47.5, 49.5, 50.0), lag.distribution());
    // the live estimate is the histogram's: the top of 49.5's bucket at 3 significant digits
    assertEquals(49.503, lag.p99Estimate());
  }

  @Test
  void aLagBeforeTheScheduleCountsAsZero() {
    ScheduleLag lag = new ScheduleLag();
    lag.add(1_000, -0.4);
    lag.add(1_001, 1.25);
    assertEquals(new Distribution(2, 0.625, 0.0, 0.0, 1.25, 1.25, 1.25, 1.25), lag.distribution());
  }

  @Test
  void aWindowTakesTheRequestsSentInIt() {
    ScheduleLag lag = new ScheduleLag();
    lag.add(999.5, 100);
    lag.add(1_000, 1);
    lag.add(1_500.25, 3);
    lag.add(2_000, 200);
    assertEquals(
        new Distribution(2, 2.0, 1.0, 1.0, 3.0, 3.0, 3.0, 3.0), lag.distribution(1_000, 2_000));
    assertEquals(Distribution.EMPTY, lag.distribution(3_000, 4_000));
  }

  @Test
  void lagsWrittenToTheSpillFileCountInEveryWindowAsLagsInMemory() {
    ScheduleLag spilled = new ScheduleLag(3);
    ScheduleLag kept = new ScheduleLag(1_000);
    for (int i = 0; i < 20; i++) {
      double sent = 1_000 + i * 100.5;
      double l = (i * 37 % 11) * 0.25 - 0.125;
      spilled.add(sent, l);
      kept.add(sent, l);
    }
    assertEquals(20, spilled.count());
    assertEquals(kept.distribution(), spilled.distribution());
    assertEquals(kept.distribution(1_201, 2_206), spilled.distribution(1_201, 2_206));
    assertEquals(
        new Distribution(10, 1.163, 0.0, 1.125, 2.125, 2.375, 2.375, 2.375),
        spilled.distribution(1_201, 2_206));
  }

  @Test
  void noLagHasNoEstimate() {
    assertNull(new ScheduleLag().p99Estimate());
    assertEquals(Distribution.EMPTY, new ScheduleLag().distribution());
  }

  @Test
  void onlyRecordsWithAScheduleCount() {
    RequestRecord first = record(1_000.5, 998.25);
    RequestRecord later = record(1_200.0, null);
    ScheduleLag lag = ScheduleLag.of(List.of(first, later));
    assertEquals(1, lag.count());
    assertEquals(2.25, lag.distribution().max());
  }

  @Test
  void aLagIsTheSendTimeMinusTheScheduleToTheMicrosecond() {
    assertEquals(2.25, record(1_796_400_000_123.456, 1_796_400_000_121.206).scheduleLagMs());
    assertNull(record(1_000.0, null).scheduleLagMs());
  }

  @Test
  void aScheduleWithoutASendTimeIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> record(null, 5.0));
    assertEquals("scheduled_ms is set but sent_ms is null", e.getMessage());
  }

  @Test
  void aNonFiniteLagIsRefused() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new ScheduleLag().add(1, Double.NaN));
    assertEquals("schedule lag needs finite times, got sent 1.0, lag NaN", e.getMessage());
  }

  private static RequestRecord record(Double sentMs, Double scheduledMs) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(1_000)
        .e2eMs(10.0)
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build()
        .withSchedule(sentMs, scheduledMs);
  }

  @Test
  void lagsOverABoundAreCountedExactlyAcrossTheSpillFile() {
    ScheduleLag lags = new ScheduleLag(2);
    lags.add(1_000.0, 94.0);
    lags.add(1_001.0, 10.0);
    lags.add(1_002.0, 10.001);
    lags.add(1_003.0, 48.0);
    lags.add(1_004.0, -0.5);
    assertEquals(3, lags.countOver(10));
    assertEquals(2, lags.countOver(47.999));
    assertEquals(0, lags.countOver(94));
    assertEquals(2, lags.countOverEstimate(47));
  }
}
