package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/** A request with neither a feeder nor a prompt of its own, in a closed loop. */
public class NoPromptSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  ScenarioBuilder chat = scenario("no prompt").forever().on(llm("chat").chatCompletion());

  {
    setUp(chat.injectClosed(constantConcurrentUsers(4).during(60))).protocols(llm);
  }
}
