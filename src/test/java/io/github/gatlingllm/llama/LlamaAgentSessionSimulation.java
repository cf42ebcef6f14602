package io.github.gatlingllm.llama;

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
 * {@link LlamaAgentSessionTest}'s workload against the tool-call model ({@code
 * scripts/llama-server.sh start-tools}): one virtual user holding 1 warmup and then 3 measured
 * agent sessions under {@code tool_choice: required}; 3 tools of 24-token descriptions (case {@code
 * llamatools}: with {@code -Dllm.seed=7} the first is {@code fetch_orders_0}, the call the model
 * makes), a 48-token system prompt, a 64-token task, tool results of 48 tokens after 5 ms, at most
 * 3 loops, 32 output tokens (the model's call takes 22). The target is {@code -Dllm.baseUrl}.
 */
public class LlamaAgentSessionSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(32);

  AgentFeederBuilder sessions =
      agents()
          .tools(3, 24)
          .systemPrompt(48, 1)
          .taskTokens(64)
          .toolResultTokens(48)
          .toolCalls(3)
          .toolChoice("required")
          .toolLatency(Duration.ofMillis(5))
          .warmup(1)
          .sessions(3)
          .caseId("llamatools");

  ScenarioBuilder agent =
      scenario("agent").forever().on(feed(sessions).exec(agentSession(llm("agent").request())));

  {
    setUp(agent.injectOpen(atOnceUsers(1))).protocols(llm);
  }
}
