package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.examples.QuickstartSimulation;
import io.github.gatlingllm.report.RunReport;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * One test from two machines, here two Gatling JVMs: the quickstart as shards 0 and 1 of 2 (a
 * Kubernetes Indexed Job's {@code JOB_COMPLETION_INDEX} with {@code -Dllm.shards=2}, a start
 * barrier {@code llm.startAt}), each against its own embedded simulator, merged by {@code
 * RunReport} as {@code bin/gatling-llm report} does; beside them the same test on one machine. The
 * merged record has the one-machine run's phase digests and counts, and each shard's half.
 */
@Tag("forked")
class ShardedRunTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** 4 warmup and 40 measured requests, 4 users over the whole test. */
  private static final List<String> TEST =
      List.of("-Dllm.requests=40", "-Dllm.warmupRequests=4", "-Dllm.concurrency=4");

  @TempDir Path dir;

  @Test
  void shardsMergeIntoTheOneMachineRun() throws Exception {
    // JVM start and Gatling's set-up take seconds on a loaded machine: the barrier leaves room.
    long startAt = System.currentTimeMillis() + 25_000;
    List<Process> processes = new ArrayList<>();
    List<Path> logs = new ArrayList<>();
    List<Path> results = new ArrayList<>();
    for (int i = -1; i < 2; i++) {
      Path folder = Files.createDirectories(dir.resolve(i < 0 ? "single" : "shard-" + i));
      List<String> properties = new ArrayList<>(TEST);
      List<String> launcher = List.of();
      if (i >= 0) {
        properties.add("-Dllm.shards=2");
        properties.add("-Dllm.startAt=" + startAt);
        launcher = List.of("env", "JOB_COMPLETION_INDEX=" + i);
      }
      Path log = folder.resolve("gatling.log");
      processes.add(
          GatlingJvm.start(launcher, QuickstartSimulation.class, folder, properties, log));
      logs.add(log);
      results.add(folder);
    }
    try {
      for (int i = 0; i < processes.size(); i++) {
        Path log = logs.get(i);
        assertTrue(
            processes.get(i).waitFor(240, TimeUnit.SECONDS),
            () -> "Gatling did not finish within 240 s:\n" + GatlingJvm.read(log));
        assertEquals(
            0, processes.get(i).exitValue(), () -> "Gatling's exit code:\n" + GatlingJvm.read(log));
      }
    } finally {
      processes.forEach(Process::destroyForcibly);
    }
    Path single = run(results.get(0), logs.get(0));
    Path shard0 = run(results.get(1), logs.get(1));
    Path shard1 = run(results.get(2), logs.get(2));

    JsonNode one = JSON.readTree(single.resolve("llm-run.json").toFile());
    for (Path shard : List.of(shard0, shard1)) {
      JsonNode r = JSON.readTree(shard.resolve("llm-run.json").toFile());
      assertEquals(2, r.get("shard").get("count").asInt());
      // Reached on time, or late on a loaded machine: either way recorded.
      assertEquals(
          java.time.Instant.ofEpochMilli(startAt).toString(),
          r.get("shard").get("start_at").asText());
      assertTrue(r.get("shard").get("late_ms").asLong() >= 0, r.get("shard").toString());
      assertEquals(20, r.get("prompts").get("phases").get("measured").get("requests").asInt());
      assertEquals(2, r.get("prompts").get("phases").get("warmup").get("requests").asInt());
      assertEquals(22, r.get("requests_recorded").asInt());
    }

    Path merged = dir.resolve("merged");
    RunReport report = RunReport.read(List.of(shard0, shard1), null);
    report.write(merged, false);
    JsonNode record = JSON.readTree(merged.resolve("llm-run.json").toFile());
    for (String w : report.warnings()) {
      assertTrue(!w.startsWith("settings differ"), () -> "merge warnings: " + report.warnings());
    }

    JsonNode phases = record.get("prompts").get("phases");
    JsonNode onePhases = one.get("prompts").get("phases");
    assertEquals(onePhases.get("measured").get("digest"), phases.get("measured").get("digest"));
    assertEquals(onePhases.get("warmup").get("digest"), phases.get("warmup").get("digest"));
    assertEquals(40, phases.get("measured").get("requests").asInt());
    assertEquals(4, phases.get("warmup").get("requests").asInt());
    assertEquals(one.get("requests_recorded"), record.get("requests_recorded"));
    assertEquals(40, record.get("metrics").get("overall").get("requests").asInt());
    assertEquals(40, record.get("metrics").get("overall").get("status").get("ok").asInt());
    assertEquals(40, record.get("load").get("requests").asInt());

    JsonNode shards = record.get("shards");
    assertEquals("0/2", shards.get(0).get("shard").asText());
    assertEquals("1/2", shards.get(1).get("shard").asText());
    for (JsonNode s : shards) {
      assertEquals(20, s.get("measured").asInt());
      assertEquals(2, s.get("warmup").asInt());
    }
    // The merged distribution is of the requests, not of the shards' summaries.
    double max0 = maxTtft(shard0);
    double max1 = maxTtft(shard1);
    assertEquals(
        Math.max(max0, max1),
        record.get("metrics").get("overall").get("ttft_ms").get("max").asDouble());
    assertEquals(44, Files.readAllLines(merged.resolve("llm-requests.jsonl")).size());
  }

  private static double maxTtft(Path run) throws Exception {
    return JSON.readTree(run.resolve("llm-run.json").toFile())
        .get("metrics")
        .get("overall")
        .get("ttft_ms")
        .get("max")
        .asDouble();
  }

  private static Path run(Path results, Path log) throws Exception {
    List<Path> runs = GatlingJvm.runFolders(QuickstartSimulation.class, results);
    assertEquals(1, runs.size(), () -> "run folders: " + runs + "\n" + GatlingJvm.read(log));
    return runs.get(0);
  }
}
