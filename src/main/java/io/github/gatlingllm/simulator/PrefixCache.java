package io.github.gatlingllm.simulator;

import java.util.LinkedHashMap;
import java.util.Map;

/**
 * An automatic prefix cache in the manner of vLLM's: the prompt is cut into blocks of {@code
 * blockSize} tokens, each full block is identified by the hash chain of every token up to its end,
 * and a lookup takes the longest run of cached leading blocks. Thread-safe.
 *
 * <p>Rules, all as in vLLM:
 *
 * <ul>
 *   <li>Only full blocks are cached; a partial last block never is.
 *   <li>A lookup never serves the last prompt token from the cache (the model must compute it to
 *       produce the first output token): it considers the first {@code promptTokens - 1} tokens, so
 *       a repeated 100-token prompt with 16-token blocks gets 96 cached tokens, a repeated 96-token
 *       prompt 80.
 *   <li>Capacity is counted in blocks; when full, the least recently used block is evicted. A
 *       request's blocks are touched from last to first, so that among them the tail goes first and
 *       the leading blocks, which other prompts can share, stay longest.
 * </ul>
 */
final class PrefixCache {

  private final int blockSize;
  private final int capacity;
  private final LinkedHashMap<Long, Boolean> blocks;

  PrefixCache(int blockSize, int capacity) {
    this.blockSize = blockSize;
    this.capacity = capacity;
    this.blocks =
        new LinkedHashMap<>(16, 0.75f, true) {
          private static final long serialVersionUID = 1L;

          @Override
          protected boolean removeEldestEntry(Map.Entry<Long, Boolean> eldest) {
            return size() > PrefixCache.this.capacity;
          }
        };
  }

  /**
   * The hash chain of a prompt's full blocks: entry {@code b} stands for tokens {@code [0, (b + 1)
   * * blockSize)}.
   *
   * @param ids the prompt's token ids, or null when unknown
   * @return one hash per full block; empty when the ids are unknown or the cache is off
   */
  long[] blockHashes(long[] ids) {
    if (ids == null || capacity == 0) {
      return new long[0];
    }
    long[] hashes = new long[ids.length / blockSize];
    long parent = Hashes.ROOT;
    for (int b = 0; b < hashes.length; b++) {
      parent = Hashes.block(parent, ids, b * blockSize, (b + 1) * blockSize);
      hashes[b] = parent;
    }
    return hashes;
  }

  /**
   * Looks a prompt up and marks the blocks it hits as recently used.
   *
   * @param hashes the prompt's {@link #blockHashes}
   * @param promptTokens the prompt's length in tokens
   * @return the cached prompt tokens: the longest run of cached leading blocks within the first
   *     {@code promptTokens - 1} tokens, times the block size
   */
  synchronized int lookup(long[] hashes, int promptTokens) {
    int limit = Math.min(hashes.length, Math.max(0, promptTokens - 1) / blockSize);
    int hit = 0;
    while (hit < limit && blocks.containsKey(hashes[hit])) {
      hit++;
    }
    for (int b = hit - 1; b >= 0; b--) {
      blocks.get(hashes[b]);
    }
    return hit * blockSize;
  }

  /**
   * Caches a prompt's full blocks (once computed), as most recently used.
   *
   * @param hashes the prompt's {@link #blockHashes}
   */
  synchronized void insert(long[] hashes) {
    if (capacity == 0) {
      return;
    }
    for (int b = hashes.length - 1; b >= 0; b--) {
      blocks.put(hashes[b], Boolean.TRUE);
    }
  }

  /** The number of cached blocks. */
  synchronized int size() {
    return blocks.size();
  }
}
