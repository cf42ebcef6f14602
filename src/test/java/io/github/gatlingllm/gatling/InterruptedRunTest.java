package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeFalse;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A Gatling JVM stopped by a signal in the middle of its load still leaves a valid run record: the
 * shutdown hook moves {@code llm-requests.jsonl} (every line whole and parseable, one per finished
 * request, and one with status {@code cut_by_run_end} per request still in flight) into the run
 * folder and writes {@code llm-run.json} with {@code "interrupted": true}.
 *
 * <p>A job started in the background ({@code ./mvnw verify &}, nohup) inherits an ignored SIGINT,
 * and a JVM started with SIGINT ignored never sees Ctrl+C: the SIGINT test then starts Gatling
 * through {@code env --default-signal=INT} (GNU coreutils 8.31+), and skips with a message where
 * that is not available.
 */
@Tag("forked")
class InterruptedRunTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** Bit of SIGINT (2) in the {@code SigIgn} mask of {@code /proc/PID/status}. */
  private static final long SIGINT_BIT = 1L << 1;

  @TempDir Path results;

  @Test
  void sigtermLeavesAValidInterruptedRunRecord() throws Exception {
    stopMidRunAndCheck("TERM", List.of());
  }

  @Test
  void sigintLeavesAValidInterruptedRunRecord() throws Exception {
    List<String> launcher = List.of();
    if (ignored(ProcessHandle.current().pid()) && envResetsSigint()) {
      launcher = List.of("env", "--default-signal=INT");
    }
    stopMidRunAndCheck("INT", launcher);
  }

  private void stopMidRunAndCheck(String signal, List<String> launcher) throws Exception {
    Path log = results.resolve("gatling.log");
    // 8 users, 200 ms a request against the embedded simulator: about 40 requests/s for a
    // budget that would take over 40 minutes.
    Process gatling =
        GatlingJvm.start(
            launcher,
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
      if (signal.equals("INT")) {
        boolean ignored = ignored(gatling.pid());
        if (ignored) {
          gatling.destroyForcibly().waitFor();
        }
        assumeFalse(
            ignored,
            "SIGINT is ignored by the Gatling JVM, as in a background job (`./mvnw verify &`,"
                + " nohup), and `env --default-signal=INT` is not there to undo it: run the tests"
                + " in the foreground to check Ctrl+C");
      }
      Process kill =
          new ProcessBuilder("kill", "-" + signal, String.valueOf(gatling.pid()))
              .inheritIO()
              .start();
      assertEquals(0, kill.waitFor());
      assertTrue(
          gatling.waitFor(60, TimeUnit.SECONDS),
          () -> "Gatling did not stop within 60 s of SIG" + signal + "\n" + GatlingJvm.read(log));
    } finally {
      gatling.destroyForcibly();
    }

    List<Path> runs = GatlingJvm.runFolders(OracleSimulation.class, results);
    assertEquals(1, runs.size(), () -> runs + "\n" + GatlingJvm.read(log));
    Path run = runs.get(0);
    JsonNode record = GatlingJvm.runRecord(run);
    assertTrue(record.get("interrupted").asBoolean(), record.toString());
    List<String> lines = Files.readAllLines(run.resolve("llm-requests.jsonl"));
    assertTrue(lines.size() >= 100, "lines: " + lines.size());
    assertEquals(record.get("requests_recorded").asLong(), lines.size());
    assertEquals("interrupted", record.get("end_reason").asText());
    Set<Long> indices = new HashSet<>();
    int cut = 0;
    for (String line : lines) {
      JsonNode r = JSON.readTree(line);
      assertTrue(indices.add(r.get("index").asLong()), () -> "index twice: " + line);
      // the requests in flight at the signal are recorded too, as cut by the run's end
      if (r.get("status").asText().equals("cut_by_run_end")) {
        cut++;
      } else {
        assertEquals("ok", r.get("status").asText(), line);
      }
    }
    // Issue 40.1: every prompt handed out is one line, whatever was in flight or on its way at
    // the signal: indices 0..N-1, N as the record's measured phase says.
    long handedOut = record.get("prompts").get("phases").get("measured").get("requests").asLong();
    assertEquals(handedOut, lines.size(), record.toString());
    assertEquals(handedOut - 1, indices.stream().mapToLong(Long::longValue).max().orElse(-1));
    assertFalse(
        GatlingJvm.read(log).contains("a request finished after the run record was written"),
        () -> GatlingJvm.read(log));
    JsonNode status = record.get("metrics").get("overall").get("status");
    assertEquals(cut, status.get("cut_by_run_end").asInt());
    assertEquals(cut, record.get("requests_cut_by_run_end").asInt());
    assertEquals(lines.size() - cut, status.get("ok").asInt());
    try (Stream<Path> left = Files.list(results)) {
      assertEquals(
          List.of(),
          left.filter(p -> p.getFileName().toString().startsWith(".llm-")).toList(),
          "scratch folders left behind");
    }
  }

  /**
   * Whether a process ignores SIGINT, from the {@code SigIgn} mask of {@code /proc/PID/status};
   * false where there is no such file.
   */
  private static boolean ignored(long pid) throws IOException {
    Path status = Path.of("/proc", Long.toString(pid), "status");
    if (!Files.isReadable(status)) {
      return false;
    }
    for (String line : Files.readAllLines(status)) {
      if (line.startsWith("SigIgn:")) {
        return (Long.parseUnsignedLong(line.substring("SigIgn:".length()).strip(), 16) & SIGINT_BIT)
            != 0;
      }
    }
    return false;
  }

  /** Whether {@code env --default-signal=INT} works here (GNU coreutils 8.31 and later). */
  private static boolean envResetsSigint() {
    try {
      Process env =
          new ProcessBuilder("env", "--default-signal=INT", "true")
              .redirectErrorStream(true)
              .redirectOutput(ProcessBuilder.Redirect.DISCARD)
              .start();
      return env.waitFor(10, TimeUnit.SECONDS) && env.exitValue() == 0;
    } catch (IOException e) {
      return false;
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return false;
    }
  }

  private long scratchLines() throws IOException {
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
