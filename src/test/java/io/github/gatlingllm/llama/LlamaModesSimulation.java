package io.github.gatlingllm.llama;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.github.gatlingllm.LlmDsl.llmRun;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import io.github.gatlingllm.prompt.PromptSpec;
import java.util.Map;

/**
 * Run by {@link LlamaServerTest} in a Gatling JVM of its own against a real llama.cpp server
 * ({@code scripts/llama-server.sh}, one slot): the three prompt modes one after another, each a
 * closed loop of one virtual user, so requests reach the single slot one at a time in index order.
 * Request names: {@code llama repeat}, {@code llama shared-prefix} (three quarters of each prompt
 * in one of two group prefixes) and {@code llama unique}. The base URL, tokenizer, endpoint and
 * seed come from {@code -Dllm.*}.
 */
public class LlamaModesSimulation extends Simulation {

  /** Share of each shared-prefix prompt in its group prefix. */
  static final double SHARED_RATIO = 0.75;

  /** Number of shared-prefix groups. */
  static final int GROUPS = 2;

  private final LlmRun run =
      llmRun(
          LlamaModesSimulation.class,
          Map.of(
              "concurrency", "1",
              "warmupRequests", "0",
              "promptMode", "repeat",
              "inputTokens", "1024",
              "outputTokens", "16",
              "ignoreEos", "true",
              "requests", "12"));

  {
    LlmRun.Workload repeat = run.workload();
    LlmRun.Workload shared =
        run.addWorkload("shared-prefix", PromptSpec.sharedPrefix(SHARED_RATIO, GROUPS));
    LlmRun.Workload unique = run.addWorkload("unique", PromptSpec.unique());
    setUp(
            run.closedLoop(repeat, run.request("llama repeat"), atOnceUsers(1))
                .andThen(
                    run.closedLoop(shared, run.request("llama shared-prefix"), atOnceUsers(1))
                        .andThen(
                            run.closedLoop(unique, run.request("llama unique"), atOnceUsers(1)))))
        .protocols(run.protocol())
        .assertions(global().failedRequests().count().is(0L));
  }

  @Override
  public void after() {
    run.after();
  }
}
