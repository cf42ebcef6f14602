package io.github.gatlingllm.settings;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.levels.SaturationSettings;
import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

/** The load levels' settings: {@code llm.stopWhenSaturated}, {@code llm.saturation.*}, sweeps. */
class LlmSettingsSaturationTest {

  private static LlmSettings settings(String... keyValues) {
    Properties properties = new Properties();
    for (int i = 0; i < keyValues.length; i += 2) {
      properties.setProperty(keyValues[i], keyValues[i + 1]);
    }
    return LlmSettings.from(properties, Map.of(), name -> null);
  }

  private static void assertRejected(String expected, String... keyValues) {
    assertEquals(
        expected,
        assertThrows(IllegalArgumentException.class, () -> settings(keyValues)).getMessage());
  }

  @Test
  void defaults() {
    assertEquals(SaturationSettings.DEFAULT, settings().saturation());
  }

  @Test
  void readsEveryValue() {
    assertEquals(
        new SaturationSettings(true, 2.0, 0.1, 0.2, 6.5),
        settings(
                "llm.stopWhenSaturated", "true",
                "llm.saturation.ttftGrowth", "2",
                "llm.saturation.throughputGain", "0.1",
                "llm.saturation.errorRatio", "0.2",
                "llm.assert.sloLoadAtLeast", "6.5",
                "llm.slo.ttftMs", "500")
            .saturation());
  }

  @Test
  void theSweepSettingsAreKnown() {
    assertEquals(
        SaturationSettings.DEFAULT,
        settings(
                "llm.sweep.maxConcurrency", "8",
                "llm.sweep.levels", "2",
                "llm.sweep.levelDuration", "5s",
                "llm.sweep.ramp", "1s")
            .saturation());
  }

  @Test
  void theSloLoadBoundNeedsAnSlo() {
    assertRejected(
        "llm.assert.sloLoadAtLeast: 4.0 needs an SLO: set at least one of llm.slo.ttftMs,"
            + " llm.slo.itlMs, llm.slo.tpotMs, llm.slo.e2eMs, llm.slo.ttfoMs",
        "llm.assert.sloLoadAtLeast",
        "4");
  }

  @Test
  void badValuesAreRejected() {
    assertRejected(
        "llm.saturation.ttftGrowth: got 0.5, expected a finite factor > 1, e.g. 1.5",
        "llm.saturation.ttftGrowth",
        "0.5");
    assertRejected(
        "llm.stopWhenSaturated: got \"yes\", expected true or false",
        "llm.stopWhenSaturated",
        "yes");
    assertRejected(
        "llm.assert.sloLoadAtLeast: got \"many\", expected a number",
        "llm.assert.sloLoadAtLeast",
        "many");
  }
}
