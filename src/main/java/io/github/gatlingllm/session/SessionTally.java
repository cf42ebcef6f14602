package io.github.gatlingllm.session;

import io.github.gatlingllm.metrics.RequestRecord;
import java.util.Objects;

/**
 * One agent session's figures while it runs, from its turns' records: what {@link
 * SessionAggregator} takes when it ends. Holds a few counters, never the records. One instance per
 * session; not thread-safe (a session's turns run one after another, on its virtual user).
 *
 * <p>Tokens: the server's counts as recorded ({@link RequestRecord#promptTokens()}, {@link
 * RequestRecord#completionTokens()}, {@link RequestRecord#cachedTokens()}), summed over the
 * session's turns of any status; a turn without a count adds nothing. The observed cache hit ratio
 * is only known when every turn with prompt tokens reported cached tokens.
 */
public final class SessionTally {

  private long startMs = -1;
  private long endMs = -1;
  private int requests;
  private int toolCalls;
  private int malformedToolCalls;
  private long promptTokens;
  private long completionTokens;
  private long cachedTokens;
  private long plannedCachedTokens;
  private boolean cachedKnown = true;
  private boolean plannedKnown = true;

  /** A session that has sent nothing yet. */
  public SessionTally() {}

  /**
   * A turn is being sent: the first one starts the session's duration.
   *
   * @param nowMs epoch milliseconds (Gatling's clock)
   */
  public void sending(long nowMs) {
    if (startMs < 0) {
      startMs = nowMs;
    }
  }

  /**
   * A turn ended with its record.
   *
   * @param record the turn's record, never null
   * @param calls the tool calls its reply made, at least 0
   * @param malformed how many of them had arguments that are not one JSON object, 0 to {@code
   *     calls}
   * @throws IllegalArgumentException if {@code calls} or {@code malformed} is out of range
   */
  public void turn(RequestRecord record, int calls, int malformed) {
    Objects.requireNonNull(record, "record");
    if (calls < 0 || malformed < 0 || malformed > calls) {
      throw new IllegalArgumentException(
          "tool calls: got "
              + calls
              + " with "
              + malformed
              + " malformed, expected 0 <= malformed"
              + " <= calls");
    }
    requests++;
    toolCalls += calls;
    malformedToolCalls += malformed;
    if (record.promptTokens() != null) {
      promptTokens += record.promptTokens();
      if (record.promptTokens() > 0) {
        if (record.cachedTokens() == null) {
          cachedKnown = false;
        } else {
          cachedTokens += record.cachedTokens();
        }
        if (record.plannedCachedTokens() == null) {
          plannedKnown = false;
        } else {
          plannedCachedTokens += record.plannedCachedTokens();
        }
      }
    }
    if (record.completionTokens() != null) {
      completionTokens += record.completionTokens();
    }
    endMs = Math.max(endMs, (long) Math.ceil(record.endMs()));
  }

  /**
   * The session ended.
   *
   * @param end how, never null
   * @param nowMs epoch milliseconds: the end of its last reply, or the moment a turn was refused
   *     (context limit) or failed to be sent
   * @return the session's figures
   * @throws NullPointerException if {@code end} is null
   */
  public SessionResult finish(SessionEnd end, long nowMs) {
    Objects.requireNonNull(end, "end");
    long last = Math.max(endMs, nowMs);
    long duration = startMs < 0 ? -1 : Math.max(0, last - startMs);
    Double observed = promptTokens > 0 && cachedKnown ? (double) cachedTokens / promptTokens : null;
    Double planned =
        promptTokens > 0 && plannedKnown ? (double) plannedCachedTokens / promptTokens : null;
    return new SessionResult(
        end,
        requests,
        toolCalls,
        malformedToolCalls,
        startMs < 0 ? -1 : startMs,
        duration,
        promptTokens,
        completionTokens,
        planned,
        observed);
  }

  /**
   * The turns recorded so far.
   *
   * @return the count
   */
  public int requests() {
    return requests;
  }
}
