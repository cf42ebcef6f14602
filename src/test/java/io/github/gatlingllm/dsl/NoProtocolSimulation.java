package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.PromptFeederBuilder;

/** {@code .protocols(llm)} forgotten: only -Dllm.* properties configure the requests. */
public class NoProtocolSimulation extends Simulation {

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(10);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(2).during(60)));
  }
}
