package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * One simulation run in a Gatling JVM of its own, and what it left: the exit code, the console
 * output, and the run record ({@code llm-run.json}, {@code llm-requests.jsonl}) when there is one.
 */
final class DslRun {

  private static final ObjectMapper JSON = new ObjectMapper();

  final int exitCode;
  final String log;
  final Path folder;

  private DslRun(int exitCode, String log, Path folder) {
    this.exitCode = exitCode;
    this.log = log;
    this.folder = folder;
  }

  /**
   * Runs a simulation to its end.
   *
   * @param simulation the simulation class
   * @param results Gatling's results folder (a test's temporary folder)
   * @param properties extra {@code -D} options
   * @return the run
   */
  static DslRun run(Class<?> simulation, Path results, String... properties)
      throws IOException, InterruptedException {
    Path log = results.resolve("gatling.log");
    Process process = GatlingJvm.start(simulation, results, List.of(properties), log);
    if (!process.waitFor(300, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError("Gatling did not finish within 300 s:\n" + GatlingJvm.read(log));
    }
    List<Path> folders = GatlingJvm.runFolders(simulation, results);
    return new DslRun(
        process.exitValue(), GatlingJvm.read(log), folders.size() == 1 ? folders.get(0) : null);
  }

  /** Whether the run left an {@code llm-run.json} anywhere in the results folder. */
  static boolean anyRunRecord(Path results) throws IOException {
    try (Stream<Path> files = Files.walk(results)) {
      return files.anyMatch(p -> p.getFileName().toString().equals("llm-run.json"));
    }
  }

  /** {@code llm-run.json}. */
  JsonNode record() {
    try {
      return JSON.readTree(folder().resolve("llm-run.json").toFile());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** The lines of {@code llm-requests.jsonl}, in file order. */
  List<JsonNode> requests() {
    List<JsonNode> requests = new ArrayList<>();
    try {
      for (String line : Files.readAllLines(folder().resolve("llm-requests.jsonl"))) {
        requests.add(JSON.readTree(line));
      }
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return requests;
  }

  /** The run's folder; fails the test when Gatling made none (or several). */
  Path folder() {
    assertTrue(folder != null, "no run folder:\n" + log);
    return folder;
  }

  /** Asserts that Gatling ended with the exit code, showing the log otherwise. */
  DslRun exits(int code) {
    assertEquals(code, exitCode, log);
    return this;
  }

  /**
   * Asserts that the run stopped on a bad input as the README promises: exit code 1, {@code line}
   * on a line of its own, no stack trace ({@code at ...}, {@code Caused by:}, {@code Wrapped by:},
   * {@code Exception in thread}) and no Gatling lifecycle line before it (issue 30, point 3).
   *
   * @param line the one line expected
   * @return this run
   */
  DslRun stopsWithOneLine(String line) {
    assertEquals(1, exitCode, log);
    assertEquals(1, count("\n" + line + "\n") + (log.startsWith(line + "\n") ? 1 : 0), log);
    for (String trace :
        List.of(
            "\tat ",
            "Caused by:",
            "Wrapped by:",
            "Exception in thread",
            "Failed to create the Simulation instance",
            "Failed to build the scenario(s)")) {
      assertEquals(0, count(trace), () -> trace + " in:\n" + log);
    }
    return this;
  }

  /** How many times {@code text} occurs in the console output. */
  int count(String text) {
    int n = 0;
    for (int i = log.indexOf(text); i >= 0; i = log.indexOf(text, i + text.length())) {
      n++;
    }
    return n;
  }

  /**
   * A row of Gatling's last console summary: {@code > NAME | total | OK | KO}.
   *
   * @return total, OK and KO counts, or an empty list when the row is not shown
   */
  List<Long> row(String name) {
    List<Long> counts = List.of();
    for (String line : log.split("\n")) {
      String[] cells = line.split("\\|");
      if (cells.length == 4 && cells[0].strip().equals("> " + name)) {
        counts =
            List.of(
                Long.parseLong(cells[1].strip()),
                Long.parseLong(cells[2].strip()),
                Long.parseLong(cells[3].strip()));
      }
    }
    return counts;
  }

  /** From the run record's start to its end. */
  Duration recordedDuration() {
    JsonNode r = record();
    return Duration.between(
        Instant.parse(r.get("started_at").asText()), Instant.parse(r.get("ended_at").asText()));
  }

  /**
   * The most requests in flight at once, from the records' {@code start_ms} and {@code start_ms +
   * e2e_ms} (rounded down, as {@code start_ms} is: a request that starts in the millisecond another
   * ended does not overlap it).
   */
  static long peakInFlight(List<JsonNode> requests) {
    List<long[]> edges = new ArrayList<>();
    for (JsonNode r : requests) {
      long start = r.get("start_ms").asLong();
      edges.add(new long[] {start, 1});
      edges.add(new long[] {(long) Math.floor(start + r.get("e2e_ms").asDouble()), -1});
    }
    edges.sort((a, b) -> a[0] != b[0] ? Long.compare(a[0], b[0]) : Long.compare(a[1], b[1]));
    long now = 0;
    long peak = 0;
    for (long[] e : edges) {
      now += e[1];
      peak = Math.max(peak, now);
    }
    return peak;
  }
}
