package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.stats.Distribution;
import java.util.Map;

/**
 * One entry of {@code llm-run.json}'s {@code levels} (see {@link Levels}), written by {@code
 * levels.LevelResult#entry} and read back by Jackson. The keys, in the file's order: {@code index},
 * {@code scenario}, {@code kind}, {@code concurrency} (closed) or {@code rate} (open, users/s),
 * {@code start_ms}, {@code end_ms}, {@code duration_s}, {@code measured_from_ms}, {@code
 * measured_to_ms} and {@code cut_short} (each only when set), then the level's {@link
 * GroupSummary.Json} fields in their order, then {@code input_tokens_per_s}, {@code
 * scenario_index}, {@code offered_requests_per_s}, {@code completed_requests} (each only when set),
 * then the client's figures over the level ({@link Client}: {@code schedule_lag_ms}, {@code
 * client_cpu}), then keys of newer versions in the file's order. Definitions: {@code
 * levels.LevelResult}.
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
 * @param client the client's figures over the level's window, or null (both keys absent) when the
 *     run had no client watch
 * @param extra keys of newer versions, in the file's order; never null (empty for none)
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
  "completed_requests",
  "client"
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
    @JsonUnwrapped Client client,
    @JsonIgnore Map<String, Object> extra) {

  /** Keeps the extra fields' order, unmodifiable. */
  public LevelEntry {
    extra = NewerKeys.copy(extra);
  }

  /**
   * The client's figures over a level's window ({@code protocol.ClientWatch#forWindow}).
   *
   * @param scheduleLagMs the lags of the open-loop first requests sent in the window, milliseconds;
   *     null (absent) when none was sent in it, as in a closed loop
   * @param clientCpu the client JVM's CPU share over the window, in [0, 1] to 4 decimals; null
   *     (written) when the samples do not cover it
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"schedule_lag_ms", "client_cpu"})
  public record Client(
      @JsonInclude(JsonInclude.Include.NON_NULL) Distribution scheduleLagMs,
      @JsonInclude(JsonInclude.Include.ALWAYS) Double clientCpu) {

    /** The key of {@link #clientCpu()}, written whenever the level has the client's figures. */
    static final String CLIENT_CPU = "client_cpu";
  }

  /**
   * The keys of newer versions, written after the level's own.
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
   * An entry read from a file's object: its own fields (the summary and the client's figures
   * unwrapped) read by Jackson, every key this version does not know kept in {@link #extra} in the
   * file's order. (Jackson cannot fill unwrapped creator fields and unknown keys in one pass.)
   *
   * @param m the entry as Jackson read it, never null
   * @return the entry
   * @throws IllegalArgumentException if a value does not read as its field's type
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static LevelEntry of(Map<String, Object> m) {
    LevelEntry own = NewerKeys.read(m, LevelEntry.class);
    Client client = own.client;
    if (client != null && client.scheduleLagMs() == null && !m.containsKey(Client.CLIENT_CPU)) {
      client = null; // Jackson makes an empty unwrapped value of absent keys
    }
    return new LevelEntry(
        own.index,
        own.scenario,
        own.kind,
        own.concurrency,
        own.rate,
        own.startMs,
        own.endMs,
        own.durationS,
        own.measuredFromMs,
        own.measuredToMs,
        own.cutShort,
        own.summary,
        own.inputTokensPerS,
        own.scenarioIndex,
        own.offeredRequestsPerS,
        own.completedRequests,
        client,
        NewerKeys.of(m, LevelEntry.class, GroupSummary.Json.class, Client.class));
  }
}
