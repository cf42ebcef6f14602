package io.github.gatlingllm.metrics;

import io.github.gatlingllm.cache.CacheOutcome;
import java.util.List;

/**
 * Builds a {@link RequestRecord} field by field; not thread-safe. New fields are added here with a
 * default of null (or false), so code that does not know them keeps compiling.
 */
public final class RequestRecordBuilder {
  String request;
  String phase;
  Long index;
  String promptId;
  String digest;
  Integer prefixGroup;
  Integer sharedPrefixTokens;
  Integer plannedTokens;
  long startMs;
  Integer promptTokens;
  boolean promptTokensExact;
  Integer cachedTokens;
  Integer completionTokens;
  boolean completionTokensExact;
  Double ttftMs;
  Double timeToFirstEventMs;
  List<Double> itlMs;
  Double tpotMs;
  Double e2eMs;
  Double outputTokensPerS;
  String finishReason;
  Integer httpStatus;
  RequestStatus status;
  String error;
  String workload;
  Integer plannedCachedTokens;
  CacheOutcome cachePlanned;
  CacheOutcome cache;
  Boolean cacheWarmStart;
  ConversationTurn conversationTurn;
  Double sentMs;
  Double scheduledMs;
  Long traceRow;
  Double ttfoMs;
  Integer reasoningTokens;
  String reasoningTokensSource;
  Integer answerTokens;
  Double reasoningTpotMs;
  Double answerTpotMs;
  Integer answerItlFrom;
  Double cancelAfterMs;
  String sessionId;
  Integer toolCalls;
  Integer images;
  Long imageBytes;
  Long requestBytes;
  Double uploadMs;

  RequestRecordBuilder() {}

  /**
   * Sets {@code request} (see {@link RequestRecord}).
   *
   * @param request the value
   * @return this builder
   */
  public RequestRecordBuilder request(String request) {
    this.request = request;
    return this;
  }

  /**
   * Sets {@code phase} (see {@link RequestRecord}).
   *
   * @param phase the value
   * @return this builder
   */
  public RequestRecordBuilder phase(String phase) {
    this.phase = phase;
    return this;
  }

  /**
   * Sets {@code index} (see {@link RequestRecord}).
   *
   * @param index the value
   * @return this builder
   */
  public RequestRecordBuilder index(Long index) {
    this.index = index;
    return this;
  }

  /**
   * Sets {@code promptId} (see {@link RequestRecord}).
   *
   * @param promptId the value
   * @return this builder
   */
  public RequestRecordBuilder promptId(String promptId) {
    this.promptId = promptId;
    return this;
  }

  /**
   * Sets {@code digest} (see {@link RequestRecord}).
   *
   * @param digest the value
   * @return this builder
   */
  public RequestRecordBuilder digest(String digest) {
    this.digest = digest;
    return this;
  }

  /**
   * Sets {@code prefixGroup} (see {@link RequestRecord}).
   *
   * @param prefixGroup the value
   * @return this builder
   */
  public RequestRecordBuilder prefixGroup(Integer prefixGroup) {
    this.prefixGroup = prefixGroup;
    return this;
  }

  /**
   * Sets {@code sharedPrefixTokens} (see {@link RequestRecord}).
   *
   * @param sharedPrefixTokens the value
   * @return this builder
   */
  public RequestRecordBuilder sharedPrefixTokens(Integer sharedPrefixTokens) {
    this.sharedPrefixTokens = sharedPrefixTokens;
    return this;
  }

  /**
   * Sets {@code plannedTokens} (see {@link RequestRecord}).
   *
   * @param plannedTokens the value
   * @return this builder
   */
  public RequestRecordBuilder plannedTokens(Integer plannedTokens) {
    this.plannedTokens = plannedTokens;
    return this;
  }

  /**
   * Sets {@code startMs} (see {@link RequestRecord}).
   *
   * @param startMs the value
   * @return this builder
   */
  public RequestRecordBuilder startMs(long startMs) {
    this.startMs = startMs;
    return this;
  }

  /**
   * Sets {@code promptTokens} (see {@link RequestRecord}).
   *
   * @param promptTokens the value
   * @return this builder
   */
  public RequestRecordBuilder promptTokens(Integer promptTokens) {
    this.promptTokens = promptTokens;
    return this;
  }

  /**
   * Sets {@code promptTokensExact} (see {@link RequestRecord}).
   *
   * @param promptTokensExact the value
   * @return this builder
   */
  public RequestRecordBuilder promptTokensExact(boolean promptTokensExact) {
    this.promptTokensExact = promptTokensExact;
    return this;
  }

  /**
   * Sets {@code cachedTokens} (see {@link RequestRecord}).
   *
   * @param cachedTokens the value
   * @return this builder
   */
  public RequestRecordBuilder cachedTokens(Integer cachedTokens) {
    this.cachedTokens = cachedTokens;
    return this;
  }

  /**
   * Sets {@code completionTokens} (see {@link RequestRecord}).
   *
   * @param completionTokens the value
   * @return this builder
   */
  public RequestRecordBuilder completionTokens(Integer completionTokens) {
    this.completionTokens = completionTokens;
    return this;
  }

  /**
   * Sets {@code completionTokensExact} (see {@link RequestRecord}).
   *
   * @param completionTokensExact the value
   * @return this builder
   */
  public RequestRecordBuilder completionTokensExact(boolean completionTokensExact) {
    this.completionTokensExact = completionTokensExact;
    return this;
  }

  /**
   * Sets {@code ttftMs} (see {@link RequestRecord}).
   *
   * @param ttftMs the value
   * @return this builder
   */
  public RequestRecordBuilder ttftMs(Double ttftMs) {
    this.ttftMs = ttftMs;
    return this;
  }

  /**
   * Sets {@code timeToFirstEventMs} (see {@link RequestRecord}).
   *
   * @param timeToFirstEventMs the value
   * @return this builder
   */
  public RequestRecordBuilder timeToFirstEventMs(Double timeToFirstEventMs) {
    this.timeToFirstEventMs = timeToFirstEventMs;
    return this;
  }

  /**
   * Sets {@code itlMs} (see {@link RequestRecord}).
   *
   * @param itlMs the value
   * @return this builder
   */
  public RequestRecordBuilder itlMs(List<Double> itlMs) {
    this.itlMs = itlMs;
    return this;
  }

  /**
   * Sets {@code tpotMs} (see {@link RequestRecord}).
   *
   * @param tpotMs the value
   * @return this builder
   */
  public RequestRecordBuilder tpotMs(Double tpotMs) {
    this.tpotMs = tpotMs;
    return this;
  }

  /**
   * Sets {@code e2eMs} (see {@link RequestRecord}).
   *
   * @param e2eMs the value
   * @return this builder
   */
  public RequestRecordBuilder e2eMs(Double e2eMs) {
    this.e2eMs = e2eMs;
    return this;
  }

  /**
   * Sets {@code outputTokensPerS} (see {@link RequestRecord}).
   *
   * @param outputTokensPerS the value
   * @return this builder
   */
  public RequestRecordBuilder outputTokensPerS(Double outputTokensPerS) {
    this.outputTokensPerS = outputTokensPerS;
    return this;
  }

  /**
   * Sets {@code finishReason} (see {@link RequestRecord}).
   *
   * @param finishReason the value
   * @return this builder
   */
  public RequestRecordBuilder finishReason(String finishReason) {
    this.finishReason = finishReason;
    return this;
  }

  /**
   * Sets {@code httpStatus} (see {@link RequestRecord}).
   *
   * @param httpStatus the value
   * @return this builder
   */
  public RequestRecordBuilder httpStatus(Integer httpStatus) {
    this.httpStatus = httpStatus;
    return this;
  }

  /**
   * Sets {@code status} (see {@link RequestRecord}).
   *
   * @param status the value
   * @return this builder
   */
  public RequestRecordBuilder status(RequestStatus status) {
    this.status = status;
    return this;
  }

  /**
   * Sets {@code error} (see {@link RequestRecord}).
   *
   * @param error the value
   * @return this builder
   */
  public RequestRecordBuilder error(String error) {
    this.error = error;
    return this;
  }

  /**
   * Sets {@code workload} (see {@link RequestRecord}).
   *
   * @param workload the value
   * @return this builder
   */
  public RequestRecordBuilder workload(String workload) {
    this.workload = workload;
    return this;
  }

  /**
   * Sets {@code plannedCachedTokens} (see {@link RequestRecord}).
   *
   * @param plannedCachedTokens the value
   * @return this builder
   */
  public RequestRecordBuilder plannedCachedTokens(Integer plannedCachedTokens) {
    this.plannedCachedTokens = plannedCachedTokens;
    return this;
  }

  /**
   * Sets {@code cachePlanned} (see {@link RequestRecord}).
   *
   * @param cachePlanned the value
   * @return this builder
   */
  public RequestRecordBuilder cachePlanned(CacheOutcome cachePlanned) {
    this.cachePlanned = cachePlanned;
    return this;
  }

  /**
   * Sets {@code cache} (see {@link RequestRecord}).
   *
   * @param cache the value
   * @return this builder
   */
  public RequestRecordBuilder cache(CacheOutcome cache) {
    this.cache = cache;
    return this;
  }

  /**
   * Sets {@code cacheWarmStart} (see {@link RequestRecord}).
   *
   * @param cacheWarmStart the value
   * @return this builder
   */
  public RequestRecordBuilder cacheWarmStart(Boolean cacheWarmStart) {
    this.cacheWarmStart = cacheWarmStart;
    return this;
  }

  /**
   * Sets {@code conversationTurn} (see {@link RequestRecord}).
   *
   * @param conversationTurn the value
   * @return this builder
   */
  public RequestRecordBuilder conversationTurn(ConversationTurn conversationTurn) {
    this.conversationTurn = conversationTurn;
    return this;
  }

  /**
   * Sets {@code sentMs} (see {@link RequestRecord}).
   *
   * @param sentMs the value
   * @return this builder
   */
  public RequestRecordBuilder sentMs(Double sentMs) {
    this.sentMs = sentMs;
    return this;
  }

  /**
   * Sets {@code scheduledMs} (see {@link RequestRecord}).
   *
   * @param scheduledMs the value
   * @return this builder
   */
  public RequestRecordBuilder scheduledMs(Double scheduledMs) {
    this.scheduledMs = scheduledMs;
    return this;
  }

  /**
   * Sets {@code traceRow} (see {@link RequestRecord}).
   *
   * @param traceRow the value
   * @return this builder
   */
  public RequestRecordBuilder traceRow(Long traceRow) {
    this.traceRow = traceRow;
    return this;
  }

  /**
   * Sets {@code ttfoMs} (see {@link RequestRecord}).
   *
   * @param ttfoMs the value
   * @return this builder
   */
  public RequestRecordBuilder ttfoMs(Double ttfoMs) {
    this.ttfoMs = ttfoMs;
    return this;
  }

  /**
   * Sets {@code reasoningTokens} (see {@link RequestRecord}).
   *
   * @param reasoningTokens the value
   * @return this builder
   */
  public RequestRecordBuilder reasoningTokens(Integer reasoningTokens) {
    this.reasoningTokens = reasoningTokens;
    return this;
  }

  /**
   * Sets {@code reasoningTokensSource} (see {@link RequestRecord}).
   *
   * @param reasoningTokensSource the value
   * @return this builder
   */
  public RequestRecordBuilder reasoningTokensSource(String reasoningTokensSource) {
    this.reasoningTokensSource = reasoningTokensSource;
    return this;
  }

  /**
   * Sets {@code answerTokens} (see {@link RequestRecord}).
   *
   * @param answerTokens the value
   * @return this builder
   */
  public RequestRecordBuilder answerTokens(Integer answerTokens) {
    this.answerTokens = answerTokens;
    return this;
  }

  /**
   * Sets {@code reasoningTpotMs} (see {@link RequestRecord}).
   *
   * @param reasoningTpotMs the value
   * @return this builder
   */
  public RequestRecordBuilder reasoningTpotMs(Double reasoningTpotMs) {
    this.reasoningTpotMs = reasoningTpotMs;
    return this;
  }

  /**
   * Sets {@code answerTpotMs} (see {@link RequestRecord}).
   *
   * @param answerTpotMs the value
   * @return this builder
   */
  public RequestRecordBuilder answerTpotMs(Double answerTpotMs) {
    this.answerTpotMs = answerTpotMs;
    return this;
  }

  /**
   * Sets {@code answerItlFrom} (see {@link RequestRecord}).
   *
   * @param answerItlFrom the value
   * @return this builder
   */
  public RequestRecordBuilder answerItlFrom(Integer answerItlFrom) {
    this.answerItlFrom = answerItlFrom;
    return this;
  }

  /**
   * Sets {@code cancelAfterMs} (see {@link RequestRecord}).
   *
   * @param cancelAfterMs the value
   * @return this builder
   */
  public RequestRecordBuilder cancelAfterMs(Double cancelAfterMs) {
    this.cancelAfterMs = cancelAfterMs;
    return this;
  }

  /**
   * Sets the reasoning and answer fields from what {@link RequestTimer#answer} measured.
   *
   * @param answer the phases, never null
   * @return this builder
   */
  public RequestRecordBuilder answer(AnswerTimings answer) {
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
        cancelAfterMs,
        sessionId,
        toolCalls,
        images,
        imageBytes,
        requestBytes,
        uploadMs);
  }

  /**
   * Sets {@code sessionId} (see {@link RequestRecord}).
   *
   * @param sessionId the value
   * @return this builder
   */
  public RequestRecordBuilder sessionId(String sessionId) {
    this.sessionId = sessionId;
    return this;
  }

  /**
   * Sets {@code toolCalls} (see {@link RequestRecord}).
   *
   * @param toolCalls the value
   * @return this builder
   */
  public RequestRecordBuilder toolCalls(Integer toolCalls) {
    this.toolCalls = toolCalls;
    return this;
  }

  /**
   * Sets {@code images} (see {@link RequestRecord}).
   *
   * @param images the value
   * @return this builder
   */
  public RequestRecordBuilder images(Integer images) {
    this.images = images;
    return this;
  }

  /**
   * Sets {@code imageBytes} (see {@link RequestRecord}).
   *
   * @param imageBytes the value
   * @return this builder
   */
  public RequestRecordBuilder imageBytes(Long imageBytes) {
    this.imageBytes = imageBytes;
    return this;
  }

  /**
   * Sets {@code requestBytes} (see {@link RequestRecord}).
   *
   * @param requestBytes the value
   * @return this builder
   */
  public RequestRecordBuilder requestBytes(Long requestBytes) {
    this.requestBytes = requestBytes;
    return this;
  }

  /**
   * Sets {@code uploadMs} (see {@link RequestRecord}).
   *
   * @param uploadMs the value
   * @return this builder
   */
  public RequestRecordBuilder uploadMs(Double uploadMs) {
    this.uploadMs = uploadMs;
    return this;
  }
}
