package io.github.gatlingllm.prompt;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.testing.TestTokenizers;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The fast repeat text equals the reference's word-by-word loop for every target from 1 to 2,048,
 * with both counters.
 *
 * <p>The reference loop appends a word, counts the whole text, and stops at the first count that
 * reaches the target, or at {@code 2 * target} words. Its count after n words does not depend on
 * the target, so {@link ReferenceLoop} counts each candidate text once (really tokenizing it) and
 * answers every target from those counts, exactly as the loop would stop. The fast path counts
 * through the same memo: a text it asks about was tokenized for real, once, whoever asked first.
 */
class RepeatTextTest {

  private static final int MAX_TARGET = 2048;

  @Test
  void equalsTheReferenceLoopForTargets1To2048WithTheEstimatedCounter() {
    ReferenceLoop loop = new ReferenceLoop(EstimatedTokenCounter.INSTANCE);
    for (int start = 0; start < 10; start++) {
      checkTargets(loop, start, MAX_TARGET);
    }
  }

  /**
   * Every target from 1 to 2,048 from the first filler word, and every starting word for targets up
   * to 300. (Every starting word up to 2,048 counts 20 million words with the reference loop:
   * minutes, for no new case.)
   */
  @Test
  void equalsTheReferenceLoopForTargets1To2048WithQwen3() {
    ReferenceLoop loop = new ReferenceLoop(new MemoCounter(TestTokenizers.qwen3()));
    checkTargets(loop, 0, MAX_TARGET);
    for (int start = 1; start < 10; start++) {
      checkTargets(loop, start, 300);
    }
  }

  @Test
  void memoizedLoopEqualsTheLiteralLoopForSmallTargets() {
    TokenCounter qwen3 = TestTokenizers.qwen3();
    ReferenceLoop loop = new ReferenceLoop(qwen3);
    for (int target = 1; target <= 40; target++) {
      for (long seed : new long[] {0, 7, -3}) {
        assertEquals(literalLoop(target, qwen3, seed), loop.text(target, seed), "target " + target);
      }
    }
  }

  @Test
  void zeroTargetIsEmpty() {
    assertEquals("", RepeatText.generate(0, EstimatedTokenCounter.INSTANCE, 5));
  }

  @Test
  void negativeSeedStartsAtItsPythonModulo() {
    // -1 % 10 == 9 in Python: the text starts with the tenth word.
    assertEquals("capacity profile", RepeatText.generate(2, EstimatedTokenCounter.INSTANCE, -1));
  }

  @Test
  void counterThatNeverReachesTheTargetStopsAtTwiceTheTarget() {
    TokenCounter stuck =
        new TokenCounter() {
          @Override
          public io.github.gatlingllm.token.TokenCount countText(String text) {
            return new io.github.gatlingllm.token.TokenCount(1, "stuck", false);
          }

          @Override
          public String source() {
            return "stuck";
          }

          @Override
          public boolean exact() {
            return false;
          }

          @Override
          public java.util.Map<String, Object> identity() {
            return java.util.Map.of("source", "stuck");
          }
        };
    assertEquals(literalLoop(5, stuck, 0), RepeatText.generate(5, stuck, 0));
    assertEquals(10, RepeatText.generate(5, stuck, 0).split(" ").length);
  }

  /** Targets 1..maxTarget with texts that start at filler word {@code start}. */
  private static void checkTargets(ReferenceLoop loop, int start, int maxTarget) {
    for (int target = 1; target <= maxTarget; target++) {
      // The text starts at word seed mod 10 (PromptSource passes its seed + input tokens).
      long seed = start + 10L * target;
      assertEquals(
          loop.text(target, seed),
          RepeatText.generate(target, loop.counter, seed),
          "target " + target + " from word " + start + " with " + loop.counter);
    }
  }

  /** The reference's {@code generate_prompt}, word by word. */
  private static String literalLoop(int target, TokenCounter counter, long seed) {
    List<String> words = new ArrayList<>();
    int index = (int) Math.floorMod(seed, 10L);
    while (words.size() < target * 2) {
      words.add(Words.FILLER[index % 10]);
      String candidate = String.join(" ", words);
      if (counter.count(candidate) >= target) {
        return candidate;
      }
      index++;
    }
    return String.join(" ", words);
  }

  /** A real counter whose counts are kept by text. */
  private static final class MemoCounter implements TokenCounter {
    private final TokenCounter real;
    private final java.util.Map<String, Integer> counts = new java.util.HashMap<>();

    MemoCounter(TokenCounter real) {
      this.real = real;
    }

    @Override
    public int count(String text) {
      return counts.computeIfAbsent(text, real::count);
    }

    @Override
    public io.github.gatlingllm.token.TokenCount countText(String text) {
      return new io.github.gatlingllm.token.TokenCount(count(text), real.source(), real.exact());
    }

    @Override
    public String source() {
      return real.source();
    }

    @Override
    public boolean exact() {
      return real.exact();
    }

    @Override
    public java.util.Map<String, Object> identity() {
      return real.identity();
    }

    @Override
    public String toString() {
      return real.toString();
    }
  }

  /** The reference loop with each candidate's count kept, per starting word. */
  private static final class ReferenceLoop {
    private final TokenCounter counter;
    private final List<List<Integer>> counts = new ArrayList<>();

    ReferenceLoop(TokenCounter counter) {
      this.counter = counter;
      for (int i = 0; i < 10; i++) {
        counts.add(new ArrayList<>());
      }
    }

    String text(int target, long seed) {
      int start = (int) Math.floorMod(seed, 10L);
      List<Integer> known = counts.get(start);
      for (int words = 1; words <= 2 * target; words++) {
        while (known.size() < words) {
          known.add(counter.count(Words.cycle(start, known.size() + 1)));
        }
        if (known.get(words - 1) >= target) {
          return Words.cycle(start, words);
        }
      }
      return Words.cycle(start, 2 * target);
    }
  }
}
