package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.shardUsers;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * A ramp of concurrency: from 1 virtual user to the top of the ramp over 20 s, then the top for up
 * to 5 minutes, each user sending unique prompts back to back, 400 requests in all (the run stops
 * when they are spent). The top is {@code llm.concurrency} (default 32): {@code
 * -Dllm.concurrency=8} ramps from 1 to 8 users and holds 8. The case id stays {@code
 * c32_in256_out32} unless {@code -Dllm.caseId} names another.
 */
public class RampedConcurrencySimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(32);

  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(256).requests(400).caseId("c32_in256_out32");

  ScenarioBuilder chat = scenario("chat").forever().on(feed(prompts).exec(llm("chat").request()));

  /** The top of the ramp: this machine's share of llm.concurrency, 32 when it is not set. */
  int top = concurrency(32);

  {
    setUp(
            chat.injectClosed(
                rampConcurrentUsers(Math.min(shardUsers(1), top))
                    .to(top)
                    .during(Duration.ofSeconds(20)),
                constantConcurrentUsers(top).during(Duration.ofMinutes(5))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
