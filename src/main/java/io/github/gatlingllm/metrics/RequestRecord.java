package io.github.gatlingllm.metrics;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.StringWriter;
import java.io.UncheckedIOException;
import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One request of a run: one line of {@code llm-requests.jsonl}.
 *
 * <p>JSON keys, in this order (snake_case; null written as {@code null}): {@code request, phase,
 * index, prompt_id, digest, prefix_group, shared_prefix_tokens, planned_tokens, start_ms,
 * prompt_tokens, prompt_tokens_exact, cached_tokens, completion_tokens, completion_tokens_exact,
 * ttft_ms, time_to_first_event_ms, itl_ms, tpot_ms, e2e_ms, output_tokens_per_s, finish_reason,
 * http_status, status, error}; {@code itl_ms} only when asked for. Times are milliseconds; null
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
    String error) {

  private static final ObjectMapper MAPPER = new ObjectMapper();
  private static final JsonFactory FACTORY = MAPPER.getFactory();

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
    if (itlMs != null) {
      itlMs = List.copyOf(itlMs);
      for (Double v : itlMs) {
        time("itl_ms", v);
      }
    }
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
    return new RequestRecord(
        id.request(),
        id.phase(),
        id.index(),
        id.promptId(),
        id.digest(),
        id.prefixGroup(),
        id.sharedPrefixTokens(),
        id.plannedTokens(),
        timings.startMs(),
        timings.promptTokens(),
        timings.promptTokensExact(),
        timings.cachedTokens(),
        timings.completionTokens(),
        timings.completionTokensExact(),
        timings.ttftMs(),
        timings.timeToFirstEventMs(),
        timings.itlMs(),
        timings.tpotMs(),
        timings.e2eMs(),
        timings.outputTokensPerS(),
        timings.finishReason(),
        httpStatus,
        status,
        ErrorText.forRecord(error));
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
   * This record as one line of JSON (no line break).
   *
   * @param includeItl whether to write {@code itl_ms}
   * @return the JSON object text
   */
  public String toJson(boolean includeItl) {
    StringWriter out = new StringWriter(256);
    try (JsonGenerator g = FACTORY.createGenerator(out)) {
      write(g, includeItl);
    } catch (IOException e) {
      throw new UncheckedIOException("writing a request record in memory failed", e);
    }
    return out.toString();
  }

  /**
   * Writes this record as the next value of a generator.
   *
   * @param g the generator, never null; not flushed or closed here
   * @param includeItl whether to write {@code itl_ms}
   * @throws IOException if the generator's target fails
   */
  public void write(JsonGenerator g, boolean includeItl) throws IOException {
    g.writeStartObject();
    g.writeStringField("request", request);
    writeString(g, "phase", phase);
    g.writeFieldName("index");
    if (index == null) {
      g.writeNull();
    } else {
      g.writeNumber(index);
    }
    writeString(g, "prompt_id", promptId);
    writeString(g, "digest", digest);
    writeInt(g, "prefix_group", prefixGroup);
    writeInt(g, "shared_prefix_tokens", sharedPrefixTokens);
    writeInt(g, "planned_tokens", plannedTokens);
    g.writeNumberField("start_ms", startMs);
    writeInt(g, "prompt_tokens", promptTokens);
    g.writeBooleanField("prompt_tokens_exact", promptTokensExact);
    writeInt(g, "cached_tokens", cachedTokens);
    writeInt(g, "completion_tokens", completionTokens);
    g.writeBooleanField("completion_tokens_exact", completionTokensExact);
    writeDouble(g, "ttft_ms", ttftMs);
    writeDouble(g, "time_to_first_event_ms", timeToFirstEventMs);
    if (includeItl) {
      g.writeFieldName("itl_ms");
      if (itlMs == null) {
        g.writeNull();
      } else {
        g.writeStartArray();
        for (Double v : itlMs) {
          writeNumber(g, v);
        }
        g.writeEndArray();
      }
    }
    writeDouble(g, "tpot_ms", tpotMs);
    writeDouble(g, "e2e_ms", e2eMs);
    writeDouble(g, "output_tokens_per_s", outputTokensPerS);
    writeString(g, "finish_reason", finishReason);
    writeInt(g, "http_status", httpStatus);
    g.writeStringField("status", status.wireName());
    writeString(g, "error", error);
    g.writeEndObject();
  }

  /**
   * Reads one line written by {@link #toJson(boolean)}. Unknown keys are ignored; missing optional
   * keys read as null (or false for the exact flags).
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
    return new RequestRecord(
        request,
        text(n, "phase"),
        longValue(n, "index"),
        text(n, "prompt_id"),
        text(n, "digest"),
        intValue(n, "prefix_group"),
        intValue(n, "shared_prefix_tokens"),
        intValue(n, "planned_tokens"),
        start.longValue(),
        intValue(n, "prompt_tokens"),
        bool(n, "prompt_tokens_exact"),
        intValue(n, "cached_tokens"),
        intValue(n, "completion_tokens"),
        bool(n, "completion_tokens_exact"),
        doubleValue(n, "ttft_ms"),
        doubleValue(n, "time_to_first_event_ms"),
        doubles(n, "itl_ms"),
        doubleValue(n, "tpot_ms"),
        doubleValue(n, "e2e_ms"),
        doubleValue(n, "output_tokens_per_s"),
        text(n, "finish_reason"),
        intValue(n, "http_status"),
        RequestStatus.fromWireName(status),
        text(n, "error"));
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
   * A whole number of milliseconds (Gatling's stamps are whole) as an integer ({@code 34}, not
   * {@code 34.0}): shorter lines, and no floating-point formatting per inter-token latency.
   */
  private static void writeNumber(JsonGenerator g, double value) throws IOException {
    if (value == Math.rint(value) && Math.abs(value) < 1e15) {
      g.writeNumber((long) value);
    } else {
      g.writeNumber(value);
    }
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
