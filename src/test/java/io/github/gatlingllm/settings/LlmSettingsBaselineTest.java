package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.LlmSettingsFixture.settings;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.LlmDsl;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run to compare with and the regression gate: {@code llm.baseline}, {@code
 * llm.assert.noRegressionPct}.
 */
class LlmSettingsBaselineTest {

  @TempDir Path dir;

  private Path runFolder() throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    Files.writeString(run.resolve("llm-requests.jsonl"), "");
    return run;
  }

  @Test
  void unsetIsNoBaselineAndNoGate() {
    BaselineSettings b = settings(Map.of()).baseline();
    assertEquals(BaselineSettings.NONE, b);
    assertEquals(false, b.gated());
  }

  @Test
  void bothSetAreAGate() throws Exception {
    Path run = runFolder();
    BaselineSettings b =
        settings(Map.of(), "llm.baseline", run.toString(), "llm.assert.noRegressionPct", "5")
            .baseline();
    assertEquals(new BaselineSettings(run.toString(), 5.0), b);
    assertEquals(true, b.gated());
  }

  @Test
  void theDslSetsBoth() throws Exception {
    Path run = runFolder();
    BaselineSettings b =
        LlmDsl.llm().baseline(run.toString()).noRegressionPct(2.5).settings().baseline();
    assertEquals(new BaselineSettings(run.toString(), 2.5), b);
  }

  @Test
  void aBaselineWithoutTheGateIsNoGate() throws Exception {
    Path run = runFolder();
    BaselineSettings b = settings(Map.of(), "llm.baseline", run.toString()).baseline();
    assertEquals(false, b.gated());
  }

  @Test
  void aFolderWithoutRequestsIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of(), "llm.baseline", dir.toString()));
    assertEquals(
        "llm.baseline: got \""
            + dir
            + "\", which has no llm-requests.jsonl: expected a gatling-llm run folder (a Gatling"
            + " run folder of an earlier run, or the output of bin/gatling-llm report A B --output"
            + " DIR), or several separated by commas (replicates)",
        e.getMessage());
  }

  @Test
  void severalBaselineFoldersAreReplicates() throws Exception {
    Path one = runFolder();
    Path two = Files.createDirectories(dir.resolve("two"));
    Files.writeString(two.resolve("llm-requests.jsonl"), "");

    BaselineSettings b = settings(Map.of(), "llm.baseline", one + "," + two).baseline();

    assertEquals(List.of(one.toString(), two.toString()), b.folders());
  }

  @Test
  void aBaselineFolderWithoutRequestsAmongSeveralIsNamed() throws Exception {
    Path one = runFolder();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of(), "llm.baseline", one + "," + dir.resolve("missing")));
    assertEquals(
        "llm.baseline: got \""
            + one
            + ","
            + dir.resolve("missing")
            + "\", whose \""
            + dir.resolve("missing")
            + "\" has no llm-requests.jsonl: expected a gatling-llm run folder (a Gatling run"
            + " folder of an earlier run, or the output of bin/gatling-llm report A B --output"
            + " DIR), or several separated by commas (replicates)",
        e.getMessage());
  }

  @Test
  void aNegativeBoundIsRefused() throws Exception {
    Path run = runFolder();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                settings(
                    Map.of(), "llm.baseline", run.toString(), "llm.assert.noRegressionPct", "-1"));
    assertEquals(
        "llm.assert.noRegressionPct: got -1.0, expected a finite percentage >= 0, e.g. 5",
        e.getMessage());
  }

  @Test
  void aBoundWithoutABaselineIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> settings(Map.of(), "llm.assert.noRegressionPct", "5"));
    assertTrue(
        e.getMessage()
            .startsWith("llm.assert.noRegressionPct: got 5.0, but llm.baseline is not set"),
        e.getMessage());
  }

  @Test
  void theGateAddsOneAssertionPerGatedMetric() throws Exception {
    Path run = runFolder();
    int plain = LlmDsl.llm().assertions(1.0, "chat").size();
    int gated =
        LlmDsl.llm().baseline(run.toString()).noRegressionPct(5).assertions(1.0, "chat").size();
    assertEquals(9, gated - plain);
  }
}
