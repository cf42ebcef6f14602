package io.github.gatlingllm.protocol;

import java.util.List;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Not API. The LLM requests of a run that were sent and have not ended: when the run record is
 * written, each is cut and recorded with what was measured until then ({@code cut_by_run_end}), so
 * every request that was sent is in {@code llm-requests.jsonl}. Thread-safe.
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
  }

  private final Set<Open> open = ConcurrentHashMap.newKeySet();

  /**
   * A request is on its way.
   *
   * @param request never null
   */
  public void add(Open request) {
    open.add(request);
  }

  /**
   * A request ended (or was never sent).
   *
   * @param request never null
   */
  public void remove(Open request) {
    open.remove(request);
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
   * Cuts every request still open.
   *
   * @param endNanos {@link System#nanoTime()} of the cut
   * @param reason why the run ended
   * @return how many were recorded as cut
   */
  public int cutAll(long endNanos, String reason) {
    int cut = 0;
    for (Open request : List.copyOf(open)) {
      open.remove(request);
      if (request.cutByRunEnd(endNanos, reason)) {
        cut++;
      }
    }
    return cut;
  }
}
