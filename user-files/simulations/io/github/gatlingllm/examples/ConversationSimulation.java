package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.conversation;
import static io.github.gatlingllm.LlmDsl.conversations;
import static io.github.gatlingllm.LlmDsl.llm;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.ConversationFeederBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import java.time.Duration;

/**
 * Multi-turn chat: a closed loop of {@code llm.concurrency} virtual users (default 4), each holding
 * one conversation at a time. A conversation has 3 to 5 turns (seeded); each turn sends one of 2
 * shared system prompts (512 tokens), every earlier user message and reply as received, and a new
 * 96-token user message, so its prompt starts with the previous turn's prompt and reply: the prefix
 * a server's cache serves. Between turns the user thinks for 200 to 800 ms. 2 warmup conversations,
 * then 24 measured ones; a turn that would not fit 8,192 tokens of context ends its conversation
 * unsent.
 *
 * <p>Runs against the embedded simulator, or any OpenAI-compatible server with {@code
 * -Dllm.baseUrl=http://host:port/v1} (and its tokenizer with {@code -Dllm.tokenizer=...} for exact
 * cache plans).
 */
public class ConversationSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(64);

  ConversationFeederBuilder chats =
      conversations()
          .turns(3, 5)
          .userTokens(96)
          .systemPrompt(512, 2)
          .thinkTime(Duration.ofMillis(200), Duration.ofMillis(800))
          .warmup(2)
          .conversations(24)
          .maxContextTokens(8192)
          .caseId("chat_t3-5_u96_s512");

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(chats).exec(conversation(llm("chat").request())));

  {
    setUp(chat.injectClosed(constantConcurrentUsers(concurrency(4)).during(Duration.ofMinutes(5))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
