package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.github.gatlingllm.LlmDsl.llmRun;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import io.github.gatlingllm.prompt.PromptSpec;
import java.util.Map;

/**
 * The three prompt modes one after another, each a closed loop of the same size, so their prefix
 * cache effect shows side by side in the report: {@code repeat} (almost all cached after the first
 * request), {@code shared-prefix} (the group prefix cached), {@code unique} (nothing cached).
 * Request names are {@code chat repeat}, {@code chat shared-prefix} and {@code chat unique}.
 */
public class PromptModesSimulation extends Simulation {

  private final LlmRun run =
      llmRun(
          PromptModesSimulation.class,
          Map.of(
              "concurrency", "4",
              "warmupRequests", "4",
              "promptMode", "repeat",
              "inputTokens", "512",
              "outputTokens", "16",
              "requests", "60"));

  {
    LlmRun.Workload repeat = run.workload();
    LlmRun.Workload shared = run.addWorkload("shared-prefix", PromptSpec.sharedPrefix(0.5, 4));
    LlmRun.Workload unique = run.addWorkload("unique", PromptSpec.unique());
    int users = run.settings().concurrency();
    setUp(
            run.closedLoop(repeat, run.request("chat repeat"), atOnceUsers(users))
                .andThen(
                    run.closedLoop(shared, run.request("chat shared-prefix"), atOnceUsers(users))
                        .andThen(
                            run.closedLoop(
                                unique, run.request("chat unique"), atOnceUsers(users)))))
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
