package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.*;
import static io.github.gatlingllm.LlmDsl.*;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * {@link TargetDownSimulation} with the quickstart's {@code llm.assertions(1.0, "chat")}: a run the
 * target-down watch stops still has its assertions checked.
 */
public class TargetDownAssertionsSimulation extends Simulation {
  LlmProtocolBuilder llm = llm().maxTokens(16);
  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(2_000);
  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(8).during(60)))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
