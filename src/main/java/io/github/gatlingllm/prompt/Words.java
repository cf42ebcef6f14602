package io.github.gatlingllm.prompt;

/** The filler vocabulary of the reference generator, and texts made of it. */
final class Words {

  /** The reference's {@code _FILLER}, in its order. */
  static final String[] FILLER = {
    "profile",
    "inference",
    "latency",
    "throughput",
    "memory",
    "tokens",
    "scheduler",
    "request",
    "streaming",
    "capacity",
  };

  private static final int LONGEST = 10;

  private Words() {}

  /**
   * {@code " ".join(FILLER[(start + i) % 10] for i in range(count))}; the reference's {@code
   * _filler_words(count)} is {@code cycle(0, count)}.
   */
  static String cycle(int start, int count) {
    if (count <= 0) {
      return "";
    }
    StringBuilder text = new StringBuilder(count * (LONGEST + 1));
    for (int i = 0; i < count; i++) {
      if (i > 0) {
        text.append(' ');
      }
      text.append(FILLER[(start + i) % FILLER.length]);
    }
    return text.toString();
  }
}
