package example;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/** 12 chat requests from 2 concurrent users, against the embedded simulator (no llm.baseUrl). */
public class LlmSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(8);

  PromptFeederBuilder prompts = prompts().inputTokens(64).requests(12);

  ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").chatCompletion());

  {
    setUp(chat.injectClosed(constantConcurrentUsers(2).during(Duration.ofSeconds(30))))
        .protocols(llm);
  }
}
