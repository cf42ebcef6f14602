package io.github.gatlingllm.prompt;

import java.nio.charset.StandardCharsets;

/**
 * Filler words that follow a prompt's head, built once per length and shared by every prompt of
 * that length.
 *
 * @param text the words, joined by single spaces; empty for no filler
 * @param spacedUtf8 the UTF-8 bytes of {@code " " + text}, empty for no filler
 * @param tokens the tokens of {@code " " + text}, 0 for no filler
 */
record Filler(String text, byte[] spacedUtf8, int tokens) {

  static final Filler NONE = new Filler("", new byte[0], 0);

  static Filler of(String text, int tokens) {
    return new Filler(text, (" " + text).getBytes(StandardCharsets.UTF_8), tokens);
  }

  boolean isEmpty() {
    return text.isEmpty();
  }
}
