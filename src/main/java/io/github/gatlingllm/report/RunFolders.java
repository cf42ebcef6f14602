package io.github.gatlingllm.report;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.Objects;
import java.util.Optional;
import java.util.Set;
import java.util.stream.Stream;

/**
 * Finds the run folder Gatling made for this run: the folders of the results folder are listed
 * before the run and again when needed; the one that is new and belongs to the simulation is the
 * run's. Gatling does not hand its run folder to the simulation, and guessing "the newest" is wrong
 * when two runs share a results folder.
 *
 * <p>Gatling names run folders {@code <simulation class simple name,
 * lower-cased>-<yyyyMMddHHmmssSSS>}.
 */
public final class RunFolders {

  private final Path results;
  private final String prefix;
  private final Set<Path> before;

  private RunFolders(Path results, String prefix, Set<Path> before) {
    this.results = results;
    this.prefix = prefix;
    this.before = before;
  }

  /**
   * Lists the results folder now, before the run makes its folder.
   *
   * @param results Gatling's results folder (e.g. {@code target/gatling}); need not exist yet
   * @param simulationClass the running simulation's class, or null when not known: then any new run
   *     folder is the run's
   * @return the listing to compare against later
   * @throws UncheckedIOException if the folder exists but cannot be listed
   */
  public static RunFolders before(Path results, Class<?> simulationClass) {
    Objects.requireNonNull(results, "results");
    String prefix =
        simulationClass == null
            ? ""
            : simulationClass.getSimpleName().toLowerCase(java.util.Locale.ROOT) + "-";
    return new RunFolders(results, prefix, new HashSet<>(list(results, prefix)));
  }

  /**
   * The run's folder, if Gatling has made it by now.
   *
   * @return the one new folder of this simulation, or empty when there is none yet
   * @throws IllegalStateException if several new folders of this simulation appeared (two runs at
   *     once in one results folder)
   * @throws UncheckedIOException if the folder cannot be listed
   */
  public Optional<Path> find() {
    List<Path> fresh = list(results, prefix).stream().filter(p -> !before.contains(p)).toList();
    if (fresh.size() > 1) {
      throw new IllegalStateException(
          "several new run folders of this simulation appeared in "
              + results
              + " during the run: "
              + fresh
              + "; run one simulation at a time per results folder");
    }
    return fresh.stream().findFirst();
  }

  /**
   * The results folder.
   *
   * @return the folder given at creation
   */
  public Path results() {
    return results;
  }

  private static List<Path> list(Path results, String prefix) {
    if (!Files.isDirectory(results)) {
      return List.of();
    }
    try (Stream<Path> children = Files.list(results)) {
      return children
          .filter(Files::isDirectory)
          .filter(p -> p.getFileName().toString().startsWith(prefix))
          // The run record's scratch folder (.llm-...) is new too, and never Gatling's.
          .filter(p -> !p.getFileName().toString().startsWith("."))
          .map(Path::toAbsolutePath)
          .toList();
    } catch (IOException e) {
      throw new UncheckedIOException("cannot list the results folder " + results, e);
    }
  }
}
