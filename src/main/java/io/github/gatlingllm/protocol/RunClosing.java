package io.github.gatlingllm.protocol;

import io.netty.util.concurrent.FastThreadLocal;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The moment a run stops taking requests, and the admissions that keep the run record
 * whole across it. Whatever adds a request to the run (a send, from the sender to Gatling's HTTP
 * engine; the record of a prompt handed out and not sent) is an admission: it {@link #enter()}s
 * first, and is refused once the run is closed. {@link #close(String)} closes the run and waits
 * until every admission begun on other threads has {@link #exit()}ed, so after it no request is
 * added that the run's end would not see: every request sent is open ({@link OpenRequests}), every
 * prompt handed out and not sent is left to the run's end.
 *
 * <p>Admissions nest on one thread (a request that ends inside its own send lets its user go on to
 * the next one); a close made on a thread inside admissions of its own does not wait for those.
 * Thread-safe.
 */
public final class RunClosing {

  private static final Logger LOG = LoggerFactory.getLogger(RunClosing.class);

  /** The closed flag, above the count of admissions in progress. */
  private static final long CLOSED = 1L << 62;

  /** How long a close waits for admissions in progress, at most: a send takes microseconds. */
  static final long MAX_WAIT_NANOS = TimeUnit.SECONDS.toNanos(10);

  /** The admissions the current thread is inside. */
  private static final FastThreadLocal<int[]> DEPTH =
      new FastThreadLocal<>() {
        @Override
        protected int[] initialValue() {
          return new int[1];
        }
      };

  private final AtomicLong state = new AtomicLong();
  private final java.util.concurrent.atomic.AtomicReference<String> reason =
      new java.util.concurrent.atomic.AtomicReference<>();

  /**
   * Begins an admission, unless the run is closed.
   *
   * @return true when admitted: call {@link #exit()} once it is done; false when the run is closed
   */
  public boolean enter() {
    while (true) {
      long s = state.get();
      if ((s & CLOSED) != 0) {
        return false;
      }
      if (state.compareAndSet(s, s + 1)) {
        DEPTH.get()[0]++;
        return true;
      }
    }
  }

  /** Ends an admission begun by {@link #enter()} on this thread. */
  public void exit() {
    DEPTH.get()[0]--;
    state.decrementAndGet();
  }

  /**
   * Closes the run and waits until the admissions of other threads in progress are done (at most
   * {@link #MAX_WAIT_NANOS}, then says so and goes on).
   *
   * @param why why the run ends, e.g. {@code saturation_stop}: kept by the first close only
   * @return true for the first close, false when the run was closed already (it still waits)
   */
  public boolean close(String why) {
    // The reason first: a reader that finds it knows the run is closing.
    boolean first = reason.compareAndSet(null, why);
    state.getAndUpdate(s -> s | CLOSED);
    long own = DEPTH.get()[0];
    long deadline = System.nanoTime() + MAX_WAIT_NANOS;
    while ((state.get() & ~CLOSED) > own) {
      if (System.nanoTime() - deadline > 0) {
        LOG.warn(
            "the run's end went on with {} request(s) still being sent after {} s: they may be"
                + " missing from llm-requests.jsonl",
            (state.get() & ~CLOSED) - own,
            TimeUnit.NANOSECONDS.toSeconds(MAX_WAIT_NANOS));
        break;
      }
      LockSupport.parkNanos(50_000);
    }
    return first;
  }

  /**
   * Whether the run is closed.
   *
   * @return true once {@link #close} began
   */
  public boolean closed() {
    return (state.get() & CLOSED) != 0;
  }

  /**
   * Why the run was closed.
   *
   * @return the first close's reason (set before the run is closed), or null while open
   */
  public String reason() {
    return reason.get();
  }
}
