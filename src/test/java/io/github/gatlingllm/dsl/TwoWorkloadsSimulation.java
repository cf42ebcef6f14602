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

/**
 * Two workloads side by side: a chat of unique prompts and a summarizer of shared-prefix prompts,
 * each its own scenario, feeder, case id and request name, injected at once.
 */
public class TwoWorkloadsSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(8).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(5));

  PromptFeederBuilder chatPrompts =
      prompts().unique().inputTokens(32).requests(30).caseId("chat_case").name("chat");

  PromptFeederBuilder summaryPrompts =
      prompts()
          .sharedPrefix(0.5, 2)
          .inputTokens(64)
          .requests(20)
          .caseId("summary_case")
          .name("summary");

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(chatPrompts).exec(llm("chat").chatCompletion()));

  ScenarioBuilder summary =
      scenario("summary").forever().on(feed(summaryPrompts).exec(llm("summary").completion()));

  {
    setUp(
            chat.injectClosed(constantConcurrentUsers(3).during(60)),
            summary.injectClosed(constantConcurrentUsers(2).during(60)))
        .protocols(llm);
  }
}
