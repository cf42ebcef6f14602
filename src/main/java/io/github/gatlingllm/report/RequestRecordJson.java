package io.github.gatlingllm.report;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * The JSON form of a {@link RequestRecord}: one line of {@code llm-requests.jsonl}.
 *
 * <p>JSON keys, in this order (snake_case; null written as {@code null}): {@code request, phase,
 * index, prompt_id, digest, prefix_group, shared_prefix_tokens, planned_tokens, start_ms,
 * prompt_tokens, prompt_tokens_exact, cached_tokens, completion_tokens, completion_tokens_exact,
 * ttft_ms, time_to_first_event_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s, finish_reason,
 * http_status, status, error, workload, planned_cached_tokens, cache_planned, cache,
 * cache_warm_start, conversation, turn, context_tokens, reply_digest, sent_ms, scheduled_ms,
 * schedule_lag_ms, ttfo_ms, reasoning_tokens, reasoning_tokens_source, answer_tokens,
 * reasoning_tpot_ms, answer_tpot_ms, answer_itl_from, cancel_after_ms, trace_row}; {@code itl_ms}
 * only when asked for. {@code ttfo_ms} to {@code answer_itl_from} are a reasoning model's phases
 * ({@link io.github.gatlingllm.metrics.AnswerTimings}): time to the first answer token (null when
 * the reply never answered), reasoning tokens and how they were counted ({@code usage}, {@code
 * tokenizer}, {@code chunks}), answer tokens, the time per token of each phase, and where in {@code
 * itl_ms} the answer's gaps begin. {@code cancel_after_ms} is the delay after which the client
 * cancelled (or was to cancel) the request, on requests the run's cancellation chose (status {@code
 * cancelled} when it was cut). {@code trace_row} is the 0-based line of the trace file a replayed
 * row came from ({@code trace(path)}), only on a trace row's line. {@code workload} is the prompt
 * workload's name, {@code planned_cached_tokens} the request's {@link
 * io.github.gatlingllm.cache.CachePlan}, {@code cache_planned} what it expects ({@code hit} or
 * {@code miss}), {@code cache} the outcome ({@code hit}, {@code partial}, {@code miss}, {@code
 * unplanned_hit}, {@code unknown}) and {@code cache_warm_start} whether the cache held more of the
 * prompt than the test could have put there; the last four null without a cache plan. {@code
 * conversation} (its index in its phase), {@code turn} (from 1), {@code context_tokens} (the tokens
 * before the turn's new user message) and {@code reply_digest} (16 hex of the reply text as
 * received) are a conversation turn's, null on any other request ({@link
 * io.github.gatlingllm.metrics.ConversationTurn}). {@code sent_ms} is when the request was handed
 * to Gatling's HTTP client and {@code scheduled_ms} when the injection profile said its virtual
 * user arrives (epoch milliseconds, microsecond precision, on the client's nanosecond clock
 * anchored once to the epoch), {@code schedule_lag_ms} their difference; the last two only on the
 * first LLM request of an open-loop user (see {@link
 * io.github.gatlingllm.levels.InjectionSchedule}); {@code schedule_lag_ms} is not read back (it is
 * derived). Times are milliseconds with microsecond precision, each written as the shortest decimal
 * that reads back as its value ({@code 2.517}, {@code 0.25}, {@code 34}); older files wrote whole
 * milliseconds and are read the same way. Null means not measured (see {@link
 * io.github.gatlingllm.metrics.RequestTimer} for the definitions). These names and meanings are
 * read by users' scripts: fields may be added, never renamed or given another meaning.
 */
public final class RequestRecordJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private RequestRecordJson() {}

  /**
   * A record as one line of JSON (no line break).
   *
   * @param record the record, never null
   * @param includeItl whether to write {@code itl_ms}
   * @return the JSON object text
   * @throws NullPointerException if {@code record} is null
   */
  public static String toJson(RequestRecord record, boolean includeItl) {
    Objects.requireNonNull(record, "record");
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, record, includeItl);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a request record in memory failed", e);
    }
    return out.toString();
  }

  /**
   * Writes a record as the next value of a generator.
   *
   * @param g the generator, never null; not flushed or closed here
   * @param record the record, never null
   * @param includeItl whether to write {@code itl_ms}
   * @throws IOException if the generator's target fails
   * @throws NullPointerException if {@code g} or {@code record} is null
   */
  public static void write(JsonGenerator g, RequestRecord record, boolean includeItl)
      throws IOException {
    Objects.requireNonNull(g, "g");
    RequestRecord r = Objects.requireNonNull(record, "record");
    g.writeStartObject();
    g.writeStringField("request", r.request());
    writeString(g, "phase", r.phase());
    g.writeFieldName("index");
    if (r.index() == null) {
      g.writeNull();
    } else {
      g.writeNumber(r.index());
    }
    writeString(g, "prompt_id", r.promptId());
    writeString(g, "digest", r.digest());
    writeInt(g, "prefix_group", r.prefixGroup());
    writeInt(g, "shared_prefix_tokens", r.sharedPrefixTokens());
    writeInt(g, "planned_tokens", r.plannedTokens());
    g.writeNumberField("start_ms", r.startMs());
    writeInt(g, "prompt_tokens", r.promptTokens());
    g.writeBooleanField("prompt_tokens_exact", r.promptTokensExact());
    writeInt(g, "cached_tokens", r.cachedTokens());
    writeInt(g, "completion_tokens", r.completionTokens());
    g.writeBooleanField("completion_tokens_exact", r.completionTokensExact());
    writeDouble(g, "ttft_ms", r.ttftMs());
    writeDouble(g, "time_to_first_event_ms", r.timeToFirstEventMs());
    if (includeItl) {
      g.writeFieldName("itl_ms");
      if (r.itlMs() == null) {
        g.writeNull();
      } else {
        g.writeStartArray();
        for (Double v : r.itlMs()) {
          writeNumber(g, v);
        }
        g.writeEndArray();
      }
    }
    writeDouble(g, "tpot_ms", r.tpotMs());
    writeDouble(g, "e2e_ms", r.e2eMs());
    writeDouble(g, "output_tokens_per_s", r.outputTokensPerS());
    writeString(g, "finish_reason", r.finishReason());
    writeInt(g, "http_status", r.httpStatus());
    g.writeStringField("status", r.status().wireName());
    writeString(g, "error", r.error());
    writeString(g, "workload", r.workload());
    writeInt(g, "planned_cached_tokens", r.plannedCachedTokens());
    writeString(g, "cache_planned", r.cachePlanned() == null ? null : r.cachePlanned().wireName());
    writeString(g, "cache", r.cache() == null ? null : r.cache().wireName());
    g.writeFieldName("cache_warm_start");
    if (r.cacheWarmStart() == null) {
      g.writeNull();
    } else {
      g.writeBoolean(r.cacheWarmStart());
    }
    ConversationTurn turn = r.conversationTurn();
    g.writeFieldName("conversation");
    if (turn == null) {
      g.writeNull();
    } else {
      g.writeNumber(turn.conversation());
    }
    writeInt(g, "turn", turn == null ? null : turn.turn());
    writeInt(g, "context_tokens", turn == null ? null : turn.contextTokens());
    writeString(g, "reply_digest", turn == null ? null : turn.replyDigest());
    writeDouble(g, "sent_ms", r.sentMs());
    writeDouble(g, "scheduled_ms", r.scheduledMs());
    writeDouble(g, "schedule_lag_ms", r.scheduleLagMs());
    writeDouble(g, "ttfo_ms", r.ttfoMs());
    writeInt(g, "reasoning_tokens", r.reasoningTokens());
    writeString(g, "reasoning_tokens_source", r.reasoningTokensSource());
    writeInt(g, "answer_tokens", r.answerTokens());
    writeDouble(g, "reasoning_tpot_ms", r.reasoningTpotMs());
    writeDouble(g, "answer_tpot_ms", r.answerTpotMs());
    writeInt(g, "answer_itl_from", r.answerItlFrom());
    writeDouble(g, "cancel_after_ms", r.cancelAfterMs());
    if (r.traceRow() != null) {
      g.writeNumberField("trace_row", r.traceRow());
    }
    g.writeEndObject();
  }

  /**
   * Reads one line written by {@link #toJson(RequestRecord, boolean)}, or by an older version.
   * Unknown keys are ignored; missing optional keys read as null (or false for the exact flags).
   *
   * @param json one JSON object
   * @return the record
   * @throws IllegalArgumentException if the text is not a JSON object, {@code request}, {@code
   *     start_ms} or {@code status} is missing, or a value has the wrong type; the message names
   *     the key
   */
  public static RequestRecord fromJson(String json) {
    JsonNode n;
    try {
      n = MAPPER.readTree(json);
    } catch (JsonProcessingException e) {
      throw new IllegalArgumentException(
          "request record is not valid JSON: " + e.getOriginalMessage(), e);
    }
    if (n == null || !n.isObject()) {
      throw new IllegalArgumentException("request record must be a JSON object");
    }
    String request = text(n, "request");
    if (request == null) {
      throw new IllegalArgumentException("request record needs \"request\" (the request name)");
    }
    JsonNode start = n.get("start_ms");
    if (start == null || !start.canConvertToLong() || !start.isIntegralNumber()) {
      throw new IllegalArgumentException(
          "request record needs \"start_ms\" (epoch milliseconds), got " + start);
    }
    String status = text(n, "status");
    if (status == null) {
      throw new IllegalArgumentException("request record needs \"status\"");
    }
    return RequestRecord.builder()
        .request(request)
        .phase(text(n, "phase"))
        .index(longValue(n, "index"))
        .promptId(text(n, "prompt_id"))
        .digest(text(n, "digest"))
        .prefixGroup(intValue(n, "prefix_group"))
        .sharedPrefixTokens(intValue(n, "shared_prefix_tokens"))
        .plannedTokens(intValue(n, "planned_tokens"))
        .startMs(start.longValue())
        .promptTokens(intValue(n, "prompt_tokens"))
        .promptTokensExact(bool(n, "prompt_tokens_exact"))
        .cachedTokens(intValue(n, "cached_tokens"))
        .completionTokens(intValue(n, "completion_tokens"))
        .completionTokensExact(bool(n, "completion_tokens_exact"))
        .ttftMs(doubleValue(n, "ttft_ms"))
        .timeToFirstEventMs(doubleValue(n, "time_to_first_event_ms"))
        .itlMs(doubles(n, "itl_ms"))
        .tpotMs(doubleValue(n, "tpot_ms"))
        .e2eMs(doubleValue(n, "e2e_ms"))
        .outputTokensPerS(doubleValue(n, "output_tokens_per_s"))
        .finishReason(text(n, "finish_reason"))
        .httpStatus(intValue(n, "http_status"))
        .status(RequestStatus.fromWireName(status))
        .error(text(n, "error"))
        .workload(text(n, "workload"))
        .plannedCachedTokens(intValue(n, "planned_cached_tokens"))
        .cachePlanned(outcome(n, "cache_planned"))
        .cache(outcome(n, "cache"))
        .cacheWarmStart(present(n, "cache_warm_start") == null ? null : bool(n, "cache_warm_start"))
        .conversationTurn(conversationTurn(n))
        .sentMs(doubleValue(n, "sent_ms"))
        .scheduledMs(doubleValue(n, "scheduled_ms"))
        .traceRow(longValue(n, "trace_row"))
        .ttfoMs(doubleValue(n, "ttfo_ms"))
        .reasoningTokens(intValue(n, "reasoning_tokens"))
        .reasoningTokensSource(text(n, "reasoning_tokens_source"))
        .answerTokens(intValue(n, "answer_tokens"))
        .reasoningTpotMs(doubleValue(n, "reasoning_tpot_ms"))
        .answerTpotMs(doubleValue(n, "answer_tpot_ms"))
        .answerItlFrom(intValue(n, "answer_itl_from"))
        .cancelAfterMs(doubleValue(n, "cancel_after_ms"))
        .build();
  }

  private static ConversationTurn conversationTurn(JsonNode n) {
    Long conversation = longValue(n, "conversation");
    Integer turn = intValue(n, "turn");
    if (conversation == null && turn == null) {
      return null;
    }
    if (conversation == null || turn == null) {
      throw new IllegalArgumentException(
          "request record: \"conversation\" and \"turn\" go together, got conversation "
              + conversation
              + " and turn "
              + turn);
    }
    try {
      return new ConversationTurn(
          conversation, turn, intValue(n, "context_tokens"), text(n, "reply_digest"));
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("request record: " + e.getMessage(), e);
    }
  }

  private static CacheOutcome outcome(JsonNode n, String key) {
    String value = text(n, key);
    try {
      return value == null ? null : CacheOutcome.fromWireName(value);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException(
          "request record field \"" + key + "\": " + e.getMessage(), e);
    }
  }

  private static void writeString(JsonGenerator g, String key, String value) throws IOException {
    if (value == null) {
      g.writeNullField(key);
    } else {
      g.writeStringField(key, value);
    }
  }

  private static void writeInt(JsonGenerator g, String key, Integer value) throws IOException {
    if (value == null) {
      g.writeNullField(key);
    } else {
      g.writeNumberField(key, value);
    }
  }

  private static void writeDouble(JsonGenerator g, String key, Double value) throws IOException {
    if (value == null) {
      g.writeNullField(key);
    } else {
      g.writeFieldName(key);
      writeNumber(g, value);
    }
  }

  /**
   * A number as the shortest plain decimal that reads back as it ({@link Decimals#shortest}): times
   * are whole microseconds, so {@code 2.517} or {@code 34}, never {@code 34.0} or {@code
   * 2.5170000000000003}.
   */
  private static void writeNumber(JsonGenerator g, double value) throws IOException {
    g.writeNumber(Decimals.shortest(value));
  }

  private static JsonNode present(JsonNode n, String key) {
    JsonNode v = n.get(key);
    return v == null || v.isNull() ? null : v;
  }

  private static String text(JsonNode n, String key) {
    JsonNode v = present(n, key);
    if (v == null) {
      return null;
    }
    if (!v.isTextual()) {
      throw wrongType(key, "a string", v);
    }
    return v.textValue();
  }

  private static Long longValue(JsonNode n, String key) {
    JsonNode v = present(n, key);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToLong()) {
      throw wrongType(key, "a whole number", v);
    }
    return v.longValue();
  }

  private static Integer intValue(JsonNode n, String key) {
    JsonNode v = present(n, key);
    if (v == null) {
      return null;
    }
    if (!v.isIntegralNumber() || !v.canConvertToInt()) {
      throw wrongType(key, "a whole number (int)", v);
    }
    return v.intValue();
  }

  private static Double doubleValue(JsonNode n, String key) {
    JsonNode v = present(n, key);
    if (v == null) {
      return null;
    }
    if (!v.isNumber()) {
      throw wrongType(key, "a number", v);
    }
    return v.doubleValue();
  }

  private static boolean bool(JsonNode n, String key) {
    JsonNode v = present(n, key);
    if (v == null) {
      return false;
    }
    if (!v.isBoolean()) {
      throw wrongType(key, "true or false", v);
    }
    return v.booleanValue();
  }

  private static List<Double> doubles(JsonNode n, String key) {
    JsonNode v = present(n, key);
    if (v == null) {
      return null;
    }
    if (!v.isArray()) {
      throw wrongType(key, "an array of numbers", v);
    }
    List<Double> out = new ArrayList<>(v.size());
    for (JsonNode e : v) {
      if (!e.isNumber()) {
        throw wrongType(key, "an array of numbers", v);
      }
      out.add(e.doubleValue());
    }
    return out;
  }

  private static IllegalArgumentException wrongType(String key, String expected, JsonNode v) {
    String shown = v.toString();
    if (shown.length() > 60) {
      shown = shown.substring(0, 57) + "...";
    }
    return new IllegalArgumentException(
        "request record field \"" + key + "\" must be " + expected + ", got " + shown);
  }
}
