package io.github.gatlingllm.examples;

import static io.github.gatlingllm.LlmDsl.chatCompletion;
import static io.github.gatlingllm.LlmDsl.llmRun;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import java.util.Map;

/**
 * The quickstart: a closed loop of 8 virtual users sending streamed chat completions with
 * shared-prefix prompts (half of each prompt shared within 4 groups), after a short warmup. Without
 * {@code -Dllm.baseUrl} it runs against the embedded simulator; every default can be changed with
 * {@code -Dllm.*}.
 */
public class QuickstartSimulation extends Simulation {

  private final LlmRun run =
      llmRun(
          QuickstartSimulation.class,
          Map.of(
              "concurrency", "8",
              "promptMode", "shared-prefix",
              "sharedPrefixRatio", "0.5",
              "prefixGroups", "4",
              "inputTokens", "256",
              "outputTokens", "32",
              "warmupRequests", "8",
              "requests", "200"));

  {
    setUp(run.closedLoop(chatCompletion("chat")))
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
