package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Properties;

/**
 * The settings tests' one way in: {@link LlmSettings#from} over literal {@code llm.*} properties,
 * with no environment (so no {@code OPENAI_API_KEY}), and the message a bad value is refused with.
 */
final class LlmSettingsFixture {

  private LlmSettingsFixture() {}

  /**
   * The settings of properties, without simulation defaults.
   *
   * @param keyValues property name, value, name, value, ...
   */
  static LlmSettings settings(String... keyValues) {
    return settings(Map.of(), keyValues);
  }

  /**
   * The settings of properties over a simulation's defaults.
   *
   * @param defaults setting name (without {@code llm.}) to value
   * @param keyValues property name, value, name, value, ...
   */
  static LlmSettings settings(Map<String, String> defaults, String... keyValues) {
    Properties properties = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return LlmSettings.from(properties, defaults, name -> null);
  }

  /**
   * The message the properties are refused with.
   *
   * @param keyValues property name, value, name, value, ...
   * @return the {@link IllegalArgumentException}'s message
   */
  static String rejected(String... keyValues) {
    return assertThrows(IllegalArgumentException.class, () -> settings(keyValues)).getMessage();
  }

  /**
   * Asserts that the properties are refused with this message.
   *
   * @param expected the message
   * @param keyValues property name, value, name, value, ...
   */
  static void assertRejected(String expected, String... keyValues) {
    assertEquals(expected, rejected(keyValues));
  }
}
