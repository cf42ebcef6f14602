package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.List;
import java.util.Map;

/**
 * The run record's {@code capacity}: the answer of a capacity search in one run (issue 44), written
 * by {@code capacity.CapacitySearch#toRecord} at the run's end when the run searched. Keys in this
 * order: {@code kind} ({@code open}: an arrival-rate search, users/s; {@code closed}: a concurrency
 * search, users), {@code scenario}, {@code max_rate} (open) or {@code max_users} (closed): the
 * highest load that met the SLO (null when none did), {@code edge} ({@code at_least}: met at the
 * highest load searched, so the capacity is at least that; {@code below}: missed at the lowest
 * level, so it is below that; null when it lies between two levels), {@code interval} (the last met
 * and the first missed load), {@code hold} (the found load held), {@code finished} (whether the
 * search ran to its end), {@code stopped_by} (the run's {@code end_reason} when it did not), {@code
 * answer} (the console's line), {@code settings}, {@code levels} (every level of the search in
 * order, each with its figures as {@code levels} entries have them). Keys of newer versions are
 * kept in {@link #extra}.
 *
 * @param kind {@code open} or {@code closed}
 * @param scenario the scenario searched
 * @param maxRate users/s that met the SLO (open), null (absent) in a closed search
 * @param maxUsers users that met the SLO (closed), null (absent) in an open search
 * @param edge {@code at_least}, {@code below} or null (written)
 * @param interval the last met and first missed load, never null
 * @param hold the hold, or null (written) when nothing was held
 * @param finished whether the search ran to its end (its hold over, or missed at the lowest level)
 * @param stoppedBy the run's {@code end_reason} when the search did not finish, else null
 * @param answer the console's line
 * @param settings the search's settings
 * @param levels the search's levels, in the order run
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "kind",
  "scenario",
  "max_rate",
  "max_users",
  "edge",
  "interval",
  "hold",
  "finished",
  "stopped_by",
  "answer",
  "settings",
  "levels"
})
public record Capacity(
    String kind,
    String scenario,
    @JsonInclude(JsonInclude.Include.NON_NULL) Number maxRate,
    @JsonInclude(JsonInclude.Include.NON_NULL) Number maxUsers,
    String edge,
    Interval interval,
    Hold hold,
    Boolean finished,
    String stoppedBy,
    String answer,
    Settings settings,
    List<Step> levels,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** The block's key in {@code llm-run.json}. */
  public static final String KEY = "capacity";

  /** Normalises {@code extra} to an ordered map and copies the levels. */
  public Capacity {
    extra = KeepsNewerKeys.ordered(extra);
    levels = levels == null ? null : List.copyOf(levels);
  }

  /**
   * The load found, whichever the kind.
   *
   * @return users/s or users, or null when no level met the SLO
   */
  @com.fasterxml.jackson.annotation.JsonIgnore
  public Double load() {
    Number n = maxRate != null ? maxRate : maxUsers;
    return n == null ? null : n.doubleValue();
  }

  /**
   * Where the capacity lies.
   *
   * @param lastMet the highest load that met the SLO, or null when none did
   * @param firstMissed the lowest load above it that missed it, or null when none did
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"last_met", "first_missed"})
  public record Interval(Number lastMet, Number firstMissed) {}

  /**
   * The found load held for {@code llm.search.holdSeconds}.
   *
   * @param load users/s or users
   * @param startMs its start, epoch ms
   * @param endMs its end, epoch ms
   * @param requests measured requests that started in it
   * @param attainment their SLO attainment, or null when none ended
   * @param attainmentLow the lower end of its 95% Wilson interval, or null
   * @param attainmentHigh the upper end, or null
   * @param held whether the attainment reached {@code llm.slo.levelAttainment}
   * @param firstHalfAttainment the attainment of the requests started in its first half, or null
   * @param secondHalfAttainment of its second half, or null
   * @param drift a sentence when the capacity drifted during the hold (the first half met the SLO,
   *     the second did not), else null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "load",
    "start_ms",
    "end_ms",
    "requests",
    "attainment",
    "attainment_low",
    "attainment_high",
    "held",
    "first_half_attainment",
    "second_half_attainment",
    "drift"
  })
  public record Hold(
      Number load,
      Long startMs,
      Long endMs,
      Long requests,
      Double attainment,
      Double attainmentLow,
      Double attainmentHigh,
      Boolean held,
      Double firstHalfAttainment,
      Double secondHalfAttainment,
      String drift) {}

  /**
   * The search's settings as the run used them.
   *
   * @param max the highest load searched
   * @param coarseLevels the coarse levels up to it
   * @param precision the bisection's end, a share of the load
   * @param holdS the hold's length, s
   * @param warmupS the warm-up's length, s (not judged)
   * @param minRequests ended requests before a level may end early
   * @param minS seconds before a level may end early
   * @param maxS the longest a level runs, s
   * @param margin the widest an SLO percentile's interval may be, a share of its bound
   * @param levelAttainment the least attainment meeting the SLO ({@code llm.slo.levelAttainment})
   * @param interval the attainment's interval: {@code wilson_95}
   * @param capacityAtLeast {@code llm.assert.capacityAtLeast}, or null (written)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "max",
    "coarse_levels",
    "precision",
    "hold_s",
    "warmup_s",
    "min_requests",
    "min_s",
    "max_s",
    "margin",
    "level_attainment",
    "interval",
    "capacity_at_least"
  })
  public record Settings(
      Number max,
      Integer coarseLevels,
      Double precision,
      Integer holdS,
      Integer warmupS,
      Integer minRequests,
      Integer minS,
      Integer maxS,
      Double margin,
      Double levelAttainment,
      String interval,
      Double capacityAtLeast) {}

  /**
   * One level of the search.
   *
   * @param step its place in the search, from 0
   * @param stage {@code warmup} (not judged), {@code coarse}, {@code bisect} or {@code hold}
   * @param load users/s or users
   * @param endedBy why it ended: {@code attainment_above}, {@code attainment_below}, {@code
   *     percentiles_known}, {@code max_duration}, {@code hold_over}, {@code warmup_over} or {@code
   *     run_stopped}
   * @param met whether its attainment (every request that started in it) reached the threshold;
   *     null when it had no request or the run stopped in it
   * @param attainment its SLO attainment, or null
   * @param attainmentLow the lower end of the attainment's 95% Wilson interval, or null
   * @param attainmentHigh its upper end, or null
   * @param drainMs how long the search waited after the level for its requests to end, ms
   * @param level its figures, as a {@code levels} entry
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "step",
    "stage",
    "load",
    "ended_by",
    "met",
    "attainment",
    "attainment_low",
    "attainment_high",
    "drain_ms",
    "level"
  })
  public record Step(
      Integer step,
      String stage,
      Number load,
      String endedBy,
      Boolean met,
      Double attainment,
      Double attainmentLow,
      Double attainmentHigh,
      Long drainMs,
      LevelEntry level) {}
}
