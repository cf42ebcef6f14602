package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.record.AgentSessions;
import io.github.gatlingllm.record.RunRecord;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code report} over two shard folders with agent sessions: their sessions merged, typed. */
class RunReportSessionsTest {

  @TempDir Path dir;

  @Test
  void aReportOverTwoShardFoldersMergesTheirSessions() throws Exception {
    Path a = Files.createDirectories(dir.resolve("shard-0"));
    Path b = Files.createDirectories(dir.resolve("shard-1"));
    Path saved = Path.of("src/test/resources/record");
    Files.copy(saved.resolve("sessions-shard0-llm-run.json"), a.resolve("llm-run.json"));
    Files.copy(saved.resolve("sessions-shard1-llm-run.json"), b.resolve("llm-run.json"));
    Files.writeString(a.resolve("llm-requests.jsonl"), "");
    Files.writeString(b.resolve("llm-requests.jsonl"), "");

    RunReport report = RunReport.read(List.of(a, b), null);

    AgentSessions w = RunRecord.of(report.record()).sessions().get(0);
    assertEquals(4L, w.measured().count());
    assertEquals(1900L, w.measured().durationMs().p90());
    assertEquals(List.of(), report.warnings());
  }
}
