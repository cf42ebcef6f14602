package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The run record's {@code baseline}: this run compared with the run folder named by {@code
 * llm.baseline}, written by {@code protocol.BaselineGate} at the run's end (the comparison's part
 * by {@code compare.RunComparison}, as {@code report --compare --json} writes it).
 *
 * <p>Every field but {@code folder} is left out when absent: {@code no_regression_pct} and {@code
 * rows_logged} only when the gate was set, {@code not_logged} only when the SLO rows were not
 * logged, {@code failed} only when gated, and the comparison's fields only when the baseline could
 * be read. Keys this version does not know are kept in {@link #extra} and written after the others.
 *
 * @param folder the baseline's run folder, as given
 * @param noRegressionPct {@code llm.assert.noRegressionPct}, percent, or null when not gated
 * @param rowsLogged whether the gate's rows reached Gatling's stats, or null when not gated
 * @param notLogged why the gate's rows were not logged, one line, or null
 * @param failed the gated metrics worse than the baseline beyond the gate, or null when not gated
 * @param samePrompts whether both runs sent the same prompts (workloads and phase digests)
 * @param promptDifferences how the prompts differ, one line each; empty when the same
 * @param warnings the comparison's warnings about either run, one line each
 * @param method how the intervals were made, one sentence
 * @param resamples the bootstrap's resamples of each run
 * @param seed the bootstrap's seed
 * @param minEffectPct the smallest change called better or worse, percent
 * @param a the baseline (A): folder and measured requests
 * @param b this run (B): folder and measured requests
 * @param verdict the overall verdict
 * @param metrics each headline metric's row, by name (e.g. {@code ttft_p50_ms}), in the
 *     comparison's order
 * @param levels the rows of each load level present in both runs, or null when none was compared
 * @param quantiles {@code percentiles} (0, 1, ..., 99, 99.9, 100), then each distribution's curves
 *     ({@code ttft_ms}, {@code itl_ms}, {@code tpot_ms}, {@code e2e_ms}: {@code a} the baseline,
 *     {@code b} this run, milliseconds at each percentile)
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "folder",
  "no_regression_pct",
  "rows_logged",
  "not_logged",
  "failed",
  "same_prompts",
  "prompt_differences",
  "warnings",
  "method",
  "resamples",
  "seed",
  "min_effect_pct",
  "a",
  "b",
  "verdict",
  "metrics",
  "levels",
  "quantiles"
})
public record Baseline(
    String folder,
    Double noRegressionPct,
    Boolean rowsLogged,
    String notLogged,
    List<String> failed,
    Boolean samePrompts,
    List<String> promptDifferences,
    List<String> warnings,
    String method,
    Integer resamples,
    Long seed,
    Double minEffectPct,
    Side a,
    Side b,
    Verdict verdict,
    Map<String, Row> metrics,
    List<LevelRows> levels,
    Map<String, Object> quantiles,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** Normalises {@code extra} to an ordered map. */
  public Baseline {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * The block of a run whose baseline was not compared (it could not be read, or the run measured
   * nothing): the folder and the gate's fields.
   *
   * @param folder the baseline's run folder
   * @param noRegressionPct the gate, percent, or null when not gated
   * @param rowsLogged whether the gate's rows were logged, or null when not gated
   * @param notLogged why not, or null
   * @return the block
   */
  public static Baseline of(
      String folder, Double noRegressionPct, Boolean rowsLogged, String notLogged) {
    return new Baseline(
        folder,
        noRegressionPct,
        rowsLogged,
        notLogged,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null,
        null);
  }

  /**
   * This comparison (of the baseline, A, with this run, B) as the run's {@code baseline}: with the
   * baseline's folder, the gate's fields, the prompts checked against the finished record, and the
   * quantile curves.
   *
   * @param folder the baseline's run folder
   * @param noRegressionPct the gate, percent, or null when not gated
   * @param rowsLogged whether the gate's rows were logged, or null when not gated
   * @param notLogged why not, or null
   * @param failed the gated metrics that failed, or null when not gated
   * @param promptDifferences how the prompts differ; empty when the same
   * @param percentiles the curves' percentiles
   * @param curves each distribution's curves: {@code a} and {@code b}, milliseconds
   * @return a new block
   */
  public Baseline against(
      String folder,
      Double noRegressionPct,
      Boolean rowsLogged,
      String notLogged,
      List<String> failed,
      List<String> promptDifferences,
      List<Double> percentiles,
      Map<String, Map<String, List<Double>>> curves) {
    Map<String, Object> q = new LinkedHashMap<>();
    q.put("percentiles", percentiles);
    q.putAll(curves);
    return new Baseline(
        folder,
        noRegressionPct,
        rowsLogged,
        notLogged,
        failed,
        promptDifferences.isEmpty(),
        promptDifferences,
        warnings,
        method,
        resamples,
        seed,
        minEffectPct,
        a,
        b,
        verdict,
        metrics,
        levels,
        q,
        extra);
  }

  /**
   * The percentiles of the quantile curves.
   *
   * @return 0 to 100, or null when the file has none
   */
  public List<Double> percentiles() {
    return quantiles == null ? null : doubles(quantiles.get("percentiles"));
  }

  /**
   * The quantile curves of one distribution, at {@link #percentiles()}.
   *
   * @param name {@code ttft_ms}, {@code itl_ms}, {@code tpot_ms} or {@code e2e_ms}
   * @return the baseline's curve ({@code a}) and this run's ({@code b}), milliseconds; null when
   *     either is missing
   */
  public Curves curves(String name) {
    if (quantiles == null
        || !(quantiles.get(name) instanceof Map<?, ?> m)
        || doubles(m.get("a")) == null
        || doubles(m.get("b")) == null) {
      return null;
    }
    return new Curves(doubles(m.get("a")), doubles(m.get("b")));
  }

  /**
   * The names of the distributions with curves, in the file's order.
   *
   * @return e.g. {@code ttft_ms}; empty when none
   */
  public List<String> curveNames() {
    return quantiles == null
        ? List.of()
        : quantiles.keySet().stream().filter(k -> !"percentiles".equals(k)).toList();
  }

  private static List<Double> doubles(Object list) {
    if (!(list instanceof List<?> l)) {
      return null;
    }
    List<Double> out = new java.util.ArrayList<>(l.size());
    for (Object o : l) {
      out.add(o instanceof Number n ? n.doubleValue() : null);
    }
    return out;
  }

  /**
   * One distribution's two curves.
   *
   * @param a the baseline's values, milliseconds (null where none)
   * @param b this run's
   */
  public record Curves(List<Double> a, List<Double> b) {}

  /**
   * One run of the comparison.
   *
   * @param folder its run folder
   * @param requests its measured requests
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"folder", "requests"})
  public record Side(String folder, Integer requests) {}

  /**
   * The overall verdict.
   *
   * @param overall {@code better}, {@code worse}, {@code mixed}, {@code same} or {@code unclear}
   * @param worse the metrics worse beyond the noise
   * @param better the metrics better beyond the noise
   * @param line the verdict in one line
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"overall", "worse", "better", "line"})
  public record Verdict(String overall, List<String> worse, List<String> better, String line) {}

  /**
   * One metric's row, every field written (null when not known).
   *
   * @param a the baseline's value
   * @param b this run's value
   * @param deltaPct the change, percent of {@code a}
   * @param ci95Pct the change's 95% interval, percent: lower and upper, or null when none
   * @param verdict {@code better}, {@code worse}, {@code same} or {@code unclear}
   * @param noiseFloorPct the runs' noise floor, percent
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({"a", "b", "delta_pct", "ci95_pct", "verdict", "noise_floor_pct"})
  public record Row(
      Double a,
      Double b,
      Double deltaPct,
      List<Double> ci95Pct,
      String verdict,
      Double noiseFloorPct) {}

  /**
   * The rows of one load level present in both runs.
   *
   * @param index the level's index in the run record's {@code levels}, from 0
   * @param level the level described, e.g. {@code 4 users}
   * @param metrics each metric's row, by name
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"index", "level", "metrics"})
  public record LevelRows(Integer index, String level, Map<String, Row> metrics) {}
}
