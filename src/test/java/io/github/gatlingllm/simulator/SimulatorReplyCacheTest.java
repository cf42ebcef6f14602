package io.github.gatlingllm.simulator;

import static io.github.gatlingllm.simulator.SimulatorClient.body;
import static io.github.gatlingllm.simulator.SimulatorClient.completion;
import static io.github.gatlingllm.simulator.SimulatorClient.words;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator caches the blocks a reply fills, as vLLM does: a conversation's next turn, which
 * sends the prompt and the reply back, finds them.
 */
class SimulatorReplyCacheTest {

  private static final String CHAT = "/v1/chat/completions";
  private static final String COMPLETIONS = "/v1/completions";
  private static final String CACHED = "/usage/prompt_tokens_details/cached_tokens";

  private Simulator simulator;

  private SimulatorClient client() {
    simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0);
    return new SimulatorClient(simulator);
  }

  @AfterEach
  void stop() {
    if (simulator != null) {
      simulator.close();
    }
  }

  @Test
  void aChatTurnFindsThePreviousPromptAndAllButTheReplysLastWord() {
    SimulatorClient client = client();
    Map<String, String> first = Map.of("role", "user", "content", words("u", 40));
    JsonNode answer =
        client
            .post(CHAT, body("model", "any", "messages", List.of(first), "max_tokens", 30))
            .json();
    // 1 + 40 words and the generation prompt's: 42 prompt tokens, then 30 words of reply.
    assertEquals(42, answer.at("/usage/prompt_tokens").asInt());
    String reply = answer.at("/choices/0/message/content").asText();
    JsonNode next =
        client
            .post(
                CHAT,
                body(
                    "model",
                    "any",
                    "messages",
                    List.of(
                        first,
                        Map.of("role", "assistant", "content", reply),
                        Map.of("role", "user", "content", words("v", 40))),
                    "max_tokens",
                    1))
            .json();
    // 42 + 30 - 1 = 71 tokens in common (the reply's last word runs into <|im_end|>): 64 cached.
    assertEquals(64, next.at(CACHED).asInt());
  }

  @Test
  void aCompletionsReplyThatFillsABlockIsCachedWithItsPrompt() {
    SimulatorClient client = client();
    String prompt = words("p", 20);
    String reply =
        client
            .post(COMPLETIONS, completion(prompt, "max_tokens", 12))
            .json()
            .at("/choices/0/text")
            .asText();
    assertEquals("the model is running in a load test and each word here", reply);
    // 20 + 12 - 1 = 31 tokens have KV (the reply's last token was sampled, never fed back): the
    // second block is not full, so only the first is cached.
    assertEquals(
        16,
        client
            .post(COMPLETIONS, completion(prompt + " " + reply + " x y", "max_tokens", 1))
            .json()
            .at(CACHED)
            .asInt());
    // 20 + 13 - 1 = 32 tokens: two full blocks, the second ending in the reply.
    String other = words("r", 20);
    String longer =
        client
            .post(COMPLETIONS, completion(other, "max_tokens", 13))
            .json()
            .at("/choices/0/text")
            .asText();
    assertEquals(
        32,
        client
            .post(COMPLETIONS, completion(other + " " + longer + " x y", "max_tokens", 1))
            .json()
            .at(CACHED)
            .asInt());
    // A reply that fills no new block adds nothing: 20 + 4 tokens stay in one block.
    String shorter = words("q", 20);
    client.post(COMPLETIONS, completion(shorter, "max_tokens", 4));
    assertEquals(
        16,
        client
            .post(
                COMPLETIONS,
                completion(
                    shorter + " the model is running in a load test and each", "max_tokens", 1))
            .json()
            .at(CACHED)
            .asInt());
  }
}
