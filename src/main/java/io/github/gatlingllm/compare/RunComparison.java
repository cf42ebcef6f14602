package io.github.gatlingllm.compare;

import com.fasterxml.jackson.core.type.TypeReference;
import io.github.gatlingllm.compare.ResampledRun.Estimates;
import io.github.gatlingllm.record.Baseline;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.Decimals;
import io.github.gatlingllm.stats.Bootstrap;
import io.github.gatlingllm.stats.NearestRank;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * An A/B comparison of two runs: for each headline metric, its value in A and B, the change from A
 * to B in percent with a 95% interval from a seeded bootstrap over the runs' per-request records,
 * and a verdict.
 *
 * <p>How each interval is made (percentile bootstrap of the change {@code B / A - 1}; A and B
 * resampled independently, {@link Settings#resamples()} times each): every metric over time blocks
 * of at least twice the E2E p90 (requests in flight together are not independent), latencies from
 * the requests started in the drawn blocks, throughput from each request's count and tokens spread
 * over the blocks it spans. {@code ResampledRun} says how each is drawn.
 *
 * <p>A percentile with fewer than {@value Bootstrap#MIN_TAIL} values above it (a p99 of fewer than
 * 500 requests, a p90 of fewer than 50) gets no interval: it is one of the few largest values,
 * whose bootstrap is unreliable.
 *
 * <p>The noise floor: the intervals cover the sampling within each run, not the variation between
 * runs (a JVM warming up, a neighbour's build); each run is cut into {@value #STRETCHES} stretches
 * of its requests, and the larger of A's and B's spread over them is the least change called better
 * or worse.
 *
 * <p>The verdict ({@link ChangeVerdict#of(Double, Double, double[], double, double, boolean)}),
 * direction-aware: {@code same} for identical values; {@code better} or {@code worse} when the
 * whole interval lies beyond both the minimum effect ({@link Settings#minEffectPct()}, default 2%)
 * and the noise floor on that side, {@code same} when it lies within plus or minus the minimum
 * effect, {@code unclear} otherwise (or without an interval). {@link #overall()} sums them up in
 * one line.
 *
 * <p>The jobs apart: {@link RunSamples} reads each run, {@code ResampledRun} makes each metric's
 * value and replicates, {@link Bootstrap} the interval, {@link ChangeVerdict} the verdict, {@link
 * RunDifferences} what the verdicts must be read with, {@link ComparisonOutput} the text and JSON.
 */
public final class RunComparison {

  /**
   * The names of every metric, in output order.
   *
   * @return e.g. {@code ttft_p50_ms, ttft_p90_ms, ...}
   */
  public static List<String> metricNames() {
    return HeadlineMetric.ALL.stream().map(HeadlineMetric::name).toList();
  }

  /**
   * Checks metric names.
   *
   * @param names the names asked for
   * @param what what names them, for the message (e.g. {@code --metric})
   * @throws IllegalArgumentException naming the first unknown name and the known ones
   */
  public static void checkNames(List<String> names, String what) {
    for (String name : names) {
      if (!metricNames().contains(name)) {
        throw new IllegalArgumentException(
            what
                + ": unknown metric \""
                + name
                + "\"; known metrics are "
                + String.join(", ", metricNames()));
      }
    }
  }

  /**
   * How a comparison is made.
   *
   * @param resamples bootstrap resamples of each run, at least 100
   * @param seed the seed: the same seed and runs give the same output
   * @param minEffectPct the least change in percent that counts, finite and at least 0
   */
  public record Settings(int resamples, long seed, double minEffectPct) {

    /** 1,000 resamples, seed 1, minimum effect 2%. */
    public static final Settings DEFAULT = new Settings(1000, 1, 2);

    /**
     * Checks the values.
     *
     * @throws IllegalArgumentException naming the field, its value and what is allowed
     */
    public Settings {
      if (resamples < 100 || resamples > 1_000_000) {
        throw new IllegalArgumentException(
            "resamples: got " + resamples + ", expected a whole number in [100, 1000000]");
      }
      if (!(minEffectPct >= 0 && Double.isFinite(minEffectPct))) {
        throw new IllegalArgumentException(
            "minimum effect: got " + minEffectPct + ", expected a finite percentage >= 0");
      }
    }
  }

  /**
   * One metric compared.
   *
   * @param name the metric's name
   * @param a its value in A, or null when not measured there
   * @param b its value in B, or null when not measured there
   * @param deltaPct {@code (b - a) / a * 100}, or null
   * @param ci95Pct the 95% interval of the change in percent, {@code [lo, hi]}, or null
   * @param noiseFloorPct the noise floor in percent: the larger of A's and B's spreads over {@value
   *     #STRETCHES} stretches of their requests (largest over smallest, less 1); null when neither
   *     run has the stretches to compare
   * @param verdict the verdict, never null
   * @param lowerIsBetter whether a lower value is better
   */
  public record Row(
      String name,
      Double a,
      Double b,
      Double deltaPct,
      double[] ci95Pct,
      Double noiseFloorPct,
      ChangeVerdict verdict,
      boolean lowerIsBetter) {

    /**
     * By how much B is worse than A at the least, with 95% confidence: the interval's bound nearest
     * to no change, on the worse side.
     *
     * @return percent, positive when worse with 95% confidence; null without an interval
     */
    public Double worseByAtLeastPct() {
      if (ci95Pct == null) {
        return null;
      }
      return lowerIsBetter ? ci95Pct[0] : -ci95Pct[1];
    }

    /**
     * The row as the run record's {@code baseline} and {@code report --compare --json} hold it:
     * {@code a}, {@code b}, {@code delta_pct}, {@code ci95_pct}, {@code verdict} and {@code
     * noise_floor_pct}, rounded to 3 decimals (null when not finite).
     *
     * @return the row's block
     */
    public Baseline.Row toBlock() {
      return new Baseline.Row(
          ComparisonOutput.round(a),
          ComparisonOutput.round(b),
          ComparisonOutput.round(deltaPct),
          ci95Pct == null
              ? null
              : List.of(ComparisonOutput.round(ci95Pct[0]), ComparisonOutput.round(ci95Pct[1])),
          verdict.wireName(),
          ComparisonOutput.round(noiseFloorPct));
    }

    /**
     * The row as JSON-ready map: {@link #toBlock()}'s fields.
     *
     * @return an ordered map
     */
    public Map<String, Object> toMap() {
      return ComparisonOutput.JSON.convertValue(
          toBlock(), new TypeReference<LinkedHashMap<String, Object>>() {});
    }
  }

  /**
   * The rows of one load level present in both runs.
   *
   * @param index the level's index in the run record's {@code levels} (from 0, in start order), as
   *     the report page's levels table numbers it
   * @param describe what the level is, e.g. {@code chat 8 users}
   * @param rows the metrics compared
   */
  public record Level(int index, String describe, List<Row> rows) {}

  private final RunSamples a;
  private final RunSamples b;
  private final Settings settings;
  private final List<Row> rows;
  private final List<Level> levels;
  private final List<String> promptDifferences;
  private final List<String> warnings;
  private final String method;
  private ResampledRun sideA;
  private ResampledRun sideB;

  private RunComparison(
      RunSamples a,
      RunSamples b,
      Settings settings,
      List<Row> rows,
      List<Level> levels,
      List<String> promptDifferences,
      List<String> warnings,
      String method) {
    this.a = a;
    this.b = b;
    this.settings = settings;
    this.rows = rows;
    this.levels = levels;
    this.promptDifferences = promptDifferences;
    this.warnings = warnings;
    this.method = method;
  }

  /**
   * Compares two runs.
   *
   * @param a the first run (the baseline), never null
   * @param b the second run, never null
   * @param settings resamples, seed and minimum effect, never null
   * @param only the metric names to compare, or empty for all
   * @return the comparison
   * @throws IllegalArgumentException naming an unknown metric in {@code only}
   */
  public static RunComparison compare(
      RunSamples a, RunSamples b, Settings settings, List<String> only) {
    Objects.requireNonNull(settings, "settings");
    checkNames(only, "metric");
    List<HeadlineMetric> metrics =
        HeadlineMetric.ALL.stream().filter(m -> only.isEmpty() || only.contains(m.name())).toList();
    SplittableRandom root = new SplittableRandom(settings.seed());
    ResampledRun sa = ResampledRun.all(a);
    ResampledRun sb = ResampledRun.all(b);
    Estimates ea = sa.estimates(settings.resamples(), root.split());
    Estimates eb = sb.estimates(settings.resamples(), root.split());
    List<Row> rows =
        rows(ea, eb, sa.stretches(STRETCHES), sb.stretches(STRETCHES), metrics, settings);
    List<Level> levels = new ArrayList<>();
    List<String> la = levelKeys(a.record);
    List<String> lb = levelKeys(b.record);
    List<Integer> indices = levelIndices(a.record);
    if (!la.isEmpty()
        && la.equals(lb)
        && la.size() == a.levelWindows.size()
        && lb.size() == b.levelWindows.size()
        && la.size() > 1) {
      for (int l = 0; l < la.size(); l++) {
        ResampledRun pa = ResampledRun.level(a, l);
        ResampledRun pb = ResampledRun.level(b, l);
        SplittableRandom ra = root.split();
        SplittableRandom rb = root.split();
        if (pa == null || pb == null) {
          continue;
        }
        levels.add(
            new Level(
                indices.get(l),
                la.get(l),
                rows(
                    pa.estimates(settings.resamples(), ra),
                    pb.estimates(settings.resamples(), rb),
                    pa.stretches(STRETCHES),
                    pb.stretches(STRETCHES),
                    metrics,
                    settings)));
      }
    }
    RunComparison c =
        new RunComparison(
            a,
            b,
            settings,
            rows,
            levels,
            RunDifferences.promptDifferences(a.record, b.record),
            RunDifferences.warnings(a.record, b.record),
            ComparisonOutput.method(settings, ea, eb));
    c.sideA = sa;
    c.sideB = sb;
    return c;
  }

  /**
   * Both runs' distributions as quantile curves, for charts that overlay them: for each of {@code
   * ttft_ms}, {@code itl_ms} (the pooled gaps of the sampled requests), {@code tpot_ms} and {@code
   * e2e_ms} measured in both, {@code a} and {@code b}, each the nearest-rank percentiles 0 (the
   * least), 1, 2, ..., 99, 99.9 and 100 (the most), in milliseconds rounded to the microsecond.
   *
   * @return metric to run to values; the percentiles are {@link #QUANTILES}
   */
  public Map<String, Map<String, List<Double>>> quantileCurves() {
    Map<String, Map<String, List<Double>>> out = new LinkedHashMap<>();
    String[] names = {"ttft_ms", "itl_ms", "tpot_ms", "e2e_ms"};
    for (int f = 0; f < names.length; f++) {
      double[] va = sideA.values(f);
      double[] vb = sideB.values(f);
      if (va.length == 0 || vb.length == 0) {
        continue;
      }
      Map<String, List<Double>> m = new LinkedHashMap<>();
      m.put("a", curve(va));
      m.put("b", curve(vb));
      out.put(names[f], m);
    }
    return out;
  }

  /** The percentiles of {@link #quantileCurves()}: 0, 1, ..., 99, 99.9, 100. */
  public static final List<Double> QUANTILES = quantiles();

  private static List<Double> quantiles() {
    List<Double> q = new ArrayList<>();
    for (int p = 0; p < 100; p++) {
      q.add((double) p);
    }
    q.add(99.9);
    q.add(100.0);
    return List.copyOf(q);
  }

  private static List<Double> curve(double[] values) {
    List<Double> out = new ArrayList<>();
    for (double v : NearestRank.percentiles(values, QUANTILES)) {
      out.add(ComparisonOutput.round(v));
    }
    return out;
  }

  /**
   * Whether the runs sent the same prompts: the same workloads with the same phase digests.
   *
   * @return true when nothing differs
   */
  public boolean samePrompts() {
    return promptDifferences.isEmpty();
  }

  /**
   * What differs in the runs' prompts.
   *
   * @return one line per difference; empty when the same
   */
  public List<String> promptDifferences() {
    return promptDifferences;
  }

  /**
   * What the verdicts must be read with: either run's warm start, client lag or interruption, and a
   * model or endpoint that differs.
   *
   * @return one line each, naming the run
   */
  public List<String> warnings() {
    return warnings;
  }

  /**
   * The overall rows, in {@link #metricNames()} order; metrics measured in neither run are left
   * out.
   *
   * @return never null
   */
  public List<Row> rows() {
    return rows;
  }

  /**
   * The rows of each load level, when both runs have the same levels (two or more).
   *
   * @return empty otherwise
   */
  public List<Level> levels() {
    return levels;
  }

  /**
   * The comparison in one verdict, from every metric's (overall and per level).
   *
   * @param verdict {@code worse} when some metric is worse and none better, {@code better} when
   *     some is better and none worse, {@code mixed} when some are worse and some better, {@code
   *     same} when every metric is the same, {@code unclear} otherwise
   * @param worse the metrics worse, e.g. {@code itl_p50_ms} or {@code level 2 itl_p50_ms}
   * @param better the metrics better, named alike
   * @param line the verdict in one line, e.g. {@code verdict: B worse (ITL p50 +19.9%, E2E p50
   *     +14.4%)}
   */
  public record Overall(String verdict, List<String> worse, List<String> better, String line) {

    /**
     * The verdict as JSON-ready map: {@code overall}, {@code worse}, {@code better}, {@code line}.
     *
     * @return an ordered map
     */
    public Map<String, Object> toMap() {
      return ComparisonOutput.JSON.convertValue(
          new Baseline.Verdict(verdict, worse, better, line),
          new TypeReference<LinkedHashMap<String, Object>>() {});
    }
  }

  /**
   * The comparison in one verdict: B worse, better, mixed, the same, or unclear, naming each metric
   * (overall, then per level) called worse or better with its change.
   *
   * @return never null
   */
  public Overall overall() {
    List<String> worse = new ArrayList<>();
    List<String> better = new ArrayList<>();
    List<String> worseText = new ArrayList<>();
    List<String> betterText = new ArrayList<>();
    List<String> unclear = new ArrayList<>();
    int compared = 0;
    List<List<Row>> tables = new ArrayList<>();
    List<String> prefixes = new ArrayList<>();
    tables.add(rows);
    prefixes.add("");
    for (Level l : levels) {
      tables.add(l.rows());
      prefixes.add("level " + l.index() + " ");
    }
    for (int t = 0; t < tables.size(); t++) {
      for (Row r : tables.get(t)) {
        compared++;
        String label = prefixes.get(t) + HeadlineMetric.named(r.name()).label();
        String change =
            r.deltaPct() == null
                ? label
                : label + String.format(java.util.Locale.ROOT, " %+.1f%%", r.deltaPct());
        switch (r.verdict()) {
          case WORSE -> {
            worse.add(prefixes.get(t) + r.name());
            worseText.add(change);
          }
          case BETTER -> {
            better.add(prefixes.get(t) + r.name());
            betterText.add(change);
          }
          case UNCLEAR -> unclear.add(label);
          default -> {}
        }
      }
    }
    String verdict;
    String line;
    if (!worse.isEmpty() && !better.isEmpty()) {
      verdict = "mixed";
      line =
          "verdict: mixed: B worse ("
              + String.join(", ", worseText)
              + "), better ("
              + String.join(", ", betterText)
              + ")";
    } else if (!worse.isEmpty()) {
      verdict = ChangeVerdict.WORSE.wireName();
      line = "verdict: B worse (" + String.join(", ", worseText) + ")";
    } else if (!better.isEmpty()) {
      verdict = ChangeVerdict.BETTER.wireName();
      line = "verdict: B better (" + String.join(", ", betterText) + ")";
    } else if (unclear.isEmpty()) {
      verdict = ChangeVerdict.SAME.wireName();
      line =
          "verdict: same (every metric within +/-" + Decimals.fmt(settings.minEffectPct()) + "%)";
    } else {
      verdict = ChangeVerdict.UNCLEAR.wireName();
      line =
          "verdict: unclear (no metric better or worse beyond the runs' noise; "
              + (compared - unclear.size())
              + " of "
              + compared
              + " the same, unclear: "
              + String.join(", ", unclear.subList(0, Math.min(unclear.size(), 6)))
              + (unclear.size() > 6 ? " and " + (unclear.size() - 6) + " more" : "")
              + ")";
    }
    return new Overall(verdict, List.copyOf(worse), List.copyOf(better), line);
  }

  /**
   * How the intervals were made, in one sentence.
   *
   * @return e.g. {@code 95% intervals: bootstrap, 1000 resamples of each run (seed 1): ...}
   */
  public String method() {
    return method;
  }

  /**
   * A row by name.
   *
   * @param name the metric's name
   * @return the row, or null when the metric was not compared
   */
  public Row row(String name) {
    for (Row r : rows) {
      if (r.name().equals(name)) {
        return r;
      }
    }
    return null;
  }

  /**
   * The comparison as a JSON-ready map: {@code same_prompts}, {@code prompt_differences}, {@code
   * warnings}, {@code method}, {@code resamples}, {@code seed}, {@code min_effect_pct}, {@code a}
   * and {@code b} (folder and measured requests), {@code metrics} (name to {@link Row#toMap()}) and
   * {@code levels} (each with {@code index}, {@code level} and {@code metrics}) when compared.
   *
   * @return an ordered map
   */
  public Map<String, Object> toMap() {
    return ComparisonOutput.map(this);
  }

  /**
   * The comparison as the run record's {@code baseline} block holds it (the fields of {@link
   * #toMap()}; the baseline's own fields null).
   *
   * @return the block
   */
  public Baseline toBlock() {
    return ComparisonOutput.block(this);
  }

  /**
   * The comparison as lines of text: the runs, the prompts check, the warnings, the method, then
   * one line per metric with A, B, the change and its interval, and the verdict; then each level's.
   *
   * @return the lines
   */
  public List<String> toText() {
    return ComparisonOutput.lines(this);
  }

  /** The first run, A. */
  RunSamples runA() {
    return a;
  }

  /** The second run, B. */
  RunSamples runB() {
    return b;
  }

  /** How the comparison was made. */
  Settings settings() {
    return settings;
  }

  /** Each metric's row: the values, the change, its interval, the noise floor and the verdict. */
  private static List<Row> rows(
      Estimates ea,
      Estimates eb,
      Double[][] halvesA,
      Double[][] halvesB,
      List<HeadlineMetric> metrics,
      Settings settings) {
    List<Row> rows = new ArrayList<>();
    for (HeadlineMetric m : metrics) {
      int k = HeadlineMetric.ALL.indexOf(m);
      Double va = ea.point()[k];
      Double vb = eb.point()[k];
      if (va == null && vb == null) {
        continue;
      }
      Double delta = va == null || vb == null || va == 0 ? null : (vb - va) / va * 100;
      double[] ci = null;
      if (delta != null && ea.replicates()[k] != null && eb.replicates()[k] != null) {
        ci = Bootstrap.interval(ea.replicates()[k], eb.replicates()[k]);
      }
      Double floor = max(spread(halvesA, k), spread(halvesB, k));
      rows.add(
          new Row(
              m.name(),
              va,
              vb,
              delta,
              ci,
              floor,
              ChangeVerdict.of(
                  va,
                  vb,
                  ci,
                  settings.minEffectPct(),
                  floor == null ? 0 : floor,
                  m.lowerIsBetter()),
              m.lowerIsBetter()));
    }
    return rows;
  }

  /**
   * How many stretches of its requests a run is cut into for its noise floor: 3. Measured on A/A
   * pairs (docs/comparing.md): halves left 1 of 11 simulator pairs and 1 of 11 llama.cpp pairs
   * better or worse, thirds none, and still called a 20% slower decode worse in 5 of 5 A/B pairs.
   */
  static final int STRETCHES = 3;

  /**
   * The spread of a metric over a run's stretches of time in percent: the largest value over the
   * smallest, less 1; null when fewer than 2 stretches have a positive value.
   */
  private static Double spread(Double[][] stretches, int k) {
    if (stretches == null) {
      return null;
    }
    double lo = Double.POSITIVE_INFINITY;
    double hi = Double.NEGATIVE_INFINITY;
    int n = 0;
    for (Double[] part : stretches) {
      if (part[k] != null && part[k] > 0 && Double.isFinite(part[k])) {
        lo = Math.min(lo, part[k]);
        hi = Math.max(hi, part[k]);
        n++;
      }
    }
    return n < 2 ? null : (hi / lo - 1) * 100;
  }

  private static Double max(Double x, Double y) {
    if (x == null) {
      return y;
    }
    if (y == null) {
      return x;
    }
    return Math.max(x, y);
  }

  /** Each load level's {@code index} in the record (from 0), or its place when it has none. */
  private static List<Integer> levelIndices(RunRecord record) {
    List<Integer> out = new ArrayList<>();
    for (LevelEntry l : levels(record)) {
      out.add(l.index() != null ? l.index() : out.size());
    }
    return out;
  }

  /** Each load level described, e.g. {@code chat 8 users}; empty without levels. */
  private static List<String> levelKeys(RunRecord record) {
    List<String> keys = new ArrayList<>();
    for (LevelEntry l : levels(record)) {
      Number load = l.concurrency() != null ? l.concurrency() : l.rate();
      String unit = l.concurrency() != null ? " users" : " users/s";
      keys.add(
          l.scenario() + " " + (load != null ? Decimals.fmt(load.doubleValue()) + unit : l.kind()));
    }
    return keys;
  }

  /** The record's load levels, typed; empty when it has none (or they do not read). */
  private static List<LevelEntry> levels(RunRecord record) {
    List<LevelEntry> out = new ArrayList<>();
    if (record.levels() != null) {
      for (LevelEntry l : record.levels()) {
        if (l != null) {
          out.add(l);
        }
      }
    }
    return out;
  }
}
