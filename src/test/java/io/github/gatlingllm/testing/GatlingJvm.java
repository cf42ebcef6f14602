package io.github.gatlingllm.testing;

import java.io.File;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;

/** Starts a simulation in a Gatling JVM of its own, as {@code ./mvnw gatling:test} runs it. */
public final class GatlingJvm {

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
    command.add("-Dai.djl.offline=true");
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

  /** The log, or a line saying why it cannot be read. */
  public static String read(Path log) {
    try {
      return Files.readString(log);
    } catch (IOException e) {
      return "(no log: " + e + ")";
    }
  }
}
