package io.github.gatlingllm.report;

import java.math.BigDecimal;
import java.util.Locale;

/**
 * Numbers of the run record as text: the shortest plain decimal (no exponent) that reads back as
 * the same {@code double}. Times are milliseconds rounded to the whole microsecond ({@code
 * RequestTimer}), so they print with at most 3 decimals: {@code 2.517}, {@code 0.25}, {@code 34}
 * (not {@code 34.0}), never {@code 2.5170000000000003}.
 */
public final class Decimals {

  /** Below this magnitude, distinct thousandths are distinct doubles (their spacing is finer). */
  private static final double THOUSANDTHS_LIMIT = 1e9;

  private Decimals() {}

  /**
   * The shortest plain decimal that parses back to {@code value}: a whole number without a point
   * ({@code 34}), a whole number of thousandths with at most 3 decimals ({@code 2.517}), else the
   * digits of {@link Double#toString(double)} without an exponent ({@code 29.126213592233007}).
   *
   * @param value a finite number; NaN and infinities come back as {@link Double#toString(double)}
   *     gives them (not JSON)
   * @return the text, never null
   */
  static String shortest(double value) {
    if (Math.abs(value) < THOUSANDTHS_LIMIT) {
      long thousandths = Math.round(value * 1000);
      if (thousandths / 1000.0 == value) {
        return thousandths(thousandths);
      }
    }
    if (!Double.isFinite(value)) {
      return Double.toString(value);
    }
    return BigDecimal.valueOf(value).stripTrailingZeros().toPlainString();
  }

  /**
   * A time in milliseconds to the microsecond, for people and for JSON: {@code value} rounded to
   * the nearest thousandth (half up), then as {@link #shortest(double)}; so {@code 2.5173333} is
   * {@code 2.517} and {@code 34.0} is {@code 34}.
   *
   * @param ms milliseconds, finite
   * @return the text, never null
   */
  public static String ms(double ms) {
    if (!Double.isFinite(ms) || Math.abs(ms) >= THOUSANDTHS_LIMIT) {
      return shortest(ms);
    }
    return thousandths(Math.round(ms * 1000));
  }

  /**
   * A number for people: a whole number without decimals ({@code 34}), others to 2 decimals at
   * most, 1 from 100 up ({@code 6.67}, {@code 1234.6}), trailing zeros dropped.
   *
   * @param v a number
   * @return the text, never null
   */
  public static String fmt(double v) {
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return Long.toString((long) v);
    }
    String s = String.format(Locale.ROOT, Math.abs(v) >= 100 ? "%.1f" : "%.2f", v);
    s = s.replaceAll("0+$", "");
    return s.endsWith(".") ? s.substring(0, s.length() - 1) : s;
  }

  /** {@code n / 1000} written out: {@code 2517} is {@code 2.517}, {@code 250} is {@code 0.25}. */
  private static String thousandths(long n) {
    StringBuilder s = new StringBuilder(16);
    if (n < 0) {
      s.append('-');
      n = -n;
    }
    s.append(n / 1000);
    int fraction = (int) (n % 1000);
    if (fraction != 0) {
      s.append('.').append((char) ('0' + fraction / 100));
      if (fraction % 100 != 0) {
        s.append((char) ('0' + fraction / 10 % 10));
        if (fraction % 10 != 0) {
          s.append((char) ('0' + fraction % 10));
        }
      }
    }
    return s.toString();
  }
}
