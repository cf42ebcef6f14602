package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class DecimalsTest {

  @Test
  void microsecondsPrintWithAtMostThreeDecimals() {
    assertEquals("2.517", Decimals.shortest(2.517));
  }

  @Test
  void sumsWithFloatingPointErrorPrintAsTheirValue() {
    assertEquals("2.5170000000000003", Double.toString(2.5170000000000003));
    assertEquals("2.5170000000000003", Decimals.shortest(2.5170000000000003));
    assertEquals("2.517", Decimals.ms(2.5170000000000003));
  }

  @Test
  void wholeNumbersHaveNoPoint() {
    assertEquals("34", Decimals.shortest(34.0));
    assertEquals("0", Decimals.shortest(0.0));
    assertEquals("0", Decimals.shortest(-0.0));
  }

  @Test
  void trailingZerosAreLeftOut() {
    assertEquals("0.25", Decimals.shortest(0.25));
    assertEquals("0.5", Decimals.shortest(0.5));
    assertEquals("0.001", Decimals.shortest(0.001));
    assertEquals("0.012", Decimals.shortest(0.012));
    assertEquals("1000.1", Decimals.shortest(1000.1));
  }

  @Test
  void largeTimesHaveNoExponent() {
    assertEquals("1.0E7", Double.toString(10_000_000.0));
    assertEquals("10000000", Decimals.shortest(10_000_000.0));
    assertEquals("12345678.901", Decimals.shortest(12_345_678.901));
    assertEquals("1000000000000.5", Decimals.shortest(1_000_000_000_000.5));
  }

  @Test
  void otherNumbersKeepTheirDigitsWithoutExponent() {
    assertEquals("29.126213592233007", Decimals.shortest(29.126213592233007));
    assertEquals("0.0001", Decimals.shortest(0.0001));
    assertEquals("0.00000125", Decimals.shortest(0.00000125));
  }

  @Test
  void negativeNumbers() {
    assertEquals("-2.517", Decimals.shortest(-2.517));
    assertEquals("-0.017", Decimals.ms(-0.017000000000000348));
  }

  @Test
  void msRoundsToTheMicrosecondHalfUp() {
    assertEquals("2.517", Decimals.ms(2.5173333333333336));
    assertEquals("2.518", Decimals.ms(2.5175));
    assertEquals("8.333", Decimals.ms(8.333333333333334));
    assertEquals("34", Decimals.ms(34.0004));
  }
}
