package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Gatling JVM stopped by a signal in the middle of its load still leaves a valid run record: the
 * shutdown hook moves {@code llm-requests.jsonl} (every line whole and parseable, one per finished
 * request) into the run folder and writes {@code llm-run.json} with {@code "interrupted": true}.
 */
class InterruptedRunTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  @Test
  void sigtermLeavesAValidInterruptedRunRecord() throws Exception {
    stopMidRunAndCheck("TERM");
  }

  @Test
  void sigintLeavesAValidInterruptedRunRecord() throws Exception {
    stopMidRunAndCheck("INT");
  }

  private void stopMidRunAndCheck(String signal) throws Exception {
    Path log = results.resolve("gatling.log");
    // 8 users, 200 ms a request against the embedded simulator: about 40 requests/s for a
    // budget that would take over 40 minutes.
    Process gatling =
        GatlingJvm.start(
            OracleSimulation.class,
            results,
            List.of("-Dllm.requests=100000", "-Dllm.concurrency=8", "-Dllm.warmupRequests=0"),
            log);
    try {
      // Records are flushed every 100 requests: wait for the first flush.
      long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(90);
      while (scratchLines() < 100) {
        assertTrue(gatling.isAlive(), () -> "Gatling ended early:\n" + GatlingJvm.read(log));
        assertTrue(
            System.nanoTime() < deadline, () -> "no records after 90 s\n" + GatlingJvm.read(log));
        Thread.sleep(200);
      }
      Process kill =
          new ProcessBuilder("kill", "-" + signal, String.valueOf(gatling.pid()))
              .inheritIO()
              .start();
      assertEquals(0, kill.waitFor());
      assertTrue(gatling.waitFor(60, TimeUnit.SECONDS), "Gatling did not stop within 60 s");
    } finally {
      gatling.destroyForcibly();
    }

    List<Path> runs = GatlingJvm.runFolders(OracleSimulation.class, results);
    assertEquals(1, runs.size(), () -> runs + "\n" + GatlingJvm.read(log));
    Path run = runs.get(0);
    JsonNode record = JSON.readTree(run.resolve("llm-run.json").toFile());
    assertTrue(record.get("interrupted").asBoolean(), record.toString());
    List<String> lines = Files.readAllLines(run.resolve("llm-requests.jsonl"));
    assertTrue(lines.size() >= 100, "lines: " + lines.size());
    assertEquals(record.get("requests_recorded").asLong(), lines.size());
    Set<Long> indices = new HashSet<>();
    for (String line : lines) {
      JsonNode r = JSON.readTree(line);
      assertTrue(indices.add(r.get("index").asLong()), () -> "index twice: " + line);
      assertEquals("ok", r.get("status").asText(), line);
    }
    assertEquals(
        lines.size(), record.get("metrics").get("overall").get("status").get("ok").asInt());
    try (Stream<Path> left = Files.list(results)) {
      assertEquals(
          List.of(),
          left.filter(p -> p.getFileName().toString().startsWith(".llm-")).toList(),
          "scratch folders left behind");
    }
  }

  private long scratchLines() throws Exception {
    Optional<Path> scratch;
    try (Stream<Path> children = Files.list(results)) {
      scratch = children.filter(p -> p.getFileName().toString().startsWith(".llm-")).findFirst();
    }
    if (scratch.isEmpty() || !Files.exists(scratch.get().resolve("llm-requests.jsonl"))) {
      return 0;
    }
    try (Stream<String> lines = Files.lines(scratch.get().resolve("llm-requests.jsonl"))) {
      return lines.count();
    }
  }
}
