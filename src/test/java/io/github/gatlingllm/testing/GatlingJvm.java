package io.github.gatlingllm.testing;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;

/**
 * Starts a simulation in a Gatling JVM of its own, as {@code ./mvnw gatling:test} runs it. A test
 * that uses it is tagged {@code @Tag("forked")}: surefire runs those in an execution of their own,
 * after the unit tests. Needs {@code target/test-classpath.txt} ({@code ./mvnw test-compile}).
 */
public final class GatlingJvm {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The pom's fork argument that turns off Gatling's check for a newer release. */
  public static final String NO_VERSION_CHECK = "io.github.gatlingllm.internal.NoVersionCheck";

  /**
   * The JIT flag of every Gatling JVM a test starts: the client compiler only (C1, no C2). A test's
   * run lasts seconds, so C2's compile threads (which on a 2-core machine take the CPU from the run
   * and from the other JVMs) never pay back: a QuickstartSimulation run took 20-26 s with them and
   * 14-17 s without on this loaded 2-core machine, its client CPU share 0.37 against 0.19. Nothing
   * the run computes depends on the JIT. A test that wants C2 passes {@code
   * -XX:TieredStopAtLevel=4} among its properties (the later flag wins).
   */
  public static final String QUICK_START = "-XX:TieredStopAtLevel=1";

  private GatlingJvm() {}

  /**
   * Starts Gatling; stdout and stderr go to {@code log}.
   *
   * @param simulation the simulation class
   * @param results Gatling's results folder and {@code llm.resultsFolder}
   * @param properties extra {@code -D} options
   * @param log where the JVM's output goes
   * @return the started JVM
   * @throws IOException when the classpath file cannot be read or the JVM cannot start
   */
  public static Process start(Class<?> simulation, Path results, List<String> properties, Path log)
      throws IOException {
    return start(List.of(), simulation, results, properties, log);
  }

  /**
   * Starts Gatling through a launcher command that execs it (e.g. {@code env
   * --default-signal=INT}); stdout and stderr go to {@code log}.
   *
   * @param launcher the command words before {@code java}, empty for none
   * @param simulation the simulation class
   * @param results Gatling's results folder and {@code llm.resultsFolder}
   * @param properties extra {@code -D} options
   * @param log where the JVM's output goes
   * @return the started JVM
   * @throws IOException when the classpath file cannot be read or the JVM cannot start
   */
  public static Process start(
      List<String> launcher, Class<?> simulation, Path results, List<String> properties, Path log)
      throws IOException {
    String classpath =
        "target/test-classes"
            + File.pathSeparator
            + "target/classes"
            + File.pathSeparator
            + Files.readString(Path.of("target/test-classpath.txt")).strip();
    List<String> command = new ArrayList<>(launcher);
    command.add(Path.of(System.getProperty("java.home"), "bin", "java").toString());
    command.add("--add-opens=java.base/java.lang=ALL-UNNAMED");
    command.add("-Xmx1G");
    command.add(QUICK_START);
    command.add("-Dai.djl.offline=true");
    command.add("-Djava.util.prefs.PreferencesFactory=" + NO_VERSION_CHECK);
    command.add("-Dllm.resultsFolder=" + results);
    command.addAll(properties);
    command.addAll(
        List.of(
            "-cp",
            classpath,
            "io.gatling.app.Gatling",
            "-s",
            simulation.getName(),
            "-rf",
            results.toString()));
    return new ProcessBuilder(command)
        .redirectErrorStream(true)
        .redirectOutput(log.toFile())
        .start();
  }

  /**
   * The run folders of {@code simulation} under {@code results}.
   *
   * @throws IOException when {@code results} cannot be listed
   */
  public static List<Path> runFolders(Class<?> simulation, Path results) throws IOException {
    String prefix = simulation.getSimpleName().toLowerCase() + "-";
    try (Stream<Path> children = Files.list(results)) {
      return children
          .filter(Files::isDirectory)
          .filter(p -> p.getFileName().toString().startsWith(prefix))
          .toList();
    }
  }

  /**
   * Runs a simulation to its end in a Gatling JVM of its own and returns its run folder; fails the
   * calling test when the JVM takes more than {@code timeoutSeconds}, exits with another code than
   * {@code exitCode} (0: no assertion failed; 2: one did), or leaves other than one run folder.
   *
   * @param simulation the simulation class
   * @param results Gatling's results folder, where the log {@code gatling-*.log} goes too
   * @param properties extra {@code -D} options
   * @param exitCode the exit code expected
   * @param timeoutSeconds the longest the run may take
   * @return the run folder
   * @throws Exception when the JVM cannot start or the wait is interrupted
   */
  public static Path run(
      Class<?> simulation, Path results, List<String> properties, int exitCode, int timeoutSeconds)
      throws Exception {
    Path log = Files.createTempFile(results, "gatling-", ".log");
    Process process = start(simulation, results, properties, log);
    try {
      assertTrue(
          process.waitFor(timeoutSeconds, TimeUnit.SECONDS),
          () -> "Gatling did not finish within " + timeoutSeconds + " s:\n" + read(log));
    } finally {
      process.destroyForcibly();
    }
    assertEquals(exitCode, process.exitValue(), () -> "Gatling's exit code:\n" + read(log));
    List<Path> runs = runFolders(simulation, results);
    assertEquals(1, runs.size(), () -> "run folders: " + runs + "\n" + read(log));
    return runs.get(0);
  }

  /**
   * The lines of a run folder's {@code llm-requests.jsonl}, parsed.
   *
   * @param run the run folder
   * @return one node per request, in file order
   * @throws IOException when the file cannot be read or a line is not JSON
   */
  public static List<JsonNode> requests(Path run) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("llm-requests.jsonl"))) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  /**
   * A run folder's {@code llm-run.json}, parsed.
   *
   * @param run the run folder
   * @return the record
   * @throws IOException when the file cannot be read or is not JSON
   */
  public static JsonNode runRecord(Path run) throws IOException {
    return JSON.readTree(run.resolve("llm-run.json").toFile());
  }

  /** The log, or a line saying why it cannot be read. */
  public static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
