package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.List;

/**
 * The fast way to read a line of {@code llm-requests.jsonl}: one pass of Jackson's streaming parser
 * straight into a {@link RequestRecord}, without a tree of nodes per line (the end of a run reads
 * every line back; a tree per line cost most of its time).
 *
 * <p>It reads only what it can read exactly as {@link RequestRecordJson#fromJson} reads it (the
 * reference: same keys, types, defaults, last of duplicate keys): on anything else (a value of
 * another type, a number out of range, text that is not JSON, a record the builder refuses) it
 * gives up and returns null, and the caller reads the line the reference way, which gives the
 * record or its error message. So a valid line reads to the same record either way and an invalid
 * one fails with the same message. Not thread-safe: a reader per thread.
 */
final class RequestRecordReader {

  /** Thrown to give up on a line; never escapes this class. */
  private static final class GiveUp extends Exception {
    private static final long serialVersionUID = 1L;
    static final GiveUp INSTANCE = new GiveUp();

    private GiveUp() {
      super(null, null, false, false);
    }
  }

  // Jackson's fast double parser rounds as Double.parseDouble does (correctly), in less time.
  private static final JsonFactory FACTORY =
      JsonFactory.builder()
          .enable(com.fasterxml.jackson.core.StreamReadFeature.USE_FAST_DOUBLE_PARSER)
          .build();

  private final JsonFactory factory;

  // The line's values; each key's last value wins, as in a tree.
  private String request;
  private String phase;
  private Long index;
  private String promptId;
  private String digest;
  private Integer prefixGroup;
  private Integer sharedPrefixTokens;
  private Integer plannedTokens;
  private Long startMs;
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
  private String status;
  private String error;
  private String workload;
  private Integer plannedCachedTokens;
  private String cachePlanned;
  private String cache;
  private Boolean cacheWarmStart;
  private Long conversation;
  private Integer turn;
  private Integer contextTokens;
  private String replyDigest;
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

  RequestRecordReader(JsonFactory factory) {
    this.factory = factory;
  }

  /**
   * A reader with Jackson's fast double parser.
   *
   * @return a new reader, for one thread
   */
  static RequestRecordReader create() {
    return new RequestRecordReader(FACTORY);
  }

  /**
   * A reader of lines for one thread: each line read as {@link RequestRecordJson#fromJson} reads
   * it, most without a tree.
   *
   * @return a function from a line to its record, throwing as {@link RequestRecordJson#fromJson}
   */
  static java.util.function.Function<String, RequestRecord> lines() {
    RequestRecordReader reader = new RequestRecordReader(FACTORY);
    return json -> {
      RequestRecord fast = reader.read(json);
      return fast != null ? fast : RequestRecordJson.fromJson(json);
    };
  }

  /**
   * One line, as {@link RequestRecordJson#fromJson} reads it, most often without a tree.
   *
   * @param json the line
   * @return the record
   * @throws IllegalArgumentException as {@link RequestRecordJson#fromJson}
   */
  static RequestRecord parse(String json) {
    RequestRecord fast = new RequestRecordReader(FACTORY).read(json);
    return fast != null ? fast : RequestRecordJson.fromJson(json);
  }

  /**
   * Reads one line.
   *
   * @param json the line
   * @return the record, or null when this reader cannot read it exactly as {@link
   *     RequestRecordJson#fromJson} does (then read it that way)
   */
  RequestRecord read(String json) {
    try (JsonParser p = factory.createParser(json)) {
      return read(p);
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  /**
   * Reads one line of UTF-8 bytes.
   *
   * @param bytes holds the line
   * @param offset where it starts
   * @param length its length in bytes, without the line break
   * @return the record, or null as {@link #read(String)}
   */
  RequestRecord read(byte[] bytes, int offset, int length) {
    try (JsonParser p = factory.createParser(bytes, offset, length)) {
      return read(p);
    } catch (java.io.IOException | RuntimeException e) {
      return null;
    }
  }

  private RequestRecord read(JsonParser p) throws java.io.IOException {
    clear();
    try {
      if (p.nextToken() != JsonToken.START_OBJECT) {
        return null;
      }
      String key;
      while ((key = p.nextFieldName()) != null) {
        field(p, key);
      }
      if (p.currentToken() != JsonToken.END_OBJECT || p.nextToken() != null) {
        return null;
      }
      return build();
    } catch (GiveUp e) {
      return null;
    }
  }

  private RequestRecord build() throws GiveUp {
    if (request == null || startMs == null || status == null) {
      throw GiveUp.INSTANCE;
    }
    if ((conversation == null) != (turn == null)) {
      throw GiveUp.INSTANCE;
    }
    ConversationTurn conversationTurn =
        conversation == null
            ? null
            : new ConversationTurn(conversation, turn, contextTokens, replyDigest);
    return RequestRecord.builder()
        .request(request)
        .phase(phase)
        .index(index)
        .promptId(promptId)
        .digest(digest)
        .prefixGroup(prefixGroup)
        .sharedPrefixTokens(sharedPrefixTokens)
        .plannedTokens(plannedTokens)
        .startMs(startMs)
        .promptTokens(promptTokens)
        .promptTokensExact(promptTokensExact)
        .cachedTokens(cachedTokens)
        .completionTokens(completionTokens)
        .completionTokensExact(completionTokensExact)
        .ttftMs(ttftMs)
        .timeToFirstEventMs(timeToFirstEventMs)
        .itlMs(itlMs)
        .tpotMs(tpotMs)
        .e2eMs(e2eMs)
        .outputTokensPerS(outputTokensPerS)
        .finishReason(finishReason)
        .httpStatus(httpStatus)
        .status(RequestStatus.fromWireName(status))
        .error(error)
        .workload(workload)
        .plannedCachedTokens(plannedCachedTokens)
        .cachePlanned(cachePlanned == null ? null : CacheOutcome.fromWireName(cachePlanned))
        .cache(cache == null ? null : CacheOutcome.fromWireName(cache))
        .cacheWarmStart(cacheWarmStart)
        .conversationTurn(conversationTurn)
        .sentMs(sentMs)
        .scheduledMs(scheduledMs)
        .traceRow(traceRow)
        .ttfoMs(ttfoMs)
        .reasoningTokens(reasoningTokens)
        .reasoningTokensSource(reasoningTokensSource)
        .answerTokens(answerTokens)
        .reasoningTpotMs(reasoningTpotMs)
        .answerTpotMs(answerTpotMs)
        .answerItlFrom(answerItlFrom)
        .cancelAfterMs(cancelAfterMs)
        .build();
  }

  private void field(JsonParser p, String key) throws java.io.IOException, GiveUp {
    JsonToken t = p.nextToken();
    switch (key) {
      case "request" -> request = text(p, t);
      case "phase" -> phase = text(p, t);
      case "index" -> index = longValue(p, t);
      case "prompt_id" -> promptId = text(p, t);
      case "digest" -> digest = text(p, t);
      case "prefix_group" -> prefixGroup = intValue(p, t);
      case "shared_prefix_tokens" -> sharedPrefixTokens = intValue(p, t);
      case "planned_tokens" -> plannedTokens = intValue(p, t);
      case "start_ms" -> startMs = longValue(p, t);
      case "prompt_tokens" -> promptTokens = intValue(p, t);
      case "prompt_tokens_exact" -> promptTokensExact = bool(t);
      case "cached_tokens" -> cachedTokens = intValue(p, t);
      case "completion_tokens" -> completionTokens = intValue(p, t);
      case "completion_tokens_exact" -> completionTokensExact = bool(t);
      case "ttft_ms" -> ttftMs = doubleValue(p, t);
      case "time_to_first_event_ms" -> timeToFirstEventMs = doubleValue(p, t);
      case "itl_ms" -> itlMs = doubles(p, t);
      case "tpot_ms" -> tpotMs = doubleValue(p, t);
      case "e2e_ms" -> e2eMs = doubleValue(p, t);
      case "output_tokens_per_s" -> outputTokensPerS = doubleValue(p, t);
      case "finish_reason" -> finishReason = text(p, t);
      case "http_status" -> httpStatus = intValue(p, t);
      case "status" -> status = text(p, t);
      case "error" -> error = text(p, t);
      case "workload" -> workload = text(p, t);
      case "planned_cached_tokens" -> plannedCachedTokens = intValue(p, t);
      case "cache_planned" -> cachePlanned = text(p, t);
      case "cache" -> cache = text(p, t);
      case "cache_warm_start" -> cacheWarmStart = t == JsonToken.VALUE_NULL ? null : bool(t);
      case "conversation" -> conversation = longValue(p, t);
      case "turn" -> turn = intValue(p, t);
      case "context_tokens" -> contextTokens = intValue(p, t);
      case "reply_digest" -> replyDigest = text(p, t);
      case "sent_ms" -> sentMs = doubleValue(p, t);
      case "scheduled_ms" -> scheduledMs = doubleValue(p, t);
      case "trace_row" -> traceRow = longValue(p, t);
      case "ttfo_ms" -> ttfoMs = doubleValue(p, t);
      case "reasoning_tokens" -> reasoningTokens = intValue(p, t);
      case "reasoning_tokens_source" -> reasoningTokensSource = text(p, t);
      case "answer_tokens" -> answerTokens = intValue(p, t);
      case "reasoning_tpot_ms" -> reasoningTpotMs = doubleValue(p, t);
      case "answer_tpot_ms" -> answerTpotMs = doubleValue(p, t);
      case "answer_itl_from" -> answerItlFrom = intValue(p, t);
      case "cancel_after_ms" -> cancelAfterMs = doubleValue(p, t);
      // schedule_lag_ms is derived, not read back; unknown keys are skipped whole
      default -> p.skipChildren();
    }
  }

  private static String text(JsonParser p, JsonToken t) throws java.io.IOException, GiveUp {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_STRING) {
      throw GiveUp.INSTANCE;
    }
    return p.getText();
  }

  private static Integer intValue(JsonParser p, JsonToken t) throws java.io.IOException, GiveUp {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_NUMBER_INT || p.getNumberType() != JsonParser.NumberType.INT) {
      throw GiveUp.INSTANCE;
    }
    return p.getIntValue();
  }

  private static Long longValue(JsonParser p, JsonToken t) throws java.io.IOException, GiveUp {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.VALUE_NUMBER_INT) {
      throw GiveUp.INSTANCE;
    }
    JsonParser.NumberType type = p.getNumberType();
    if (type != JsonParser.NumberType.INT && type != JsonParser.NumberType.LONG) {
      throw GiveUp.INSTANCE;
    }
    return p.getLongValue();
  }

  private static Double doubleValue(JsonParser p, JsonToken t) throws java.io.IOException, GiveUp {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    return number(p, t);
  }

  private static double number(JsonParser p, JsonToken t) throws java.io.IOException, GiveUp {
    if (t == JsonToken.VALUE_NUMBER_FLOAT) {
      return p.getDoubleValue();
    }
    if (t == JsonToken.VALUE_NUMBER_INT) {
      JsonParser.NumberType type = p.getNumberType();
      if (type == JsonParser.NumberType.INT || type == JsonParser.NumberType.LONG) {
        return (double) p.getLongValue();
      }
    }
    throw GiveUp.INSTANCE;
  }

  private static boolean bool(JsonToken t) throws GiveUp {
    if (t == JsonToken.VALUE_NULL || t == JsonToken.VALUE_FALSE) {
      return false;
    }
    if (t != JsonToken.VALUE_TRUE) {
      throw GiveUp.INSTANCE;
    }
    return true;
  }

  private static List<Double> doubles(JsonParser p, JsonToken t)
      throws java.io.IOException, GiveUp {
    if (t == JsonToken.VALUE_NULL) {
      return null;
    }
    if (t != JsonToken.START_ARRAY) {
      throw GiveUp.INSTANCE;
    }
    List<Double> out = new ArrayList<>();
    JsonToken e;
    while ((e = p.nextToken()) != JsonToken.END_ARRAY) {
      out.add(number(p, e));
    }
    return out;
  }

  private void clear() {
    request = null;
    phase = null;
    index = null;
    promptId = null;
    digest = null;
    prefixGroup = null;
    sharedPrefixTokens = null;
    plannedTokens = null;
    startMs = null;
    promptTokens = null;
    promptTokensExact = false;
    cachedTokens = null;
    completionTokens = null;
    completionTokensExact = false;
    ttftMs = null;
    timeToFirstEventMs = null;
    itlMs = null;
    tpotMs = null;
    e2eMs = null;
    outputTokensPerS = null;
    finishReason = null;
    httpStatus = null;
    status = null;
    error = null;
    workload = null;
    plannedCachedTokens = null;
    cachePlanned = null;
    cache = null;
    cacheWarmStart = null;
    conversation = null;
    turn = null;
    contextTokens = null;
    replyDigest = null;
    sentMs = null;
    scheduledMs = null;
    traceRow = null;
    ttfoMs = null;
    reasoningTokens = null;
    reasoningTokensSource = null;
    answerTokens = null;
    reasoningTpotMs = null;
    answerTpotMs = null;
    answerItlFrom = null;
    cancelAfterMs = null;
  }
}
