package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * A run in which no request succeeds: 4 shared-prefix prompts with an SLO, sent to {@code
 * llm.baseUrl}, which the test points at a port where nothing listens, so every request ends as a
 * {@code connect_error}.
 */
public class EmptyRunSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(4).sloTtftMs(500);

  PromptFeederBuilder prompts = prompts().sharedPrefix(0.5, 2).inputTokens(32).requests(4);

  ScenarioBuilder chat =
      scenario("chat").repeat(4).on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectOpen(atOnceUsers(1))).protocols(llm);
  }
}
