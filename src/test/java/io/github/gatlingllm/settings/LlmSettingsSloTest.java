package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.assertRejected;
import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.Slo;
import org.junit.jupiter.api.Test;

/** The {@code llm.slo.*} and {@code llm.assert.goodputRatio} settings. */
class LlmSettingsSloTest {

  @Test
  void noSloByDefault() {
    LlmSettings s = settings();
    assertEquals(Slo.NONE, s.slo());
    assertNull(s.goodputRatio());
  }

  @Test
  void readsEveryBoundAndTheRatio() {
    LlmSettings s =
        settings(
            "llm.slo.ttftMs", "500",
            "llm.slo.itlMs", "50",
            "llm.slo.tpotMs", "25.5",
            "llm.slo.e2eMs", "4000",
            "llm.assert.goodputRatio", "0.95");
    assertEquals(new Slo(500.0, 50.0, 25.5, 4000.0), s.slo());
    assertEquals(0.95, s.goodputRatio());
  }

  @Test
  void zeroBoundIsRejected() {
    assertRejected(
        "llm.slo.ttftMs: got 0.0, expected a number of milliseconds > 0, or unset",
        "llm.slo.ttftMs",
        "0");
  }

  @Test
  void textBoundIsRejected() {
    assertRejected("llm.slo.e2eMs: got \"2s\", expected a number", "llm.slo.e2eMs", "2s");
  }

  @Test
  void ratioAboveOneIsRejected() {
    assertRejected(
        "llm.assert.goodputRatio: got 95.0, expected a share in (0, 1], e.g. 0.95",
        "llm.slo.ttftMs",
        "500",
        "llm.assert.goodputRatio",
        "95");
  }

  @Test
  void ratioWithoutSloIsRejected() {
    assertRejected(
        "llm.assert.goodputRatio: 0.9 needs an SLO: set at least one of llm.slo.ttftMs,"
            + " llm.slo.itlMs, llm.slo.tpotMs, llm.slo.e2eMs, llm.slo.ttfoMs",
        "llm.assert.goodputRatio",
        "0.9");
  }

  @Test
  void misspelledSloIsUnknown() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> settings("llm.slo.ttft", "500"));
    assertEquals(
        "llm.slo.ttft: unknown setting; did you mean llm.slo.ttftMs? (every setting:"
            + " docs/settings.md)",
        e.getMessage());
  }
}
