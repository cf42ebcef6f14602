package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * Replays a prompts file: a closed loop of {@code llm.concurrency} virtual users (default 4) sends
 * each prompt of the file once, in file order, as streamed chat completions. The file is {@code
 * user-files/resources/prompts/sample-prompts.jsonl} unless {@code -Dllm.promptsFile=PATH} names
 * another (JSONL with {@code prompt} or {@code messages}, a CSV with a {@code prompt} column or
 * {@code -Dllm.promptsColumn}, or ShareGPT JSON); {@code -Dllm.requests=N} sends N of its rows
 * ({@code -Dllm.promptsWrap=true} to go round the file again), {@code -Dllm.promptsOrder=shuffle}
 * shuffles them with {@code -Dllm.seed}. Without {@code -Dllm.baseUrl} it runs against the embedded
 * simulator. See {@code docs/prompt-files.md}.
 */
public class PromptFileSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(64);

  PromptFeederBuilder prompts =
      prompts().fromFile("user-files/resources/prompts/sample-prompts.jsonl");

  ScenarioBuilder chat = scenario("chat").forever().on(feed(prompts).exec(llm("chat").request()));

  {
    // The run stops when every row of the file (or llm.requests of them) is sent.
    setUp(chat.injectClosed(constantConcurrentUsers(concurrency(4)).during(Duration.ofMinutes(10))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
