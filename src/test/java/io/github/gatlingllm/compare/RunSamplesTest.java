package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.report.RequestRecordJson;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunSamplesTest {

  @TempDir Path dir;

  @Test
  void aFolderWithoutRequestsIsNoRun() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RunSamples.read(dir, null, 1));

    assertEquals(dir + " has no llm-requests.jsonl: not a gatling-llm run folder", e.getMessage());
  }

  @Test
  void aRunOfWarmupRequestsOnlyHasNothingToCompare() throws IOException {
    RequestRecord warm =
        RunComparisonTest.request(new SplittableRandom(1), 0, 1_000_000, 1)
            .withConversationTurn(null);
    String line = RequestRecordJson.toJson(warm, true).replace("\"measured\"", "\"warmup\"");
    Files.writeString(dir.resolve("llm-requests.jsonl"), line + "\n" + line + "\n");

    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RunSamples.read(dir, null, 1));

    assertEquals(
        dir
            + " has no measured request (llm-requests.jsonl holds 2 warmup requests and nothing"
            + " else): nothing to compare",
        e.getMessage());
  }
}
