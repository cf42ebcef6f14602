package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * A reply saved into the session and a second request sent on it: 3 users, each asks, prints what
 * was saved ({@code SAVED|reply|finish|prompt tokens|completion tokens}) and sends the reply back
 * as the follow-up's prompt (printed as {@code FOLLOW-UP|prompt}).
 */
public class ReplyChainSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(6).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  ScenarioBuilder chat =
      scenario("chain")
          .exec(
              llm("ask")
                  .chatCompletion()
                  .prompt("Name three colours.")
                  .saveReplyAs("answer")
                  .saveFinishReasonAs("finish")
                  .savePromptTokensAs("promptTokens")
                  .saveCompletionTokensAs("completionTokens"))
          .exec(
              session -> {
                System.out.println(
                    "SAVED|"
                        + session.getString("answer")
                        + "|"
                        + session.getString("finish")
                        + "|"
                        + session.get("promptTokens")
                        + "|"
                        + session.get("completionTokens"));
                return session;
              })
          .exec(
              exec(
                  llm("follow-up")
                      .chatCompletion()
                      .prompt(
                          session -> {
                            String prompt = "Go on from: " + session.getString("answer");
                            System.out.println("FOLLOW-UP|" + prompt);
                            return prompt;
                          })));

  {
    setUp(chat.injectOpen(atOnceUsers(3))).protocols(llm);
  }
}
