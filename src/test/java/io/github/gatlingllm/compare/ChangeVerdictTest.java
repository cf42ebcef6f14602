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

  @Test
  void floorRuleAWarmStretchOfBDoesNotHideADropBeyondAsFloor() {
    // The 4 users against 1: TTFT p50 -92.5% [-95.8%, -88.3%]; B's floor 369% because its
    // first stretch found warm prompts, A's 8%; every stretch of B far below every stretch of A.
    ChangeVerdict.Judged j =
        ChangeVerdict.judge(
            400.0,
            30.0,
            new double[] {-95.8, -88.3},
            2,
            8.0,
            369.0,
            new double[] {380, 400, 410},
            new double[] {8, 37.5, 36},
            true);

    assertEquals(ChangeVerdict.BETTER, j.verdict());
    assertEquals(
        "floor rule: the whole interval lies beyond A's floor 8.0%; B's floor 369.0% comes from"
            + " one stretch apart (its other stretches agree within 4.2%), and they lie below every"
            + " stretch of A (nearest -90.1%), so that stretch cannot have made the change",
        j.reason());
  }

  @Test
  void floorRuleNotWhenAStretchOfBOverlapsA() {
    // The same interval, but one stretch of B reads as A: the change may be that stretch's.
    ChangeVerdict.Judged j =
        ChangeVerdict.judge(
            400.0,
            30.0,
            new double[] {-95.8, -88.3},
            2,
            8.0,
            369.0,
            new double[] {380, 400, 410},
            new double[] {8, 37.5, 390},
            true);

    assertEquals(new ChangeVerdict.Judged(ChangeVerdict.UNCLEAR, null), j);
  }

  @Test
  void floorRuleNotWhenTheIntervalReachesTheSmallerFloor() {
    ChangeVerdict.Judged j =
        ChangeVerdict.judge(
            100.0,
            112.0,
            new double[] {6, 18},
            2,
            7.0,
            50.0,
            new double[] {98, 100, 102},
            new double[] {111, 112, 160},
            true);

    assertEquals(new ChangeVerdict.Judged(ChangeVerdict.UNCLEAR, null), j);
  }

  @Test
  void floorRuleNotForADriftAcrossTheRun() {
    // B drifts: left out any one stretch, the other two still differ by 14% or more.
    ChangeVerdict.Judged j =
        ChangeVerdict.judge(
            100.0,
            120.0,
            new double[] {10, 30},
            2,
            3.0,
            40.0,
            new double[] {99, 100, 102},
            new double[] {105, 120, 147},
            true);

    assertEquals(new ChangeVerdict.Judged(ChangeVerdict.UNCLEAR, null), j);
  }

  @Test
  void floorRuleNeedsTheNearestStretchesApartByMoreThanTheFloor() {
    // Interval beyond A's floor 3%, B's other stretches agree, but the nearest only +1.5% apart.
    ChangeVerdict.Judged j =
        ChangeVerdict.judge(
            100.0,
            120.0,
            new double[] {10, 30},
            2,
            3.0,
            40.0,
            new double[] {99, 100, 102},
            new double[] {103.5, 104, 160},
            true);

    assertEquals(new ChangeVerdict.Judged(ChangeVerdict.UNCLEAR, null), j);
  }

  @Test
  void floorRuleWhenAIsTheRunWithAStretchApart() {
    // A's first stretch was slow (a cold JVM): its floor 60%; B 20% faster in every stretch.
    ChangeVerdict.Judged j =
        ChangeVerdict.judge(
            100.0,
            80.0,
            new double[] {-28, -12},
            2,
            60.0,
            4.0,
            new double[] {160, 100, 101},
            new double[] {79, 80, 82},
            true);

    assertEquals(ChangeVerdict.BETTER, j.verdict());
    assertEquals(
        "floor rule: the whole interval lies beyond B's floor 4.0%; A's floor 60.0% comes from"
            + " one stretch apart (its other stretches agree within 1.0%), and they lie above every"
            + " stretch of B (nearest +22.0%), so that stretch cannot have made the change",
        j.reason());
  }

  @Test
  void aChangeBeyondBothFloorsNeedsNoRule() {
    assertEquals(
        new ChangeVerdict.Judged(ChangeVerdict.WORSE, null),
        ChangeVerdict.judge(
            100.0,
            150.0,
            new double[] {40, 60},
            2,
            5.0,
            10.0,
            new double[] {100},
            new double[] {150},
            true));
  }
}
