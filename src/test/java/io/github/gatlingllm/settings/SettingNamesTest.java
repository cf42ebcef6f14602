package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/**
 * The DSL's names on the command line (issue 30, point 4): a method name that is a setting as it is
 * ({@code -Dllm.maxTokens} for {@code llm.outputTokens}) is taken; the others are answered with the
 * settings they stand for.
 */
class SettingNamesTest {

  private static LlmSettings read(String... nameValues) {
    Properties properties = new Properties();
    for (int i = 0; i < nameValues.length; i += 2) {
      properties.setProperty(nameValues[i], nameValues[i + 1]);
    }
    return LlmSettings.from(properties, Map.of(), name -> null);
  }

  private static String refused(String... nameValues) {
    return assertThrows(IllegalArgumentException.class, () -> read(nameValues)).getMessage();
  }

  @Test
  void maxTokensIsOutputTokens() {
    assertEquals(10, read("llm.maxTokens", "10").outputTokens());
  }

  @Test
  void sloTtftMsIsSloTtftMs() {
    assertEquals(200.0, read("llm.sloTtftMs", "200").slo().ttftMs());
  }

  @Test
  void goodputRatioIsAssertGoodputRatio() {
    assertEquals(0.9, read("llm.sloE2eMs", "1000", "llm.goodputRatio", "0.9").goodputRatio());
  }

  @Test
  void clientMaxCpuShareIsClientMaxCpuShare() {
    assertEquals(0.5, read("llm.clientMaxCpuShare", "0.5").clientMaxCpuShare());
  }

  @Test
  void anAliasWinsOverTheSimulationsValue() {
    Properties properties = new Properties();
    properties.setProperty("llm.maxTokens", "10");
    assertEquals(
        10,
        LlmSettings.from(properties, Map.of("outputTokens", "32"), name -> null).outputTokens());
  }

  @Test
  void bothNamesWithOneValueAreTaken() {
    assertEquals(10, read("llm.maxTokens", "10", "llm.outputTokens", "10").outputTokens());
  }

  @Test
  void bothNamesWithTwoValuesAreRefused() {
    assertEquals(
        "llm.maxTokens and llm.outputTokens: two names of one setting, got \"10\" and \"20\";"
            + " expected one of them",
        refused("llm.maxTokens", "10", "llm.outputTokens", "20"));
  }

  @Test
  void aBadValueUnderTheAliasNamesTheSetting() {
    assertEquals(
        "llm.outputTokens: got 0, expected a whole number >= 1", refused("llm.maxTokens", "0"));
  }

  @Test
  void warmupIsAnsweredWithBothWarmups() {
    assertEquals(
        "llm.warmup: unknown setting; did you mean llm.warmupRequests or"
            + " llm.warmupConversations? (every setting: docs/settings.md)",
        refused("llm.warmup", "8"));
  }

  @Test
  void cancelAfterIsAnsweredWithItsMilliseconds() {
    assertEquals(
        "llm.cancelAfter: unknown setting; did you mean llm.cancelAfterMs? (every setting:"
            + " docs/settings.md)",
        refused("llm.cancelAfter", "500"));
  }

  @Test
  void levelDurationIsAnsweredWithTheSweepsSetting() {
    assertEquals(
        "llm.levelDuration: unknown setting; did you mean llm.sweep.levelDuration? (every"
            + " setting: docs/settings.md)",
        refused("llm.levelDuration", "60s"));
  }

  @Test
  void aMisspeltAliasIsAnsweredWithTheSetting() {
    assertEquals(
        "llm.maxToken: unknown setting; did you mean llm.outputTokens? (every setting:"
            + " docs/settings.md)",
        refused("llm.maxToken", "10"));
  }

  @Test
  void aMisspeltSloAliasIsAnsweredWithTheSetting() {
    assertEquals(
        "llm.sloTtftM: unknown setting; did you mean llm.slo.ttftMs? (every setting:"
            + " docs/settings.md)",
        refused("llm.sloTtftM", "200"));
  }

  @Test
  void debugIsASetting() {
    assertEquals(128, read("llm.debug", "true").outputTokens());
  }
}
