package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCount;
import io.github.gatlingllm.token.TokenCounter;
import java.util.ArrayList;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.atomic.AtomicLong;
import java.util.stream.LongStream;
import org.junit.jupiter.api.Test;

class PromptSourceTest {

  private static final TokenCounter ESTIMATE = EstimatedTokenCounter.INSTANCE;

  private static PromptSource source(PromptSpec spec, TokenCounter counter, int inputTokens) {
    return new PromptSource(
        spec, counter, 0, "c1_in" + inputTokens + "_out16", "measured", inputTokens);
  }

  @Test
  void digestIsNullBeforeAnyPromptIsHandedOut() {
    assertNull(source(PromptSpec.unique(), ESTIMATE, 64).digest());
  }

  @Test
  void warmHandsNothingOut() {
    PromptSource source = source(PromptSpec.sharedPrefix(0.5, 4), ESTIMATE, 64);
    source.warm();
    assertNull(source.digest());
    assertEquals(0, source.handedOut());
  }

  @Test
  void takenPromptIsTheSameObjectUntilForgotten() {
    PromptSource source = source(PromptSpec.unique(), ESTIMATE, 64);
    Prompt first = source.take(3);
    assertSame(first, source.take(3));
    source.forget(3);
    Prompt again = source.take(3);
    assertEquals(first.text(), again.text());
    assertEquals(first.digest(), again.digest());
    assertEquals(1, source.handedOut());
  }

  @Test
  void forgetKeepsTheDigest() {
    PromptSource kept = source(PromptSpec.unique(), ESTIMATE, 64);
    PromptSource forgotten = source(PromptSpec.unique(), ESTIMATE, 64);
    for (long i = 0; i < 100; i++) {
      kept.take(i);
      forgotten.take(i);
      forgotten.forget(i);
    }
    assertEquals(kept.digest(), forgotten.digest());
  }

  @Test
  void phaseDigestSortsIndicesAsIntegers() {
    PromptSource ascending = source(PromptSpec.unique(), ESTIMATE, 64);
    PromptSource shuffled = source(PromptSpec.unique(), ESTIMATE, 64);
    for (long i : new long[] {2, 9, 10, 100}) {
      ascending.take(i);
    }
    for (long i : new long[] {100, 10, 9, 2}) {
      shuffled.take(i);
    }
    assertEquals(ascending.digest(), shuffled.digest());
  }

  @Test
  void preparedPromptsCountAsHandedOut() {
    PromptSource prepared = source(PromptSpec.unique(), ESTIMATE, 64);
    PromptSource taken = source(PromptSpec.unique(), ESTIMATE, 64);
    prepared.prepare(List.of(0L, 1L, 2L));
    for (long i = 0; i < 3; i++) {
      taken.take(i);
    }
    assertEquals(taken.digest(), prepared.digest());
  }

  @Test
  void repeatWarmupSendsTheMeasuredPrompt() {
    PromptSource measured = source(PromptSpec.repeat(), ESTIMATE, 64);
    PromptSource warmup = measured.forPhase("warmup");
    assertSame(measured.take(0), warmup.take(5));
    assertEquals("warmup", warmup.phase());
  }

  @Test
  void uniqueWarmupSharesNoNonceWithMeasured() {
    PromptSource measured = source(PromptSpec.unique(), ESTIMATE, 64);
    PromptSource warmup = measured.forPhase("warmup");
    assertNotEquals(measured.take(0).promptId(), warmup.take(0).promptId());
  }

  @Test
  void repeatPromptPlansItsExactCount() {
    Prompt prompt = source(PromptSpec.repeat(), TestTokenizers.qwen3(), 100).take(0);
    assertEquals(new TokenCount(100, "huggingface", true), prompt.planned());
    assertEquals(prompt.count(), prompt.planned());
    assertEquals("repeat", prompt.promptId());
  }

  @Test
  void uniquePlanIsNotExact() {
    Prompt prompt = source(PromptSpec.unique(), TestTokenizers.qwen3(), 100).take(0);
    assertEquals(new TokenCount(100, "huggingface", false), prompt.planned());
  }

  @Test
  void sharedPromptsStartWithTheirGroupPrefix() {
    PromptSource source = source(PromptSpec.sharedPrefix(0.5, 2), ESTIMATE, 64);
    Prompt a = source.take(0);
    for (long i = 1; i < 50; i++) {
      Prompt b = source.take(i);
      String prefixA = a.text().substring(0, a.text().indexOf(" [", 1));
      String prefixB = b.text().substring(0, b.text().indexOf(" [", 1));
      assertEquals(a.prefixGroup().equals(b.prefixGroup()), prefixA.equals(prefixB), "index " + i);
    }
  }

  @Test
  void everyGroupIsDrawn() {
    PromptSource source = source(PromptSpec.sharedPrefix(0.5, 8), ESTIMATE, 64);
    Set<Integer> groups = new HashSet<>();
    for (long i = 0; i < 400; i++) {
      groups.add(source.take(i).prefixGroup());
      source.forget(i);
    }
    assertEquals(Set.of(0, 1, 2, 3, 4, 5, 6, 7), groups);
  }

  @Test
  void negativeInputTokensAreRejected() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class, () -> source(PromptSpec.unique(), ESTIMATE, -1));
    assertEquals("input tokens must be >= 0, got -1", e.getMessage());
  }

  @Test
  void concurrentTakeAndForgetGiveTheSequentialPromptsAndDigest() throws Exception {
    for (PromptSpec spec :
        List.of(PromptSpec.unique(), PromptSpec.sharedPrefix(0.5, 4), PromptSpec.repeat())) {
      int count = 3000;
      PromptSource sequential = source(spec, TestTokenizers.qwen3(), 200);
      List<String> expected = new ArrayList<>();
      for (long i = 0; i < count; i++) {
        expected.add(sequential.take(i).digest());
        sequential.forget(i);
      }
      PromptSource concurrent = source(spec, TestTokenizers.qwen3(), 200);
      AtomicLong next = new AtomicLong();
      String[] seen = new String[count];
      ExecutorService pool = Executors.newFixedThreadPool(6);
      try {
        List<Future<?>> futures = new ArrayList<>();
        for (int t = 0; t < 6; t++) {
          futures.add(
              pool.submit(
                  () -> {
                    for (long i = next.getAndIncrement(); i < count; i = next.getAndIncrement()) {
                      seen[(int) i] = concurrent.take(i).digest();
                      concurrent.take(i);
                      concurrent.forget(i);
                    }
                  }));
        }
        for (Future<?> future : futures) {
          future.get();
        }
      } finally {
        pool.shutdownNow();
      }
      assertEquals(expected, List.of(seen), spec.toString());
      assertEquals(sequential.digest(), concurrent.digest(), spec.toString());
      assertEquals(count, concurrent.handedOut());
    }
  }

  @Test
  void handedOutCountsDistinctIndicesAcrossPages() {
    PromptSource source = source(PromptSpec.unique(), ESTIMATE, 40);
    LongStream.of(0, 63, 64, 65, 1L << 40, 7, 7).forEach(source::take);
    assertEquals(6, source.handedOut());
    assertTrue(source.digest().matches("[0-9a-f]{16}"));
  }
}
