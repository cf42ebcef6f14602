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
import io.github.gatlingllm.simulator.SimulatorConfig;

/** Two LLM calls on one fed record: a chat completion then a text completion of the same prompt. */
public class TwoCallsOneRecordSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  PromptFeederBuilder prompts = prompts().unique().inputTokens(32).requests(10);

  ScenarioBuilder chat =
      scenario("two calls")
          .forever()
          .on(feed(prompts).exec(llm("a").chatCompletion(), llm("b").completion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(2).during(60))).protocols(llm);
  }
}
