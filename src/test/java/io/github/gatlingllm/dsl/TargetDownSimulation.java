package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * A closed loop of 8 users for 60 s over a budget of 2,000 prompts ({@code -Dllm.requests}
 * overrides it), against {@code -Dllm.baseUrl}: the target {@link TargetDownRunsTest} takes away,
 * or never starts.
 */
public class TargetDownSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(16);

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(2_000);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(8).during(60))).protocols(llm);
  }
}
