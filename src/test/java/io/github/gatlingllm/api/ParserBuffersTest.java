package io.github.gatlingllm.api;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotSame;
import static org.junit.jupiter.api.Assertions.assertSame;

import com.fasterxml.jackson.core.util.BufferRecycler;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import org.junit.jupiter.api.Test;

class ParserBuffersTest {

  @Test
  void anEmptyPoolMakesNewBuffers() {
    ParserBuffers pool = new ParserBuffers();
    assertNotSame(pool.acquirePooled(), pool.acquirePooled());
    assertEquals(0, pool.pooledCount());
  }

  @Test
  void buffersGivenBackAreTakenAgain() {
    ParserBuffers pool = new ParserBuffers();
    BufferRecycler r = pool.acquirePooled();
    pool.releasePooled(r);
    assertEquals(1, pool.pooledCount());
    assertSame(r, pool.acquirePooled());
    assertEquals(0, pool.pooledCount());
  }

  @Test
  void aFullPoolDropsWhatIsGivenBack() {
    ParserBuffers pool = new ParserBuffers();
    for (int i = 0; i < 40; i++) {
      pool.releasePooled(new BufferRecycler());
    }
    assertEquals(32, pool.pooledCount());
  }

  @Test
  void clearEmptiesThePool() {
    ParserBuffers pool = new ParserBuffers();
    pool.releasePooled(new BufferRecycler());
    pool.clear();
    assertEquals(0, pool.pooledCount());
  }

  @Test
  void parsersOnManyThreadsAtOnceReadTheirOwnEvents() throws Exception {
    ExecutorService threads = Executors.newFixedThreadPool(8);
    try {
      List<Future<Integer>> results = new ArrayList<>();
      for (int t = 0; t < 8; t++) {
        int n = t + 1;
        results.add(
            threads.submit(
                () -> {
                  String payload =
                      "{\"choices\":[{\"delta\":{\"content\":\"" + "x".repeat(n) + "\u00e9\"}}]}";
                  int chars = 0;
                  for (int i = 0; i < 2_000; i++) {
                    chars = StreamEvent.parse(payload).contentChars();
                  }
                  return chars;
                }));
      }
      for (int t = 0; t < 8; t++) {
        assertEquals(t + 2, results.get(t).get());
      }
    } finally {
      threads.shutdownNow();
    }
  }
}
