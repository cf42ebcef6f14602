package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.rejected;
import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class CancelSettingsTest {

  @Test
  void offByDefault() {
    assertEquals(CancelSettings.NONE, settings().cancel());
    assertEquals(false, settings().cancel().isSet());
  }

  @Test
  void readFromProperties() {
    assertEquals(
        new CancelSettings(0.25, 100),
        settings("llm.cancelRate", "0.25", "llm.cancelAfterMs", "100").cancel());
  }

  @Test
  void aRateAboveOneIsRefused() {
    assertEquals(
        "llm.cancelRate: got 1.5, expected a share of the requests in [0, 1], e.g. 0.25",
        rejected("llm.cancelRate", "1.5"));
  }

  @Test
  void aNegativeRateIsRefused() {
    assertEquals(
        "llm.cancelRate: got -0.1, expected a share of the requests in [0, 1], e.g. 0.25",
        rejected("llm.cancelRate", "-0.1"));
  }

  @Test
  void aNegativeDelayIsRefused() {
    assertEquals(
        "llm.cancelAfterMs: got -5.0, expected a delay in milliseconds >= 0, e.g. 100 (0 cancels"
            + " during the prefill)",
        rejected("llm.cancelRate", "0.5", "llm.cancelAfterMs", "-5"));
  }

  @Test
  void aRateThatIsNoNumberIsRefused() {
    assertEquals(
        "llm.cancelRate: got \"often\", expected a number", rejected("llm.cancelRate", "often"));
  }

  @Test
  void theChoiceIsReproducibleAndNearTheRate() {
    CancelSettings c = new CancelSettings(0.25, 100);
    int chosen = 0;
    for (long i = 0; i < 10_000; i++) {
      boolean a = c.chosen(42, "chat", "measured", i);
      assertEquals(a, c.chosen(42, "chat", "measured", i));
      if (a) {
        chosen++;
      }
    }
    assertEquals(2_500, chosen, 150);
  }

  @Test
  void anotherSeedChoosesOtherRequests() {
    CancelSettings c = new CancelSettings(0.5, 0);
    int same = 0;
    for (long i = 0; i < 1_000; i++) {
      if (c.chosen(1, "chat", "measured", i) == c.chosen(2, "chat", "measured", i)) {
        same++;
      }
    }
    assertEquals(500, same, 60);
  }

  @Test
  void rateZeroAndOne() {
    assertEquals(false, new CancelSettings(0, 0).chosen(0, "chat", null, 3));
    assertEquals(true, new CancelSettings(1, 0).chosen(0, "chat", null, 3));
  }

  @Test
  void sloTtfoIsRead() {
    assertEquals(500.0, settings("llm.slo.ttfoMs", "500").slo().ttfoMs());
  }
}
