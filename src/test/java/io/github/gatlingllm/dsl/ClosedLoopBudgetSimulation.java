package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * What a Gatling user writes first: a raw closed loop of 4 users for 60 s over a feeder of 40
 * prompts. The run must end soon after the 40th request, not at 60 s. Each request takes at least
 * 95 ms (20 ms to the first of 16 tokens, then 5 ms a token), so the 4th user, which Gatling starts
 * within the first second, is running before the budget is spent.
 */
public class ClosedLoopBudgetSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(16).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(5));

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(40);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(4).during(60))).protocols(llm);
  }
}
