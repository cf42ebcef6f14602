package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.time.Duration;
import org.junit.jupiter.api.Test;

class DurationTextTest {

  private static String refusal(String text) {
    return assertThrows(
            IllegalArgumentException.class, () -> DurationText.parse(text, "60s, 500ms or 2m"))
        .getMessage();
  }

  private static final String NOT_A_DURATION =
      "a duration such as 60s, 500ms or 2m (a bare number is seconds)";

  @Test
  void unitsAndABareNumberOfSeconds() {
    assertEquals(Duration.ofMillis(500), DurationText.parse("500ms", "x"));
    assertEquals(Duration.ofMillis(1500), DurationText.parse("1.5s", "x"));
    assertEquals(Duration.ofMinutes(2), DurationText.parse("2m", "x"));
    assertEquals(Duration.ofSeconds(5), DurationText.parse("5", "x"));
  }

  @Test
  void caseAndSpacesAreIgnored() {
    assertEquals(Duration.ofSeconds(10), DurationText.parse(" 10 S ", "x"));
  }

  @Test
  void aFractionOfAMinute() {
    assertEquals(Duration.ofSeconds(90), DurationText.parse("1.5m", "x"));
  }

  @Test
  void anExponent() {
    assertEquals(Duration.ofSeconds(1000), DurationText.parse("1e3", "x"));
  }

  @Test
  void aNegativeDurationIsReadForTheSettingToRefuse() {
    assertEquals(Duration.ofSeconds(-5), DurationText.parse("-5s", "x"));
  }

  @Test
  void javasDaySuffixIsNotSeconds() {
    // Double.parseDouble("1d") is 1.0: "1d" was one second.
    assertEquals(NOT_A_DURATION, refusal("1d"));
  }

  @Test
  void javasFloatSuffixIsRefused() {
    assertEquals(NOT_A_DURATION, refusal("10f"));
  }

  @Test
  void notANumberIsRefused() {
    // Math.round(NaN) was 0: refused as "0ms", a value the user never typed.
    assertEquals(NOT_A_DURATION, refusal("NaNs"));
  }

  @Test
  void infinityIsRefused() {
    assertEquals(NOT_A_DURATION, refusal("Infinity"));
  }

  @Test
  void hexadecimalIsRefused() {
    assertEquals(NOT_A_DURATION, refusal("0x1p4"));
  }

  @Test
  void hoursAreRefused() {
    assertEquals(NOT_A_DURATION, refusal("1h"));
  }

  @Test
  void moreMillisecondsThanALongHoldsAreRefused() {
    assertEquals(
        "a duration of at most 9223372036854775807ms (a bare number is seconds)",
        refusal("99999999999999999m"));
  }
}
