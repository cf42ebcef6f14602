package io.github.gatlingllm.settings;

import java.time.Duration;
import java.util.Locale;
import java.util.function.Function;

/**
 * Not API. Reading and checking one {@code llm.*} value for {@link LlmSettings}: whole numbers,
 * decimals, booleans and durations from their text, each refused with an error that names the
 * setting, the value and what is allowed.
 */
final class SettingValues {

  private SettingValues() {}

  static IllegalArgumentException badRedacted(String name, String allowed) {
    return new IllegalArgumentException(
        LlmSettings.PREFIX
            + name
            + ": not "
            + allowed
            + " (value not shown: it may hold credentials)");
  }

  static IllegalArgumentException bad(String name, Object value, String allowed) {
    return new IllegalArgumentException(
        LlmSettings.PREFIX + name + ": got " + quote(value) + ", expected " + allowed);
  }

  static String quote(Object value) {
    return value instanceof String ? "\"" + value + "\"" : String.valueOf(value);
  }

  static void atLeast(String name, long value, long min) {
    if (value < min) {
      throw bad(name, value, "a whole number >= " + min);
    }
  }

  static String orDefault(String value, String fallback) {
    return value == null || value.isEmpty() ? fallback : value;
  }

  static String emptyToNull(String value) {
    return value == null || value.isEmpty() ? null : value;
  }

  static int integer(Function<String, String> get, String name, int fallback) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      return Integer.parseInt(value);
    } catch (NumberFormatException e) {
      throw bad(name, value, "a whole number");
    }
  }

  static Integer nullableInteger(Function<String, String> get, String name) {
    String value = get.apply(name);
    return value == null || value.isEmpty() ? null : integer(get, name, 0);
  }

  static long longInteger(Function<String, String> get, String name, long fallback) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      return Long.parseLong(value);
    } catch (NumberFormatException e) {
      throw bad(name, value, "a whole number");
    }
  }

  static Double decimal(Function<String, String> get, String name) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return null;
    }
    try {
      return Double.parseDouble(value);
    } catch (NumberFormatException e) {
      throw bad(name, value, "a number");
    }
  }

  static boolean bool(Function<String, String> get, String name, boolean fallback) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    switch (value.toLowerCase(Locale.ROOT)) {
      case "true":
        return true;
      case "false":
        return false;
      default:
        throw bad(name, value, "true or false");
    }
  }

  static Duration duration(Function<String, String> get, String name, Duration fallback) {
    String value = get.apply(name);
    if (value == null || value.isEmpty()) {
      return fallback;
    }
    try {
      return DurationText.parse(value, "60s, 500ms or 2m");
    } catch (IllegalArgumentException e) {
      throw bad(name, value, e.getMessage());
    }
  }

  static double orDefault(Double value, double fallback) {
    return value == null ? fallback : value;
  }
}
