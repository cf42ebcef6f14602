package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAlias;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * One scenario's saturation verdict over its load levels: an entry of {@code llm-run.json}'s {@code
 * saturations} (one per stepped scenario), and, with {@link Run}, the run's {@code saturation}.
 * Written by {@code levels.Saturation#toRecord}; definitions there.
 *
 * <p>The keys in the file's order: {@code scenario}, {@code metric}, {@code levels}, {@code
 * saturation_level}, {@code saturation_scenario_level}, {@code saturation_concurrency} (closed) or
 * {@code saturation_rate} (open), {@code saturation_requests_per_s}, {@code
 * saturation_output_tokens_per_s}, {@code max_output_tokens_per_s}, {@code max_level}, {@code
 * max_concurrency} or {@code max_rate}, {@code still_growing}, {@code stopped_early}, {@code
 * stop_reason}, written even when null; with an SLO ({@code slo_ratio} set) {@code slo_ratio},
 * {@code slo_load}, {@code slo_level_below}, {@code slo_level_above}, {@code
 * slo_met_at_every_level}; then {@code saturated}, {@code over_capacity_level}, {@code
 * over_capacity}, {@code throughput_still_growing}, {@code verdict_text}, written even when null;
 * then, each only when set (older files lack them), {@code rule}, {@code ttft_growth}, {@code
 * throughput_gain}, {@code min_scaling} and {@code scaling}; then {@code shared_server} when set;
 * then keys of newer versions in the file's order.
 *
 * @param scenario the scenario
 * @param metric {@code concurrency} (closed loop) or {@code rate} (open loop)
 * @param levels how many levels the verdict judged
 * @param saturationLevel the verdict's level (index over the run), or null when no saturation was
 *     seen
 * @param saturationScenarioLevel its index among its scenario's levels, or null
 * @param saturationLoad its load (users or users/s), or null
 * @param saturationRequestsPerS its requests/s, or null
 * @param saturationOutputTokensPerS its output tokens/s, or null
 * @param maxOutputTokensPerS the highest output tokens/s of a level
 * @param maxLevel the level of that peak
 * @param maxLoad its load (users or users/s)
 * @param stillGrowing no saturation seen
 * @param stoppedEarly whether the run stopped at an over-saturated level
 * @param stopReason why, or null
 * @param sloRatio the attainment a level needs to meet the SLO, or null (the SLO keys absent)
 * @param sloLoad the interpolated highest load meeting the SLO, or null
 * @param sloLevelBelow the last level meeting the SLO before the first missing it, or null
 * @param sloLevelAbove the first level missing it, or null
 * @param sloMetAtEveryLevel whether every level met it
 * @param saturated the verdict: whether some level was over capacity
 * @param overCapacityLevel the first level over capacity, or null
 * @param overCapacity why, in words, or null
 * @param throughputStillGrowing whether the highest level's output tokens/s still grew
 * @param verdictText the verdict in a sentence; null in older files
 * @param rule {@code closed_loop_scaling} or {@code open_loop_shortfall}; null (absent) in older
 *     files
 * @param ttftGrowth {@code llm.saturation.ttftGrowth}, or null (absent)
 * @param throughputGain {@code llm.saturation.throughputGain}, or null (absent)
 * @param minScaling {@code llm.saturation.minScaling} (closed loops), or null (absent)
 * @param scaling one row per level with more users than the level below it (closed loops), or null
 *     (absent)
 * @param sharedServer the sentence saying several stepped scenarios shared the server, or null
 *     (absent)
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonSerialize(using = SaturationBlock.Writer.class)
@JsonPropertyOrder({
  "scenario",
  "metric",
  "levels",
  "saturation_level",
  "saturation_scenario_level",
  SaturationBlock.SATURATION_CONCURRENCY,
  SaturationBlock.SATURATION_RATE,
  "saturation_requests_per_s",
  "saturation_output_tokens_per_s",
  "max_output_tokens_per_s",
  "max_level",
  SaturationBlock.MAX_CONCURRENCY,
  SaturationBlock.MAX_RATE,
  "still_growing",
  "stopped_early",
  "stop_reason",
  "slo_ratio",
  "slo_load",
  "slo_level_below",
  "slo_level_above",
  "slo_met_at_every_level",
  "saturated",
  "over_capacity_level",
  "over_capacity",
  "throughput_still_growing",
  "verdict_text",
  "rule",
  "ttft_growth",
  "throughput_gain",
  "min_scaling",
  "scaling",
  "shared_server"
})
public record SaturationBlock(
    String scenario,
    String metric,
    Integer levels,
    Integer saturationLevel,
    Integer saturationScenarioLevel,
    @JsonProperty(SATURATION_CONCURRENCY) @JsonAlias(SATURATION_RATE) Number saturationLoad,
    Double saturationRequestsPerS,
    Double saturationOutputTokensPerS,
    Double maxOutputTokensPerS,
    Integer maxLevel,
    @JsonProperty(MAX_CONCURRENCY) @JsonAlias(MAX_RATE) Number maxLoad,
    Boolean stillGrowing,
    Boolean stoppedEarly,
    String stopReason,
    Double sloRatio,
    Double sloLoad,
    Integer sloLevelBelow,
    Integer sloLevelAbove,
    Boolean sloMetAtEveryLevel,
    Boolean saturated,
    Integer overCapacityLevel,
    String overCapacity,
    Boolean throughputStillGrowing,
    String verdictText,
    String rule,
    Double ttftGrowth,
    Double throughputGain,
    Double minScaling,
    List<ScalingRow> scaling,
    String sharedServer,
    @JsonIgnore Map<String, Object> extra) {

  /** The key of {@link #saturationLoad()} in a closed loop. */
  static final String SATURATION_CONCURRENCY = "saturation_concurrency";

  /** The key of {@link #saturationLoad()} in an open loop. */
  static final String SATURATION_RATE = "saturation_rate";

  /** The key of {@link #maxLoad()} in a closed loop. */
  static final String MAX_CONCURRENCY = "max_concurrency";

  /** The key of {@link #maxLoad()} in an open loop. */
  static final String MAX_RATE = "max_rate";

  /** The run's verdict's key, {@link Run}. */
  static final String SATURATION_KEY = "saturation";

  /** The key of every stepped scenario's verdict. */
  static final String SATURATIONS_KEY = "saturations";

  /** The metric of an open loop. */
  public static final String RATE = "rate";

  /** Keeps the keys of newer versions in their order, unmodifiable. */
  public SaturationBlock {
    extra = NewerKeys.copy(extra);
  }

  /**
   * Read from the file: the keys of newer versions kept in their order.
   *
   * @param m the block as Jackson read it
   * @return the verdict
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static SaturationBlock of(Map<String, Object> m) {
    SaturationBlock own = NewerKeys.read(m, SaturationBlock.class);
    return own.with(own.sharedServer, NewerKeys.of(m, SaturationBlock.class));
  }

  /**
   * The record's keys of the run's saturation, in the file's order: {@code saturation}, then {@code
   * saturations}.
   *
   * @param run the run's verdict, never null
   * @param scenarios every stepped scenario's verdict, in the order judged, never null
   * @return a new ordered map of the typed values, Jackson-ready
   */
  public static Map<String, Object> fields(Run run, List<SaturationBlock> scenarios) {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put(SATURATION_KEY, run);
    out.put(SATURATIONS_KEY, List.copyOf(scenarios));
    return out;
  }

  /**
   * Whether the loads are arrival rates (open loop).
   *
   * @return true when {@link #metric()} is {@value #RATE}
   */
  public boolean open() {
    return RATE.equals(metric);
  }

  /**
   * The same verdict with the sentence saying several stepped scenarios shared the server.
   *
   * @param sentence the sentence, or null for none
   * @return the verdict
   */
  public SaturationBlock withSharedServer(String sentence) {
    return with(sentence, extra);
  }

  private SaturationBlock with(String sharedServer, Map<String, Object> extra) {
    return new SaturationBlock(
        scenario,
        metric,
        levels,
        saturationLevel,
        saturationScenarioLevel,
        saturationLoad,
        saturationRequestsPerS,
        saturationOutputTokensPerS,
        maxOutputTokensPerS,
        maxLevel,
        maxLoad,
        stillGrowing,
        stoppedEarly,
        stopReason,
        sloRatio,
        sloLoad,
        sloLevelBelow,
        sloLevelAbove,
        sloMetAtEveryLevel,
        saturated,
        overCapacityLevel,
        overCapacity,
        throughputStillGrowing,
        verdictText,
        rule,
        ttftGrowth,
        throughputGain,
        minScaling,
        scaling,
        sharedServer,
        extra);
  }

  /**
   * One row of a closed loop's {@code scaling}: a level against the level below it, every field
   * written (null when not known). Definitions: {@code levels.Scaling}.
   *
   * @param level the level (index over the run)
   * @param levelBelow the level below it
   * @param usersFactor its users over the level below's
   * @param outputTokensPerSFactor its output tokens/s over the level below's, or null when that one
   *     served nothing
   * @param scaling (x - 1) / (u - 1), or null
   * @param ttftP50Factor its TTFT p50 over the level below's, or null
   * @param e2eP50Factor its E2E p50 over the level below's, or null
   * @param latencyGrew whether TTFT or E2E p50 grew by {@code llm.saturation.ttftGrowth}
   * @param throughputShort whether the output tokens/s fell short by the rule
   * @param overCapacity whether the level is over capacity (both)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({
    "level",
    "level_below",
    "users_factor",
    "output_tokens_per_s_factor",
    "scaling",
    "ttft_p50_factor",
    "e2e_p50_factor",
    "latency_grew",
    "throughput_short",
    "over_capacity"
  })
  public record ScalingRow(
      int level,
      int levelBelow,
      double usersFactor,
      @JsonProperty("output_tokens_per_s_factor") Double outputTokensPerSFactor,
      Double scaling,
      Double ttftP50Factor,
      Double e2eP50Factor,
      boolean latencyGrew,
      boolean throughputShort,
      boolean overCapacity) {}

  /**
   * The run's {@code saturation}: the verdict of the run's stepped scenario (the first one judged),
   * with {@code over_saturation} (written even when null) before {@code shared_server}.
   *
   * @param verdict the scenario's verdict, never null
   * @param overSaturation the over-saturation the run saw while it ran ({@code
   *     llm.stopWhenSaturated}'s check), or null
   */
  @JsonSerialize(using = RunWriter.class)
  public record Run(SaturationBlock verdict, String overSaturation) {

    /** The key of {@link #overSaturation()}. */
    static final String OVER_SATURATION = "over_saturation";

    /**
     * Checks the verdict.
     *
     * @throws IllegalArgumentException naming {@code verdict} when it is null
     */
    public Run {
      if (verdict == null) {
        throw new IllegalArgumentException("verdict is null: the run's saturation has one");
      }
    }

    /**
     * The run's saturation read from the file: {@code over_saturation} is taken out of the keys the
     * scenario's verdict does not know.
     *
     * @param read the block read as a scenario's verdict
     * @return the run's saturation
     */
    @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
    public static Run of(SaturationBlock read) {
      Map<String, Object> extra = new LinkedHashMap<>(read.extra());
      Object over = extra.remove(OVER_SATURATION);
      return new Run(read.with(read.sharedServer, extra), over == null ? null : over.toString());
    }
  }

  /** A verdict's JSON form: the file's key order, and which nulls are written. */
  static final class Writer extends JsonSerializer<SaturationBlock> {
    @Override
    public void serialize(SaturationBlock s, JsonGenerator g, SerializerProvider p)
        throws IOException {
      g.writeStartObject();
      own(s, g, p);
      tail(s, g, p);
      g.writeEndObject();
    }

    /** Every key but {@code shared_server} and the keys of newer versions. */
    static void own(SaturationBlock s, JsonGenerator g, SerializerProvider p) throws IOException {
      boolean open = s.open();
      field(g, p, "scenario", s.scenario, true);
      field(g, p, "metric", s.metric, true);
      field(g, p, "levels", s.levels, true);
      field(g, p, "saturation_level", s.saturationLevel, true);
      field(g, p, "saturation_scenario_level", s.saturationScenarioLevel, true);
      field(g, p, open ? SATURATION_RATE : SATURATION_CONCURRENCY, s.saturationLoad, true);
      field(g, p, "saturation_requests_per_s", s.saturationRequestsPerS, true);
      field(g, p, "saturation_output_tokens_per_s", s.saturationOutputTokensPerS, true);
      field(g, p, "max_output_tokens_per_s", s.maxOutputTokensPerS, true);
      field(g, p, "max_level", s.maxLevel, true);
      field(g, p, open ? MAX_RATE : MAX_CONCURRENCY, s.maxLoad, true);
      field(g, p, "still_growing", s.stillGrowing, true);
      field(g, p, "stopped_early", s.stoppedEarly, true);
      field(g, p, "stop_reason", s.stopReason, true);
      if (s.sloRatio != null) {
        field(g, p, "slo_ratio", s.sloRatio, true);
        field(g, p, "slo_load", s.sloLoad, true);
        field(g, p, "slo_level_below", s.sloLevelBelow, true);
        field(g, p, "slo_level_above", s.sloLevelAbove, true);
        field(g, p, "slo_met_at_every_level", s.sloMetAtEveryLevel, true);
      }
      field(g, p, "saturated", s.saturated, true);
      field(g, p, "over_capacity_level", s.overCapacityLevel, true);
      field(g, p, "over_capacity", s.overCapacity, true);
      field(g, p, "throughput_still_growing", s.throughputStillGrowing, true);
      field(g, p, "verdict_text", s.verdictText, true);
      field(g, p, "rule", s.rule, false);
      field(g, p, "ttft_growth", s.ttftGrowth, false);
      field(g, p, "throughput_gain", s.throughputGain, false);
      field(g, p, "min_scaling", s.minScaling, false);
      field(g, p, "scaling", s.scaling, false);
    }

    /** {@code shared_server} when set, then the keys of newer versions. */
    static void tail(SaturationBlock s, JsonGenerator g, SerializerProvider p) throws IOException {
      field(g, p, "shared_server", s.sharedServer, false);
      for (Map.Entry<String, Object> e : s.extra.entrySet()) {
        field(g, p, e.getKey(), e.getValue(), true);
      }
    }

    static void field(
        JsonGenerator g, SerializerProvider p, String name, Object value, boolean nullWritten)
        throws IOException {
      if (value != null || nullWritten) {
        g.writeFieldName(name);
        p.defaultSerializeValue(value, g);
      }
    }
  }

  /** The run's saturation's JSON form: its verdict, {@code over_saturation}, then the rest. */
  static final class RunWriter extends JsonSerializer<Run> {
    @Override
    public void serialize(Run r, JsonGenerator g, SerializerProvider p) throws IOException {
      g.writeStartObject();
      Writer.own(r.verdict, g, p);
      Writer.field(g, p, Run.OVER_SATURATION, r.overSaturation, true);
      Writer.tail(r.verdict, g, p);
      g.writeEndObject();
    }
  }
}
