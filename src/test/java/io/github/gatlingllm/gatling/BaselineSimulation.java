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
 * Run by {@link BaselineGateTest} in a Gatling JVM of its own: 4 virtual users against the embedded
 * simulator (TTFT 100 ms, 20 ms a token unless {@code -Dllm.simulator.decodeMsPerToken} says
 * otherwise, 32 output tokens: decoding is most of E2E), 4 warmup then 80 measured unique prompts
 * of 128 tokens, and {@code llm.assertions(...)}: with {@code -Dllm.baseline} and {@code
 * -Dllm.assert.noRegressionPct} they hold the regression gate's rows.
 */
public class BaselineSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(32)
          .simulator(
              SimulatorConfig.defaults()
                  .withBaseTtftMs(100)
                  .withPrefillUsPerToken(0)
                  .withDecodeMsPerToken(20)
                  .withMaxConcurrent(64));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(128).warmup(4).requests(80);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(4).during(Duration.ofMinutes(10))))
        .protocols(llm)
        .assertions(llm.assertions(100.0, "chat"));
  }
}
