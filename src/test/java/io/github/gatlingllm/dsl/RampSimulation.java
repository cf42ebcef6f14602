package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * A ramp of concurrency from 1 to 8 users over 5 s, then 8 users, over 300 prompts. Each request
 * takes at least 90 ms (20 ms to the first of 8 tokens, then 10 ms a token): the ramp's users send
 * at most 250 of them in its 5 s, so the budget lasts until all 8 users run.
 */
public class RampSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(8).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(10));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(32).requests(300);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(
            chat.injectClosed(
                rampConcurrentUsers(1).to(8).during(5), constantConcurrentUsers(8).during(60)))
        .protocols(llm);
  }
}
