package io.github.gatlingllm.capacity;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.capacity.LevelPrecision.Interval;
import io.github.gatlingllm.capacity.LevelPrecision.Known;
import io.github.gatlingllm.capacity.LevelPrecision.Percentile;
import io.github.gatlingllm.capacity.LevelPrecision.Reason;
import io.github.gatlingllm.capacity.LevelPrecision.Rules;
import org.junit.jupiter.api.Test;

class LevelPrecisionTest {

  private static final Rules RULES = new Rules(0.95, 20, 5_000, 60_000, 0.1);

  @Test
  void wilsonOf95In100() {
    Interval i = LevelPrecision.wilson(95, 100, LevelPrecision.Z95);
    assertEquals(0.88825, i.low(), 1e-5);
    assertEquals(0.97846, i.high(), 1e-5);
  }

  @Test
  void wilsonOfAllMetStaysBelowOne() {
    Interval i = LevelPrecision.wilson(100, 100, LevelPrecision.Z95);
    assertEquals(0.96301, i.low(), 1e-5);
    assertEquals(1.0, i.high(), 1e-12);
  }

  @Test
  void wilsonOfNoneMetStartsAtZero() {
    Interval i = LevelPrecision.wilson(0, 20, LevelPrecision.Z95);
    assertEquals(0.0, i.low(), 1e-12);
    assertEquals(0.16113, i.high(), 1e-5);
  }

  @Test
  void wilsonRefusesMoreSuccessesThanTrials() {
    assertThrows(IllegalArgumentException.class, () -> LevelPrecision.wilson(5, 4, 1.96));
  }

  @Test
  void medianOf100IsBetweenThe40thAnd61stValues() {
    assertArrayEquals(new int[] {40, 61}, LevelPrecision.quantileRanks(100, 0.5, 0.05));
  }

  @Test
  void p95Of100IsBetweenThe90thAndTheLargest() {
    assertArrayEquals(new int[] {90, 100}, LevelPrecision.quantileRanks(100, 0.95, 0.05));
  }

  @Test
  void p95Of59HasNoUpperOrderStatistic() {
    assertArrayEquals(new int[] {52, 60}, LevelPrecision.quantileRanks(59, 0.95, 0.05));
  }

  @Test
  void p95Of1000() {
    assertArrayEquals(new int[] {936, 964}, LevelPrecision.quantileRanks(1000, 0.95, 0.05));
  }

  @Test
  void quantileIntervalTakesTheOrderStatistics() {
    double[] values = new double[10];
    for (int i = 0; i < 10; i++) {
      values[i] = 10 - i; // 10, 9, ..., 1: sorted inside
    }
    Interval i = LevelPrecision.quantileInterval(values, 0.5);
    assertEquals(new Interval(2, 9), i);
  }

  @Test
  void quantileIntervalOfTooFewValuesIsUnknown() {
    assertNull(LevelPrecision.quantileInterval(new double[] {1, 2, 3}, 0.95));
  }

  @Test
  void aLevelAtItsLongestEnds() {
    assertEquals(
        Reason.MAX_DURATION, LevelPrecision.judge(new Known(60_000, 3, 1, 0, null), RULES));
  }

  @Test
  void aLevelBeforeItsMinimumTimeGoesOn() {
    assertEquals(Reason.CONTINUE, LevelPrecision.judge(new Known(4_999, 500, 500, 0, null), RULES));
  }

  @Test
  void aLevelBeforeItsMinimumRequestsGoesOn() {
    assertEquals(Reason.CONTINUE, LevelPrecision.judge(new Known(10_000, 19, 0, 0, null), RULES));
  }

  @Test
  void seventyThreeOfSeventyThreeAreClearAbove95() {
    assertEquals(
        Reason.ATTAINMENT_ABOVE, LevelPrecision.judge(new Known(5_000, 73, 73, 0, null), RULES));
  }

  @Test
  void seventyTwoOfSeventyTwoAreNotYetClear() {
    assertEquals(Reason.CONTINUE, LevelPrecision.judge(new Known(5_000, 72, 72, 0, null), RULES));
  }

  @Test
  void staleRequestsInFlightCountAsMissedForTheTestAbove() {
    // 73 met, but 2 requests older than the SLO's bound still in flight: 73 of 75
    assertEquals(Reason.CONTINUE, LevelPrecision.judge(new Known(5_000, 73, 73, 2, null), RULES));
  }

  @Test
  void tenOfTwentyAreClearBelow95() {
    assertEquals(
        Reason.ATTAINMENT_BELOW, LevelPrecision.judge(new Known(5_000, 20, 10, 0, null), RULES));
  }

  @Test
  void staleRequestsInFlightCountAsMetForTheTestBelow() {
    // 10 of 20 ended met, 40 stale: at best 50 of 60, whose Wilson upper end 0.91 is below 0.95
    assertEquals(
        Reason.ATTAINMENT_BELOW, LevelPrecision.judge(new Known(5_000, 20, 10, 40, null), RULES));
    // 19 of 20 met, 5 stale: at best 24 of 25, not clear of 0.95 either way
    assertEquals(Reason.CONTINUE, LevelPrecision.judge(new Known(5_000, 20, 19, 5, null), RULES));
  }

  @Test
  void percentilesKnownWithinTheMarginEndTheLevel() {
    Percentile ttft = new Percentile("ttft", new Interval(90, 99), 100);
    assertEquals(
        Reason.PERCENTILES_KNOWN,
        LevelPrecision.judge(new Known(5_000, 40, 38, 0, new Percentile[] {ttft}), RULES));
  }

  @Test
  void aPercentileWiderThanTheMarginGoesOn() {
    Percentile ttft = new Percentile("ttft", new Interval(90, 101), 100);
    assertEquals(
        Reason.CONTINUE,
        LevelPrecision.judge(new Known(5_000, 40, 38, 0, new Percentile[] {ttft}), RULES));
  }

  @Test
  void anUnknownPercentileGoesOn() {
    Percentile ttft = new Percentile("ttft", new Interval(90, 95), 100);
    Percentile e2e = new Percentile("e2e", null, 1000);
    assertEquals(
        Reason.CONTINUE,
        LevelPrecision.judge(new Known(5_000, 40, 38, 0, new Percentile[] {ttft, e2e}), RULES));
  }

  @Test
  void percentilesSayNothingWhileRequestsAreStale() {
    Percentile ttft = new Percentile("ttft", new Interval(90, 99), 100);
    assertEquals(
        Reason.CONTINUE,
        LevelPrecision.judge(new Known(5_000, 40, 38, 1, new Percentile[] {ttft}), RULES));
  }

  @Test
  void reasonsHaveTheirRecordNames() {
    assertEquals("attainment_above", Reason.ATTAINMENT_ABOVE.wireName());
    assertEquals("percentiles_known", Reason.PERCENTILES_KNOWN.wireName());
  }
}
