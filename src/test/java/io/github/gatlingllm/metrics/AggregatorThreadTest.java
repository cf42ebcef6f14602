package io.github.gatlingllm.metrics;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class AggregatorThreadTest {

  private final Object lock = new Object();
  private final List<String> applied = new ArrayList<>();
  private final List<String> threads = new ArrayList<>();

  private AggregatorThread<String> pipe(int capacity) {
    return new AggregatorThread<>(
        "test-aggregator",
        capacity,
        lock,
        item -> {
          if (item.startsWith("bad")) {
            throw new IllegalStateException(item);
          }
          applied.add(item);
          threads.add(Thread.currentThread().getName());
        });
  }

  private List<String> appliedNow() {
    synchronized (lock) {
      return List.copyOf(applied);
    }
  }

  @Test
  void drainAppliesEveryItemInOrder() {
    try (AggregatorThread<String> pipe = pipe(16)) {
      for (String s : List.of("a", "b", "c", "d", "e")) {
        pipe.add(s);
      }
      pipe.drain();
      assertEquals(List.of("a", "b", "c", "d", "e"), appliedNow());
    }
  }

  @Test
  void theThreadAppliesWithoutADrain() throws InterruptedException {
    try (AggregatorThread<String> pipe = pipe(16)) {
      pipe.add("a");
      pipe.add("b");
      for (int i = 0; i < 500 && appliedNow().size() < 2; i++) {
        Thread.sleep(10);
      }
      synchronized (lock) {
        assertEquals(List.of("a", "b"), applied);
        assertEquals(List.of("test-aggregator", "test-aggregator"), threads);
      }
    }
  }

  @Test
  void aFullQueueIsAppliedByTheCallerInOrder() {
    try (AggregatorThread<String> pipe = pipe(2)) {
      // Holding the lock keeps the thread from taking anything: the third item finds the queue
      // full and the caller applies the two queued ones, then its own.
      synchronized (lock) {
        pipe.add("a");
        pipe.add("b");
        pipe.add("c");
        assertEquals(List.of("a", "b", "c"), applied);
        assertEquals(3, threads.size());
        assertFalse(threads.contains("test-aggregator"));
      }
    }
  }

  @Test
  void afterCloseItemsAreAppliedByTheCaller() throws InterruptedException {
    AggregatorThread<String> pipe = pipe(16);
    pipe.add("a");
    pipe.close();
    assertEquals(List.of("a"), appliedNow());
    pipe.add("b");
    assertEquals(List.of("a", "b"), appliedNow());
    for (int i = 0; i < 500 && pipe.running(); i++) {
      Thread.sleep(10);
    }
    assertFalse(pipe.running());
  }

  @Test
  void anItemThatFailsIsDroppedAndTheNextOnesGoOn() {
    try (AggregatorThread<String> pipe = pipe(16)) {
      pipe.add("a");
      pipe.add("bad one");
      pipe.add("c");
      pipe.drain();
      assertEquals(List.of("a", "c"), appliedNow());
    }
  }

  @Test
  void aCapacityBelowTwoIsRefused() {
    IllegalArgumentException e = assertThrows(IllegalArgumentException.class, () -> pipe(1));
    assertEquals("capacity must be at least 2, got 1", e.getMessage());
  }
}
