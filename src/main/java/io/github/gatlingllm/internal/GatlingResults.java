package io.github.gatlingllm.internal;

import io.gatling.shared.cli.GatlingCliOptions;
import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.net.URL;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Optional;

/**
 * For internal use only. Where Gatling 3.16 writes this run's folder: the results folder its
 * launcher was given ({@code -rf} / {@code --results-folder}), which Gatling keeps to itself (it is
 * not in {@code GatlingConfiguration}, and the run folder is not handed to the simulation). Found
 * in Gatling's own arguments: on the command line that started {@code io.gatling.app.Gatling}
 * (Gatling's bundle, a container, {@code java ... io.gatling.app.Gatling -rf DIR}), else in the
 * argument file of the Maven plugin's booter jar ({@code META-INF/args.txt}, one argument a line:
 * how {@code gatling-maven-plugin} 4.x hands the fork its {@code resultsFolder}). {@code
 * GatlingResultsTest} fails when an upgrade renames the option.
 */
public final class GatlingResults {

  /** Gatling's launcher. */
  static final String MAIN = "io.gatling.app.Gatling";

  /** The Maven plugin's booter's argument file, on the fork's class path. */
  static final String BOOTER_ARGS = "META-INF/args.txt";

  private GatlingResults() {}

  /**
   * The results folder this JVM's Gatling writes its run folder into.
   *
   * @return the folder as given to Gatling (relative to the working directory when relative), or
   *     empty when this JVM was not started by Gatling's launcher with one (a test, another
   *     launcher)
   */
  public static Optional<Path> resultsFolder() {
    Optional<Path> fromCommand = resultsFolder(commandLineArguments());
    if (fromCommand.isPresent()) {
      return fromCommand;
    }
    return resultsFolder(booterArguments());
  }

  /**
   * The results folder among Gatling's arguments.
   *
   * @param args Gatling's arguments, e.g. {@code [-s, x.MySimulation, -rf, /results]}
   * @return the folder of the last {@code -rf DIR}, {@code --results-folder DIR} or {@code
   *     --results-folder=DIR}, or empty when there is none (or it is blank)
   */
  static Optional<Path> resultsFolder(List<String> args) {
    String shortOption = GatlingCliOptions.ResultsFolder.shortOption();
    String longOption = GatlingCliOptions.ResultsFolder.longOption();
    String found = null;
    for (int i = 0; i < args.size(); i++) {
      String a = args.get(i);
      if ((a.equals(shortOption) || a.equals(longOption)) && i + 1 < args.size()) {
        found = args.get(++i);
      } else if (a.startsWith(longOption + "=")) {
        found = a.substring(longOption.length() + 1);
      }
    }
    return found == null || found.isBlank()
        ? Optional.empty()
        : Optional.of(Path.of(found.strip()));
  }

  /**
   * The arguments after {@code io.gatling.app.Gatling} on this JVM's command line.
   *
   * @return the arguments, empty when Gatling's launcher is not this JVM's main class
   */
  static List<String> commandLineArguments() {
    Optional<String[]> args = ProcessHandle.current().info().arguments();
    if (args.isPresent()) {
      return after(List.of(args.get()));
    }
    String command = System.getProperty("sun.java.command");
    return command == null ? List.of() : after(List.of(command.strip().split("\\s+")));
  }

  /** The words after the launcher's class name, or none. */
  static List<String> after(List<String> words) {
    int main = words.indexOf(MAIN);
    return main < 0 ? List.of() : words.subList(main + 1, words.size());
  }

  /**
   * The arguments the Maven plugin's booter jar hands Gatling: the argument file on the class path
   * that names a results folder.
   *
   * @return its lines, or none
   */
  static List<String> booterArguments() {
    try {
      ClassLoader loader = Thread.currentThread().getContextClassLoader();
      if (loader == null) {
        loader = ClassLoader.getSystemClassLoader();
      }
      Enumeration<URL> files = loader.getResources(BOOTER_ARGS);
      while (files.hasMoreElements()) {
        List<String> lines = new ArrayList<>();
        try (BufferedReader in =
            new BufferedReader(
                new InputStreamReader(files.nextElement().openStream(), StandardCharsets.UTF_8))) {
          for (String line = in.readLine(); line != null; line = in.readLine()) {
            lines.add(line);
          }
        }
        if (resultsFolder(lines).isPresent()) {
          return lines;
        }
      }
    } catch (IOException | RuntimeException e) {
      // Not readable: the run falls back on llm.resultsFolder.
    }
    return List.of();
  }
}
