package io.github.gatlingllm.simulator;

import java.util.List;

/**
 * The simulator's output text: a fixed cycle of 16 words, one word per token. Token 0 is the bare
 * word, every later token a space and the word, so the text of n tokens is n whitespace words. Each
 * word with or without its space is one token of the Qwen3 and GPT-4o vocabularies.
 */
final class WordCycle {

  /** The words, in order. */
  static final List<String> WORDS =
      List.of(
          "the", "model", "is", "running", "in", "a", "load", "test", "and", "each", "word", "here",
          "counts", "as", "one", "token");

  private static final String[] TOKENS = new String[WORDS.size() * 2];

  static {
    for (int i = 0; i < WORDS.size(); i++) {
      TOKENS[i] = WORDS.get(i);
      TOKENS[WORDS.size() + i] = " " + WORDS.get(i);
    }
  }

  private WordCycle() {}

  /** The text of token {@code index} (0-based). */
  static String token(int index) {
    int word = index % WORDS.size();
    return index == 0 ? TOKENS[word] : TOKENS[WORDS.size() + word];
  }

  /** The text of tokens {@code from} (inclusive) to {@code to} (exclusive). */
  static String text(int from, int to) {
    if (to - from == 1) {
      return token(from);
    }
    StringBuilder text = new StringBuilder((to - from) * 8);
    for (int i = from; i < to; i++) {
      text.append(token(i));
    }
    return text.toString();
  }
}
