package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/** An open loop with more arrivals (20 a second for 5 s: 100) than prompts (40). */
public class OpenBudgetSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(40);

  ScenarioBuilder open = scenario("open").feed(prompts).exec(llm("chat").chatCompletion());

  {
    setUp(open.injectOpen(constantUsersPerSec(20).during(5))).protocols(llm);
  }
}
