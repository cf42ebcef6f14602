package io.github.gatlingllm.simulator;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import java.util.Arrays;
import java.util.List;

/**
 * Prompt tokens as the simulator sees them: their number and, where known, their ids for the prefix
 * cache.
 *
 * <ul>
 *   <li>{@link HuggingFaceTokenCounter}: the tokenizer's real ids; the count is their number.
 *   <li>{@link EstimatedTokenCounter}: one token per whitespace word (the estimate's rule: words
 *       split on spaces and newlines), its id a 64-bit hash of the word; a text without words is
 *       one token, as the estimate counts it.
 *   <li>any other counter: its count, and no ids, so nothing is ever served from the prefix cache.
 * </ul>
 */
final class PromptTokenizer {

  /** The id of the one token of a text without words, under the estimate. */
  static final long EMPTY_WORD_ID = Hashes.word("");

  /** Prompt tokens: their count and, when known, their ids ({@code ids.length == count}). */
  record Tokens(int count, long[] ids) {}

  private final TokenCounter counter;

  PromptTokenizer(TokenCounter counter) {
    this.counter = counter;
  }

  /** The tokens of a prompt text. */
  Tokens tokens(String text) {
    if (counter instanceof HuggingFaceTokenCounter huggingFace) {
      long[] ids = huggingFace.tokenIds(text);
      return new Tokens(ids.length, ids);
    }
    if (counter instanceof EstimatedTokenCounter) {
      return estimate(text);
    }
    return new Tokens(counter.count(text), null);
  }

  /** The estimate's ids of the words of {@link WordCycle}, in order. */
  private static final long[] WORD_IDS = WordCycle.WORDS.stream().mapToLong(Hashes::word).toArray();

  /**
   * The ids of the simulator's reply of {@code tokens} tokens ({@link WordCycle}), as they follow
   * the prompt when a conversation's next turn sends the reply back: one id per word.
   *
   * @return the ids, or null when this counter gives no ids
   */
  long[] replyIds(int tokens) {
    if (tokens <= 0) {
      return new long[0];
    }
    if (counter instanceof HuggingFaceTokenCounter huggingFace) {
      return huggingFace.tokenIds(WordCycle.text(0, tokens));
    }
    if (counter instanceof EstimatedTokenCounter) {
      long[] ids = new long[tokens];
      for (int i = 0; i < tokens; i++) {
        ids[i] = WORD_IDS[i % WORD_IDS.length];
      }
      return ids;
    }
    return null;
  }

  /**
   * The ids of the first {@code tokens} tokens of a reply's text (a tool-call reply, {@link
   * ToolTurns}), as they follow the prompt when the next turn sends the reply back.
   *
   * @return the ids, at most {@code tokens}, or null when this counter gives no ids
   */
  long[] replyIds(String text, int tokens) {
    long[] ids = tokens(text).ids();
    return ids == null ? null : Arrays.copyOf(ids, Math.min(ids.length, Math.max(0, tokens)));
  }

  /** Tokens given as ids (a completions prompt of token ids). */
  static Tokens ids(long[] ids) {
    return new Tokens(ids.length, ids);
  }

  private static Tokens estimate(String text) {
    long[] ids = new long[16];
    int words = 0;
    int start = -1;
    for (int i = 0, n = text.length(); i <= n; i++) {
      boolean separator = i == n || text.charAt(i) == ' ' || text.charAt(i) == '\n';
      if (separator) {
        if (start >= 0) {
          if (words == ids.length) {
            ids = Arrays.copyOf(ids, words * 2);
          }
          ids[words++] = Hashes.word(text, start, i);
          start = -1;
        }
      } else if (start < 0) {
        start = i;
      }
    }
    if (words == 0) {
      return new Tokens(1, new long[] {EMPTY_WORD_ID});
    }
    return new Tokens(words, Arrays.copyOf(ids, words));
  }

  /**
   * The chat template: for each message {@code <|im_start|>{role}\n{content}<|im_end|>\n}, then
   * {@code <|im_start|>assistant\n} (ChatML, as Qwen's template renders a plain conversation).
   */
  static String chatTemplate(List<Message> messages) {
    StringBuilder text = new StringBuilder();
    for (Message message : messages) {
      text.append("<|im_start|>")
          .append(message.role())
          .append('\n')
          .append(message.content())
          .append("<|im_end|>\n");
    }
    return text.append("<|im_start|>assistant\n").toString();
  }

  /** One chat message: its role and its text content. */
  record Message(String role, String content) {}
}
