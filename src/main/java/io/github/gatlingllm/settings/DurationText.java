package io.github.gatlingllm.settings;

import java.math.BigDecimal;
import java.math.RoundingMode;
import java.time.Duration;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Not API. The text of a duration setting ({@code llm.timeout}, {@code llm.metricsInterval}, {@code
 * llm.sweep.levelDuration}, {@code llm.sweep.ramp}): a decimal number, optionally signed, then
 * {@code ms}, {@code s} or {@code m}, or no unit for seconds ({@code 500ms}, {@code 1.5s}, {@code
 * 2m}, {@code 60}, {@code 1e3ms}); case and spaces around the number and the unit are ignored.
 * Nothing else: not {@code NaN} or {@code Infinity}, not Java's {@code 10d} or {@code 10f} number
 * suffixes ({@code 1d} is not one second, nor a day), not hexadecimal, and no more milliseconds
 * than a {@code long} holds. Each setting checks its own range after.
 */
public final class DurationText {

  private static final Pattern TEXT =
      Pattern.compile("(-?[0-9]+(?:\\.[0-9]+)?(?:e[-+]?[0-9]{1,4})?)\\s*(ms|s|m)?");

  private static final BigDecimal MAX_MILLIS = BigDecimal.valueOf(Long.MAX_VALUE);

  private DurationText() {}

  /**
   * Reads a duration's text.
   *
   * @param text the text, never null
   * @param example the examples a refusal gives, e.g. {@code "60s, 500ms or 2m"}
   * @return the duration rounded to whole milliseconds (half up)
   * @throws IllegalArgumentException when the text is not a duration, or holds more milliseconds
   *     than a {@code long} either way; the message is what is allowed ("a duration such as 60s,
   *     500ms or 2m (a bare number is seconds)"), for the caller to put after the setting's name
   *     and value
   */
  public static Duration parse(String text, String example) {
    Matcher m = TEXT.matcher(text.strip().toLowerCase(Locale.ROOT));
    if (!m.matches()) {
      throw new IllegalArgumentException(
          "a duration such as " + example + " (a bare number is seconds)");
    }
    BigDecimal number = new BigDecimal(m.group(1));
    String unit = m.group(2) == null ? "s" : m.group(2);
    BigDecimal millis =
        switch (unit) {
          case "ms" -> number;
          case "m" -> number.multiply(BigDecimal.valueOf(60_000));
          default -> number.multiply(BigDecimal.valueOf(1_000));
        };
    if (millis.abs().compareTo(MAX_MILLIS) > 0) {
      throw new IllegalArgumentException(
          "a duration of at most " + Long.MAX_VALUE + "ms (a bare number is seconds)");
    }
    return Duration.ofMillis(millis.setScale(0, RoundingMode.HALF_UP).longValueExact());
  }
}
