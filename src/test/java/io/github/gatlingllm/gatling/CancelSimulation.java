package io.github.gatlingllm.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * Run by {@link ReasoningCancelRunTest} in a Gatling JVM of its own: {@link OracleSimulation}'s
 * workload (unique 128-token prompts, {@code llm.requests} measured, no warmup) with a quarter of
 * the requests cancelled 100 ms after they were written, and {@code llm.assertions(1.0, "chat")}:
 * the run fails if more than 1% of the {@code chat} requests failed, so a cancelled request counted
 * as a failure or a KO fails it.
 */
public class CancelSimulation extends Simulation {

  private static final int USERS = Integer.getInteger("llm.concurrency", 4);

  LlmProtocolBuilder llm = llm().maxTokens(64).cancelRate(0.25).cancelAfter(Duration.ofMillis(100));

  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(128).warmup(0).requests(40).caseId(OracleSimulation.CASE_ID);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(USERS).during(Duration.ofMinutes(10))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
