package io.github.gatlingllm.token;

import java.util.Map;

/**
 * Counts the tokens of a text, the way the prompt generator and the run record need it.
 *
 * <p>Implementations are safe for concurrent use by several threads. They count a text as it
 * stands: no special tokens (BOS, chat template) are added, nothing is truncated or padded.
 */
public interface TokenCounter {

  /**
   * Counts the tokens of a text.
   *
   * @param text the text, never null
   * @return the count, with this counter's {@link #source()} and {@link #exact()}
   * @throws NullPointerException if {@code text} is null
   */
  TokenCount countText(String text);

  /**
   * The number of tokens of a text: {@code countText(text).value()}, without the allocation where
   * an implementation can avoid it.
   *
   * @param text the text, never null
   * @return the number of tokens, never negative
   */
  default int count(String text) {
    return countText(text).value();
  }

  /**
   * Counts several texts: the same counts as {@link #count(String)} of each, in one call where the
   * tokenizer can batch them.
   *
   * @param texts the texts, none null
   * @return the number of tokens of each text, in order
   */
  default int[] countAll(String[] texts) {
    int[] counts = new int[texts.length];
    for (int i = 0; i < texts.length; i++) {
      counts[i] = count(texts[i]);
    }
    return counts;
  }

  /**
   * The name of this kind of counter, as recorded in {@link TokenCount#source()}: {@code
   * "estimated"} or {@code "huggingface"}.
   *
   * @return the source name, never null
   */
  String source();

  /**
   * Whether counts are exact for the model's tokenizer.
   *
   * @return true for a real tokenizer, false for an estimate
   */
  boolean exact();

  /**
   * What this counter is, in the run record's form: at least {@code source}, {@code exact} and
   * {@code name}; a Hugging Face counter adds the file, its SHA-256, the library and its version
   * and the chat template's digest. Two counters with equal identities count alike.
   *
   * @return an ordered, unmodifiable map of JSON-ready values, never null
   */
  Map<String, Object> identity();
}
