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
 * @param sessionId the agent session's id of an agent turn ({@code {case_id}-{phase}-{index}}, the
 *     value of its session header), or null for any other request (issue 32)
 * @param toolCalls the tool calls of an agent turn's reply as assembled from its deltas, or null
 *     for any other request
 * @param cancelAfterMs the delay after which the client was to cancel this request (from the moment
 *     the request was fully written), when the run's cancellation chose it; null otherwise
 * @param images how many images the request's prompt carried, or null for a request whose prompt
 *     carries none (its key is then left out of the line)
 * @param imageBytes the encoded bytes of those images, summed (before base64), or null with {@code
 *     images}
 * @param requestBytes the request body's bytes as sent (UTF-8 JSON), or null when not recorded
 *     (older files)
 * @param uploadMs from the moment the client began writing the request on its connection to the
 *     moment Netty handed its last byte to the socket (the write's completion), or null when not
 *     measured
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
    Double cancelAfterMs,
    String sessionId,
    Integer toolCalls,
    Integer images,
    Long imageBytes,
    Long requestBytes,
    Double uploadMs) {

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
    nonNegative("images", images);
    if (imageBytes != null && imageBytes < 0) {
      throw new IllegalArgumentException("image_bytes must be >= 0 or null, got " + imageBytes);
    }
    if (requestBytes != null && requestBytes < 0) {
      throw new IllegalArgumentException("request_bytes must be >= 0 or null, got " + requestBytes);
    }
    time("upload_ms", uploadMs);
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
    nonNegative("tool_calls", toolCalls);
    time("scheduled_ms", scheduledMs);
    if (scheduledMs != null && sentMs == null) {
      throw new IllegalArgumentException("scheduled_ms is set but sent_ms is null");
    }
    if (itlMs != null) {
      ItlList values = ItlList.copyOf(itlMs);
      for (int i = 0, n = values.size(); i < n; i++) {
        double v = values.at(i);
        if (!(v >= 0 && Double.isFinite(v))) {
          time("itl_ms", v);
        }
      }
      itlMs = values;
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
  /**
   * This record as an agent session's turn (issue 32).
   *
   * @param sessionId the session's id ({@code {case_id}-{phase}-{index}}), or null
   * @param toolCalls the tool calls of the turn's reply, or null
   * @return a new record
   */
  public RequestRecord withSession(String sessionId, Integer toolCalls) {
    return toBuilder().sessionId(sessionId).toolCalls(toolCalls).build();
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
   * before {@link RequestRecordBuilder#build()}).
   *
   * @return a new builder
   */
  public static RequestRecordBuilder builder() {
    return new RequestRecordBuilder();
  }

  /**
   * A builder holding this record's fields.
   *
   * @return a new builder
   */
  public RequestRecordBuilder toBuilder() {
    RequestRecordBuilder b = new RequestRecordBuilder();
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
    b.sessionId = sessionId;
    b.toolCalls = toolCalls;
    b.images = images;
    b.imageBytes = imageBytes;
    b.requestBytes = requestBytes;
    b.uploadMs = uploadMs;
    return b;
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
