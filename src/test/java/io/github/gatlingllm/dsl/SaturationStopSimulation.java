package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
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
 * The README's stepped open loop past the server's capacity, as {@code SteppedOpenLoopSimulation}
 * (6 to 30 users/s, 5 s a level, against 4 slots at 5 ms a token), whose {@code stopWhenSaturated}
 * stops the run at the first over-saturated level with requests in flight.
 */
public class SaturationStopSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(32)
          .stopWhenSaturated(true)
          .simulator(SimulatorConfig.defaults().withMaxConcurrent(4).withDecodeMsPerToken(5));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(128).requests(600);

  ScenarioBuilder open = scenario("open steps").feed(prompts).exec(llm("chat").request());

  {
    setUp(
            open.injectOpen(
                incrementUsersPerSec(6)
                    .times(5)
                    .eachLevelLasting(Duration.ofSeconds(5))
                    .startingFrom(6)))
        .protocols(llm);
  }
}
