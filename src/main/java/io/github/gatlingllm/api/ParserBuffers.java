package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.util.BufferRecycler;
import com.fasterxml.jackson.core.util.RecyclerPool;
import java.util.concurrent.atomic.AtomicReferenceArray;

/**
 * The pool of Jackson's parser and generator buffers for this package's {@link Json#FACTORY}: a few
 * slots taken and given back with one compare-and-set each. Jackson's default pool keeps one set of
 * buffers a thread in a {@link ThreadLocal}, and a Netty event loop's thread-local map is crowded
 * (Gatling's and Scala's own), so that lookup, made twice for every streamed event's parser, cost
 * more than the parse itself in a profile of the client at 1,000 streams/s. Any thread may take and
 * give back; a set of buffers given back to a full pool is dropped, and a thread that finds none
 * makes a new one. Thread-safe.
 */
final class ParserBuffers implements RecyclerPool<BufferRecycler> {

  private static final long serialVersionUID = 1L;

  /** Enough for the event loops of a client (two a core) to find one each most of the time. */
  private static final int SLOTS = 32;

  private final transient AtomicReferenceArray<BufferRecycler> slots =
      new AtomicReferenceArray<>(SLOTS);

  @Override
  public BufferRecycler acquirePooled() {
    for (int i = 0; i < SLOTS; i++) {
      BufferRecycler r = slots.get(i);
      if (r != null && slots.compareAndSet(i, r, null)) {
        return r;
      }
    }
    return new BufferRecycler();
  }

  @Override
  public void releasePooled(BufferRecycler recycler) {
    for (int i = 0; i < SLOTS; i++) {
      if (slots.get(i) == null && slots.compareAndSet(i, null, recycler)) {
        return;
      }
    }
  }

  @Override
  public int pooledCount() {
    int n = 0;
    for (int i = 0; i < SLOTS; i++) {
      if (slots.get(i) != null) {
        n++;
      }
    }
    return n;
  }

  @Override
  public boolean clear() {
    for (int i = 0; i < SLOTS; i++) {
      slots.set(i, null);
    }
    return true;
  }
}
