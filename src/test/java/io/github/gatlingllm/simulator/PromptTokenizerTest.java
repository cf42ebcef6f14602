package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCount;
import io.github.gatlingllm.token.TokenCounter;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromptTokenizerTest {

  private static final PromptTokenizer ESTIMATE =
      new PromptTokenizer(EstimatedTokenCounter.INSTANCE);

  @Test
  void estimateIsOneTokenPerWord() {
    PromptTokenizer.Tokens tokens = ESTIMATE.tokens("a b  c\nd");
    assertEquals(4, tokens.count());
    assertArrayEquals(
        new long[] {Hashes.word("a"), Hashes.word("b"), Hashes.word("c"), Hashes.word("d")},
        tokens.ids());
  }

  @Test
  void estimateCountsAsTheEstimatedCounter() {
    String text = " lead\ttab\r\ncrlf  end ";
    assertEquals(EstimatedTokenCounter.INSTANCE.count(text), ESTIMATE.tokens(text).count());
  }

  @Test
  void estimateOfEmptyTextIsOneToken() {
    assertArrayEquals(new long[] {PromptTokenizer.EMPTY_WORD_ID}, ESTIMATE.tokens("").ids());
  }

  @Test
  void sameWordSameId() {
    assertEquals(ESTIMATE.tokens("x y").ids()[0], ESTIMATE.tokens("x z").ids()[0]);
  }

  @Test
  void chatTemplateIsChatMl() {
    assertEquals(
        "<|im_start|>system\nBe brief.<|im_end|>\n<|im_start|>user\nHello world<|im_end|>\n"
            + "<|im_start|>assistant\n",
        PromptTokenizer.chatTemplate(
            List.of(
                new PromptTokenizer.Message("system", "Be brief."),
                new PromptTokenizer.Message("user", "Hello world"))));
  }

  @Test
  void huggingFaceTokensAreTheRealIds() {
    PromptTokenizer qwen3 = new PromptTokenizer(TestTokenizers.qwen3());
    PromptTokenizer.Tokens tokens =
        qwen3.tokens("<|im_start|>user\nHello world<|im_end|>\n<|im_start|>assistant\n");
    assertArrayEquals(
        new long[] {151644, 872, 198, 9707, 1879, 151645, 198, 151644, 77091, 198}, tokens.ids());
    assertEquals(10, tokens.count());
  }

  @Test
  void otherCountersGiveCountsWithoutIds() {
    TokenCounter letters =
        new TokenCounter() {
          @Override
          public TokenCount countText(String text) {
            return new TokenCount(text.length(), "letters", false);
          }

          @Override
          public String source() {
            return "letters";
          }

          @Override
          public boolean exact() {
            return false;
          }

          @Override
          public Map<String, Object> identity() {
            return Map.of("source", "letters");
          }
        };
    PromptTokenizer.Tokens tokens = new PromptTokenizer(letters).tokens("abc");
    assertEquals(3, tokens.count());
    assertNull(tokens.ids());
  }
}
