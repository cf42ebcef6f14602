package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.agentSession;
import static io.github.gatlingllm.LlmDsl.agents;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.AgentFeederBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import java.time.Duration;

/**
 * Agent sessions (issue 32): a closed loop of {@code llm.concurrency} virtual users (default 4),
 * each holding one agent session at a time. Every request offers the same 4 function tools (a
 * prefix all sessions share) with a 256-token system prompt; a session sends a 128-token task,
 * then, while the model's reply calls tools, the reply with its tool calls as received and one
 * 192-token tool result a call, 50 to 200 ms after the reply (the tools' run), for at most 4 loops.
 * Each turn carries the session's id in {@code X-Session-Affinity}. 2 warmup sessions, then 16
 * measured ones; a turn that would not fit 8,192 tokens of context ends its session unsent. Every
 * value can be overridden with {@code -Dllm.agent.*} (docs/agents.md).
 *
 * <p>Runs against the embedded simulator (which calls tools in its first 2 loops under {@code
 * auto}), or any OpenAI-compatible chat server with {@code -Dllm.baseUrl=http://host:port/v1}.
 */
public class AgentSessionSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(64);

  AgentFeederBuilder sessions =
      agents()
          .tools(4, 48)
          .systemPrompt(256, 1)
          .taskTokens(128)
          .toolResultTokens(192)
          .toolCalls(4)
          .toolLatency(Duration.ofMillis(50), Duration.ofMillis(200))
          .toolChoice("auto")
          .warmup(2)
          .sessions(16)
          .maxContextTokens(8192);

  ScenarioBuilder agent =
      scenario("agent").forever().on(feed(sessions).exec(agentSession(llm("agent").request())));

  {
    setUp(agent.injectClosed(constantConcurrentUsers(concurrency(4)).during(Duration.ofMinutes(5))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "agent"));
  }
}
