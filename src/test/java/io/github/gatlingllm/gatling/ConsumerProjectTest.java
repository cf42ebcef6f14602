package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.Paths;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A user's own Gatling project (src/test/consumer: the gatling-maven-plugin demo layout, a
 * simulation in src/test/java, gatling-llm as a test dependency, no logback file) built and run
 * with this project's Maven against the freshly built extension: its classes as a jar with this
 * pom, installed into a local repository of the test's own whose tail is the machine's (read only),
 * all offline. The run writes llm-report.html and prints the LLM summary on the console, though the
 * project logs at Gatling's default level.
 */
@Tag("forked")
@Tag("parallel")
class ConsumerProjectTest {

  @TempDir Path work;

  /** Installs the freshly built extension and copies the consumer project; returns it. */
  private Path consumer() throws Exception {
    Path project = Paths.get("").toAbsolutePath();
    Path jar = jar(project.resolve("target/classes"), work.resolve("gatling-llm.jar"));
    Path consumer = work.resolve("consumer");
    copy(project.resolve("src/test/consumer"), consumer);
    Run install =
        maven(
            project,
            "install:install-file",
            "-Dfile=" + jar,
            "-DpomFile=" + project.resolve("pom.xml"));
    assertEquals(0, install.exitCode, install.output);
    return consumer;
  }

  @Test
  void aUsersOwnProjectRunsTheExtensionAndShowsItsSummary() throws Exception {
    Path consumer = consumer();

    Run run = maven(consumer, "gatling:test");

    assertEquals(0, run.exitCode, run.output);
    assertTrue(run.output.contains("\nLLM summary: 12 requests (ok 12)"), run.output);
    assertTrue(run.output.contains("\nLLM report: file:"), run.output);
    // The project logs at Gatling's default level: the extension's INFO lines are not shown, the
    // summary above came through standard output.
    assertTrue(!run.output.contains("started the embedded simulator"), run.output);
    List<Path> reports;
    try (Stream<Path> files = Files.walk(consumer.resolve("target/gatling"))) {
      reports = files.filter(p -> p.getFileName().toString().equals("llm-report.html")).toList();
    }
    assertEquals(1, reports.size(), run.output);
    // the extension ran on the consumer's Gatling: one gatling-core on its class path
    assertTrue(
        Files.readString(reports.get(0).resolveSibling("llm-run.json")).contains("\"3.16.0\""),
        run.output);
  }

  @Test
  void aBadInputInAUsersOwnProjectIsOneLine() throws Exception {
    // Through the Maven plugin's forked JVM (its ForkMain printed the exception's traces before),
    // with the project's own logging: issue 30, point 3.
    Path consumer = consumer();

    Run run = maven(consumer, "gatling:test", "-Dllm.maxToken=8");

    assertEquals(1, run.exitCode, run.output);
    assertTrue(
        run.output.contains(
            "\nllm.maxToken: unknown setting; did you mean llm.outputTokens? (every setting:"
                + " docs/settings.md)\n"),
        run.output);
    for (String trace : List.of("\tat ", "Caused by:", "Wrapped by:", "Exception in thread")) {
      assertTrue(!run.output.contains(trace), trace + " in:\n" + run.output);
    }
  }

  /** The machine's local repository: where Gatling's core jar was loaded from. */
  private static Path machineRepository() throws Exception {
    Path core =
        Paths.get(
            io.gatling.core.CoreComponents.class
                .getProtectionDomain()
                .getCodeSource()
                .getLocation()
                .toURI());
    // REPO/io/gatling/gatling-core/VERSION/gatling-core-VERSION.jar
    return core.getParent().getParent().getParent().getParent().getParent();
  }

  /** The compiled classes as a jar, as maven-jar-plugin packs them. */
  private static Path jar(Path classes, Path jar) throws IOException {
    Manifest manifest = new Manifest();
    manifest.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
    try (OutputStream file = Files.newOutputStream(jar);
        JarOutputStream out = new JarOutputStream(file, manifest);
        Stream<Path> files = Files.walk(classes)) {
      for (Path p : files.filter(Files::isRegularFile).sorted().toList()) {
        out.putNextEntry(new JarEntry(classes.relativize(p).toString().replace('\\', '/')));
        Files.copy(p, out);
        out.closeEntry();
      }
    }
    return jar;
  }

  private static void copy(Path from, Path to) throws IOException {
    try (Stream<Path> files = Files.walk(from)) {
      for (Path p : files.toList()) {
        Path target = to.resolve(from.relativize(p).toString());
        if (Files.isDirectory(p)) {
          Files.createDirectories(target);
        } else {
          Files.copy(p, target);
        }
      }
    }
  }

  private record Run(int exitCode, String output) {}

  /** This project's Maven, offline, on the test's repository over the machine's. */
  private Run maven(Path directory, String... args) throws Exception {
    Path project = Paths.get("").toAbsolutePath();
    Path repository = work.resolve("repository");
    Path tail = machineRepository();
    List<String> command = new ArrayList<>();
    command.add(project.resolve("mvnw").toString());
    command.add("-B");
    command.add("-o");
    command.add("-Dmaven.repo.local=" + repository);
    command.add("-Dmaven.repo.local.tail=" + tail);
    command.addAll(List.of(args));
    Path log = work.resolve("maven-" + System.nanoTime() + ".log");
    ProcessBuilder builder =
        new ProcessBuilder(command)
            .directory(directory.toFile())
            .redirectErrorStream(true)
            .redirectOutput(log.toFile());
    builder.environment().remove("MAVEN_ARGS");
    Process process = builder.start();
    if (!process.waitFor(240, TimeUnit.SECONDS)) {
      process.destroyForcibly();
      throw new AssertionError(
          "Maven did not finish within 240 s:\n" + Files.readString(log, StandardCharsets.UTF_8));
    }
    return new Run(process.exitValue(), Files.readString(log, StandardCharsets.UTF_8));
  }
}
