package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import org.junit.jupiter.api.Test;

class TraceBlocksTest {

  @Test
  void aRowPromptHasExactlyItsInputLengthInTheEstimate() {
    TraceBlocks b = new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 512);
    Prompt p = b.prompt(new long[] {46, 47, 48}, 1200, "trace-0");

    assertEquals(1200, p.planned().value());
    assertEquals(1200, p.count().value());
  }

  @Test
  void aRowPromptHasExactlyItsInputLengthWithQwen3() {
    TokenCounter qwen = TestTokenizers.qwen3();
    TraceBlocks b = new TraceBlocks(qwen, 7, 512);
    for (int input : new int[] {1, 5, 511, 512, 513, 1030, 2048}) {
      int n = (input + 511) / 512;
      long[] ids = new long[n];
      for (int i = 0; i < n; i++) {
        ids[i] = 1000 + i;
      }
      Prompt p = b.prompt(ids, input, "trace-" + input);
      assertEquals(input, p.planned().value(), "planned, input " + input);
      assertEquals(input, qwen.count(p.text()), "counted, input " + input);
    }
  }

  @Test
  void theSameIdGivesTheSameBlockInEveryRow() {
    TraceBlocks b = new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 16);
    String a = b.prompt(new long[] {1, 2}, 32, "a").text();
    String c = b.prompt(new long[] {1, 3}, 20, "c").text();

    String first = b.blockText(1, true, 16);
    assertTrue(a.startsWith(first + " "), a);
    assertTrue(c.startsWith(first + " "), c);
    assertNotEquals(a.substring(first.length()), c.substring(first.length()));
  }

  @Test
  void differentIdsDifferFromTheirNonce() {
    TraceBlocks b = new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 16);

    assertNotEquals(b.nonce(1), b.nonce(2));
    assertEquals("[" + b.nonce(5) + "]", b.blockText(5, false, 16).split(" ")[0]);
  }

  @Test
  void theSeedChangesTheBlocks() {
    TraceBlocks zero = new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 16);
    TraceBlocks one = new TraceBlocks(EstimatedTokenCounter.INSTANCE, 1, 16);

    assertNotEquals(zero.nonce(1), one.nonce(1));
    assertEquals(zero.nonce(1), new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 64).nonce(1));
  }

  @Test
  void theDigestIsTheTextsAndStable() {
    TraceBlocks b = new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 16);
    Prompt p = b.prompt(new long[] {1, 2}, 20, "a");

    assertEquals(Hashing.hex16(Hashing.digest16(p.text())), p.digest());
    assertEquals(
        p.digest(),
        new TraceBlocks(EstimatedTokenCounter.INSTANCE, 0, 16)
            .prompt(new long[] {1, 2}, 20, "a")
            .digest());
  }
}
