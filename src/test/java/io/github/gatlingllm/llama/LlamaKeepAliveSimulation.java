package io.github.gatlingllm.llama;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * Run by {@link LlamaServerTest} in a Gatling JVM of its own against a real llama.cpp server,
 * through a {@link CountingProxy}: {@value #USERS} virtual users at once, each looping until the
 * {@value #REQUESTS} unique prompts of {@value #INPUT_TOKENS} tokens are spent, with the default
 * shared connection pool. Answers are not streamed: llama.cpp keeps the connection of a
 * non-streamed answer alive, and closes it after a streamed one. Each request asks for {@value
 * LlamaModesSimulation#OUTPUT_TOKENS} tokens with {@code ignore_eos}. Request name {@code llama
 * keep-alive}; the base URL comes from {@code -Dllm.baseUrl} (required), the tokenizer and seed
 * from {@code -Dllm.tokenizer} and {@code -Dllm.seed}.
 */
public class LlamaKeepAliveSimulation extends Simulation {

  /** Virtual users, all at once. */
  static final int USERS = 3;

  /** Measured requests. */
  static final int REQUESTS = 24;

  /** Prompt size, in tokens. */
  static final int INPUT_TOKENS = 128;

  LlmProtocolBuilder llm =
      llm().baseUrl(LlamaModesSimulation.baseUrl()).stream(false)
          .maxTokens(LlamaModesSimulation.OUTPUT_TOKENS)
          .ignoreEos(true);

  PromptFeederBuilder prompts =
      prompts()
          .unique()
          .inputTokens(INPUT_TOKENS)
          .requests(REQUESTS)
          .caseId("c" + USERS + "_in" + INPUT_TOKENS + "_out" + LlamaModesSimulation.OUTPUT_TOKENS);

  ScenarioBuilder keepAlive =
      scenario("keep-alive")
          .forever()
          .on(feed(prompts).exec(llm("llama keep-alive").chatCompletion()));

  {
    setUp(keepAlive.injectOpen(atOnceUsers(USERS)))
        .protocols(llm)
        .assertions(global().failedRequests().count().is(0L));
  }
}
