package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

/**
 * Gatling's results folder from its launcher's arguments (issue 40, item 6): the option's names are
 * Gatling's own ({@code GatlingCliOptions}), so an upgrade that renames them fails here.
 */
class GatlingResultsTest {

  @Test
  void gatlingsOptionNames() {
    assertEquals("-rf", io.gatling.shared.cli.GatlingCliOptions.ResultsFolder.shortOption());
    assertEquals(
        "--results-folder", io.gatling.shared.cli.GatlingCliOptions.ResultsFolder.longOption());
  }

  @Test
  void shortOption() {
    assertEquals(
        Optional.of(Path.of("/results/shard-1")),
        GatlingResults.resultsFolder(List.of("-s", "x.MySimulation", "-rf", "/results/shard-1")));
  }

  @Test
  void longOption() {
    assertEquals(
        Optional.of(Path.of("target/g")),
        GatlingResults.resultsFolder(List.of("--results-folder", "target/g", "-nr")));
  }

  @Test
  void longOptionWithEquals() {
    assertEquals(
        Optional.of(Path.of("/r")), GatlingResults.resultsFolder(List.of("--results-folder=/r")));
  }

  @Test
  void theLastOneWins() {
    assertEquals(
        Optional.of(Path.of("/b")),
        GatlingResults.resultsFolder(List.of("-rf", "/a", "-rf", "/b")));
  }

  @Test
  void noneGiven() {
    assertEquals(Optional.empty(), GatlingResults.resultsFolder(List.of("-s", "x.MySimulation")));
  }

  @Test
  void anOptionWithoutItsValue() {
    assertEquals(Optional.empty(), GatlingResults.resultsFolder(List.of("-s", "x", "-rf")));
  }

  @Test
  void theMavenBooterArgumentFile() {
    // gatling-maven-plugin 4.21.0's META-INF/args.txt, one argument a line.
    assertEquals(
        Optional.of(Path.of("/work/p/target/gatling")),
        GatlingResults.resultsFolder(
            List.of(
                "-s",
                "io.github.gatlingllm.examples.QuickstartSimulation",
                "-rf",
                "/work/p/target/gatling",
                "-l",
                "maven",
                "-btv",
                "3.9.11")));
  }

  @Test
  void theWordsAfterGatlingsLauncher() {
    assertEquals(
        List.of("-s", "x.S", "-rf", "/r"),
        GatlingResults.after(
            List.of(
                "/usr/bin/java",
                "-cp",
                "a:b",
                "io.gatling.app.Gatling",
                "-s",
                "x.S",
                "-rf",
                "/r")));
  }

  @Test
  void noWordsWhenAnotherMainRuns() {
    // The Maven plugin's booter names Gatling's launcher last, its arguments are in its jar.
    assertEquals(
        List.of(),
        GatlingResults.after(List.of("/usr/bin/java", "-jar", "/tmp/gatlingbooter1.jar")));
  }
}
