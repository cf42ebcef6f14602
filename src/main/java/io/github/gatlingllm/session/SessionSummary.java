package io.github.gatlingllm.session;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * Per-session figures of a run's agent sessions ({@link SessionAggregator}); the run record's
 * {@code sessions} block ({@link #toRecord()}).
 *
 * @param count sessions ended
 * @param completed those whose model answered without a tool call
 * @param ended sessions by how they ended ({@link SessionEnd#wireName()}, every end listed, in
 *     declaration order), never null
 * @param requestsPerSession turns a session
 * @param durationMs first send to last reply, milliseconds, over sessions that sent a turn
 * @param tokensPerSession prompt and completion tokens a session
 * @param promptTokensMean mean prompt tokens a session, or null without sessions
 * @param completionTokensMean mean completion tokens a session, or null without sessions
 * @param toolCalls tool calls made by every session's replies
 * @param malformedToolCalls those whose arguments were not one JSON object
 * @param sessionsPerHour sessions not ended in error, per hour of the sessions' window; null when
 *     it is empty
 * @param plannedCacheHitRatio planned cached tokens over prompt tokens, a session
 * @param observedCacheHitRatio the server's cached tokens over prompt tokens, a session
 */
public record SessionSummary(
    long count,
    long completed,
    Map<String, Long> ended,
    Spread requestsPerSession,
    Spread durationMs,
    Spread tokensPerSession,
    Double promptTokensMean,
    Double completionTokensMean,
    long toolCalls,
    long malformedToolCalls,
    Double sessionsPerHour,
    Ratios plannedCacheHitRatio,
    Ratios observedCacheHitRatio) {

  /**
   * A distribution over sessions: nulls when {@code count} is 0.
   *
   * @param count values
   * @param mean the mean, to 3 decimals
   * @param p50 the median (HdrHistogram, 3 significant digits)
   * @param p90 the 90th percentile
   * @param p99 the 99th percentile
   * @param max the largest value
   */
  public record Spread(long count, Double mean, Long p50, Long p90, Long p99, Long max) {}

  /**
   * Cache hit ratios over sessions, each in [0, 1]: nulls when {@code sessions} is 0.
   *
   * @param sessions sessions with a ratio
   * @param mean the mean ratio, to 3 decimals
   * @param p50 the median, to 3 decimals
   * @param min the lowest, to 3 decimals
   */
  public record Ratios(long sessions, Double mean, Double p50, Double min) {}

  /**
   * Copies the map.
   *
   * @throws NullPointerException if {@code ended} is null
   */
  public SessionSummary {
    ended = Collections.unmodifiableMap(new LinkedHashMap<>(Objects.requireNonNull(ended)));
  }

  /**
   * The run record's {@code sessions} block: {@code count}, {@code completed}, {@code ended},
   * {@code requests_per_session}, {@code duration_ms} ({@code count, mean, p50, p90, p99, max}),
   * {@code tokens_per_session} (the same, with {@code prompt_mean} and {@code completion_mean}),
   * {@code tool_calls}, {@code malformed_tool_calls}, {@code sessions_per_hour}, {@code
   * cache_hit_ratio} ({@code planned} and {@code observed}: {@code sessions, mean, p50, min}).
   *
   * @return a new ordered map, Jackson-ready
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("count", count);
    out.put("completed", completed);
    out.put("ended", new LinkedHashMap<>(ended));
    out.put("requests_per_session", spread(requestsPerSession));
    out.put("duration_ms", spread(durationMs));
    Map<String, Object> tokens = spread(tokensPerSession);
    tokens.put("prompt_mean", promptTokensMean);
    tokens.put("completion_mean", completionTokensMean);
    out.put("tokens_per_session", tokens);
    out.put("tool_calls", toolCalls);
    out.put("malformed_tool_calls", malformedToolCalls);
    out.put("sessions_per_hour", sessionsPerHour);
    Map<String, Object> cache = new LinkedHashMap<>();
    cache.put("planned", ratios(plannedCacheHitRatio));
    cache.put("observed", ratios(observedCacheHitRatio));
    out.put("cache_hit_ratio", cache);
    return out;
  }

  private static Map<String, Object> spread(Spread s) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("count", s.count());
    out.put("mean", s.mean());
    out.put("p50", s.p50());
    out.put("p90", s.p90());
    out.put("p99", s.p99());
    out.put("max", s.max());
    return out;
  }

  private static Map<String, Object> ratios(Ratios r) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("sessions", r.sessions());
    out.put("mean", r.mean());
    out.put("p50", r.p50());
    out.put("min", r.min());
    return out;
  }
}
