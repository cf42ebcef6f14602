package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.assertRejected;
import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Map;
import org.junit.jupiter.api.Test;

class TargetDownSettingsTest {

  @Test
  void defaultsStopAfterTwoSecondsAndTenConnectErrors() {
    assertEquals(new TargetDownSettings(true, 2_000, 10, 10), settings().targetDown());
  }

  @Test
  void propertiesSetEachValue() {
    assertEquals(
        new TargetDownSettings(false, 500, 3, 25),
        settings(
                "llm.stopWhenTargetDown",
                "false",
                "llm.targetDown.afterMs",
                "500",
                "llm.targetDown.minErrors",
                "3",
                "llm.silentSeconds",
                "25")
            .targetDown());
  }

  @Test
  void theDslsValuesAreReadAsDefaults() {
    assertEquals(
        new TargetDownSettings(false, 5_000, 1, 0),
        settings(
                Map.of(
                    "stopWhenTargetDown", "false",
                    "targetDown.afterMs", "5000",
                    "targetDown.minErrors", "1",
                    "silentSeconds", "0"))
            .targetDown());
  }

  @Test
  void aWindowUnder100msIsRefused() {
    assertRejected(
        "llm.targetDown.afterMs: got 99, expected a whole number of milliseconds in [100, 600000],"
            + " e.g. 2000",
        "llm.targetDown.afterMs",
        "99");
  }

  @Test
  void aWindowOverTenMinutesIsRefused() {
    assertRejected(
        "llm.targetDown.afterMs: got 600001, expected a whole number of milliseconds in [100,"
            + " 600000], e.g. 2000",
        "llm.targetDown.afterMs",
        "600001");
  }

  @Test
  void aWindowInSecondsIsRefusedAsNotAWholeNumber() {
    assertRejected(
        "llm.targetDown.afterMs: got \"2s\", expected a whole number",
        "llm.targetDown.afterMs",
        "2s");
  }

  @Test
  void zeroErrorsIsRefused() {
    assertRejected(
        "llm.targetDown.minErrors: got 0, expected a whole number of requests >= 1, e.g. 10",
        "llm.targetDown.minErrors",
        "0");
  }

  @Test
  void aStopThatIsNotABooleanIsRefused() {
    assertRejected(
        "llm.stopWhenTargetDown: got \"yes\", expected true or false",
        "llm.stopWhenTargetDown",
        "yes");
  }

  @Test
  void aNegativeSilenceIsRefused() {
    assertRejected(
        "llm.silentSeconds: got -1, expected a whole number of seconds in [1, 3600], e.g. 10, or 0"
            + " to never say a silent target",
        "llm.silentSeconds",
        "-1");
  }

  @Test
  void aSilenceOverAnHourIsRefused() {
    assertRejected(
        "llm.silentSeconds: got 3601, expected a whole number of seconds in [1, 3600], e.g. 10, or"
            + " 0 to never say a silent target",
        "llm.silentSeconds",
        "3601");
  }

  @Test
  void aSilenceInDecimalSecondsIsRefusedAsNotAWholeNumber() {
    assertRejected(
        "llm.silentSeconds: got \"2.5\", expected a whole number", "llm.silentSeconds", "2.5");
  }
}
