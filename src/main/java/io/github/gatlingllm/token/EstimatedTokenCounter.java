package io.github.gatlingllm.token;

import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * A token estimate: the number of whitespace-separated words, and at least 1.
 *
 * <p>The reference generator's rule, exactly: newlines become spaces, the text is split on single
 * spaces, and the non-empty pieces are counted ({@code max(1, len([c for c in text.replace("\n", "
 * ").split(" ") if c]))}). Tabs and carriage returns are not separators, and the empty text counts
 * as 1. Stateless and thread-safe.
 */
public final class EstimatedTokenCounter implements TokenCounter {

  /** The one instance. */
  public static final EstimatedTokenCounter INSTANCE = new EstimatedTokenCounter();

  /** The {@link TokenCount#source()} of every estimate. */
  public static final String SOURCE = "estimated";

  private static final Map<String, Object> IDENTITY;

  static {
    Map<String, Object> identity = new LinkedHashMap<>();
    identity.put("source", SOURCE);
    identity.put("exact", false);
    identity.put("name", "whitespace words");
    IDENTITY = java.util.Collections.unmodifiableMap(identity);
  }

  private EstimatedTokenCounter() {}

  @Override
  public TokenCount countText(String text) {
    return new TokenCount(count(text), SOURCE, false);
  }

  /**
   * Counts the words of a text, as {@link #countText(String)} does.
   *
   * @param text the text, never null
   * @return the number of words, at least 1
   */
  @Override
  public int count(String text) {
    Objects.requireNonNull(text, "text");
    int words = 0;
    boolean inWord = false;
    for (int i = 0, n = text.length(); i < n; i++) {
      char c = text.charAt(i);
      boolean separator = c == ' ' || c == '\n';
      if (!separator && !inWord) {
        words++;
      }
      inWord = !separator;
    }
    return Math.max(1, words);
  }

  @Override
  public String source() {
    return SOURCE;
  }

  @Override
  public boolean exact() {
    return false;
  }

  @Override
  public Map<String, Object> identity() {
    return IDENTITY;
  }

  @Override
  public String toString() {
    return "EstimatedTokenCounter[whitespace words]";
  }
}
