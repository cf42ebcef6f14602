package io.github.gatlingllm.protocol;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicInteger;

/**
 * Not API. The LLM requests of a run that were sent and have not ended: when the run record is
 * written, each is cut and recorded with what was measured until then ({@code cut_by_run_end}), so
 * every request that was sent is in {@code llm-requests.jsonl}; and how many of them are streamed,
 * for the {@link SilenceWatch}. Thread-safe.
 */
public final class OpenRequests {

  /** One request in flight. */
  public interface Open {
    /**
     * Ends the request now, if it has not ended: records it as cut by the run's end.
     *
     * @param endNanos {@link System#nanoTime()} of the cut
     * @param reason why the run ended, e.g. {@code max_duration}, for the record's error text
     * @return true when it was recorded here, false when it had ended on its own
     */
    boolean cutByRunEnd(long endNanos, String reason);

    /**
     * Whether the request asked for a stream: its server owes it bytes as it generates.
     *
     * @return true for a streamed request
     */
    boolean streamed();
  }

  private final Set<Open> open = ConcurrentHashMap.newKeySet();
  private final AtomicInteger streamed = new AtomicInteger();

  /**
   * A request is on its way.
   *
   * @param request never null
   */
  public void add(Open request) {
    if (open.add(request) && request.streamed()) {
      streamed.incrementAndGet();
    }
  }

  /**
   * A request ended (or was never sent).
   *
   * @param request never null
   */
  public void remove(Open request) {
    if (open.remove(request) && request.streamed()) {
      streamed.decrementAndGet();
    }
  }

  /**
   * How many requests are open now.
   *
   * @return the count
   */
  public int size() {
    return open.size();
  }

  /**
   * How many of the open requests are streamed.
   *
   * @return the count, at least 0
   */
  public int streamed() {
    return streamed.get();
  }

  /**
   * Cuts every request still open.
   *
   * @param endNanos {@link System#nanoTime()} of the cut
   * @param reason why the run ended
   * @return how many were recorded as cut
   */
  public int cutAll(long endNanos, String reason) {
    int cut = 0;
    for (Open request : List.copyOf(open)) {
      remove(request);
      if (request.cutByRunEnd(endNanos, reason)) {
        cut++;
      }
    }
    return cut;
  }
}
