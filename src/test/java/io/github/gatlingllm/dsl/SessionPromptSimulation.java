package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/** A prompt from the session, no feeder: 3 users, 2 requests each. */
public class SessionPromptSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  ScenarioBuilder chat =
      scenario("own prompt")
          .repeat(2)
          .on(
              llm("chat")
                  .chatCompletion()
                  .prompt(session -> "Say hello to user " + session.userId() + "."));

  {
    setUp(chat.injectOpen(atOnceUsers(3))).protocols(llm);
  }
}
