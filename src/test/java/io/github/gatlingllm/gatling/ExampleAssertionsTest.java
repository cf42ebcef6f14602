package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.examples.QuickstartSimulation;
import io.github.gatlingllm.testing.GatlingJvm;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's promise about the example simulations, through the real Gatling engine: a run whose
 * requests all fail (nothing listens at the base URL) fails the build, by the {@code chat} failure
 * assertion of {@code llm.assertions(1.0, "chat")} on the {@code chat} row, which is KO exactly
 * when the request failed.
 */
@Tag("forked")
@Tag("parallel")
class ExampleAssertionsTest {

  @TempDir Path results;

  @Test
  void quickstartAgainstAClosedPortFailsTheBuild() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Path log = results.resolve("gatling.log");
    Process process =
        GatlingJvm.start(
            QuickstartSimulation.class,
            results,
            List.of(
                "-Dllm.baseUrl=http://127.0.0.1:" + port + "/v1",
                "-Dllm.model=x",
                "-Dllm.requests=4",
                "-Dllm.warmupRequests=0",
                // the requests themselves fail here, not the pre-flight check (PreflightRunsTest)
                "-Dllm.preflight=false"),
            log);
    assertTrue(process.waitFor(180, TimeUnit.SECONDS), "Gatling did not finish within 180 s");
    String output = GatlingJvm.read(log);
    assertEquals(2, process.exitValue(), output);
    assertTrue(
        output.contains(
            "chat E2E: percentage of failed events is less than 1.0 : false (actual : 100.0)"),
        output);
  }
}
