package io.github.gatlingllm.metrics;

import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import org.HdrHistogram.Histogram;

/**
 * Aggregates ended agent sessions (issue 32) into per-session figures: how many, how they ended,
 * requests, duration, tokens and tool calls a session, sessions per hour, and the cache hit ratio
 * per session planned and observed. Keeps histograms and sums, never the sessions.
 *
 * <p>Definitions:
 *
 * <ul>
 *   <li><b>duration</b>: a session's first send to its last reply's end, tool latency and think
 *       time included (inference-perf's session lifecycle); sessions that sent nothing are left
 *       out. Percentiles from an HdrHistogram of whole milliseconds at 3 significant digits (exact
 *       below 2,048 ms; above, the lowest value equivalent to the percentile's, within 0.1%); mean
 *       and maximum exact.
 *   <li><b>sessions per hour</b>: sessions that did not end in error over the window from the first
 *       session's start to the last session's end, in hours (TensorRT-LLM's jobs per hour); null
 *       while the window is empty.
 *   <li><b>cache hit ratio</b> of a session: its cached tokens over its prompt tokens, summed over
 *       its turns; planned (the cache plan's tokens) and observed (the server's {@code
 *       cached_tokens}); their mean, median and minimum over the sessions that have one.
 *   <li>requests, tokens (prompt and completion) and tool calls a session: mean and percentiles
 *       over every ended session.
 * </ul>
 *
 * <p>Thread-safe: sessions end on several virtual users' threads; {@link #add} is synchronized and
 * runs once a session.
 */
public final class SessionAggregator {

  private static final int DIGITS = 3;
  private static final double MS_PER_HOUR = 3_600_000.0;

  private final Map<SessionEnd, Long> ended = new EnumMap<>(SessionEnd.class);
  private final Dist durations = new Dist();
  private final Dist requests = new Dist();
  private final Dist tokens = new Dist();
  private final Histogram plannedRatios = new Histogram(DIGITS);
  private final Histogram observedRatios = new Histogram(DIGITS);
  private long count;
  private long promptTokens;
  private long completionTokens;
  private long toolCalls;
  private long malformedToolCalls;
  private double plannedRatioSum;
  private double observedRatioSum;
  private long firstStartMs = Long.MAX_VALUE;
  private long lastEndMs = Long.MIN_VALUE;

  /** No sessions yet. */
  public SessionAggregator() {
    for (SessionEnd end : SessionEnd.values()) {
      ended.put(end, 0L);
    }
  }

  /**
   * Takes one ended session in.
   *
   * @param session its figures, never null
   * @throws NullPointerException if {@code session} is null
   */
  public synchronized void add(SessionResult session) {
    Objects.requireNonNull(session, "session");
    count++;
    ended.merge(session.end(), 1L, Long::sum);
    requests.add(session.requests());
    tokens.add(session.tokens());
    promptTokens += session.promptTokens();
    completionTokens += session.completionTokens();
    toolCalls += session.toolCalls();
    malformedToolCalls += session.malformedToolCalls();
    if (session.durationMs() >= 0) {
      durations.add(session.durationMs());
      firstStartMs = Math.min(firstStartMs, session.startMs());
      lastEndMs = Math.max(lastEndMs, session.startMs() + session.durationMs());
    }
    if (session.plannedCacheRatio() != null) {
      plannedRatios.recordValue(perMille(session.plannedCacheRatio()));
      plannedRatioSum += session.plannedCacheRatio();
    }
    if (session.observedCacheRatio() != null) {
      observedRatios.recordValue(perMille(session.observedCacheRatio()));
      observedRatioSum += session.observedCacheRatio();
    }
  }

  private static long perMille(double ratio) {
    return Math.round(Math.max(0, Math.min(1, ratio)) * 1000);
  }

  /**
   * The figures so far.
   *
   * @return a snapshot, never null
   */
  public synchronized SessionSummary summary() {
    long good = count - ended.get(SessionEnd.ERROR);
    long window = lastEndMs - firstStartMs;
    Double perHour = durations.count == 0 || window <= 0 ? null : good * MS_PER_HOUR / window;
    Map<String, Long> ends = new LinkedHashMap<>();
    for (Map.Entry<SessionEnd, Long> e : ended.entrySet()) {
      ends.put(e.getKey().wireName(), e.getValue());
    }
    return new SessionSummary(
        count,
        ended.get(SessionEnd.COMPLETED),
        ends,
        spread(requests),
        spread(durations),
        spread(tokens),
        count == 0 ? null : round3((double) promptTokens / count),
        count == 0 ? null : round3((double) completionTokens / count),
        toolCalls,
        malformedToolCalls,
        perHour == null ? null : round3(perHour),
        ratios(plannedRatios, plannedRatioSum),
        ratios(observedRatios, observedRatioSum));
  }

  /** Values in a histogram, with their exact count, sum and maximum. */
  private static final class Dist {
    final Histogram histogram = new Histogram(DIGITS);
    long count;
    long sum;
    long max;

    void add(long value) {
      histogram.recordValue(value);
      count++;
      sum += value;
      max = Math.max(max, value);
    }

    /**
     * The smallest value equivalent to the histogram's percentile (exact while values are below
     * 2,048), never above the exact maximum.
     */
    long percentile(double p) {
      return Math.min(max, histogram.lowestEquivalentValue(histogram.getValueAtPercentile(p)));
    }
  }

  private static SessionSummary.Spread spread(Dist d) {
    if (d.count == 0) {
      return new SessionSummary.Spread(0, null, null, null, null, null);
    }
    return new SessionSummary.Spread(
        d.count,
        round3((double) d.sum / d.count),
        d.percentile(50),
        d.percentile(90),
        d.percentile(99),
        d.max);
  }

  private static SessionSummary.Ratios ratios(Histogram perMille, double sum) {
    long n = perMille.getTotalCount();
    if (n == 0) {
      return new SessionSummary.Ratios(0, null, null, null);
    }
    return new SessionSummary.Ratios(
        n,
        round3(sum / n),
        perMille.getValueAtPercentile(50) / 1000.0,
        perMille.getMinValue() / 1000.0);
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
