package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class VerdictTest {

  @Test
  void lowerLatencyBeyondTheMinimumEffectIsBetter() {
    assertEquals(Verdict.BETTER, Verdict.of(new double[] {-9, -3}, 2, true));
  }

  @Test
  void higherLatencyBeyondTheMinimumEffectIsWorse() {
    assertEquals(Verdict.WORSE, Verdict.of(new double[] {2.5, 9}, 2, true));
  }

  @Test
  void higherThroughputBeyondTheMinimumEffectIsBetter() {
    assertEquals(Verdict.BETTER, Verdict.of(new double[] {2.5, 9}, 2, false));
  }

  @Test
  void lowerThroughputBeyondTheMinimumEffectIsWorse() {
    assertEquals(Verdict.WORSE, Verdict.of(new double[] {-9, -3}, 2, false));
  }

  @Test
  void anIntervalWithinTheMinimumEffectIsSame() {
    assertEquals(Verdict.SAME, Verdict.of(new double[] {-1.5, 2}, 2, true));
  }

  @Test
  void anIntervalAcrossTheMinimumEffectIsUnclear() {
    assertEquals(Verdict.UNCLEAR, Verdict.of(new double[] {1, 6}, 2, true));
  }

  @Test
  void noIntervalIsUnclear() {
    assertEquals(Verdict.UNCLEAR, Verdict.of(null, 2, true));
  }
}
