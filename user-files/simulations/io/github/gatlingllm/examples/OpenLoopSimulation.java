package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.github.gatlingllm.LlmDsl.llmRun;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import java.util.Map;

/**
 * An open loop: requests arrive at a fixed rate whether or not earlier ones have finished, as
 * production traffic does; {@code llm.requests} arrivals at 10 requests/s. Queueing then shows in
 * TTFT instead of slowing the client down.
 */
public class OpenLoopSimulation extends Simulation {

  private static final double RATE = 10;

  private final LlmRun run =
      llmRun(
          OpenLoopSimulation.class,
          Map.of(
              "promptMode", "shared-prefix",
              "sharedPrefixRatio", "0.5",
              "prefixGroups", "4",
              "inputTokens", "256",
              "outputTokens", "32",
              "requests", "200"));

  {
    setUp(
            run.openLoop(
                run.request("chat"),
                constantUsersPerSec(RATE)
                    .during(
                        java.time.Duration.ofMillis(
                            Math.round(run.settings().requests() / RATE * 1000)))))
        .protocols(run.protocol())
        // A run whose requests fail fails the build, instead of reporting on errors; with
        // -Dllm.assert.goodputRatio, so does one whose requests miss the -Dllm.slo.* objectives.
        // One call: Gatling keeps only the last .assertions(...) of a setUp.
        .assertions(run.assertions(1.0));
  }

  @Override
  public void after() {
    run.after();
  }
}
