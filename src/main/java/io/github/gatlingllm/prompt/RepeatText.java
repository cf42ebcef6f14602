package io.github.gatlingllm.prompt;

import io.github.gatlingllm.token.TokenCounter;

/**
 * The repeat-mode text: the reference's {@code generate_prompt(target_tokens, counter, seed=...)}.
 *
 * <p>The reference appends one filler word at a time, starting at word {@code seed mod 10}, and
 * re-counts the whole text after each word until the count reaches the target, giving up at {@code
 * 2 * target} words: quadratic in the target. Token counts only grow as words are appended (each
 * word follows a space, where subword tokenizers split), so the same text is the smallest word
 * count whose text reaches the target, found here with a galloping then binary search: a handful of
 * counts instead of one per word. {@code RepeatTextTest} checks equality with the word-by-word loop
 * for every target from 1 to 2,048 with both counters.
 */
final class RepeatText {

  private RepeatText() {}

  static String generate(int targetTokens, TokenCounter counter, long seed) {
    if (targetTokens <= 0) {
      return "";
    }
    int start = (int) Math.floorMod(seed, (long) Words.FILLER.length);
    long maxWordsLong = 2L * targetTokens;
    int maxWords = (int) Math.min(maxWordsLong, Integer.MAX_VALUE - 8);
    Counts counts = new Counts(counter, start, targetTokens);
    // A first guess from the words' own counts; for additive counters it is the answer.
    int guess = Math.max(1, Math.min(maxWords, counts.estimateWords()));
    int lo; // 0, or a word count whose text falls short of the target
    int hi; // a word count whose text reaches the target
    if (counts.reaches(guess)) {
      hi = guess;
      lo = 0;
      int step = 1;
      while (true) {
        int candidate = hi - step;
        if (candidate < 1) {
          break;
        }
        if (counts.reaches(candidate)) {
          hi = candidate;
          step *= 2;
        } else {
          lo = candidate;
          break;
        }
      }
    } else {
      lo = guess;
      int step = 1;
      while (true) {
        if (lo >= maxWords) {
          return Words.cycle(start, maxWords);
        }
        int candidate = (int) Math.min((long) lo + step, maxWords);
        if (counts.reaches(candidate)) {
          hi = candidate;
          break;
        }
        lo = candidate;
        step *= 2;
      }
    }
    while (hi - lo > 1) {
      int mid = lo + (hi - lo) / 2;
      if (counts.reaches(mid)) {
        hi = mid;
      } else {
        lo = mid;
      }
    }
    return Words.cycle(start, hi);
  }

  private static final class Counts {
    private final TokenCounter counter;
    private final int start;
    private final int target;

    Counts(TokenCounter counter, int start, int target) {
      this.counter = counter;
      this.start = start;
      this.target = target;
    }

    boolean reaches(int words) {
      return counter.count(Words.cycle(start, words)) >= target;
    }

    int estimateWords() {
      int[] perWord = new int[Words.FILLER.length];
      for (int i = 0; i < perWord.length; i++) {
        perWord[i] = Math.max(1, counter.count(" " + Words.FILLER[i]));
      }
      int first = counter.count(Words.FILLER[start]);
      long total = first;
      int words = 1;
      while (total < target) {
        total += perWord[(start + words) % perWord.length];
        words++;
      }
      return words;
    }
  }
}
