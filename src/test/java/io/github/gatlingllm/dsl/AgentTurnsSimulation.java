package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.agentSession;
import static io.github.gatlingllm.LlmDsl.agents;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.AgentFeederBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import java.time.Duration;

/**
 * The agent tests' workload: one virtual user (no turn overlaps another's prefill, so the
 * simulator's cache meets the plan exactly) holding 1 warmup and then 4 measured agent sessions; 3
 * tools of 24-token descriptions, a 48-token system prompt, a 64-token task, tool results of 48
 * tokens after 5 to 15 ms, at most 4 loops, 24 output tokens. Every value can be overridden with
 * {@code -Dllm.agent.*}; the target is {@code -Dllm.baseUrl}.
 */
public class AgentTurnsSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(24);

  AgentFeederBuilder sessions =
      agents()
          .tools(3, 24)
          .systemPrompt(48, 1)
          .taskTokens(64)
          .toolResultTokens(48)
          .toolCalls(4)
          .toolLatency(Duration.ofMillis(5), Duration.ofMillis(15))
          .warmup(1)
          .sessions(4)
          .caseId("agenttest");

  ScenarioBuilder agent =
      scenario("agent").forever().on(feed(sessions).exec(agentSession(llm("agent").request())));

  {
    setUp(agent.injectOpen(atOnceUsers(1))).protocols(llm);
  }
}
