package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import org.junit.jupiter.api.Test;

class WordCycleTest {

  @Test
  void firstTokenHasNoLeadingSpace() {
    assertEquals("the model is", WordCycle.text(0, 3));
  }

  @Test
  void textOfNTokensIsNWords() {
    assertEquals(40, EstimatedTokenCounter.INSTANCE.count(WordCycle.text(0, 40)));
  }

  @Test
  void textOfNTokensIsNQwen3Tokens() {
    assertEquals(40, TestTokenizers.qwen3().count(WordCycle.text(0, 40)));
  }

  @Test
  void textOfNTokensIsNGpt4oTokens() {
    assertEquals(40, TestTokenizers.named("gpt4o").count(WordCycle.text(0, 40)));
  }
}
