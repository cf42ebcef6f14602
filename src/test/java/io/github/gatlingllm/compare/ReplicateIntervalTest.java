package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class ReplicateIntervalTest {

  @Test
  void threeRunsASideGiveWelchsIntervalInPercentOfAsMean() {
    // Means 12 and 22, variances 4 and 4: se = sqrt(8/3) = 1.632993, df = 4, t = 2.776445.
    double[] ci = ReplicateInterval.changePct(new double[] {10, 12, 14}, new double[] {20, 22, 24});

    assertArrayEquals(new double[] {45.5506, 121.1161}, ci, 1e-3);
  }

  @Test
  void unequalSpreadsTakeWelchSatterthwaitesDegreesOfFreedom() {
    // A: mean 100, variance 1; B: mean 110, variance 100. qa = 1/3, qb = 100/3;
    // df = (101/3)^2 / ((1/3)^2/2 + (100/3)^2/2) = 2.0400; t(0.975, 2.0400) = 4.2228.
    double[] ci =
        ReplicateInterval.changePct(new double[] {99, 100, 101}, new double[] {100, 110, 120});

    assertArrayEquals(new double[] {-14.5020, 34.5020}, ci, 1e-3);
  }

  @Test
  void oneRunNoisierThanTheOthersWidensTheInterval() {
    double[] quiet =
        ReplicateInterval.changePct(new double[] {50, 51, 49}, new double[] {50, 51, 49});
    double[] noisy =
        ReplicateInterval.changePct(new double[] {50, 51, 49}, new double[] {50, 51, 78});

    assertArrayEquals(new double[] {-4.5339, 4.5339}, quiet, 1e-3);
    assertArrayEquals(new double[] {-59.1511, 97.8177}, noisy, 1e-3);
  }

  @Test
  void oneRunOnASideTakesTheOtherSidesSpread() {
    // A: 10, 12, 14 (s = 2, df = 2, t = 4.302653); B: one run at 16.
    // se = 2 sqrt(1/3 + 1) = 2.309401; d = 4; half = 9.936576.
    double[] ci = ReplicateInterval.changePct(new double[] {10, 12, 14}, new double[] {16});

    assertArrayEquals(new double[] {-49.4713, 116.1379}, ci, 1e-3);
  }

  @Test
  void oneRunEachHasNoBetweenRunInterval() {
    assertNull(ReplicateInterval.changePct(new double[] {10}, new double[] {12}));
  }

  @Test
  void identicalRunsGiveTheChangeItself() {
    assertArrayEquals(
        new double[] {20, 20},
        ReplicateInterval.changePct(new double[] {10, 10}, new double[] {12, 12}),
        1e-9);
  }

  @Test
  void theQuantileIsStudentsT() {
    assertEquals(4.302653, ReplicateInterval.t975(2), 1e-6);
    assertEquals(2.776445, ReplicateInterval.t975(4), 1e-6);
  }
}
