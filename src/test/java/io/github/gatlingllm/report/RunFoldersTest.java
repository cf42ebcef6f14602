package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RunFoldersTest {

  @TempDir Path results;

  static final class MySimulation {}

  @Test
  void findsTheOneNewFolderOfTheSimulation() throws IOException {
    Files.createDirectories(results.resolve("mysimulation-20260101000000000"));
    RunFolders folders = RunFolders.before(results, MySimulation.class);
    assertEquals(Optional.empty(), folders.find());
    Files.createDirectories(results.resolve("othersimulation-20260101000000001"));
    Path mine = Files.createDirectories(results.resolve("mysimulation-20260101000000002"));
    assertEquals(Optional.of(mine.toAbsolutePath()), folders.find());
  }

  @Test
  void twoNewFoldersAreAnError() throws IOException {
    RunFolders folders = RunFolders.before(results, MySimulation.class);
    Files.createDirectories(results.resolve("mysimulation-1"));
    Files.createDirectories(results.resolve("mysimulation-2"));
    assertThrows(IllegalStateException.class, folders::find);
  }

  @Test
  void missingResultsFolderHasNoRunYet() {
    assertEquals(
        Optional.empty(), RunFolders.before(results.resolve("none"), MySimulation.class).find());
  }
}
