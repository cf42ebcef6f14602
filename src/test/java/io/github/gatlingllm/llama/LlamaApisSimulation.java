package io.github.gatlingllm.llama;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.conversation;
import static io.github.gatlingllm.LlmDsl.conversations;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.ConversationFeederBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * Run by {@link LlamaApisRunsTest} in a Gatling JVM of its own against a real llama.cpp server (one
 * slot), on the API {@code -Dllm.endpoint} names: one virtual user sends {@value #REPEATS} requests
 * of the same {@value #INPUT_TOKENS}-token prompt ({@code llama repeat}), then another holds
 * {@value #CONVERSATIONS} conversations of {@value #TURNS} turns ({@code llama chat}: a 256-token
 * system prompt of its own each, 48-token user messages). Every request asks for {@value
 * #OUTPUT_TOKENS} tokens with {@code ignore_eos}. {@code -Dllamaapis.only=chat} runs the
 * conversations alone.
 */
public class LlamaApisSimulation extends Simulation {

  /** The repeat prompt's size, in tokens. */
  static final int INPUT_TOKENS = 512;

  /** {@code max_tokens} of every request. */
  static final int OUTPUT_TOKENS = 8;

  /** Requests of the repeat prompt. */
  static final int REPEATS = 6;

  /** Conversations. */
  static final int CONVERSATIONS = 2;

  /** Turns of each conversation. */
  static final int TURNS = 3;

  LlmProtocolBuilder llm =
      llm().baseUrl(LlamaModesSimulation.baseUrl()).maxTokens(OUTPUT_TOKENS).ignoreEos(true);

  PromptFeederBuilder repeat =
      prompts().repeat().inputTokens(INPUT_TOKENS).requests(REPEATS).caseId("apis_repeat");

  ConversationFeederBuilder chats =
      conversations()
          .turns(TURNS)
          .userTokens(48)
          .systemPrompt(256, 1000)
          .thinkTime(Duration.ofMillis(10))
          .conversations(CONVERSATIONS)
          .caseId("apis_chat");

  {
    PopulationBuilder chat =
        scenario("chat")
            .forever()
            .on(feed(chats).exec(conversation(llm("llama chat").request())))
            .injectOpen(atOnceUsers(1));
    PopulationBuilder population =
        "chat".equals(System.getProperty("llamaapis.only"))
            ? chat
            : scenario("repeat")
                .forever()
                .on(feed(repeat).exec(llm("llama repeat").request()))
                .injectOpen(atOnceUsers(1))
                .andThen(chat);
    setUp(population).protocols(llm);
  }
}
