package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.shardRate;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * An open loop: 10 arrivals a second for 20 s, each sending one streamed chat completion with a
 * shared-prefix prompt (half of it shared within 4 groups), 200 requests in all. Arrivals do not
 * wait for earlier requests, so a server that falls behind sees its queue grow, as under real
 * traffic.
 */
public class OpenLoopSimulation extends Simulation {

  private static final double RATE = 10;

  LlmProtocolBuilder llm = llm().maxTokens(32);

  PromptFeederBuilder prompts =
      prompts().sharedPrefix(0.5, 4).inputTokens(256).requests(200).caseId("open_in256_out32");

  ScenarioBuilder open = scenario("open loop").feed(prompts).exec(llm("chat").request());

  {
    setUp(open.injectOpen(constantUsersPerSec(shardRate(RATE)).during(Duration.ofSeconds(20))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
