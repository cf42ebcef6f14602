package io.github.gatlingllm.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import org.junit.jupiter.api.Test;

class BootstrapTest {

  @Test
  void p99OfFiveHundredValuesIsTailed() {
    assertEquals(true, Bootstrap.tailed(99, 500));
  }

  @Test
  void p99OfFourHundredNinetyNineValuesIsNot() {
    assertEquals(false, Bootstrap.tailed(99, 499));
  }

  @Test
  void p90OfFiftyValuesIsTailed() {
    assertEquals(true, Bootstrap.tailed(90, 50));
  }

  @Test
  void theIntervalIsTheTailsOfTheChangeInPercent() {
    double[] a = new double[41];
    double[] b = new double[41];
    for (int i = 0; i < 41; i++) {
      a[i] = 100;
      b[i] = 100 + i;
    }

    // 41 changes 0%..40%: index floor(0.025 * 40) = 1 and ceil(0.975 * 40) = 39.
    assertArrayEquals(new double[] {1, 39}, Bootstrap.interval(a, b), 1e-9);
  }

  @Test
  void tooManyZerosInAHaveNoInterval() {
    double[] a = {0, 0, 100, 100, 100, 100, 100, 100, 100, 100};
    double[] b = {1, 1, 1, 1, 1, 1, 1, 1, 1, 1};

    assertNull(Bootstrap.interval(a, b));
  }
}
