package io.github.gatlingllm.session;

import java.nio.ByteBuffer;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.zip.DataFormatException;
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
 * <p>Merging (the shards of one test, {@code gatling-llm report} over several folders): {@link
 * #toRecord()} writes, beside the figures, a {@code merge_state} block (histograms and exact sums);
 * {@link #fromRecord} reads it back and {@link #merge} adds two aggregators up, so that counts and
 * ends add, percentiles come from the merged histograms (never averaged), means from the summed
 * values, and the cache hit ratios' {@code overall} from the summed tokens.
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
  private long plannedPromptTokens;
  private long plannedCachedTokens;
  private long observedPromptTokens;
  private long observedCachedTokens;
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
      plannedPromptTokens += session.promptTokens();
      plannedCachedTokens += Math.round(session.plannedCacheRatio() * session.promptTokens());
    }
    if (session.observedCacheRatio() != null) {
      observedRatios.recordValue(perMille(session.observedCacheRatio()));
      observedRatioSum += session.observedCacheRatio();
      observedPromptTokens += session.promptTokens();
      observedCachedTokens += Math.round(session.observedCacheRatio() * session.promptTokens());
    }
  }

  /**
   * Adds another aggregator's sessions to this one's, as if each of its sessions had been {@link
   * #add}ed here: counts, ends, sums and histograms add; the window spans both.
   *
   * @param other never null; read under its own lock
   * @throws NullPointerException if {@code other} is null
   */
  public void merge(SessionAggregator other) {
    Objects.requireNonNull(other, "other");
    SessionAggregator o = other.copy();
    synchronized (this) {
      count += o.count;
      o.ended.forEach((end, n) -> ended.merge(end, n, Long::sum));
      durations.merge(o.durations);
      requests.merge(o.requests);
      tokens.merge(o.tokens);
      plannedRatios.add(o.plannedRatios);
      observedRatios.add(o.observedRatios);
      plannedRatioSum += o.plannedRatioSum;
      observedRatioSum += o.observedRatioSum;
      plannedPromptTokens += o.plannedPromptTokens;
      plannedCachedTokens += o.plannedCachedTokens;
      observedPromptTokens += o.observedPromptTokens;
      observedCachedTokens += o.observedCachedTokens;
      promptTokens += o.promptTokens;
      completionTokens += o.completionTokens;
      toolCalls += o.toolCalls;
      malformedToolCalls += o.malformedToolCalls;
      firstStartMs = Math.min(firstStartMs, o.firstStartMs);
      lastEndMs = Math.max(lastEndMs, o.lastEndMs);
    }
  }

  private synchronized SessionAggregator copy() {
    SessionAggregator c = new SessionAggregator();
    c.count = count;
    c.ended.putAll(ended);
    c.durations.merge(durations);
    c.requests.merge(requests);
    c.tokens.merge(tokens);
    c.plannedRatios.add(plannedRatios);
    c.observedRatios.add(observedRatios);
    c.plannedRatioSum = plannedRatioSum;
    c.observedRatioSum = observedRatioSum;
    c.plannedPromptTokens = plannedPromptTokens;
    c.plannedCachedTokens = plannedCachedTokens;
    c.observedPromptTokens = observedPromptTokens;
    c.observedCachedTokens = observedCachedTokens;
    c.promptTokens = promptTokens;
    c.completionTokens = completionTokens;
    c.toolCalls = toolCalls;
    c.malformedToolCalls = malformedToolCalls;
    c.firstStartMs = firstStartMs;
    c.lastEndMs = lastEndMs;
    return c;
  }

  /**
   * The run record's block of one phase: {@link SessionSummary#toRecord()}, each cache hit ratio
   * with {@code prompt_tokens} and {@code cached_tokens} (summed over the sessions that have the
   * ratio) and {@code overall} (their quotient, to 3 decimals; null without prompt tokens), and
   * {@code merge_state}: what {@link #fromRecord} needs to merge this block with another's ({@code
   * first_start_ms} and {@code last_end_ms}, epoch milliseconds or null; {@code prompt_tokens},
   * {@code completion_tokens}; per distribution {@code requests_per_session}, {@code duration_ms},
   * {@code tokens_per_session}: {@code sum}, {@code max} and {@code histogram}; per ratio {@code
   * planned_cache_hit}, {@code observed_cache_hit}: {@code ratio_sum} and {@code
   * histogram_per_mille}). A histogram is HdrHistogram's compressed encoding in Base64.
   *
   * @return a new ordered map, Jackson-ready
   */
  public synchronized Map<String, Object> toRecord() {
    Map<String, Object> out = summary().toRecord();
    @SuppressWarnings("unchecked")
    Map<String, Object> cache = (Map<String, Object>) out.get("cache_hit_ratio");
    overall(cache, "planned", plannedPromptTokens, plannedCachedTokens);
    overall(cache, "observed", observedPromptTokens, observedCachedTokens);
    Map<String, Object> state = new LinkedHashMap<>();
    state.put("first_start_ms", durations.count == 0 ? null : firstStartMs);
    state.put("last_end_ms", durations.count == 0 ? null : lastEndMs);
    state.put("prompt_tokens", promptTokens);
    state.put("completion_tokens", completionTokens);
    state.put("requests_per_session", requests.state());
    state.put("duration_ms", durations.state());
    state.put("tokens_per_session", tokens.state());
    state.put("planned_cache_hit", ratioState(plannedRatioSum, plannedRatios));
    state.put("observed_cache_hit", ratioState(observedRatioSum, observedRatios));
    out.put("merge_state", state);
    return out;
  }

  private static void overall(Map<String, Object> cache, String kind, long prompt, long cached) {
    @SuppressWarnings("unchecked")
    Map<String, Object> ratios = (Map<String, Object>) cache.get(kind);
    ratios.put("prompt_tokens", prompt);
    ratios.put("cached_tokens", cached);
    ratios.put("overall", prompt == 0 ? null : round3((double) cached / prompt));
  }

  private static Map<String, Object> ratioState(double sum, Histogram perMille) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("ratio_sum", sum);
    out.put("histogram_per_mille", encode(perMille));
    return out;
  }

  /**
   * An aggregator holding the sessions of a phase block that {@link #toRecord()} wrote (read back
   * from {@code llm-run.json} by Jackson: numbers of any boxed type, maps).
   *
   * @param block one phase's block of {@code llm-run.json}'s {@code sessions}, never null
   * @return a new aggregator, ready to {@link #merge}
   * @throws IllegalArgumentException naming what is missing or malformed, e.g. a block without
   *     {@code merge_state} (written before it was recorded)
   */
  public static SessionAggregator fromRecord(Map<?, ?> block) {
    Map<?, ?> state = map(block, "merge_state");
    SessionAggregator a = new SessionAggregator();
    a.count = number(block, "count").longValue();
    Map<?, ?> ends = map(block, "ended");
    for (SessionEnd end : SessionEnd.values()) {
      Object n = ends.get(end.wireName());
      a.ended.put(end, n instanceof Number v ? v.longValue() : 0L);
    }
    a.toolCalls = number(block, "tool_calls").longValue();
    a.malformedToolCalls = number(block, "malformed_tool_calls").longValue();
    a.promptTokens = number(state, "prompt_tokens").longValue();
    a.completionTokens = number(state, "completion_tokens").longValue();
    if (state.get("first_start_ms") instanceof Number first
        && state.get("last_end_ms") instanceof Number last) {
      a.firstStartMs = first.longValue();
      a.lastEndMs = last.longValue();
    }
    a.requests.restore(map(state, "requests_per_session"));
    a.durations.restore(map(state, "duration_ms"));
    a.tokens.restore(map(state, "tokens_per_session"));
    Map<?, ?> cache = map(block, "cache_hit_ratio");
    Map<?, ?> planned = map(state, "planned_cache_hit");
    a.plannedRatioSum = number(planned, "ratio_sum").doubleValue();
    a.plannedRatios.add(decode(planned.get("histogram_per_mille")));
    a.plannedPromptTokens = number(map(cache, "planned"), "prompt_tokens").longValue();
    a.plannedCachedTokens = number(map(cache, "planned"), "cached_tokens").longValue();
    Map<?, ?> observed = map(state, "observed_cache_hit");
    a.observedRatioSum = number(observed, "ratio_sum").doubleValue();
    a.observedRatios.add(decode(observed.get("histogram_per_mille")));
    a.observedPromptTokens = number(map(cache, "observed"), "prompt_tokens").longValue();
    a.observedCachedTokens = number(map(cache, "observed"), "cached_tokens").longValue();
    return a;
  }

  private static Map<?, ?> map(Map<?, ?> in, String key) {
    if (in.get(key) instanceof Map<?, ?> m) {
      return m;
    }
    throw new IllegalArgumentException(
        "sessions: expected an object at " + key + ", got " + in.get(key));
  }

  private static Number number(Map<?, ?> in, String key) {
    if (in.get(key) instanceof Number n) {
      return n;
    }
    throw new IllegalArgumentException(
        "sessions: expected a number at " + key + ", got " + in.get(key));
  }

  private static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(java.util.Arrays.copyOf(buffer.array(), length));
  }

  private static Histogram decode(Object base64) {
    if (!(base64 instanceof String text)) {
      throw new IllegalArgumentException("sessions: expected a histogram, got " + base64);
    }
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(text)), 0);
    } catch (DataFormatException | IllegalArgumentException e) {
      throw new IllegalArgumentException("sessions: malformed histogram: " + e.getMessage(), e);
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

    void merge(Dist other) {
      histogram.add(other.histogram);
      count += other.count;
      sum += other.sum;
      max = Math.max(max, other.max);
    }

    Map<String, Object> state() {
      Map<String, Object> out = new LinkedHashMap<>();
      out.put("sum", sum);
      out.put("max", max);
      out.put("histogram", encode(histogram));
      return out;
    }

    void restore(Map<?, ?> state) {
      histogram.reset();
      histogram.add(decode(state.get("histogram")));
      count = histogram.getTotalCount();
      sum = number(state, "sum").longValue();
      max = number(state, "max").longValue();
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
