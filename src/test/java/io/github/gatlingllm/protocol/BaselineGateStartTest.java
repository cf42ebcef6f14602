package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.compare.RunComparison;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.settings.BaselineSettings;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The baseline read before any load: {@link BaselineGate#start}. */
class BaselineGateStartTest {

  @TempDir Path dir;

  private static final String LINE =
      "{\"request\":\"chat\",\"phase\":\"measured\",\"start_ms\":1000,\"status\":\"ok\","
          + "\"ttft_ms\":50,\"e2e_ms\":200,\"itl_ms\":[20,21],\"completion_tokens\":3}";

  private Path run(String lines) throws Exception {
    Path run = Files.createDirectories(dir.resolve("run"));
    Files.writeString(run.resolve("llm-requests.jsonl"), lines);
    return run;
  }

  @Test
  void noBaselineIsNoGate() {
    assertNull(BaselineGate.start(BaselineSettings.NONE, Slo.NONE, List.of()));
  }

  @Test
  void aGateWithoutItsAssertionsIsRefused() throws Exception {
    Path run = run(LINE + "\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                BaselineGate.start(
                    new BaselineSettings(run.toString(), 5.0), Slo.NONE, List.of(List.of("chat"))));
    assertEquals(
        "llm.assert.noRegressionPct: got 5, but setUp(...) has no assertion on the BASELINE rows,"
            + " so the run would pass whatever the change: add llm.assertions(...) to setUp"
            + " (setUp(...).protocols(llm).assertions(llm.assertions(1.0, \"chat\")))",
        e.getMessage());
  }

  @Test
  void aGateWithItsAssertionsReadsTheBaseline() throws Exception {
    Path run = run(LINE + "\n");
    assertNotNull(
        BaselineGate.start(
            new BaselineSettings(run.toString(), 5.0),
            Slo.NONE,
            List.of(List.of("chat"), List.of("BASELINE ttft_p50_ms"))));
  }

  @Test
  void aBaselineWithoutMeasuredRequestsIsRefused() throws Exception {
    Path run = run(LINE.replace("measured", "warmup") + "\n");
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> BaselineGate.start(new BaselineSettings(run.toString(), null), Slo.NONE, null));
    assertEquals(
        "llm.baseline: "
            + run
            + " has no measured request (llm-requests.jsonl holds 1 warmup requests and nothing"
            + " else): nothing to compare",
        e.getMessage());
  }

  @Test
  void severalBaselineFoldersAreComparedAsReplicates() {
    String saved = "src/test/resources/saved-runs/";
    BaselineGate gate =
        BaselineGate.start(
            new BaselineSettings(saved + "quick," + saved + "quick-baseline", null),
            Slo.NONE,
            null);

    RunComparison c =
        gate.judge(
            Path.of(saved + "quick"), io.github.gatlingllm.record.RunRecord.create(), null, "chat");

    assertEquals(2, c.runsA().size());
    assertEquals(1, c.runsB().size());
    assertTrue(c.overall().line().endsWith(" over 2 run(s) of A and 1 of B"), c.overall().line());
    assertNotNull(c.row("ttft_p50_ms").betweenRunsCi95Pct(), c.row("ttft_p50_ms").toString());
  }
}
