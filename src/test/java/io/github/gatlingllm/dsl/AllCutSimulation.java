package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;

/**
 * A run in which every request is cut: 2 users each send one shared-prefix request that takes about
 * 8 s (1 s a token for 8 tokens) in a simulation whose {@code maxDuration} is 2 s, so every request
 * is still in flight when Gatling stops the run.
 */
public class AllCutSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(8)
          .sloTtftMs(500)
          .simulator(
              SimulatorConfig.defaults()
                  .withBaseTtftMs(60)
                  .withPrefillUsPerToken(0)
                  .withDecodeMsPerToken(1000)
                  .withMaxConcurrent(64));

  PromptFeederBuilder prompts = prompts().sharedPrefix(0.5, 2).inputTokens(32).requests(2);

  ScenarioBuilder chat = scenario("chat").exec(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectOpen(atOnceUsers(2))).protocols(llm).maxDuration(Duration.ofSeconds(2));
  }
}
