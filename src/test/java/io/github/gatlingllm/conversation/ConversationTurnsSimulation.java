package io.github.gatlingllm.conversation;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.conversation;
import static io.github.gatlingllm.LlmDsl.conversations;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.ConversationFeederBuilder;
import io.github.gatlingllm.LlmActionBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.Map;

/**
 * The conversation tests' workload: one virtual user (so no turn overlaps another's prefill and the
 * embedded simulator's cache meets the plan exactly) holding 2 warmup and then {@code
 * convtest.conversations} (6) measured conversations of 3 to 4 turns, each starting with one of 2
 * ({@code convtest.systemGroups}) system prompts of {@code convtest.systemTokens} (64) tokens, each
 * turn a new user message of {@code convtest.userTokens} (48) tokens, {@code convtest.maxTokens}
 * (20) output tokens, think times of 10 to 30 ms. The request goes to the protocol's endpoint
 * ({@code llm.endpoint}); {@code convtest.logitBias} (token ids, comma-separated) adds a logit bias
 * of 100 to each.
 */
public class ConversationTurnsSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(Integer.getInteger("convtest.maxTokens", 20))
          .simulator(
              SimulatorConfig.defaults()
                  .withBaseTtftMs(2)
                  .withPrefillUsPerToken(50)
                  .withDecodeMsPerToken(1));

  ConversationFeederBuilder chats =
      conversations()
          .turns(3, 4)
          .userTokens(Integer.getInteger("convtest.userTokens", 48))
          .systemPrompt(
              Integer.getInteger("convtest.systemTokens", 64),
              Integer.getInteger("convtest.systemGroups", 2))
          .thinkTime(Duration.ofMillis(10), Duration.ofMillis(30))
          .warmup(2)
          .conversations(Integer.getInteger("convtest.conversations", 6))
          .caseId("convtest");

  LlmActionBuilder request() {
    LlmActionBuilder request = llm("chat").request();
    String bias = System.getProperty("convtest.logitBias");
    if (bias != null && !bias.isBlank()) {
      Map<String, Object> biases = new java.util.LinkedHashMap<>();
      for (String id : bias.split(",")) {
        biases.put(id.strip(), 100);
      }
      request = request.body("logit_bias", biases);
    }
    return request;
  }

  {
    if (Boolean.getBoolean("convtest.open")) {
      // Open loop: conversations arrive at 4 a second, one virtual user each.
      ScenarioBuilder arrivals = scenario("chat").feed(chats).exec(conversation(request()));
      setUp(arrivals.injectOpen(constantUsersPerSec(4).during(Duration.ofSeconds(4))))
          .protocols(llm)
          .assertions(llm.assertions(1.0, "chat"));
    } else {
      ScenarioBuilder chat =
          scenario("chat").forever().on(feed(chats).exec(conversation(request())));
      setUp(chat.injectOpen(atOnceUsers(1))).protocols(llm).assertions(llm.assertions(1.0, "chat"));
    }
  }
}
