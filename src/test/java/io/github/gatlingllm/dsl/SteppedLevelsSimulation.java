package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.incrementUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;

/**
 * Levels of two kinds, one after the other: a closed scenario of 2 then 4 users (3 s each), then,
 * chained with {@code andThen}, an open one whose arrivals step from 4 to 8 users a second ({@code
 * incrementUsersPerSec}, levels of 3 s with 1 s ramps between). One request per user.
 */
public class SteppedLevelsSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(8).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(5));

  PromptFeederBuilder closedPrompts =
      prompts().unique().inputTokens(32).requests(100_000).caseId("closed_case").name("closed");

  PromptFeederBuilder openPrompts =
      prompts().unique().inputTokens(32).requests(100_000).caseId("open_case").name("open");

  ScenarioBuilder closed = scenario("closed").feed(closedPrompts).exec(llm("c").chatCompletion());

  ScenarioBuilder open = scenario("open").feed(openPrompts).exec(llm("o").chatCompletion());

  {
    setUp(
            closed
                .injectClosed(
                    constantConcurrentUsers(2).during(Duration.ofSeconds(3)),
                    constantConcurrentUsers(4).during(Duration.ofSeconds(3)))
                .andThen(
                    open.injectOpen(
                        incrementUsersPerSec(4)
                            .times(2)
                            .eachLevelLasting(Duration.ofSeconds(3))
                            .separatedByRampsLasting(Duration.ofSeconds(1))
                            .startingFrom(4))))
        .protocols(llm);
  }
}
