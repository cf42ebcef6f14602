package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnyGetter;
import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnore;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonUnwrapped;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.stats.Distribution;
import java.util.List;
import java.util.Map;

/**
 * {@code llm-run.json}'s {@code cache}: the prefix cache against its plan ({@code
 * cache.CacheAggregator#summary}), written and read by Jackson. Keys in this order: the plan's
 * {@link Parameters} first (what the plan knew of the server: {@code block_tokens}, {@code
 * template_tokens}, {@code template_known}, {@code exact_counts}), then {@code tolerance}, {@code
 * requests}, {@code planned_hit_ratio}, {@code observed_hit_ratio}, {@code outcomes}, {@code
 * as_planned}, {@code warm_start}, {@code warm_start_requests}, {@code warm_start_message} (with a
 * warm start), {@code verdict}, {@code planned_requests}, {@code verdict_reason} (with the verdict
 * {@code unknown}), {@code latency_by_outcome} and {@code workloads}, then keys of newer versions
 * in the file's order. Nulls are written but for the two said. Read back, a missing key reads as
 * null, false or 0.
 *
 * @param parameters what the plan knew of the server, or null (its keys absent) when not recorded
 * @param tolerance the verdict's tolerance, in [0, 1]; null only when read from a record without it
 * @param requests successful measured requests with a cache plan; null only when read from a record
 *     without it
 * @param plannedHitRatio planned cached tokens over prompt tokens, or null
 * @param observedHitRatio cached tokens over prompt tokens, or null when no server reported them
 * @param outcomes every outcome's wire name to its count, in {@code cache.CacheOutcome}'s order
 * @param asPlanned requests whose outcome is the planned one
 * @param warmStart whether any request found prompts of this run already cached
 * @param warmStartRequests how many did
 * @param warmStartMessage the warm-start warning ({@code cache.CacheAggregator#warmStartText}), or
 *     null (absent) without a warm start
 * @param verdict {@code as planned}, {@code above plan}, {@code below plan} or {@code unknown}
 * @param plannedRequests requests of any phase and status with a cache plan; null only when read
 *     from a record without it
 * @param verdictReason why the verdict is {@code unknown}, in words, or null (absent) otherwise
 * @param latencyByOutcome per outcome seen (wire name), TTFT and E2E
 * @param workloads per workload and request name
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonPropertyOrder({
  "parameters",
  "tolerance",
  "requests",
  "planned_hit_ratio",
  "observed_hit_ratio",
  "outcomes",
  "as_planned",
  "warm_start",
  "warm_start_requests",
  "warm_start_message",
  "verdict",
  "planned_requests",
  "verdict_reason",
  "latency_by_outcome",
  "workloads"
})
public record CacheSummary(
    @JsonUnwrapped Parameters parameters,
    Double tolerance,
    Long requests,
    Double plannedHitRatio,
    Double observedHitRatio,
    Map<String, Long> outcomes,
    long asPlanned,
    boolean warmStart,
    long warmStartRequests,
    @JsonInclude(JsonInclude.Include.NON_NULL) String warmStartMessage,
    String verdict,
    Long plannedRequests,
    @JsonInclude(JsonInclude.Include.NON_NULL) String verdictReason,
    Map<String, Latency> latencyByOutcome,
    List<Series> workloads,
    @JsonIgnore Map<String, Object> extra) {

  /** Defaults the collections of a file that lacks them; keeps the extra keys' order. */
  public CacheSummary {
    extra = NewerKeys.copy(extra);
    outcomes = outcomes == null ? Map.of() : outcomes;
    latencyByOutcome = latencyByOutcome == null ? Map.of() : latencyByOutcome;
    workloads = workloads == null ? List.of() : List.copyOf(workloads);
  }

  /**
   * The keys of newer versions, written after the block's own.
   *
   * @return the fields in their order, never null
   */
  @JsonAnyGetter
  public Map<String, Object> extraFields() {
    return extra;
  }

  /**
   * A block read from a file's object: its own fields (the plan's parameters unwrapped) read by
   * Jackson, every key this version does not know kept in {@link #extra} in the file's order.
   * (Jackson cannot fill an unwrapped creator field and unknown keys in one pass.)
   *
   * @param m the block as Jackson read it, never null
   * @return the block; its parameters null when the file has none of their keys
   * @throws IllegalArgumentException if a value does not read as its field's type
   */
  @JsonCreator(mode = JsonCreator.Mode.DELEGATING)
  public static CacheSummary of(Map<String, Object> m) {
    CacheSummary own = NewerKeys.read(m, CacheSummary.class);
    boolean planned = Parameters.KEYS.stream().anyMatch(m::containsKey);
    return new CacheSummary(
        planned ? own.parameters : null,
        own.tolerance,
        own.requests,
        own.plannedHitRatio,
        own.observedHitRatio,
        own.outcomes,
        own.asPlanned,
        own.warmStart,
        own.warmStartRequests,
        own.warmStartMessage,
        own.verdict,
        own.plannedRequests,
        own.verdictReason,
        own.latencyByOutcome,
        own.workloads,
        NewerKeys.of(m, CacheSummary.class, Parameters.class));
  }

  /**
   * What the cache plan knew of the server, every field written (null when not known).
   *
   * @param blockTokens the server's KV-cache block, tokens: a prefix is cached in whole blocks
   * @param templateTokens the tokens the chat template puts before the first message, or null when
   *     not known
   * @param templateKnown whether {@code templateTokens} is known
   * @param exactCounts whether the plan's token counts are exact (the server's own tokenizer)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"block_tokens", "template_tokens", "template_known", "exact_counts"})
  public record Parameters(
      Integer blockTokens, Integer templateTokens, Boolean templateKnown, Boolean exactCounts) {

    /** The parameters' keys, in their order. */
    static final List<String> KEYS =
        List.of(Parameters.class.getAnnotation(JsonPropertyOrder.class).value());
  }

  /**
   * TTFT and E2E of the requests with one cache outcome.
   *
   * @param ttftMs their TTFT, milliseconds
   * @param e2eMs their E2E, milliseconds
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"ttft_ms", "e2e_ms"})
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Latency(Distribution ttftMs, Distribution e2eMs) {}

  /**
   * One workload and request name's figures (a series).
   *
   * @param workload the workload's name, or null (written) for requests without one
   * @param request the request name
   * @param requests successful measured requests with a cache plan
   * @param plannedHitRatio planned ratio, or null
   * @param observedHitRatio observed ratio, or null
   * @param outcomes every outcome's count
   * @param asPlanned requests whose outcome is the planned one
   * @param verdict the series' verdict
   * @param latencyByOutcome per outcome seen, TTFT and E2E
   * @param prefixGroups per prefix group, or null (absent) when the workload has none
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "workload",
    "request",
    "requests",
    "planned_hit_ratio",
    "observed_hit_ratio",
    "outcomes",
    "as_planned",
    "verdict",
    "latency_by_outcome",
    "prefix_groups"
  })
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Series(
      String workload,
      String request,
      long requests,
      Double plannedHitRatio,
      Double observedHitRatio,
      Map<String, Long> outcomes,
      long asPlanned,
      String verdict,
      Map<String, Latency> latencyByOutcome,
      @JsonInclude(JsonInclude.Include.NON_NULL) List<PrefixGroup> prefixGroups) {}

  /**
   * One prefix group of a series.
   *
   * @param group the group's index
   * @param requests successful measured requests of the group
   * @param plannedHitRatio planned ratio, or null
   * @param observedHitRatio observed ratio, or null
   * @param outcomes every outcome's count
   * @param asPlanned requests whose outcome is the planned one
   * @param ttftMs the group's TTFT, milliseconds
   * @param e2eMs the group's E2E, milliseconds
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "group",
    "requests",
    "planned_hit_ratio",
    "observed_hit_ratio",
    "outcomes",
    "as_planned",
    "ttft_ms",
    "e2e_ms"
  })
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record PrefixGroup(
      int group,
      long requests,
      Double plannedHitRatio,
      Double observedHitRatio,
      Map<String, Long> outcomes,
      long asPlanned,
      Distribution ttftMs,
      Distribution e2eMs) {}
}
