package io.github.gatlingllm.metrics;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.cache.CachePlan;
import java.util.List;
import java.util.Objects;

/**
 * One request of a run: one line of {@code llm-requests.jsonl} (its JSON form, keys and number
 * format, is {@code io.github.gatlingllm.report.RequestRecordJson}'s). Times are milliseconds; null
 * means not measured (see {@link RequestTimer} for the definitions).
 *
 * @param request the request name, never null
 * @param phase the phase, or null
 * @param index the request index within its phase, or null
 * @param promptId the prompt's id, or null
 * @param digest the prompt's digest, or null
 * @param prefixGroup the shared-prefix group, or null
 * @param sharedPrefixTokens the group prefix's tokens, or null
 * @param plannedTokens the planned prompt size in tokens, or null
 * @param startMs the request start, epoch milliseconds
 * @param promptTokens prompt tokens, or null; at least 0
 * @param promptTokensExact whether {@code promptTokens} is the server's count; false when null
 * @param cachedTokens prompt tokens served from the server's prefix cache, or null; at least 0
 * @param completionTokens output tokens, or null; at least 0
 * @param completionTokensExact whether {@code completionTokens} is the server's count; false when
 *     null
 * @param ttftMs time to first token, or null; finite, at least 0 (as all times here)
 * @param timeToFirstEventMs time to the first SSE message, or null
 * @param itlMs inter-token latencies, or null (not streamed, or read from a line without them);
 *     unmodifiable
 * @param tpotMs time per output token after the first, or null
 * @param e2eMs start to end of the response, or null
 * @param outputTokensPerS output tokens per second of this request, or null
 * @param finishReason the server's {@code finish_reason}, or null
 * @param httpStatus the response status, or null if none
 * @param status how the request ended, never null
 * @param error a short, scrubbed description of what went wrong, or null
 * @param workload the name of the prompt workload the request's prompt came from, or null (a
 *     request with its own prompt)
 * @param plannedCachedTokens the prompt tokens its {@link CachePlan} expects from the server's
 *     prefix cache, or null when there is no plan; at least 0
 * @param cachePlanned what the plan expects: {@link CacheOutcome#HIT} or {@link CacheOutcome#MISS},
 *     or null when there is no plan
 * @param cache what the request got against the plan, or null when there is no plan
 * @param cacheWarmStart whether the server's cache held more of this prompt than any request of the
 *     test could have put there ({@link CachePlan#warmStart}), or null when there is no plan
 * @param conversationTurn the conversation and turn of a conversation's request, or null for any
 *     other request
 * @param sentMs when the request was handed to Gatling's HTTP client (its first {@code onSend}),
 *     epoch milliseconds with microsecond precision from the client's {@link System#nanoTime()}
 *     anchored once to the epoch at the run's start; or null (not recorded, older files)
 * @param scheduledMs when the injection profile said this request's virtual user arrives, epoch
 *     milliseconds on the same clock as {@code sentMs}: only on the first LLM request of a user of
 *     an open injection profile ({@link InjectionSchedule}); null otherwise (later requests of the
 *     user, closed loops, a request held back until the warmup ended, older files); for a trace row
 *     ({@code trace(path)}), the row's own due time
 * @param traceRow the 0-based line of the trace file a replayed row came from, or null for any
 *     other request
 * @param ttfoMs time to first output token: the first answer token after any reasoning ({@link
 *     AnswerTimings#ttfoMs()}), or null (never answered, not streamed, not measured)
 * @param reasoningTokens output tokens spent reasoning, or null when unknown; at least 0
 * @param reasoningTokensSource how {@code reasoningTokens} was obtained: {@code usage}, {@code
 *     tokenizer} or {@code chunks} ({@link AnswerTimings}); null when it is null
 * @param answerTokens output tokens of the answer, or null; at least 0
 * @param reasoningTpotMs time per reasoning token, or null ({@link
 *     AnswerTimings#reasoningTpotMs()})
 * @param answerTpotMs time per answer token after the first, or null
 * @param answerItlFrom the index in {@code itlMs} where the answer phase's gaps begin, or null
 * @param cancelAfterMs the delay after which the client was to cancel this request (from the moment
 *     the request was fully written), when the run's cancellation chose it; null otherwise
 */
public record RequestRecord(
    String request,
    String phase,
    Long index,
    String promptId,
    String digest,
    Integer prefixGroup,
    Integer sharedPrefixTokens,
    Integer plannedTokens,
    long startMs,
    Integer promptTokens,
    boolean promptTokensExact,
    Integer cachedTokens,
    Integer completionTokens,
    boolean completionTokensExact,
    Double ttftMs,
    Double timeToFirstEventMs,
    List<Double> itlMs,
    Double tpotMs,
    Double e2eMs,
    Double outputTokensPerS,
    String finishReason,
    Integer httpStatus,
    RequestStatus status,
    String error,
    String workload,
    Integer plannedCachedTokens,
    CacheOutcome cachePlanned,
    CacheOutcome cache,
    Boolean cacheWarmStart,
    ConversationTurn conversationTurn,
    Double sentMs,
    Double scheduledMs,
    Long traceRow,
    Double ttfoMs,
    Integer reasoningTokens,
    String reasoningTokensSource,
    Integer answerTokens,
    Double reasoningTpotMs,
    Double answerTpotMs,
    Integer answerItlFrom,
    Double cancelAfterMs) {

  /**
   * Checks the fields and makes {@code itlMs} unmodifiable.
   *
   * @throws NullPointerException if {@code request} or {@code status} is null, or an ITL value
   * @throws IllegalArgumentException if a count is negative, a time negative or not finite, or an
   *     exact flag is set without its count; the message names the field and the value
   */
  public RequestRecord {
    Objects.requireNonNull(request, "request");
    Objects.requireNonNull(status, "status");
    nonNegative("prefix_group", prefixGroup);
    nonNegative("shared_prefix_tokens", sharedPrefixTokens);
    nonNegative("planned_tokens", plannedTokens);
    nonNegative("prompt_tokens", promptTokens);
    nonNegative("cached_tokens", cachedTokens);
    nonNegative("completion_tokens", completionTokens);
    nonNegative("planned_cached_tokens", plannedCachedTokens);
    if (cachePlanned != null
        && cachePlanned != CacheOutcome.HIT
        && cachePlanned != CacheOutcome.MISS) {
      throw new IllegalArgumentException(
          "cache_planned must be hit, miss or null, got " + cachePlanned.wireName());
    }
    if (promptTokensExact && promptTokens == null) {
      throw new IllegalArgumentException("prompt_tokens_exact is true but prompt_tokens is null");
    }
    if (completionTokensExact && completionTokens == null) {
      throw new IllegalArgumentException(
          "completion_tokens_exact is true but completion_tokens is null");
    }
    time("ttft_ms", ttftMs);
    time("time_to_first_event_ms", timeToFirstEventMs);
    time("tpot_ms", tpotMs);
    time("e2e_ms", e2eMs);
    time("output_tokens_per_s", outputTokensPerS);
    time("sent_ms", sentMs);
    time("ttfo_ms", ttfoMs);
    nonNegative("reasoning_tokens", reasoningTokens);
    nonNegative("answer_tokens", answerTokens);
    nonNegative("answer_itl_from", answerItlFrom);
    time("reasoning_tpot_ms", reasoningTpotMs);
    time("answer_tpot_ms", answerTpotMs);
    time("cancel_after_ms", cancelAfterMs);
    time("scheduled_ms", scheduledMs);
    if (scheduledMs != null && sentMs == null) {
      throw new IllegalArgumentException("scheduled_ms is set but sent_ms is null");
    }
    if (itlMs != null) {
      itlMs = List.copyOf(itlMs);
      for (Double v : itlMs) {
        time("itl_ms", v);
      }
    }
  }

  /**
   * This record with its workload and cache plan.
   *
   * @param workload the prompt workload's name, or null
   * @param plan the request's cache plan, or null when there is none
   * @return a new record; with a plan, {@code cache} is {@code plan.outcome(cachedTokens)}
   */
  public RequestRecord withCache(String workload, CachePlan plan) {
    return toBuilder()
        .workload(workload)
        .plannedCachedTokens(plan == null ? null : plan.plannedCachedTokens())
        .cachePlanned(plan == null ? null : plan.expected())
        .cache(plan == null ? null : plan.outcome(cachedTokens))
        .cacheWarmStart(plan == null ? null : plan.warmStart(cachedTokens))
        .build();
  }

  /**
   * This record with its send time and, for the first request of an open-loop user, its schedule.
   *
   * @param sentMs when it was handed to Gatling's HTTP client, epoch ms (microsecond precision), or
   *     null
   * @param scheduledMs when its user was due, epoch ms on the same clock, or null
   * @return a new record
   * @throws IllegalArgumentException if a time is negative or not finite, or {@code scheduledMs} is
   *     set without {@code sentMs}
   */
  public RequestRecord withSchedule(Double sentMs, Double scheduledMs) {
    return toBuilder().sentMs(sentMs).scheduledMs(scheduledMs).build();
  }

  /**
   * How late the request left against its schedule: {@code sentMs - scheduledMs}, the client's
   * schedule lag (coordinated omission shows here: a client that falls behind sends later, and so
   * less, than the profile says).
   *
   * @return milliseconds rounded to the microsecond, negative when a user started up to a
   *     millisecond before its due time (Gatling schedules on whole milliseconds); null without a
   *     schedule
   */
  public Double scheduleLagMs() {
    if (scheduledMs == null || sentMs == null) {
      return null;
    }
    return Math.round((sentMs - scheduledMs) * 1000.0) / 1000.0;
  }

  /**
   * This record as a conversation's turn.
   *
   * @param turn the conversation and turn, or null for none
   * @return a new record
   */
  public RequestRecord withConversationTurn(ConversationTurn turn) {
    return toBuilder().conversationTurn(turn).build();
  }

  /**
   * Whether the request's cache outcome is what its plan expects.
   *
   * @return true for a hit where a hit is planned and a miss where a miss is; false otherwise or
   *     without a plan
   */
  public boolean cacheAsPlanned() {
    return cachePlanned != null && cache == cachePlanned;
  }

  /**
   * Whether the server's cache held more of this request's prompt than any request of the test
   * could have put there ({@link #cacheWarmStart()}).
   *
   * @return true for a request that reveals a warm start
   */
  public boolean warmStart() {
    return Boolean.TRUE.equals(cacheWarmStart);
  }

  /**
   * The record of a request from its identity and timings.
   *
   * @param id which request, never null
   * @param timings what was measured, never null
   * @param httpStatus the response status, or null if none
   * @param status how the request ended ({@link RequestStatus#classify}), never null
   * @param error what went wrong, or null; passed through {@link ErrorText#forRecord(String)}
   * @return the record
   */
  public static RequestRecord of(
      RequestIdentity id,
      RequestTimings timings,
      Integer httpStatus,
      RequestStatus status,
      String error) {
    return RequestRecord.builder()
        .request(id.request())
        .phase(id.phase())
        .index(id.index())
        .promptId(id.promptId())
        .digest(id.digest())
        .prefixGroup(id.prefixGroup())
        .sharedPrefixTokens(id.sharedPrefixTokens())
        .plannedTokens(id.plannedTokens())
        .startMs(timings.startMs())
        .promptTokens(timings.promptTokens())
        .promptTokensExact(timings.promptTokensExact())
        .cachedTokens(timings.cachedTokens())
        .completionTokens(timings.completionTokens())
        .completionTokensExact(timings.completionTokensExact())
        .ttftMs(timings.ttftMs())
        .timeToFirstEventMs(timings.timeToFirstEventMs())
        .itlMs(timings.itlMs())
        .tpotMs(timings.tpotMs())
        .e2eMs(timings.e2eMs())
        .outputTokensPerS(timings.outputTokensPerS())
        .finishReason(timings.finishReason())
        .httpStatus(httpStatus)
        .status(status)
        .error(ErrorText.forRecord(error))
        .build();
  }

  /**
   * The end of the request: {@code startMs + e2eMs}, or {@code startMs} if E2E is unknown.
   *
   * @return epoch milliseconds
   */
  public double endMs() {
    return e2eMs == null ? startMs : startMs + e2eMs;
  }

  /**
   * A builder with every field null, false or 0 ({@code request} and {@code status} must be set
   * before {@link Builder#build()}).
   *
   * @return a new builder
   */
  public static Builder builder() {
    return new Builder();
  }

  /**
   * A builder holding this record's fields.
   *
   * @return a new builder
   */
  public Builder toBuilder() {
    Builder b = new Builder();
    b.request = request;
    b.phase = phase;
    b.index = index;
    b.promptId = promptId;
    b.digest = digest;
    b.prefixGroup = prefixGroup;
    b.sharedPrefixTokens = sharedPrefixTokens;
    b.plannedTokens = plannedTokens;
    b.startMs = startMs;
    b.promptTokens = promptTokens;
    b.promptTokensExact = promptTokensExact;
    b.cachedTokens = cachedTokens;
    b.completionTokens = completionTokens;
    b.completionTokensExact = completionTokensExact;
    b.ttftMs = ttftMs;
    b.timeToFirstEventMs = timeToFirstEventMs;
    b.itlMs = itlMs;
    b.tpotMs = tpotMs;
    b.e2eMs = e2eMs;
    b.outputTokensPerS = outputTokensPerS;
    b.finishReason = finishReason;
    b.httpStatus = httpStatus;
    b.status = status;
    b.error = error;
    b.workload = workload;
    b.plannedCachedTokens = plannedCachedTokens;
    b.cachePlanned = cachePlanned;
    b.cache = cache;
    b.cacheWarmStart = cacheWarmStart;
    b.conversationTurn = conversationTurn;
    b.sentMs = sentMs;
    b.scheduledMs = scheduledMs;
    b.traceRow = traceRow;
    b.ttfoMs = ttfoMs;
    b.reasoningTokens = reasoningTokens;
    b.reasoningTokensSource = reasoningTokensSource;
    b.answerTokens = answerTokens;
    b.reasoningTpotMs = reasoningTpotMs;
    b.answerTpotMs = answerTpotMs;
    b.answerItlFrom = answerItlFrom;
    b.cancelAfterMs = cancelAfterMs;
    return b;
  }

  /**
   * Builds a {@link RequestRecord} field by field; not thread-safe. New fields are added here with
   * a default of null (or false), so code that does not know them keeps compiling.
   */
  public static final class Builder {
    private String request;
    private String phase;
    private Long index;
    private String promptId;
    private String digest;
    private Integer prefixGroup;
    private Integer sharedPrefixTokens;
    private Integer plannedTokens;
    private long startMs;
    private Integer promptTokens;
    private boolean promptTokensExact;
    private Integer cachedTokens;
    private Integer completionTokens;
    private boolean completionTokensExact;
    private Double ttftMs;
    private Double timeToFirstEventMs;
    private List<Double> itlMs;
    private Double tpotMs;
    private Double e2eMs;
    private Double outputTokensPerS;
    private String finishReason;
    private Integer httpStatus;
    private RequestStatus status;
    private String error;
    private String workload;
    private Integer plannedCachedTokens;
    private CacheOutcome cachePlanned;
    private CacheOutcome cache;
    private Boolean cacheWarmStart;
    private ConversationTurn conversationTurn;
    private Double sentMs;
    private Double scheduledMs;
    private Long traceRow;
    private Double ttfoMs;
    private Integer reasoningTokens;
    private String reasoningTokensSource;
    private Integer answerTokens;
    private Double reasoningTpotMs;
    private Double answerTpotMs;
    private Integer answerItlFrom;
    private Double cancelAfterMs;

    private Builder() {}

    /**
     * Sets {@code request} (see {@link RequestRecord}).
     *
     * @param request the value
     * @return this builder
     */
    public Builder request(String request) {
      this.request = request;
      return this;
    }

    /**
     * Sets {@code phase} (see {@link RequestRecord}).
     *
     * @param phase the value
     * @return this builder
     */
    public Builder phase(String phase) {
      this.phase = phase;
      return this;
    }

    /**
     * Sets {@code index} (see {@link RequestRecord}).
     *
     * @param index the value
     * @return this builder
     */
    public Builder index(Long index) {
      this.index = index;
      return this;
    }

    /**
     * Sets {@code promptId} (see {@link RequestRecord}).
     *
     * @param promptId the value
     * @return this builder
     */
    public Builder promptId(String promptId) {
      this.promptId = promptId;
      return this;
    }

    /**
     * Sets {@code digest} (see {@link RequestRecord}).
     *
     * @param digest the value
     * @return this builder
     */
    public Builder digest(String digest) {
      this.digest = digest;
      return this;
    }

    /**
     * Sets {@code prefixGroup} (see {@link RequestRecord}).
     *
     * @param prefixGroup the value
     * @return this builder
     */
    public Builder prefixGroup(Integer prefixGroup) {
      this.prefixGroup = prefixGroup;
      return this;
    }

    /**
     * Sets {@code sharedPrefixTokens} (see {@link RequestRecord}).
     *
     * @param sharedPrefixTokens the value
     * @return this builder
     */
    public Builder sharedPrefixTokens(Integer sharedPrefixTokens) {
      this.sharedPrefixTokens = sharedPrefixTokens;
      return this;
    }

    /**
     * Sets {@code plannedTokens} (see {@link RequestRecord}).
     *
     * @param plannedTokens the value
     * @return this builder
     */
    public Builder plannedTokens(Integer plannedTokens) {
      this.plannedTokens = plannedTokens;
      return this;
    }

    /**
     * Sets {@code startMs} (see {@link RequestRecord}).
     *
     * @param startMs the value
     * @return this builder
     */
    public Builder startMs(long startMs) {
      this.startMs = startMs;
      return this;
    }

    /**
     * Sets {@code promptTokens} (see {@link RequestRecord}).
     *
     * @param promptTokens the value
     * @return this builder
     */
    public Builder promptTokens(Integer promptTokens) {
      this.promptTokens = promptTokens;
      return this;
    }

    /**
     * Sets {@code promptTokensExact} (see {@link RequestRecord}).
     *
     * @param promptTokensExact the value
     * @return this builder
     */
    public Builder promptTokensExact(boolean promptTokensExact) {
      this.promptTokensExact = promptTokensExact;
      return this;
    }

    /**
     * Sets {@code cachedTokens} (see {@link RequestRecord}).
     *
     * @param cachedTokens the value
     * @return this builder
     */
    public Builder cachedTokens(Integer cachedTokens) {
      this.cachedTokens = cachedTokens;
      return this;
    }

    /**
     * Sets {@code completionTokens} (see {@link RequestRecord}).
     *
     * @param completionTokens the value
     * @return this builder
     */
    public Builder completionTokens(Integer completionTokens) {
      this.completionTokens = completionTokens;
      return this;
    }

    /**
     * Sets {@code completionTokensExact} (see {@link RequestRecord}).
     *
     * @param completionTokensExact the value
     * @return this builder
     */
    public Builder completionTokensExact(boolean completionTokensExact) {
      this.completionTokensExact = completionTokensExact;
      return this;
    }

    /**
     * Sets {@code ttftMs} (see {@link RequestRecord}).
     *
     * @param ttftMs the value
     * @return this builder
     */
    public Builder ttftMs(Double ttftMs) {
      this.ttftMs = ttftMs;
      return this;
    }

    /**
     * Sets {@code timeToFirstEventMs} (see {@link RequestRecord}).
     *
     * @param timeToFirstEventMs the value
     * @return this builder
     */
    public Builder timeToFirstEventMs(Double timeToFirstEventMs) {
      this.timeToFirstEventMs = timeToFirstEventMs;
      return this;
    }

    /**
     * Sets {@code itlMs} (see {@link RequestRecord}).
     *
     * @param itlMs the value
     * @return this builder
     */
    public Builder itlMs(List<Double> itlMs) {
      this.itlMs = itlMs;
      return this;
    }

    /**
     * Sets {@code tpotMs} (see {@link RequestRecord}).
     *
     * @param tpotMs the value
     * @return this builder
     */
    public Builder tpotMs(Double tpotMs) {
      this.tpotMs = tpotMs;
      return this;
    }

    /**
     * Sets {@code e2eMs} (see {@link RequestRecord}).
     *
     * @param e2eMs the value
     * @return this builder
     */
    public Builder e2eMs(Double e2eMs) {
      this.e2eMs = e2eMs;
      return this;
    }

    /**
     * Sets {@code outputTokensPerS} (see {@link RequestRecord}).
     *
     * @param outputTokensPerS the value
     * @return this builder
     */
    public Builder outputTokensPerS(Double outputTokensPerS) {
      this.outputTokensPerS = outputTokensPerS;
      return this;
    }

    /**
     * Sets {@code finishReason} (see {@link RequestRecord}).
     *
     * @param finishReason the value
     * @return this builder
     */
    public Builder finishReason(String finishReason) {
      this.finishReason = finishReason;
      return this;
    }

    /**
     * Sets {@code httpStatus} (see {@link RequestRecord}).
     *
     * @param httpStatus the value
     * @return this builder
     */
    public Builder httpStatus(Integer httpStatus) {
      this.httpStatus = httpStatus;
      return this;
    }

    /**
     * Sets {@code status} (see {@link RequestRecord}).
     *
     * @param status the value
     * @return this builder
     */
    public Builder status(RequestStatus status) {
      this.status = status;
      return this;
    }

    /**
     * Sets {@code error} (see {@link RequestRecord}).
     *
     * @param error the value
     * @return this builder
     */
    public Builder error(String error) {
      this.error = error;
      return this;
    }

    /**
     * Sets {@code workload} (see {@link RequestRecord}).
     *
     * @param workload the value
     * @return this builder
     */
    public Builder workload(String workload) {
      this.workload = workload;
      return this;
    }

    /**
     * Sets {@code plannedCachedTokens} (see {@link RequestRecord}).
     *
     * @param plannedCachedTokens the value
     * @return this builder
     */
    public Builder plannedCachedTokens(Integer plannedCachedTokens) {
      this.plannedCachedTokens = plannedCachedTokens;
      return this;
    }

    /**
     * Sets {@code cachePlanned} (see {@link RequestRecord}).
     *
     * @param cachePlanned the value
     * @return this builder
     */
    public Builder cachePlanned(CacheOutcome cachePlanned) {
      this.cachePlanned = cachePlanned;
      return this;
    }

    /**
     * Sets {@code cache} (see {@link RequestRecord}).
     *
     * @param cache the value
     * @return this builder
     */
    public Builder cache(CacheOutcome cache) {
      this.cache = cache;
      return this;
    }

    /**
     * Sets {@code cacheWarmStart} (see {@link RequestRecord}).
     *
     * @param cacheWarmStart the value
     * @return this builder
     */
    public Builder cacheWarmStart(Boolean cacheWarmStart) {
      this.cacheWarmStart = cacheWarmStart;
      return this;
    }

    /**
     * Sets {@code conversationTurn} (see {@link RequestRecord}).
     *
     * @param conversationTurn the value
     * @return this builder
     */
    public Builder conversationTurn(ConversationTurn conversationTurn) {
      this.conversationTurn = conversationTurn;
      return this;
    }

    /**
     * Sets {@code sentMs} (see {@link RequestRecord}).
     *
     * @param sentMs the value
     * @return this builder
     */
    public Builder sentMs(Double sentMs) {
      this.sentMs = sentMs;
      return this;
    }

    /**
     * Sets {@code scheduledMs} (see {@link RequestRecord}).
     *
     * @param scheduledMs the value
     * @return this builder
     */
    public Builder scheduledMs(Double scheduledMs) {
      this.scheduledMs = scheduledMs;
      return this;
    }

    /**
     * Sets {@code traceRow} (see {@link RequestRecord}).
     *
     * @param traceRow the value
     * @return this builder
     */
    public Builder traceRow(Long traceRow) {
      this.traceRow = traceRow;
      return this;
    }

    /**
     * Sets {@code ttfoMs} (see {@link RequestRecord}).
     *
     * @param ttfoMs the value
     * @return this builder
     */
    public Builder ttfoMs(Double ttfoMs) {
      this.ttfoMs = ttfoMs;
      return this;
    }

    /**
     * Sets {@code reasoningTokens} (see {@link RequestRecord}).
     *
     * @param reasoningTokens the value
     * @return this builder
     */
    public Builder reasoningTokens(Integer reasoningTokens) {
      this.reasoningTokens = reasoningTokens;
      return this;
    }

    /**
     * Sets {@code reasoningTokensSource} (see {@link RequestRecord}).
     *
     * @param reasoningTokensSource the value
     * @return this builder
     */
    public Builder reasoningTokensSource(String reasoningTokensSource) {
      this.reasoningTokensSource = reasoningTokensSource;
      return this;
    }

    /**
     * Sets {@code answerTokens} (see {@link RequestRecord}).
     *
     * @param answerTokens the value
     * @return this builder
     */
    public Builder answerTokens(Integer answerTokens) {
      this.answerTokens = answerTokens;
      return this;
    }

    /**
     * Sets {@code reasoningTpotMs} (see {@link RequestRecord}).
     *
     * @param reasoningTpotMs the value
     * @return this builder
     */
    public Builder reasoningTpotMs(Double reasoningTpotMs) {
      this.reasoningTpotMs = reasoningTpotMs;
      return this;
    }

    /**
     * Sets {@code answerTpotMs} (see {@link RequestRecord}).
     *
     * @param answerTpotMs the value
     * @return this builder
     */
    public Builder answerTpotMs(Double answerTpotMs) {
      this.answerTpotMs = answerTpotMs;
      return this;
    }

    /**
     * Sets {@code answerItlFrom} (see {@link RequestRecord}).
     *
     * @param answerItlFrom the value
     * @return this builder
     */
    public Builder answerItlFrom(Integer answerItlFrom) {
      this.answerItlFrom = answerItlFrom;
      return this;
    }

    /**
     * Sets {@code cancelAfterMs} (see {@link RequestRecord}).
     *
     * @param cancelAfterMs the value
     * @return this builder
     */
    public Builder cancelAfterMs(Double cancelAfterMs) {
      this.cancelAfterMs = cancelAfterMs;
      return this;
    }

    /**
     * Sets the reasoning and answer fields from what {@link RequestTimer#answer} measured.
     *
     * @param answer the phases, never null
     * @return this builder
     */
    public Builder answer(AnswerTimings answer) {
      this.ttfoMs = answer.ttfoMs();
      this.reasoningTokens = answer.reasoningTokens();
      this.reasoningTokensSource = answer.reasoningTokensSource();
      this.answerTokens = answer.answerTokens();
      this.reasoningTpotMs = answer.reasoningTpotMs();
      this.answerTpotMs = answer.answerTpotMs();
      this.answerItlFrom = answer.answerItlFrom();
      return this;
    }

    /**
     * The record.
     *
     * @return a new record
     * @throws NullPointerException if {@code request} or {@code status} is null
     * @throws IllegalArgumentException as the record's constructor
     */
    public RequestRecord build() {
      return new RequestRecord(
          request,
          phase,
          index,
          promptId,
          digest,
          prefixGroup,
          sharedPrefixTokens,
          plannedTokens,
          startMs,
          promptTokens,
          promptTokensExact,
          cachedTokens,
          completionTokens,
          completionTokensExact,
          ttftMs,
          timeToFirstEventMs,
          itlMs,
          tpotMs,
          e2eMs,
          outputTokensPerS,
          finishReason,
          httpStatus,
          status,
          error,
          workload,
          plannedCachedTokens,
          cachePlanned,
          cache,
          cacheWarmStart,
          conversationTurn,
          sentMs,
          scheduledMs,
          traceRow,
          ttfoMs,
          reasoningTokens,
          reasoningTokensSource,
          answerTokens,
          reasoningTpotMs,
          answerTpotMs,
          answerItlFrom,
          cancelAfterMs);
    }
  }

  private static void nonNegative(String field, Integer value) {
    if (value != null && value < 0) {
      throw new IllegalArgumentException(field + " must be >= 0 or null, got " + value);
    }
  }

  private static void time(String field, Double value) {
    if (value != null && !(value >= 0 && Double.isFinite(value))) {
      throw new IllegalArgumentException(
          field + " must be a finite number >= 0 or null, got " + value);
    }
  }
}
