package io.github.gatlingllm.token;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.testing.TestTokenizers;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class TokenCountersTest {

  @Test
  void estimateIsTheEstimatedCounter() {
    assertSame(EstimatedTokenCounter.INSTANCE, TokenCounters.of("estimate"));
  }

  @Test
  void pathLoadsAHuggingFaceCounter() {
    Path file = TestTokenizers.file("qwen3");
    try (HuggingFaceTokenCounter counter =
        (HuggingFaceTokenCounter) TokenCounters.of(file.toString())) {
      assertEquals(3, counter.count(" profile inference latency"));
    }
  }

  @Test
  void blankSettingIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TokenCounters.of("  "));
    assertEquals(
        "tokenizer setting is empty: expected \"estimate\" or the path of a tokenizer.json",
        e.getMessage());
  }

  @Test
  void invalidPathIsRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> TokenCounters.of("a\0b"));
    assertEquals(
        "tokenizer \"a\0b\" is not a valid path: expected \"estimate\" or the path of a"
            + " tokenizer.json",
        e.getMessage());
  }

  @Test
  void missingPathIsRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> TokenCounters.of("/no/such/tokenizer.json"));
    assertEquals(
        "tokenizer /no/such/tokenizer.json does not exist: expected a Hugging Face tokenizer.json"
            + " file, or a folder holding one",
        e.getMessage());
  }
}
