package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.nio.ByteBuffer;
import java.util.Arrays;
import java.util.Base64;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.zip.DataFormatException;
import org.HdrHistogram.Histogram;

/**
 * One phase of an {@code agents()} workload in the run record's {@code sessions} ({@link
 * AgentSessions#measured()}, {@link AgentSessions#warmup()}): the per-session figures of the
 * sessions that ended in that phase, and {@code merge_state}, what a merge of the shards of one
 * test needs to add them up ({@link #merge}). Written by {@code session.SessionAggregator} through
 * {@link Sums}, which holds the one definition of each figure:
 *
 * <ul>
 *   <li><b>duration</b>: a session's first send to its last reply's end, tool latency and think
 *       time included (inference-perf's session lifecycle); sessions that sent nothing are left
 *       out. Percentiles from an HdrHistogram of whole milliseconds at 3 significant digits (exact
 *       below 2,048 ms; above, the lowest value equivalent to the percentile's, within 0.1%); mean
 *       and maximum exact. Requests and tokens a session: the same, over every ended session.
 *   <li><b>sessions per hour</b>: sessions that did not end in {@value #ERROR} over the window from
 *       the first session's start to the last session's end, in hours (TensorRT-LLM's jobs per
 *       hour); null while the window is empty.
 *   <li><b>cache hit ratio</b> of a session: its cached tokens over its prompt tokens, planned (the
 *       cache plan's) and observed (the server's {@code cached_tokens}); their mean, median and
 *       minimum over the sessions that have one, and {@code overall}: the summed cached tokens over
 *       the summed prompt tokens.
 * </ul>
 *
 * <p>Every field is written as today's files have it: the figures that can be missing (a
 * distribution's mean and percentiles without values, the means without sessions, the sessions per
 * hour, a ratio's {@code overall}, the window's ends) are written null; the counts are never null
 * and are left out only when a file without them is written again. Keys this version does not know
 * are kept in {@link #extra} and written after the others.
 *
 * @param count sessions ended
 * @param completed those whose model answered without a tool call ({@code ended.completed})
 * @param ended sessions by how they ended (every end this version knows listed, in {@code
 *     session.SessionEnd} order), never null once built
 * @param requestsPerSession turns a session
 * @param durationMs first send to last reply, milliseconds, over sessions that sent a turn
 * @param tokensPerSession prompt and completion tokens a session, with the means of each
 * @param toolCalls tool calls made by every session's replies
 * @param malformedToolCalls those whose arguments were not one JSON object
 * @param sessionsPerHour sessions not ended in error, per hour of the sessions' window; null when
 *     it is empty
 * @param cacheHitRatio planned and observed cache hit ratios
 * @param mergeState the sums and histograms a merge adds up, or null (a file written before it was
 *     recorded, or {@link Sums#summary(boolean)} without it)
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "count",
  "completed",
  "ended",
  "requests_per_session",
  "duration_ms",
  "tokens_per_session",
  "tool_calls",
  "malformed_tool_calls",
  "sessions_per_hour",
  "cache_hit_ratio",
  "merge_state"
})
public record SessionSummary(
    Long count,
    Long completed,
    Map<String, Long> ended,
    Spread requestsPerSession,
    Spread durationMs,
    Tokens tokensPerSession,
    Long toolCalls,
    Long malformedToolCalls,
    @JsonInclude(JsonInclude.Include.ALWAYS) Double sessionsPerHour,
    CacheHitRatio cacheHitRatio,
    MergeState mergeState,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** {@code ended}'s key of the sessions whose model answered without a tool call. */
  public static final String COMPLETED = "completed";

  /** {@code ended}'s key of the sessions a failed turn ended. */
  public static final String ERROR = "error";

  private static final int DIGITS = 3;
  private static final double MS_PER_HOUR = 3_600_000.0;

  /** Copies the maps, in order ({@code ended} unmodifiable); {@code extra} never null. */
  public SessionSummary {
    ended = ended == null ? null : Collections.unmodifiableMap(new LinkedHashMap<>(ended));
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The figures without {@code merge_state}.
   *
   * @return a new summary
   */
  public SessionSummary withoutState() {
    return new SessionSummary(
        count,
        completed,
        ended,
        requestsPerSession,
        durationMs,
        tokensPerSession,
        toolCalls,
        malformedToolCalls,
        sessionsPerHour,
        cacheHitRatio,
        null,
        extra);
  }

  /**
   * One phase's blocks of several run folders (the shards of one test) added up, as if every
   * session had ended in one run: counts and ends add, percentiles come from the added histograms
   * (never averaged), means from the summed values, the sessions per hour from the window that
   * spans every block's, each cache hit ratio's {@code overall} from the summed tokens. Keys of
   * newer versions are not kept (they are not known to add up).
   *
   * @param phases the blocks, each with its {@code merge_state}; never null
   * @return the merged block, with its {@code merge_state}
   * @throws IllegalArgumentException naming what is missing or malformed, e.g. a block without
   *     {@code merge_state} (written before it was recorded)
   */
  public static SessionSummary merge(List<SessionSummary> phases) {
    Sums sums = new Sums(List.of());
    phases.forEach(sums::add);
    return sums.summary(true);
  }

  /**
   * A distribution over sessions: nulls but {@code count} when {@code count} is 0.
   *
   * @param count values
   * @param mean the mean, to 3 decimals
   * @param p50 the median (HdrHistogram, 3 significant digits)
   * @param p90 the 90th percentile
   * @param p99 the 99th percentile
   * @param max the largest value
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"count", "mean", "p50", "p90", "p99", "max"})
  public record Spread(
      @JsonInclude(JsonInclude.Include.NON_NULL) Long count,
      Double mean,
      Long p50,
      Long p90,
      Long p99,
      Long max) {}

  /**
   * Tokens a session: their distribution, then the mean prompt and completion tokens.
   *
   * @param count sessions
   * @param mean the mean, to 3 decimals
   * @param p50 the median
   * @param p90 the 90th percentile
   * @param p99 the 99th percentile
   * @param max the largest value
   * @param promptMean mean prompt tokens a session, to 3 decimals, or null without sessions
   * @param completionMean mean completion tokens a session, or null without sessions
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({
    "count",
    "mean",
    "p50",
    "p90",
    "p99",
    "max",
    "prompt_mean",
    "completion_mean"
  })
  public record Tokens(
      @JsonInclude(JsonInclude.Include.NON_NULL) Long count,
      Double mean,
      Long p50,
      Long p90,
      Long p99,
      Long max,
      Double promptMean,
      Double completionMean) {}

  /**
   * The cache hit ratios a session.
   *
   * @param planned the cache plan's
   * @param observed the server's
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"planned", "observed"})
  public record CacheHitRatio(Ratios planned, Ratios observed) {}

  /**
   * Cache hit ratios over sessions, each in [0, 1]: nulls when {@code sessions} is 0.
   *
   * @param sessions sessions with a ratio
   * @param mean the mean ratio, to 3 decimals
   * @param p50 the median, to 3 decimals
   * @param min the lowest, to 3 decimals
   * @param promptTokens those sessions' prompt tokens, summed
   * @param cachedTokens their cached tokens, summed (each session's ratio times its prompt tokens,
   *     rounded)
   * @param overall cached over prompt tokens, to 3 decimals; null without prompt tokens
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({
    "sessions",
    "mean",
    "p50",
    "min",
    "prompt_tokens",
    "cached_tokens",
    "overall"
  })
  public record Ratios(
      @JsonInclude(JsonInclude.Include.NON_NULL) Long sessions,
      Double mean,
      Double p50,
      Double min,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long promptTokens,
      @JsonInclude(JsonInclude.Include.NON_NULL) Long cachedTokens,
      Double overall) {}

  /**
   * What a merge adds up. A histogram is HdrHistogram's compressed encoding in Base64.
   *
   * @param firstStartMs the first session's start, epoch milliseconds; null when no session sent
   * @param lastEndMs the last session's end, or null
   * @param promptTokens every session's prompt tokens, summed
   * @param completionTokens their completion tokens
   * @param requestsPerSession requests a session
   * @param durationMs duration a session, milliseconds
   * @param tokensPerSession tokens a session
   * @param plannedCacheHit planned cache hit ratios, per mille
   * @param observedCacheHit observed cache hit ratios, per mille
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({
    "first_start_ms",
    "last_end_ms",
    "prompt_tokens",
    "completion_tokens",
    "requests_per_session",
    "duration_ms",
    "tokens_per_session",
    "planned_cache_hit",
    "observed_cache_hit"
  })
  public record MergeState(
      @JsonInclude(JsonInclude.Include.ALWAYS) Long firstStartMs,
      @JsonInclude(JsonInclude.Include.ALWAYS) Long lastEndMs,
      Long promptTokens,
      Long completionTokens,
      DistState requestsPerSession,
      DistState durationMs,
      DistState tokensPerSession,
      RatioState plannedCacheHit,
      RatioState observedCacheHit) {}

  /**
   * A distribution's exact sum and maximum, and its histogram.
   *
   * @param sum the values' sum
   * @param max the largest value, 0 for none
   * @param histogram the values' histogram (3 significant digits)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"sum", "max", "histogram"})
  public record DistState(Long sum, Long max, String histogram) {}

  /**
   * Cache hit ratios' exact sum and their histogram per mille.
   *
   * @param ratioSum the ratios' sum
   * @param histogramPerMille the ratios times 1,000, rounded
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"ratio_sum", "histogram_per_mille"})
  public record RatioState(Double ratioSum, String histogramPerMille) {}

  /**
   * Sessions added up: the sums and histograms every figure of a phase is made from, fed one ended
   * session at a time ({@link #add(String, long, long, long, long, long, long, long, Double,
   * Double)}) or a recorded block at a time ({@link #add(SessionSummary)}). Keeps histograms and
   * sums, never the sessions. Not thread-safe.
   */
  public static final class Sums {
    private final Map<String, Long> ended = new LinkedHashMap<>();
    private final Dist durations = new Dist();
    private final Dist requests = new Dist();
    private final Dist tokens = new Dist();
    private final Ratio planned = new Ratio();
    private final Ratio observed = new Ratio();
    private long count;
    private long promptTokens;
    private long completionTokens;
    private long toolCalls;
    private long malformedToolCalls;
    private long firstStartMs = Long.MAX_VALUE;
    private long lastEndMs = Long.MIN_VALUE;

    /**
     * No sessions yet.
     *
     * @param ends the ends listed at 0 until a session ends so ({@code ended}'s keys, in order)
     */
    public Sums(List<String> ends) {
      ends.forEach(end -> ended.put(end, 0L));
    }

    /**
     * Takes one ended session in.
     *
     * @param end how it ended, {@code ended}'s key
     * @param requests the turns it sent, at least 0
     * @param toolCalls the tool calls its replies made
     * @param malformedToolCalls those whose arguments were not one JSON object
     * @param startMs its first turn's send, epoch milliseconds; -1 when it sent nothing
     * @param durationMs first send to last reply, milliseconds; -1 when it sent nothing
     * @param promptTokens its turns' prompt tokens
     * @param completionTokens its turns' completion tokens
     * @param plannedRatio its planned cached over prompt tokens, in [0, 1], or null
     * @param observedRatio the server's cached over its prompt tokens, in [0, 1], or null
     */
    public void add(
        String end,
        long requests,
        long toolCalls,
        long malformedToolCalls,
        long startMs,
        long durationMs,
        long promptTokens,
        long completionTokens,
        Double plannedRatio,
        Double observedRatio) {
      Objects.requireNonNull(end, "end");
      count++;
      ended.merge(end, 1L, Long::sum);
      this.requests.add(requests);
      tokens.add(promptTokens + completionTokens);
      this.promptTokens += promptTokens;
      this.completionTokens += completionTokens;
      this.toolCalls += toolCalls;
      this.malformedToolCalls += malformedToolCalls;
      if (durationMs >= 0) {
        durations.add(durationMs);
        firstStartMs = Math.min(firstStartMs, startMs);
        lastEndMs = Math.max(lastEndMs, startMs + durationMs);
      }
      planned.add(plannedRatio, promptTokens);
      observed.add(observedRatio, promptTokens);
    }

    /**
     * Adds a recorded block's sessions, as if each had been added here.
     *
     * @param phase a block with its {@code merge_state}, never null
     * @throws IllegalArgumentException naming what is missing or malformed; the sums are then
     *     partly added and are to be dropped
     */
    public void add(SessionSummary phase) {
      MergeState state = object(phase.mergeState(), "merge_state");
      count += number(phase.count(), "count");
      object(phase.ended(), "ended")
          .forEach((end, n) -> ended.merge(end, n == null ? 0 : n, Long::sum));
      toolCalls += number(phase.toolCalls(), "tool_calls");
      malformedToolCalls += number(phase.malformedToolCalls(), "malformed_tool_calls");
      promptTokens += number(state.promptTokens(), "prompt_tokens");
      completionTokens += number(state.completionTokens(), "completion_tokens");
      if (state.firstStartMs() != null && state.lastEndMs() != null) {
        firstStartMs = Math.min(firstStartMs, state.firstStartMs());
        lastEndMs = Math.max(lastEndMs, state.lastEndMs());
      }
      requests.add(object(state.requestsPerSession(), "requests_per_session"));
      durations.add(object(state.durationMs(), "duration_ms"));
      tokens.add(object(state.tokensPerSession(), "tokens_per_session"));
      CacheHitRatio ratios = object(phase.cacheHitRatio(), "cache_hit_ratio");
      planned.add(
          object(state.plannedCacheHit(), "planned_cache_hit"),
          object(ratios.planned(), "planned"));
      observed.add(
          object(state.observedCacheHit(), "observed_cache_hit"),
          object(ratios.observed(), "observed"));
    }

    /**
     * The phase's figures.
     *
     * @param withState whether to write {@code merge_state} too
     * @return a new block
     */
    public SessionSummary summary(boolean withState) {
      long good = count - ended.getOrDefault(ERROR, 0L);
      long window = lastEndMs - firstStartMs;
      Double perHour = durations.count == 0 || window <= 0 ? null : good * MS_PER_HOUR / window;
      Spread t = tokens.spread();
      MergeState state =
          !withState
              ? null
              : new MergeState(
                  durations.count == 0 ? null : firstStartMs,
                  durations.count == 0 ? null : lastEndMs,
                  promptTokens,
                  completionTokens,
                  requests.state(),
                  durations.state(),
                  tokens.state(),
                  planned.state(),
                  observed.state());
      return new SessionSummary(
          count,
          ended.getOrDefault(COMPLETED, 0L),
          ended,
          requests.spread(),
          durations.spread(),
          new Tokens(
              t.count(),
              t.mean(),
              t.p50(),
              t.p90(),
              t.p99(),
              t.max(),
              count == 0 ? null : round3((double) promptTokens / count),
              count == 0 ? null : round3((double) completionTokens / count)),
          toolCalls,
          malformedToolCalls,
          perHour == null ? null : round3(perHour),
          new CacheHitRatio(planned.ratios(), observed.ratios()),
          state,
          null);
    }
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

    void add(DistState state) {
      Histogram h = decode(state.histogram());
      histogram.add(h);
      count += h.getTotalCount();
      sum += number(state.sum(), "sum");
      max = Math.max(max, number(state.max(), "max"));
    }

    DistState state() {
      return new DistState(sum, max, encode(histogram));
    }

    /**
     * The smallest value equivalent to the histogram's percentile (exact while values are below
     * 2,048), never above the exact maximum.
     */
    long percentile(double p) {
      return Math.min(max, histogram.lowestEquivalentValue(histogram.getValueAtPercentile(p)));
    }

    Spread spread() {
      if (count == 0) {
        return new Spread(0L, null, null, null, null, null);
      }
      return new Spread(
          count, round3((double) sum / count), percentile(50), percentile(90), percentile(99), max);
    }
  }

  /** Cache hit ratios per mille in a histogram, their exact sum, and their sessions' tokens. */
  private static final class Ratio {
    final Histogram perMille = new Histogram(DIGITS);
    double sum;
    long promptTokens;
    long cachedTokens;

    void add(Double ratio, long prompt) {
      if (ratio != null) {
        perMille.recordValue(Math.round(Math.max(0, Math.min(1, ratio)) * 1000));
        sum += ratio;
        promptTokens += prompt;
        cachedTokens += Math.round(ratio * prompt);
      }
    }

    void add(RatioState state, Ratios figures) {
      sum += number(state.ratioSum(), "ratio_sum");
      perMille.add(decode(state.histogramPerMille()));
      promptTokens += number(figures.promptTokens(), "prompt_tokens");
      cachedTokens += number(figures.cachedTokens(), "cached_tokens");
    }

    RatioState state() {
      return new RatioState(sum, encode(perMille));
    }

    Ratios ratios() {
      long n = perMille.getTotalCount();
      Double overall = promptTokens == 0 ? null : round3((double) cachedTokens / promptTokens);
      if (n == 0) {
        return new Ratios(0L, null, null, null, promptTokens, cachedTokens, overall);
      }
      return new Ratios(
          n,
          round3(sum / n),
          perMille.getValueAtPercentile(50) / 1000.0,
          perMille.getMinValue() / 1000.0,
          promptTokens,
          cachedTokens,
          overall);
    }
  }

  private static <T> T object(T value, String key) {
    return need(value, "an object", key);
  }

  private static <T> T number(T value, String key) {
    return need(value, "a number", key);
  }

  private static <T> T need(T value, String what, String key) {
    if (value == null) {
      throw new IllegalArgumentException(
          "sessions: expected " + what + " at " + key + ", got null");
    }
    return value;
  }

  private static String encode(Histogram h) {
    ByteBuffer buffer = ByteBuffer.allocate(h.getNeededByteBufferCapacity());
    int length = h.encodeIntoCompressedByteBuffer(buffer);
    return Base64.getEncoder().encodeToString(Arrays.copyOf(buffer.array(), length));
  }

  private static Histogram decode(String base64) {
    if (base64 == null) {
      throw new IllegalArgumentException("sessions: expected a histogram, got null");
    }
    try {
      return Histogram.decodeFromCompressedByteBuffer(
          ByteBuffer.wrap(Base64.getDecoder().decode(base64)), 0);
    } catch (DataFormatException | IllegalArgumentException e) {
      throw new IllegalArgumentException("sessions: malformed histogram: " + e.getMessage(), e);
    }
  }

  private static double round3(double v) {
    return Math.round(v * 1000) / 1000.0;
  }
}
