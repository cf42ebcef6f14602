package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.incrementConcurrentUsers;
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
 * A stepped closed profile of users looping {@code forever()}, as the examples teach, with a prompt
 * budget far beyond the profile: 2, 4 then 6 concurrent users, 3 s each (a 9 s profile; without
 * {@code startingFrom} Gatling's first level is 0 users).
 */
public class SteppedClosedForeverSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(8).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(5));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(32).requests(1_000_000);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(
            chat.injectClosed(
                incrementConcurrentUsers(2)
                    .times(3)
                    .eachLevelLasting(Duration.ofSeconds(3))
                    .startingFrom(2)))
        .protocols(llm);
  }
}
