package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.sweep;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.SweepBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;

/**
 * A concurrency sweep: 1 user (the synchronous level), then 2, 4 and 8, then 16 (the throughput
 * level), 10 s each, streamed chat completions of 32 tokens on unique 256-token prompts. Each level
 * gets its own figures in {@code llm-run.json}'s {@code levels}; {@code saturation} gives the
 * saturation point and, with an SLO ({@code -Dllm.slo.ttftMs=...}), the highest concurrency that
 * meets it. The run stops at the end of the first over-saturated level ({@code
 * llm.stopWhenSaturated}).
 *
 * <p>Without {@code -Dllm.baseUrl} it runs against the embedded simulator configured as a server
 * that decodes 4 sequences at once (5 ms a token) and queues the rest: its throughput is reached at
 * 4 users, and 8 users, whose added 4 only queue, are over capacity (saturated at 8 users, the run
 * stops there). Every value can be changed with {@code -Dllm.*}: {@code
 * -Dllm.sweep.maxConcurrency=64}, {@code -Dllm.sweep.levels=4}, {@code
 * -Dllm.sweep.levelDuration=30s}, {@code -Dllm.simulator.maxConcurrent=8}.
 */
public class SweepSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(32)
          .simulator(SimulatorConfig.defaults().withMaxConcurrent(4).withDecodeMsPerToken(5))
          .stopWhenSaturated(true);

  SweepBuilder sweep = sweep().maxConcurrency(16).levels(3).levelDuration(Duration.ofSeconds(10));

  // One prompt per request; the budget is far above what the sweep sends.
  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(256).requests(1_000_000).caseId("sweep_in256_out32");

  // One request per virtual user: the closed model starts a new user as one ends, and lets the
  // last level's users finish when the sweep is over.
  ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").request());

  {
    setUp(chat.injectClosed(sweep.steps())).protocols(llm).assertions(llm.assertions(1.0, "chat"));
  }
}
