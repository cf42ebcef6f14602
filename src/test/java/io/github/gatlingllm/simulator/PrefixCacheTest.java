package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.Arrays;
import org.junit.jupiter.api.Test;

class PrefixCacheTest {

  /** Token ids {@code first, first + 1, ...}: {@code n} distinct tokens. */
  private static long[] ids(long first, int n) {
    long[] ids = new long[n];
    for (int i = 0; i < n; i++) {
      ids[i] = first + i;
    }
    return ids;
  }

  private static long[] concat(long[] a, long[] b) {
    long[] all = Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }

  /** Looks a prompt up, then caches it, as one request does; returns its cached tokens. */
  private static int request(PrefixCache cache, long[] ids) {
    long[] hashes = cache.blockHashes(ids);
    int cached = cache.lookup(hashes, ids.length);
    cache.insert(hashes);
    return cached;
  }

  @Test
  void firstRequestHasNothingCached() {
    assertEquals(0, request(new PrefixCache(16, 100), ids(0, 100)));
  }

  @Test
  void repeatedHundredTokenPromptGets96() {
    PrefixCache cache = new PrefixCache(16, 100);
    request(cache, ids(0, 100));
    assertEquals(96, request(cache, ids(0, 100)));
  }

  @Test
  void lastPromptTokenIsNeverServedFromCache() {
    // 96 tokens are 6 full blocks, but the 6th holds the last token: only 5 are served.
    PrefixCache cache = new PrefixCache(16, 100);
    request(cache, ids(0, 96));
    assertEquals(80, request(cache, ids(0, 96)));
  }

  @Test
  void ninetySevenTokensServeAllSixFullBlocks() {
    PrefixCache cache = new PrefixCache(16, 100);
    request(cache, ids(0, 97));
    assertEquals(96, request(cache, ids(0, 97)));
  }

  @Test
  void onlyFullBlocksAreCached() {
    PrefixCache cache = new PrefixCache(16, 100);
    request(cache, ids(0, 40));
    assertEquals(2, cache.size());
  }

  @Test
  void promptsSharingA64TokenPrefixShare64() {
    PrefixCache cache = new PrefixCache(16, 100);
    long[] prefix = ids(0, 64);
    request(cache, concat(prefix, ids(1_000, 36)));
    assertEquals(64, request(cache, concat(prefix, ids(2_000, 36))));
  }

  @Test
  void aDifferentFirstTokenSharesNothing() {
    PrefixCache cache = new PrefixCache(16, 100);
    request(cache, ids(0, 64));
    long[] changed = ids(0, 64);
    changed[0] = 999;
    assertEquals(0, request(cache, changed));
  }

  @Test
  void aBlockCountsOnlyAfterTheSameWholePrefix() {
    // Block 2 of b equals block 2 of a, but block 1 differs: the hash chain tells them apart.
    PrefixCache cache = new PrefixCache(16, 100);
    long[] a = concat(ids(0, 16), ids(100, 17));
    long[] b = concat(ids(50, 16), ids(100, 17));
    request(cache, a);
    assertEquals(0, request(cache, b));
  }

  @Test
  void leastRecentlyUsedBlocksAreEvictedFirst() {
    PrefixCache cache = new PrefixCache(16, 8);
    long[] a = ids(0, 65);
    long[] b = ids(1_000, 65);
    long[] c = ids(2_000, 65);
    request(cache, a);
    request(cache, b);
    assertEquals(64, request(cache, a));
    request(cache, c); // evicts b, the least recently used
    assertEquals(64, request(cache, a));
    assertEquals(0, request(cache, b));
  }

  @Test
  void oldestPromptIsEvictedWhenCapacityIsExceeded() {
    PrefixCache cache = new PrefixCache(16, 8);
    request(cache, ids(0, 65));
    request(cache, ids(1_000, 65));
    request(cache, ids(2_000, 65));
    assertEquals(8, cache.size());
    assertEquals(0, request(cache, ids(0, 65)));
  }

  @Test
  void aPromptLongerThanTheCacheKeepsItsLeadingBlocks() {
    PrefixCache cache = new PrefixCache(16, 2);
    request(cache, ids(0, 81)); // 5 full blocks, 2 fit
    assertEquals(32, request(cache, ids(0, 81)));
  }

  @Test
  void zeroCapacityCachesNothing() {
    PrefixCache cache = new PrefixCache(16, 0);
    request(cache, ids(0, 100));
    assertEquals(0, request(cache, ids(0, 100)));
  }

  @Test
  void unknownIdsCacheNothing() {
    PrefixCache cache = new PrefixCache(16, 100);
    assertEquals(0, cache.blockHashes(null).length);
  }

  @Test
  void emptyPromptHasNothingCached() {
    PrefixCache cache = new PrefixCache(16, 100);
    assertEquals(0, request(cache, new long[0]));
  }
}
