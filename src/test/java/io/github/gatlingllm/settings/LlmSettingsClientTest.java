package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.LlmDsl;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The thresholds of "the client fell behind": {@code llm.client.*}. */
class LlmSettingsClientTest {

  @Test
  void defaultsAreTenMillisecondsAndNinetyPercent() {
    LlmSettings s = settings(Map.of());
    assertEquals(10.0, s.clientMaxLagP99Ms());
    assertEquals(0.9, s.clientMaxCpuShare());
  }

  @Test
  void propertiesWinOverTheDsl() {
    LlmSettings s =
        settings(
            Map.of("client.maxLagP99Ms", "25", "client.maxCpuShare", "0.5"),
            "llm.client.maxLagP99Ms",
            "2.5");
    assertEquals(2.5, s.clientMaxLagP99Ms());
    assertEquals(0.5, s.clientMaxCpuShare());
  }

  @Test
  void theDslSetsBoth() {
    LlmSettings s = LlmDsl.llm().clientMaxLagP99Ms(50).clientMaxCpuShare(0.75).settings();
    assertEquals(50.0, s.clientMaxLagP99Ms());
    assertEquals(0.75, s.clientMaxCpuShare());
  }

  @Test
  void aLagBoundOfZeroIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of(), "llm.client.maxLagP99Ms", "0"));
    assertEquals(
        "llm.client.maxLagP99Ms: got 0.0, expected a number of milliseconds > 0, e.g. 10",
        e.getMessage());
  }

  @Test
  void aCpuShareAboveOneIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of(), "llm.client.maxCpuShare", "90"));
    assertEquals(
        "llm.client.maxCpuShare: got 90.0, expected a share of the machine's CPU in (0, 1], e.g."
            + " 0.9",
        e.getMessage());
  }

  @Test
  void aNonNumericBoundIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of(), "llm.client.maxCpuShare", "most"));
    assertEquals("llm.client.maxCpuShare: got \"most\", expected a number", e.getMessage());
  }
}
