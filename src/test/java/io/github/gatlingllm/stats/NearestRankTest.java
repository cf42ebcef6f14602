package io.github.gatlingllm.stats;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class NearestRankTest {

  @Test
  void theMedianOfFourIsTheSecond() {
    assertEquals(1, NearestRank.rank(50, 4));
  }

  @Test
  void p99OfAHundredIsTheNinetyNinth() {
    assertEquals(98, NearestRank.rank(99, 100));
  }

  @Test
  void p0IsTheLeast() {
    assertEquals(0, NearestRank.rank(0, 10));
  }

  @Test
  void p100IsTheMost() {
    assertEquals(9, NearestRank.rank(100, 10));
  }

  @Test
  void selectFindsTheKthSmallestOfTheFirstValuesOnly() {
    double[] values = {5, 1, 4, 2, 3, -100};

    assertEquals(3.0, NearestRank.select(values, 5, 2));
  }

  @Test
  void selectKeepsTies() {
    assertEquals(2.0, NearestRank.select(new double[] {2, 2, 2, 1}, 4, 2));
  }

  @Test
  void percentileIsTheSelectOfTheRank() {
    assertEquals(40.0, NearestRank.percentile(new double[] {50, 10, 40, 20, 30}, 5, 80));
  }

  @Test
  void percentilesAreTakenFromASortedCopy() {
    double[] values = {50, 10, 40, 20, 30};

    assertArrayEquals(
        new double[] {10, 30, 50}, NearestRank.percentiles(values, List.of(0.0, 50.0, 100.0)));
    assertArrayEquals(new double[] {50, 10, 40, 20, 30}, values);
  }
}
