package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * The quickstart: a closed loop of 8 virtual users sending streamed requests to llm.endpoint (chat
 * completions unless -Dllm.endpoint=completions|responses|messages) with shared-prefix prompts
 * (half of each prompt shared within 4 groups), 8 warmup requests then 200 measured ones. Without
 * {@code -Dllm.baseUrl} it runs against the embedded simulator; every value can be changed with
 * {@code -Dllm.*} (the users with {@code -Dllm.concurrency}). In a test run on several machines
 * ({@code -Dllm.shard=I/N}), each runs its part of the users ({@code concurrency(8)} shares them as
 * {@code shardUsers} does) and of the prompts.
 */
public class QuickstartSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(32);

  PromptFeederBuilder prompts =
      prompts()
          .sharedPrefix(0.5, 4)
          .inputTokens(256)
          .warmup(8)
          .requests(200)
          .caseId("c8_in256_out32");

  ScenarioBuilder chat = scenario("chat").forever().on(feed(prompts).exec(llm("chat").request()));

  {
    // The injection lasts up to 10 minutes; the run stops when the 208 prompts are spent.
    setUp(chat.injectClosed(constantConcurrentUsers(concurrency(8)).during(Duration.ofMinutes(10))))
        .protocols(llm)
        // A run whose requests fail fails the build; with -Dllm.assert.goodputRatio, so does one
        // whose requests miss the -Dllm.slo.* objectives. One call: Gatling keeps the last.
        .assertions(llm.assertions(1.0, "chat"));
  }
}
