package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * A budgeted scenario beside one with no budget of its own: 2 closed-loop users for 4 s over a
 * budget of 10 prompts (spent in well under a second), and 5 users a second for 4 s that each send
 * one request with its own prompt. The spent budget must not cut the second scenario: it sends its
 * 20 requests.
 */
public class BudgetBesideOwnPromptSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(10);

  ScenarioBuilder budgeted =
      scenario("budgeted").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  ScenarioBuilder own =
      scenario("own prompt")
          .exec(
              llm("own")
                  .chatCompletion()
                  .prompt(session -> "Say hello to user " + session.userId() + "."));

  {
    setUp(
            budgeted.injectClosed(constantConcurrentUsers(2).during(4)),
            own.injectOpen(constantUsersPerSec(5).during(4)))
        .protocols(llm);
  }
}
