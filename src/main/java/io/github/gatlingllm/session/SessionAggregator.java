package io.github.gatlingllm.session;

import io.github.gatlingllm.record.SessionSummary;
import java.util.Arrays;
import java.util.Objects;

/**
 * Aggregates ended agent sessions (issue 32) into per-session figures: how many, how they ended,
 * requests, duration, tokens and tool calls a session, sessions per hour, and the cache hit ratio
 * per session planned and observed. Keeps histograms and sums ({@link SessionSummary.Sums}, where
 * each figure is defined), never the sessions.
 *
 * <p>Merging (the shards of one test, {@code gatling-llm report} over several folders): {@link
 * #toRecord()} writes, beside the figures, a {@code merge_state} (histograms and exact sums), which
 * {@link SessionSummary#merge} adds up.
 *
 * <p>Thread-safe: sessions end on several virtual users' threads; {@link #add} is synchronized and
 * runs once a session.
 */
public final class SessionAggregator {

  private final SessionSummary.Sums sums =
      new SessionSummary.Sums(
          Arrays.stream(SessionEnd.values()).map(SessionEnd::wireName).toList());

  /** No sessions yet. */
  public SessionAggregator() {}

  /**
   * Takes one ended session in.
   *
   * @param session its figures, never null
   * @throws NullPointerException if {@code session} is null
   */
  public synchronized void add(SessionResult session) {
    Objects.requireNonNull(session, "session");
    sums.add(
        session.end().wireName(),
        session.requests(),
        session.toolCalls(),
        session.malformedToolCalls(),
        session.startMs(),
        session.durationMs(),
        session.promptTokens(),
        session.completionTokens(),
        session.plannedCacheRatio(),
        session.observedCacheRatio());
  }

  /**
   * The run record's block of one phase: the figures, and {@code merge_state}, what {@link
   * SessionSummary#merge} needs to add this block to another's.
   *
   * @return a new block
   */
  public synchronized SessionSummary toRecord() {
    return sums.summary(true);
  }

  /**
   * The figures so far, without {@code merge_state}.
   *
   * @return a snapshot, never null
   */
  public synchronized SessionSummary summary() {
    return sums.summary(false);
  }
}
