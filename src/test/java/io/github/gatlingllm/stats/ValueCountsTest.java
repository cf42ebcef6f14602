package io.github.gatlingllm.stats;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ValueCountsTest {

  @Test
  void countsEachDistinctValueInAscendingOrder() {
    ValueCounts c = new ValueCounts();
    for (long v : new long[] {2517, 250, 2517, 34000, 250, 2517}) {
      c.add(v);
    }
    List<String> seen = new ArrayList<>();
    c.forEach((v, n) -> seen.add(v + "x" + n));
    assertEquals(List.of("250x2", "2517x3", "34000x1"), seen);
    assertEquals(6, c.total());
    assertEquals(250, c.min());
    assertEquals(34000, c.max());
    assertTrue(c.exact());
  }

  @Test
  void nearestRankIsTheSmallestValueWithAtLeastThatShareAtOrBelowIt() {
    ValueCounts c = new ValueCounts();
    for (long v = 1; v <= 10; v++) {
      c.add(v * 1000);
    }
    assertEquals(5000, c.atRank(0.5));
    assertEquals(9000, c.atRank(0.9));
    assertEquals(10000, c.atRank(0.99));
    assertEquals(1000, c.atRank(0.01));
  }

  @Test
  void nearestRankOfNothingIsMinValue() {
    assertEquals(Long.MIN_VALUE, new ValueCounts().atRank(0.5));
  }

  @Test
  void growingTheTableKeepsEveryCount() {
    ValueCounts c = new ValueCounts(ValueCounts.EXACT_LIMIT, 3, 4);
    for (long v = 0; v < 10_000; v++) {
      c.add(v * 7, v % 3 + 1);
    }
    long[] sum = {0};
    long[] distinct = {0};
    c.forEach(
        (v, n) -> {
          assertEquals(v / 7 % 3 + 1, n);
          sum[0] += n;
          distinct[0]++;
        });
    assertEquals(10_000, distinct[0]);
    assertEquals(c.total(), sum[0]);
    assertEquals(35_000, c.atRank(0.5));
  }

  @Test
  void beyondTheLimitValuesMoveToAHistogramOfTheGivenDigits() {
    ValueCounts c = new ValueCounts(4, 3, 4);
    for (long v : new long[] {1000, 2000, 3000, 4000, 123_456}) {
      c.add(v);
    }
    assertFalse(c.exact());
    assertEquals(5, c.total());
    assertEquals(1000, c.min());
    assertEquals(123_456, c.max());
    // 3 significant digits: 0.1% or better.
    assertEquals(123_456, c.atRank(1.0), 123_456 * 0.001);
    assertEquals(3000, c.atRank(0.6), 3);
  }

  @Test
  void withNoDigitsTheCountsAreDroppedBeyondTheLimit() {
    ValueCounts c = new ValueCounts(2, 0, 4);
    c.add(1);
    c.add(2);
    assertTrue(c.exact());
    c.add(3);
    assertFalse(c.exact());
    assertEquals(3, c.total());
    assertThrows(IllegalStateException.class, () -> c.forEach((v, n) -> {}));
  }

  @Test
  void aNegativeValueCountsAsZero() {
    ValueCounts c = new ValueCounts();
    c.add(-5);
    assertEquals(0, c.min());
  }

  @Test
  void aValueBeyondAnIntKeepsEveryCountExact() {
    ValueCounts c = new ValueCounts(ValueCounts.EXACT_LIMIT, 3, 4);
    c.add(5, 2);
    c.add(7);
    c.add(Integer.MAX_VALUE);
    c.add(5_000_000_000L, 3);
    c.add(5);
    List<String> seen = new ArrayList<>();
    c.forEach((v, n) -> seen.add(v + "x" + n));
    assertEquals(List.of("5x3", "7x1", "2147483647x1", "5000000000x3"), seen);
    assertTrue(c.exact());
    assertEquals(5_000_000_000L, c.atRank(0.9));
  }

  @Test
  void aCountBeyondAnIntKeepsCounting() {
    ValueCounts c = new ValueCounts();
    c.add(3, Integer.MAX_VALUE);
    c.add(3, 5);
    c.add(4);
    List<String> seen = new ArrayList<>();
    c.forEach((v, n) -> seen.add(v + "x" + n));
    assertEquals(List.of("3x2147483652", "4x1"), seen);
  }

  @Test
  void readingTheCountsMidwayKeepsCountingExactly() {
    ValueCounts c = new ValueCounts(ValueCounts.EXACT_LIMIT, 3, 4);
    c.add(30);
    c.add(10);
    assertEquals(30, c.atRank(1.0));
    c.add(20, 2);
    c.add(10);
    List<String> seen = new ArrayList<>();
    c.forEach((v, n) -> seen.add(v + "x" + n));
    assertEquals(List.of("10x2", "20x2", "30x1"), seen);
  }

  @Test
  void aZeroValueIsCountedInTheNarrowTable() {
    ValueCounts c = new ValueCounts(2, 0, 4);
    c.add(0);
    c.add(0);
    c.add(1);
    assertEquals(0, c.atRank(0.5));
    assertTrue(c.exact());
    c.add(2);
    assertFalse(c.exact());
  }
}
