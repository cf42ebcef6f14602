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
 * A short open loop from a cold JVM: 6 users a second for {@code -Dseconds} (default 5), one
 * request each, no warm-up: the first users start late while the JVM loads its classes.
 */
public class ShortOpenSimulation extends Simulation {

  static final int SECONDS = Integer.getInteger("seconds", 5);

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(10_000);

  ScenarioBuilder open = scenario("open").feed(prompts).exec(llm("chat").chatCompletion());

  {
    setUp(open.injectOpen(constantUsersPerSec(6).during(SECONDS))).protocols(llm);
  }
}
