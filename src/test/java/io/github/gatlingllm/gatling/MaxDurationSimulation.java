package io.github.gatlingllm.gatling;

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
import java.time.Duration;

/**
 * Run by {@link MaxDurationRunTest}: 3 virtual users whose streamed requests take over 8 s (TTFT 60
 * ms, then 1 s a token for 8 tokens) in a simulation whose {@code maxDuration} is 3 s, so Gatling
 * stops it with every request in flight.
 */
public class MaxDurationSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(8)
          .simulator(
              SimulatorConfig.defaults()
                  .withBaseTtftMs(60)
                  .withPrefillUsPerToken(0)
                  .withDecodeMsPerToken(250)
                  .withMaxConcurrent(64));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(64).warmup(0).requests(100);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(3).during(Duration.ofMinutes(1))))
        .protocols(llm)
        .maxDuration(Duration.ofSeconds(3));
  }
}
