package io.github.gatlingllm.metrics;

import io.netty.util.internal.PlatformDependent;
import java.util.Objects;
import java.util.Queue;
import java.util.concurrent.locks.LockSupport;
import java.util.function.Consumer;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Takes per-request bookkeeping off the threads that hand items in (Netty's event loops,
 * where each chunk is stamped): {@link #add} puts an item on a bounded lock-free queue (Netty's
 * JCTools MPSC array queue) and returns; one daemon thread takes the items off in order, a batch at
 * a time, and hands each to the consumer under {@code lock}. The consumer is only ever called under
 * that lock, so it needs no other; an item is kept only until it is applied.
 *
 * <p>Nothing is lost and the order is kept: a reader that must see every item added so far calls
 * {@link #drain()} (it applies what is queued on the calling thread, under the lock) before it
 * reads; {@link #close()} stops the thread and drains. When the queue is full (the thread is more
 * than {@code capacity} items behind) or closed, {@link #add} applies the queued items and its own
 * on the caller's thread, under the lock: back-pressure, never a drop.
 *
 * <p>The thread sleeps {@link #IDLE_PARK_NANOS} when the queue is empty rather than being woken by
 * each add (a wake-up costs the event loop a system call and the core a context switch a request),
 * so an item is applied at most about that long after it was added, unless a reader drains first.
 *
 * @param <T> the item, never null
 */
public final class AggregatorThread<T> implements AutoCloseable {

  private static final Logger LOG = LoggerFactory.getLogger(AggregatorThread.class);

  /** How long the thread sleeps when it finds the queue empty, in nanoseconds (5 ms). */
  public static final long IDLE_PARK_NANOS = 5_000_000;

  /** Items applied in one hold of the lock, so that a reader waits at most one batch. */
  static final int BATCH = 256;

  private final Queue<T> queue;
  private final Object lock;
  private final Consumer<T> consumer;
  private final Thread thread;
  private volatile boolean closed;
  private long failures;

  /**
   * Starts the thread.
   *
   * @param name the thread's name
   * @param capacity the queue's capacity in items, at least 2 (rounded up to a power of two)
   * @param lock the lock the consumer is called under, never null (the owner's own, so that its
   *     readers can hold it too)
   * @param consumer applies one item, never null; an exception it throws is logged and the item is
   *     dropped (the first at error level, later ones counted at debug level)
   * @throws IllegalArgumentException if {@code capacity} is below 2
   */
  public AggregatorThread(String name, int capacity, Object lock, Consumer<T> consumer) {
    if (capacity < 2) {
      throw new IllegalArgumentException("capacity must be at least 2, got " + capacity);
    }
    this.queue = PlatformDependent.newFixedMpscQueue(capacity);
    this.lock = Objects.requireNonNull(lock, "lock");
    this.consumer = Objects.requireNonNull(consumer, "consumer");
    this.thread = new Thread(this::loop, name);
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Hands an item over: queued for the thread, or, when the queue is full or closed, applied here
   * after what is queued.
   *
   * @param item the item, never null
   * @throws NullPointerException if {@code item} is null
   */
  public void add(T item) {
    Objects.requireNonNull(item, "item");
    if (!closed && queue.offer(item)) {
      if (closed) {
        // close() may have drained before the offer: apply it now.
        drain();
      }
      return;
    }
    synchronized (lock) {
      drainLocked();
      apply(item);
    }
  }

  /** Applies every item queued so far, on the calling thread, under the lock. */
  public void drain() {
    synchronized (lock) {
      drainLocked();
    }
  }

  /** Stops the thread and applies what is queued; later items are applied by {@link #add}. */
  @Override
  public void close() {
    closed = true;
    LockSupport.unpark(thread);
    drain();
  }

  /**
   * Whether the thread is still running (for tests).
   *
   * @return true until it has stopped after {@link #close()}
   */
  boolean running() {
    return thread.isAlive();
  }

  private void loop() {
    while (!closed) {
      if (queue.isEmpty()) {
        LockSupport.parkNanos(this, IDLE_PARK_NANOS);
        continue;
      }
      synchronized (lock) {
        T item;
        for (int i = 0; i < BATCH && (item = queue.poll()) != null; i++) {
          apply(item);
        }
      }
    }
  }

  // Under the lock: the queue has one consumer at a time.
  private void drainLocked() {
    T item;
    while ((item = queue.poll()) != null) {
      apply(item);
    }
  }

  private void apply(T item) {
    try {
      consumer.accept(item);
    } catch (RuntimeException e) {
      if (failures++ == 0) {
        LOG.error("{}: an item could not be applied and is dropped: {}", thread.getName(), e, e);
      } else {
        LOG.debug("{}: {} items dropped so far: {}", thread.getName(), failures, e.toString());
      }
    }
  }
}
