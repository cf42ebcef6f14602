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
 * The test oracle of a line of {@code llm-requests.jsonl}: a record written by Jackson's generator
 * and read through Jackson's tree of nodes, each field by hand, exactly as gatling-llm wrote and
 * read lines before {@link RecordFields} (the code moved here unchanged from {@code
 * RequestRecordJson}). {@link RequestLineWriter} must write what {@link #toJsonWithJackson} writes,
 * {@link RequestRecordReader} must read what {@link #fromJson} reads and refuse what it refuses
 * with the same message, and {@link RequestsFile.Csv} must write the CSV that {@link #write} gives
 * Jackson's CSV generator.
 */
final class JacksonRecordJson {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

  private JacksonRecordJson() {}

  /**
   * A record as one line of JSON written by Jackson's generator ({@link #write(JsonGenerator,
   * RequestRecord, boolean)}).
   *
   * @param record the record, never null
   * @param includeItl whether to write {@code itl_ms}
   * @return the JSON object text
   * @throws NullPointerException if {@code record} is null
   */
  static String toJsonWithJackson(RequestRecord record, boolean includeItl) {
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
  static void write(JsonGenerator g, RequestRecord record, boolean includeItl) throws IOException {
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
    if (r.sessionId() != null) {
      g.writeStringField("session_id", r.sessionId());
    }
    if (r.toolCalls() != null) {
      g.writeNumberField("tool_calls", r.toolCalls());
    }
    if (r.images() != null) {
      g.writeNumberField("images", r.images());
    }
    if (r.imageBytes() != null) {
      g.writeNumberField("image_bytes", r.imageBytes());
    }
    if (r.requestBytes() != null) {
      g.writeNumberField("request_bytes", r.requestBytes());
    }
    if (r.uploadMs() != null) {
      writeDouble(g, "upload_ms", r.uploadMs());
    }
    g.writeEndObject();
  }

  /**
   * Reads one line through a tree of nodes. Unknown keys are ignored; missing optional keys read as
   * null (or false for the exact flags).
   *
   * @param json one JSON object
   * @return the record
   * @throws IllegalArgumentException if the text is not a JSON object, {@code request}, {@code
   *     start_ms} or {@code status} is missing, or a value has the wrong type; the message names
   *     the key
   */
  static RequestRecord fromJson(String json) {
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
        .sessionId(text(n, "session_id"))
        .toolCalls(intValue(n, "tool_calls"))
        .images(intValue(n, "images"))
        .imageBytes(longValue(n, "image_bytes"))
        .requestBytes(longValue(n, "request_bytes"))
        .uploadMs(doubleValue(n, "upload_ms"))
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
