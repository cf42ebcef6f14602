package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.annotation.JsonSerialize;
import java.io.IOException;
import java.util.List;
import java.util.Map;

/**
 * One working-set sweep of the run record's {@code working_set_sweep} (a list, one per sweep): each
 * step's prefix-cache figures, where the cache stopped holding the working set (the cliff), and
 * what the server's capacity predicts. Written by {@code cache.WorkingSetSweepSummary} from {@code
 * levels.SweepStep}s at the run's end.
 *
 * <p>{@code cliff} is written even when null; {@code capacity_tokens}, {@code capacity_source} and
 * {@code predicted_cliff_groups} (null or not) only when the capacity is known ({@code
 * capacity_tokens} not null); {@code warm_steps} only when some step was warm. Keys this version
 * does not know are kept in {@link #extra} and written after the others.
 *
 * @param name the sweep's name
 * @param steps the steps in sweep order
 * @param firstStepThreshold the share of its reusable prefix tokens the first step must get from
 *     the cache to keep its working set, in [0, 1]
 * @param dropThreshold a later step keeps its working set when it retains at least this share of
 *     the best share before it, in [0, 1]
 * @param cliff the first step that did not keep its working set, or null when every judged step did
 *     (or none could be judged)
 * @param capacityTokens the server's prefix-cache capacity, tokens, or null when unknown
 * @param capacitySource where the capacity comes from, or null
 * @param predictedCliffGroups capacity / mean prefix tokens, to 2 decimals, or null
 * @param warmSteps the groups of the steps that got more from the cache than an unbounded cache
 *     filled by this run could give, or null when none
 * @param summary the sweep in one sentence
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonSerialize(using = WorkingSetSweep.Writer.class)
public record WorkingSetSweep(
    String name,
    List<Step> steps,
    Double firstStepThreshold,
    Double dropThreshold,
    Cliff cliff,
    Long capacityTokens,
    String capacitySource,
    Double predictedCliffGroups,
    List<Integer> warmSteps,
    String summary,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** Normalises {@code extra} to an ordered map. */
  public WorkingSetSweep {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * One step of the sweep, every field written (null when not known).
   *
   * @param groups the step's prefix groups
   * @param workload its workload's name
   * @param caseId its case id
   * @param requests the step's measured requests
   * @param ok those that succeeded
   * @param prefixTokens the mean prefix of its groups, tokens, or null when none was seen
   * @param workingSetTokens the sum of its groups' prefixes, tokens, or null
   * @param promptTokens prompt tokens over its requests with usage
   * @param cachedTokens cached tokens the server reported over those
   * @param reusableTokens prompt tokens an unbounded cache would have held (every group prefix but
   *     its first request's)
   * @param hitRatio cached / prompt tokens, to 4 decimals, or null without prompt tokens
   * @param expectedHitRatio reusable / prompt tokens, or null
   * @param retained cached / reusable tokens, or null without reusable tokens
   * @param ttftP50Ms the step's TTFT p50, milliseconds
   * @param ttftP99Ms its TTFT p99
   * @param ttftMeanMs its TTFT mean
   * @param e2eP50Ms its E2E p50
   * @param extra keys of newer versions; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({
    "groups",
    "workload",
    "case_id",
    "requests",
    "ok",
    "prefix_tokens",
    "working_set_tokens",
    "prompt_tokens",
    "cached_tokens",
    "reusable_tokens",
    "hit_ratio",
    "expected_hit_ratio",
    "retained",
    "ttft_p50_ms",
    "ttft_p99_ms",
    "ttft_mean_ms",
    "e2e_p50_ms"
  })
  public record Step(
      Integer groups,
      String workload,
      String caseId,
      Long requests,
      Long ok,
      Long prefixTokens,
      Long workingSetTokens,
      Long promptTokens,
      Long cachedTokens,
      Long reusableTokens,
      Double hitRatio,
      Double expectedHitRatio,
      Double retained,
      Double ttftP50Ms,
      Double ttftP99Ms,
      Double ttftMeanMs,
      Double e2eP50Ms,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public Step {
      extra = KeepsNewerKeys.ordered(extra);
    }
  }

  /**
   * Where the cache stopped holding the working set.
   *
   * @param groups the first step that did not keep its working set
   * @param afterGroups the step before it that did, or null when the first step already did not
   * @param workingSetTokens the two steps' working sets, tokens: the bounds of the cache's room for
   *     prefixes (the first null when {@code afterGroups} is)
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"groups", "after_groups", "working_set_tokens"})
  public record Cliff(Integer groups, Integer afterGroups, List<Long> workingSetTokens) {}

  /** The block's JSON form: the file's key order, and which nulls are written. */
  static final class Writer extends JsonSerializer<WorkingSetSweep> {
    @Override
    public void serialize(WorkingSetSweep w, JsonGenerator g, SerializerProvider p)
        throws IOException {
      g.writeStartObject();
      field(g, p, "name", w.name);
      field(g, p, "steps", w.steps);
      field(g, p, "first_step_threshold", w.firstStepThreshold);
      field(g, p, "drop_threshold", w.dropThreshold);
      field(g, p, "cliff", w.cliff);
      if (w.capacityTokens != null) {
        field(g, p, "capacity_tokens", w.capacityTokens);
        field(g, p, "capacity_source", w.capacitySource);
        field(g, p, "predicted_cliff_groups", w.predictedCliffGroups);
      }
      if (w.warmSteps != null) {
        field(g, p, "warm_steps", w.warmSteps);
      }
      field(g, p, "summary", w.summary);
      for (Map.Entry<String, Object> e : w.extra.entrySet()) {
        field(g, p, e.getKey(), e.getValue());
      }
      g.writeEndObject();
    }

    private static void field(JsonGenerator g, SerializerProvider p, String name, Object value)
        throws IOException {
      g.writeFieldName(name);
      p.defaultSerializeValue(value, g);
    }
  }
}
