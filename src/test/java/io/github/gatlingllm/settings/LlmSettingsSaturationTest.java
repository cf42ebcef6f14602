package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.assertRejected;
import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.levels.SaturationSettings;
import org.junit.jupiter.api.Test;

/** The load levels' settings: {@code llm.stopWhenSaturated}, {@code llm.saturation.*}, sweeps. */
class LlmSettingsSaturationTest {

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

  @Test
  void theLevelAttainmentIsItsOwnSettingAndDefaultsTo095() {
    assertEquals(0.95, settings("llm.slo.ttftMs", "500").saturation().levelAttainment());
    LlmSettings s =
        settings(
            "llm.slo.ttftMs",
            "500",
            "llm.slo.levelAttainment",
            "0.8",
            "llm.assert.goodputRatio",
            "0.5");
    assertEquals(0.8, s.saturation().levelAttainment());
    assertEquals(0.5, s.goodputRatio());
    // the run's assertion alone leaves the level attainment at its default
    assertEquals(
        0.95,
        settings("llm.slo.ttftMs", "500", "llm.assert.goodputRatio", "0.5")
            .saturation()
            .levelAttainment());
  }

  @Test
  void theMinScalingIsReadAndDefaultsToAQuarter() {
    assertEquals(0.25, settings().saturation().minScaling());
    assertEquals(0.4, settings("llm.saturation.minScaling", "0.4").saturation().minScaling());
    // the DSL's name on the command line
    assertEquals(0.4, settings("llm.saturationMinScaling", "0.4").saturation().minScaling());
  }

  @Test
  void aMinScalingOutsideZeroToOneIsRejected() {
    assertRejected(
        "llm.saturation.minScaling: got 1.5, expected a share in [0, 1], e.g. 0.25",
        "llm.saturation.minScaling",
        "1.5");
  }

  @Test
  void theLevelAttainmentNeedsAnSlo() {
    assertRejected(
        "llm.slo.levelAttainment: 0.9 needs an SLO: set at least one of llm.slo.ttftMs,"
            + " llm.slo.itlMs, llm.slo.tpotMs, llm.slo.e2eMs, llm.slo.ttfoMs",
        "llm.slo.levelAttainment",
        "0.9");
  }

  @Test
  void aLevelAttainmentOutsideZeroToOneIsRejected() {
    assertRejected(
        "llm.slo.levelAttainment: got 95.0, expected a share in (0, 1], e.g. 0.95",
        "llm.slo.levelAttainment",
        "95",
        "llm.slo.ttftMs",
        "500");
  }
}
