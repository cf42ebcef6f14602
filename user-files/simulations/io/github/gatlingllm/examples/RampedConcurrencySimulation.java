package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.shardUsers;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * A ramp of concurrency: from 1 to 32 virtual users over 20 s, then 32 users, each sending unique
 * prompts back to back, 400 requests in all (the run stops when they are spent).
 */
public class RampedConcurrencySimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(32);

  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(256).requests(400).caseId("c32_in256_out32");

  ScenarioBuilder chat = scenario("chat").forever().on(feed(prompts).exec(llm("chat").request()));

  {
    setUp(
            chat.injectClosed(
                rampConcurrentUsers(shardUsers(1))
                    .to(shardUsers(32))
                    .during(Duration.ofSeconds(20)),
                constantConcurrentUsers(shardUsers(32)).during(Duration.ofMinutes(5))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
