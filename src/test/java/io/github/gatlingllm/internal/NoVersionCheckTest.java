package io.github.gatlingllm.internal;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.testing.GatlingJvm;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;

/**
 * Gatling's check for a newer release, turned off by {@link NoVersionCheck} (issue 30, point 6):
 * Gatling finds no newer release and never asks Maven Central (it would then keep the time of its
 * check in the node). Fails when a Gatling upgrade moves the check's node or keys.
 */
@Tag("forked")
@Tag("parallel")
class NoVersionCheckTest {

  @Test
  void gatlingFindsNoNewerReleaseAndAsksNothing() throws Exception {
    String classpath =
        "target/test-classes"
            + File.pathSeparator
            + "target/classes"
            + File.pathSeparator
            + Files.readString(Path.of("target/test-classpath.txt")).strip();
    Process process =
        new ProcessBuilder(
                List.of(
                    Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                    "-Djava.util.prefs.PreferencesFactory=" + GatlingJvm.NO_VERSION_CHECK,
                    "-cp",
                    classpath,
                    LatestReleaseProbe.class.getName()))
            .redirectErrorStream(true)
            .start();
    assertTrue(process.waitFor(60, TimeUnit.SECONDS));
    String out = new String(process.getInputStream().readAllBytes(), StandardCharsets.UTF_8);

    assertEquals(0, process.exitValue(), out);
    assertEquals("None " + Long.MAX_VALUE, out.strip());
  }
}
