package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * Issue 30's mistake: a second {@code .assertions(...)} call, which Gatling keeps instead of the
 * first, drops {@code llm.assertions}. The run must refuse to start.
 */
public class DroppedAssertionsSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(8);

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(4);

  ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").chatCompletion());

  {
    setUp(chat.injectOpen(atOnceUsers(4)))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"))
        .assertions(global().responseTime().max().lt(60_000));
  }
}
