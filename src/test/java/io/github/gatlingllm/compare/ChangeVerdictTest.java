package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class ChangeVerdictTest {

  @Test
  void lowerLatencyBeyondTheMinimumEffectIsBetter() {
    assertEquals(ChangeVerdict.BETTER, ChangeVerdict.of(new double[] {-9, -3}, 2, true));
  }

  @Test
  void higherLatencyBeyondTheMinimumEffectIsWorse() {
    assertEquals(ChangeVerdict.WORSE, ChangeVerdict.of(new double[] {2.5, 9}, 2, true));
  }

  @Test
  void higherThroughputBeyondTheMinimumEffectIsBetter() {
    assertEquals(ChangeVerdict.BETTER, ChangeVerdict.of(new double[] {2.5, 9}, 2, false));
  }

  @Test
  void lowerThroughputBeyondTheMinimumEffectIsWorse() {
    assertEquals(ChangeVerdict.WORSE, ChangeVerdict.of(new double[] {-9, -3}, 2, false));
  }

  @Test
  void anIntervalWithinTheMinimumEffectIsSame() {
    assertEquals(ChangeVerdict.SAME, ChangeVerdict.of(new double[] {-1.5, 2}, 2, true));
  }

  @Test
  void anIntervalAcrossTheMinimumEffectIsUnclear() {
    assertEquals(ChangeVerdict.UNCLEAR, ChangeVerdict.of(new double[] {1, 6}, 2, true));
  }

  @Test
  void noIntervalIsUnclear() {
    assertEquals(ChangeVerdict.UNCLEAR, ChangeVerdict.of(null, 2, true));
  }

  @Test
  void identicalValuesAreSameWithoutAnInterval() {
    assertEquals(ChangeVerdict.SAME, ChangeVerdict.of(64.911, 64.911, null, 2, 0, true));
  }

  @Test
  void identicalValuesAreSameWhateverTheInterval() {
    assertEquals(
        ChangeVerdict.SAME,
        ChangeVerdict.of(0.476, 0.476, new double[] {-12, 13.6}, 2, 8.7, false));
  }

  @Test
  void differentValuesWithoutAnIntervalAreUnclear() {
    assertEquals(ChangeVerdict.UNCLEAR, ChangeVerdict.of(64.911, 65.02, null, 2, 0, true));
  }

  @Test
  void aChangeBeyondTheMinimumEffectButWithinTheNoiseFloorIsUnclear() {
    assertEquals(
        ChangeVerdict.UNCLEAR,
        ChangeVerdict.of(30.0, 38.0, new double[] {7.4, 35.3}, 2, 38.2, true));
  }

  @Test
  void aChangeBeyondTheNoiseFloorIsWorse() {
    assertEquals(
        ChangeVerdict.WORSE, ChangeVerdict.of(20.0, 24.0, new double[] {19.6, 20.2}, 2, 3.7, true));
  }

  @Test
  void aThroughputDropBeyondTheNoiseFloorIsWorse() {
    assertEquals(
        ChangeVerdict.WORSE,
        ChangeVerdict.of(331.2, 276.0, new double[] {-19.1, -14.2}, 2, 3.4, false));
  }

  @Test
  void sameIsJudgedAgainstTheMinimumEffectNotTheNoiseFloor() {
    assertEquals(
        ChangeVerdict.SAME, ChangeVerdict.of(340.8, 341.0, new double[] {-0.5, 0.6}, 2, 25, true));
    assertEquals(
        ChangeVerdict.UNCLEAR,
        ChangeVerdict.of(340.8, 345.0, new double[] {-3.1, 4.2}, 2, 25, true));
  }

  @Test
  void aNoiseFloorBelowTheMinimumEffectChangesNothing() {
    assertEquals(
        ChangeVerdict.WORSE, ChangeVerdict.of(100.0, 103.0, new double[] {2.5, 3.5}, 2, 0.5, true));
  }
}
