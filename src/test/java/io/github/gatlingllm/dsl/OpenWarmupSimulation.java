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

/**
 * Warmup in an open loop: 5 warmup requests then 30 measured ones, arrivals (40 a second) faster
 * than a request ends (about 100 ms), so measured arrivals come while warmup requests still run.
 */
public class OpenWarmupSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(8).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(10));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(32).warmup(5).requests(30);

  ScenarioBuilder open = scenario("open").feed(prompts).exec(llm("chat").chatCompletion());

  {
    setUp(open.injectOpen(constantUsersPerSec(40).during(5))).protocols(llm);
  }
}
