package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.rampUsers;
import static io.github.gatlingllm.LlmDsl.llmRun;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import java.util.Map;

/**
 * A closed loop whose concurrency ramps up: {@code llm.concurrency} virtual users start evenly over
 * 20 seconds, each sending requests back to back until {@code llm.requests} are sent. Shows how
 * TTFT grows as the server's batch fills.
 */
public class RampedConcurrencySimulation extends Simulation {

  private final LlmRun run =
      llmRun(
          RampedConcurrencySimulation.class,
          Map.of(
              "concurrency", "32",
              "promptMode", "unique",
              "inputTokens", "256",
              "outputTokens", "32",
              "requests", "400"));

  {
    setUp(
            run.closedLoop(
                run.workload(),
                run.request("chat"),
                rampUsers(run.settings().concurrency()).during(20)))
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
