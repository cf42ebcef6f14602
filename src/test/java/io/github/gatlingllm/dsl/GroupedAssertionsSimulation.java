package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * Issue 30's Gatling user: the request inside {@code group("turn")}, 2 warmup then 20 measured
 * requests from 2 users, {@code llm.assertions} joined with the user's own Gatling assertions in
 * one call: a count of the real requests on {@code global()} (22: the LLM figures are not
 * requests), the grouped request by its Gatling path, and a TTFT figure by its path. With {@code
 * -Dllm.slo.ttftMs} and {@code -Dllm.assert.goodputRatio} the SLO assertion joins them.
 */
public class GroupedAssertionsSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(8);

  PromptFeederBuilder prompts = prompts().inputTokens(32).warmup(2).requests(20);

  ScenarioBuilder chat =
      scenario("chat")
          .forever()
          .on(
              feed(prompts)
                  .group("turn")
                  .on(io.gatling.javaapi.core.CoreDsl.exec(llm("chat").chatCompletion())));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(2).during(60)))
        .protocols(llm)
        .assertions(
            llm.assertions(1.0, "chat")
                .and(
                    global().allRequests().count().is(22L),
                    details("turn", "chat").successfulRequests().percent().is(100.0),
                    details("chat TTFT").responseTime().max().lt(60_000)));
  }
}
