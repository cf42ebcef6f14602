package io.github.gatlingllm.examples;

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
 * A stepped open loop past the server's capacity: arrivals at 6, 12, 18, 24 and 30 users/s, 5 s
 * each, one unique 128-token prompt and 32 output tokens per user, against a simulator serving 4
 * requests at once at 5 ms a token (about 21 requests/s). Each level's throughput is what the
 * server served in it, so the levels flatten near its capacity while the offered rate grows, and
 * {@code stopWhenSaturated} stops the run at the first over-saturated level.
 */
public class SteppedOpenLoopSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(32)
          .stopWhenSaturated(true)
          .simulator(SimulatorConfig.defaults().withMaxConcurrent(4).withDecodeMsPerToken(5));

  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(128).requests(600).caseId("open_steps_in128_out32");

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
