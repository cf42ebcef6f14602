package io.github.gatlingllm.levels;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.metrics.GroupSummary;
import java.util.Arrays;
import java.util.Collections;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * One entry of {@code llm-run.json}'s {@code levels}, typed both ways: written by {@link
 * LevelResult#entry}, read back from a file's map by {@link #of(Map)} (through {@code
 * report.RunRecordJson.read}). The keys, in the file's order: {@code index}, {@code scenario},
 * {@code kind}, {@code concurrency} (closed) or {@code rate} (open, users/s), {@code start_ms},
 * {@code end_ms}, {@code duration_s}, {@code measured_from_ms}, {@code measured_to_ms} and {@code
 * cut_short} (each only when set), then the level's {@link GroupSummary.Json} fields in their
 * order, then {@code input_tokens_per_s}, {@code scenario_index}, {@code offered_requests_per_s},
 * {@code completed_requests}, then the window's extra fields (the client's {@code schedule_lag_ms},
 * {@code client_cpu}...) in the order given. Definitions: {@link LevelResult}.
 *
 * @param index the level's place in the run, from 0
 * @param scenario its scenario
 * @param kind {@code closed} or {@code open}
 * @param concurrency users (closed), else null (absent)
 * @param rate users/s (open), else null (absent)
 * @param startMs the level's start, epoch ms
 * @param endMs its end, epoch ms
 * @param durationS its measured length, s
 * @param measuredFromMs when a warmup took its start: when its measured time starts, else null
 * @param measuredToMs when the run stopped in it: when it ends, else null
 * @param cutShort true when the run stopped in it, else null (absent)
 * @param summary its measured requests, with the rates per second of the level (served)
 * @param inputTokensPerS prompt tokens prefilled a second (served); null (absent) in older files
 * @param scenarioIndex its place among its scenario's levels; null (absent) in older files
 * @param offeredRequestsPerS requests started a second; null (absent) in older files
 * @param completedRequests successful requests completed in it; null (absent) in older files
 * @param extra the window's extra fields in their order, never null (empty for none)
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "index",
  "scenario",
  "kind",
  "concurrency",
  "rate",
  "start_ms",
  "end_ms",
  "duration_s",
  "measured_from_ms",
  "measured_to_ms",
  "cut_short",
  "summary",
  "input_tokens_per_s",
  "scenario_index",
  "offered_requests_per_s",
  "completed_requests"
})
public record LevelEntry(
    Integer index,
    String scenario,
    String kind,
    @JsonInclude(JsonInclude.Include.NON_NULL) Number concurrency,
    @JsonInclude(JsonInclude.Include.NON_NULL) Number rate,
    Long startMs,
    Long endMs,
    Double durationS,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long measuredFromMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long measuredToMs,
    @JsonInclude(JsonInclude.Include.NON_NULL) Boolean cutShort,
    @JsonUnwrapped GroupSummary.Json summary,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double inputTokensPerS,
    @JsonInclude(JsonInclude.Include.NON_NULL) Integer scenarioIndex,
    @JsonInclude(JsonInclude.Include.NON_NULL) Double offeredRequestsPerS,
    @JsonInclude(JsonInclude.Include.NON_NULL) Long completedRequests,
    @JsonIgnore Map<String, Object> extra) {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final List<String> OWN =
      List.of(
          "index",
          "scenario",
          "kind",
          "concurrency",
          "rate",
          "start_ms",
          "end_ms",
          "duration_s",
          "measured_from_ms",
          "measured_to_ms",
          "cut_short",
          "input_tokens_per_s",
          "scenario_index",
          "offered_requests_per_s",
          "completed_requests");
  private static final Set<String> KNOWN = known();

  /** Keeps the extra fields' order, unmodifiable. */
  public LevelEntry {
    extra = extra == null ? Map.of() : Collections.unmodifiableMap(new LinkedHashMap<>(extra));
  }

  /**
   * The window's extra fields, written after the level's own.
   *
   * @return the fields in their order, never null
   */
  @JsonAnyGetter
  public Map<String, Object> extraFields() {
    return extra;
  }

  /**
   * The level's load: {@code rate} when open, else {@code concurrency}.
   *
   * @return users/s or users, or null when the entry has neither
   */
  @JsonIgnore
  public Double load() {
    Number v = rate != null ? rate : concurrency;
    return v == null ? null : v.doubleValue();
  }

  /**
   * An entry read from a file's map: its own keys, the level's summary from the keys of {@link
   * GroupSummary.Json}, every other key an extra field in the file's order.
   *
   * @param m the entry as Jackson read it, never null
   * @return the entry
   * @throws IllegalArgumentException if a value does not read as its field's type
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static LevelEntry of(Map<String, Object> m) {
    Map<String, Object> extra = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : m.entrySet()) {
      if (!KNOWN.contains(e.getKey())) {
        extra.put(e.getKey(), e.getValue());
      }
    }
    return new LevelEntry(
        get(m, "index", Integer.class),
        get(m, "scenario", String.class),
        get(m, "kind", String.class),
        get(m, "concurrency", Number.class),
        get(m, "rate", Number.class),
        get(m, "start_ms", Long.class),
        get(m, "end_ms", Long.class),
        get(m, "duration_s", Double.class),
        get(m, "measured_from_ms", Long.class),
        get(m, "measured_to_ms", Long.class),
        get(m, "cut_short", Boolean.class),
        JSON.convertValue(m, GroupSummary.Json.class),
        get(m, "input_tokens_per_s", Double.class),
        get(m, "scenario_index", Integer.class),
        get(m, "offered_requests_per_s", Double.class),
        get(m, "completed_requests", Long.class),
        extra);
  }

  private static <T> T get(Map<String, Object> m, String key, Class<T> type) {
    Object v = m.get(key);
    return v == null ? null : JSON.convertValue(v, type);
  }

  private static Set<String> known() {
    Set<String> s = new HashSet<>(OWN);
    s.addAll(Arrays.asList(GroupSummary.Json.class.getAnnotation(JsonPropertyOrder.class).value()));
    return Set.copyOf(s);
  }
}
