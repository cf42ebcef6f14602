package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmActionBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * A closed loop of 2 users over 10 prompts with one mistake in it, chosen by {@code -Dmisuse=}:
 * {@code none}, {@code sharedPrefixRatio}, {@code protocolMaxTokens}, {@code requestMaxTokens},
 * {@code protocolBodyModel}, {@code requestBodyMessages}, {@code protocolTokenizer}, {@code
 * feederTokenizer}. Mistakes in {@code -Dllm.*} properties need no switch.
 */
public class MisuseSimulation extends Simulation {

  static final String MISUSE = System.getProperty("misuse", "none");

  LlmProtocolBuilder llm = protocol(llm().maxTokens(4));

  PromptFeederBuilder prompts = feeder(prompts().inputTokens(32).requests(10));

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(request(llm("chat").chatCompletion())));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(2).during(60))).protocols(llm);
  }

  static LlmProtocolBuilder protocol(LlmProtocolBuilder llm) {
    return switch (MISUSE) {
      case "protocolMaxTokens" -> llm.maxTokens(0);
      case "protocolBodyModel" -> llm.body("model", "x");
      case "protocolTokenizer" -> llm.tokenizer("/no/such/tokenizer.json");
      default -> llm;
    };
  }

  static PromptFeederBuilder feeder(PromptFeederBuilder prompts) {
    return switch (MISUSE) {
      case "sharedPrefixRatio" -> prompts.sharedPrefix(1.5, 4);
      case "feederTokenizer" -> prompts.tokenizer("/no/such/tokenizer.json");
      default -> prompts;
    };
  }

  static LlmActionBuilder request(LlmActionBuilder request) {
    return switch (MISUSE) {
      case "requestMaxTokens" -> request.maxTokens(0);
      case "requestBodyMessages" -> request.body("messages", "x");
      default -> request;
    };
  }
}
