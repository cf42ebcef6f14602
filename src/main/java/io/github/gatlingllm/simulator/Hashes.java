package io.github.gatlingllm.simulator;

/** The 64-bit hashes of the prefix cache: word ids under the estimate, and block hash chains. */
final class Hashes {

  private static final long FNV_OFFSET = 0xcbf29ce484222325L;
  private static final long FNV_PRIME = 0x100000001b3L;
  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  /** The chain value before the first block. */
  static final long ROOT = 0x5D1C0FFEE0DDBA11L;

  private Hashes() {}

  /** The id of a word: FNV-1a over its UTF-16 code units, finalized with {@link #mix}. */
  static long word(String text) {
    return word(text, 0, text.length());
  }

  /** The id of {@code text[from, to)}, as {@link #word(String)} of that substring. */
  static long word(String text, int from, int to) {
    long hash = FNV_OFFSET;
    for (int i = from; i < to; i++) {
      hash ^= text.charAt(i);
      hash *= FNV_PRIME;
    }
    return mix(hash);
  }

  /**
   * The hash of a block given the hash of the block before it (or {@link #ROOT}): every token of
   * the block is folded in, so a block's hash stands for all tokens up to its end, as in vLLM.
   */
  static long block(long parent, long[] ids, int from, int to) {
    long hash = parent;
    for (int i = from; i < to; i++) {
      hash = mix(hash * GOLDEN + ids[i]);
    }
    return mix(hash ^ (to - from));
  }

  /** MurmurHash3's 64-bit finalizer. */
  static long mix(long value) {
    long z = value;
    z = (z ^ (z >>> 33)) * 0xff51afd7ed558ccdL;
    z = (z ^ (z >>> 33)) * 0xc4ceb9fe1a85ec53L;
    return z ^ (z >>> 33);
  }
}
