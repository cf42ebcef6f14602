package io.github.gatlingllm.simulator;

import java.util.ArrayDeque;

/**
 * Admission of sequences: at most {@code maxConcurrent} run at once; the others wait in arrival
 * order and each is admitted at the moment a running one finishes. Thread-safe.
 */
final class Scheduler {

  /** A sequence that can be admitted later, from any thread. */
  interface Admittable {
    /**
     * Admits the sequence; called once, outside the scheduler's lock, from the thread of the
     * sequence that freed the slot.
     *
     * @param admittedNanos {@link System#nanoTime()} of the admission
     */
    void admitted(long admittedNanos);
  }

  private final int maxConcurrent;
  private final ArrayDeque<Admittable> waiting = new ArrayDeque<>();
  private int running;

  Scheduler(int maxConcurrent) {
    this.maxConcurrent = maxConcurrent;
  }

  /**
   * Admits a sequence now if a slot is free, else queues it.
   *
   * @return true if admitted now (the caller starts it); false if queued ({@link
   *     Admittable#admitted} follows later)
   */
  synchronized boolean submit(Admittable sequence) {
    if (running < maxConcurrent) {
      running++;
      return true;
    }
    waiting.addLast(sequence);
    return false;
  }

  /** Frees the slot of a finished (or cancelled) running sequence, handing it to the next one. */
  void release() {
    Admittable next;
    long now;
    synchronized (this) {
      next = waiting.pollFirst();
      if (next == null) {
        running--;
      }
      now = System.nanoTime();
    }
    if (next != null) {
      next.admitted(now);
    }
  }

  /**
   * Takes a waiting sequence out of the queue.
   *
   * @return true if it was waiting; false if it was admitted already (it must then be released)
   */
  synchronized boolean cancelWaiting(Admittable sequence) {
    return waiting.remove(sequence);
  }

  /** Sequences running now. */
  synchronized int running() {
    return running;
  }

  /** Sequences waiting now. */
  synchronized int waiting() {
    return waiting.size();
  }
}
