package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.agentSession;
import static io.github.gatlingllm.LlmDsl.agents;
import static io.github.gatlingllm.LlmDsl.conversation;
import static io.github.gatlingllm.LlmDsl.conversations;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * A session loop fed the wrong kind of workload, chosen by {@code -Dmisfed=}: {@code prompts}
 * ({@code agentSession} after {@code prompts()}), {@code conversations} ({@code agentSession} after
 * {@code conversations()}), {@code agents} ({@code conversation} after {@code agents()}).
 */
public class MisfedSessionSimulation extends Simulation {

  static final String MISFED = System.getProperty("misfed", "prompts");

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  ChainBuilder turns =
      switch (MISFED) {
        case "conversations" ->
            feed(conversations().conversations(4))
                .exec(agentSession(llm("agent").chatCompletion()));
        case "agents" ->
            feed(agents().sessions(4)).exec(conversation(llm("chat").chatCompletion()));
        default ->
            feed(prompts().inputTokens(16).requests(4))
                .exec(agentSession(llm("agent").chatCompletion()));
      };

  ScenarioBuilder users = scenario("misfed").forever().on(turns);

  {
    setUp(users.injectClosed(constantConcurrentUsers(2).during(60))).protocols(llm);
  }
}
