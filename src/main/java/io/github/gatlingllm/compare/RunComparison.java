package io.github.gatlingllm.compare;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.report.Decimals;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;

/**
 * An A/B comparison of two runs: for each headline metric, its value in A and B, the change from A
 * to B in percent with a 95% interval from a seeded bootstrap over the runs' per-request records,
 * and a verdict.
 *
 * <p>How each interval is made (percentile bootstrap of the change {@code B / A - 1}; A and B
 * resampled independently, {@link Settings#resamples()} times each):
 *
 * <ul>
 *   <li>TTFT, TPOT and E2E percentiles, SLO attainment and the cache-hit ratio: over requests (each
 *       measured request drawn with replacement). A run of more than {@link #MAX_DRAWS} requests is
 *       resampled {@value #MAX_DRAWS} at a time and each resample's deviation from the run's value
 *       scaled by {@code sqrt(draws / requests)} (the m-out-of-n bootstrap of a percentile, which
 *       is asymptotically normal), so 1,000,000 requests take seconds, not hours.
 *   <li>ITL percentiles: over requests, not over gaps (the gaps of one request are not
 *       independent): whole requests drawn with their gaps, the percentile taken over the pooled
 *       gaps, as the run's ITL percentiles are; from a uniform sample of at most {@link
 *       RunSamples#ITL_REQUESTS} requests, scaled as above when it holds fewer than all.
 *   <li>Requests/s, output tokens/s and goodput: over time blocks, not over requests (requests in
 *       flight together are not independent): the run's window cut into equal blocks of at least
 *       twice the E2E p90 (and at most 200 blocks), blocks drawn with replacement. Fewer than 5
 *       blocks: no interval.
 * </ul>
 *
 * <p>A percentile with fewer than {@value #MIN_TAIL} values above it (a p99 of fewer than 500
 * requests, a p90 of fewer than 50) gets no interval: it is one of the few largest values, whose
 * bootstrap is unreliable.
 *
 * <p>The verdict, direction-aware (lower latency is better, higher throughput, attainment and
 * cache-hit ratio are better): {@code better} or {@code worse} when the whole interval lies beyond
 * the minimum effect ({@link Settings#minEffectPct()}, default 2%) on that side, {@code same} when
 * it lies within plus or minus the minimum effect, {@code unclear} otherwise (or without an
 * interval).
 */
public final class RunComparison {

  /** The most requests drawn in one resample of a per-request metric. */
  public static final int MAX_DRAWS = 20_000;

  /** The most requests drawn in one resample of ITL. */
  static final int MAX_ITL_DRAWS = 2_000;

  /** The fewest time blocks a throughput interval is made from. */
  static final int MIN_BLOCKS = 5;

  /** The most time blocks a run's window is cut into. */
  static final int MAX_BLOCKS = 200;

  /** A verdict on one metric. */
  public enum Verdict {
    /** B is better than A by more than the minimum effect, with 95% confidence. */
    BETTER,
    /** B is worse than A by more than the minimum effect, with 95% confidence. */
    WORSE,
    /** B is within the minimum effect of A, with 95% confidence. */
    SAME,
    /** Neither: the interval straddles the minimum effect, or there is none. */
    UNCLEAR;

    /**
     * The name in the output.
     *
     * @return e.g. {@code worse}
     */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }
  }

  /** How a metric is resampled. */
  enum Kind {
    REQUEST,
    ITL,
    BLOCK
  }

  /**
   * A headline metric.
   *
   * @param name the name in the output, e.g. {@code ttft_p50_ms}
   * @param label the label in the text output
   * @param kind how it is resampled
   * @param lowerIsBetter whether a lower value is better (latencies)
   * @param unit its unit in the text output
   */
  record Metric(String name, String label, Kind kind, boolean lowerIsBetter, String unit) {}

  /** Every metric, in output order. */
  static final List<Metric> METRICS =
      List.of(
          new Metric("ttft_p50_ms", "TTFT p50", Kind.REQUEST, true, "ms"),
          new Metric("ttft_p90_ms", "TTFT p90", Kind.REQUEST, true, "ms"),
          new Metric("ttft_p99_ms", "TTFT p99", Kind.REQUEST, true, "ms"),
          new Metric("itl_p50_ms", "ITL p50", Kind.ITL, true, "ms"),
          new Metric("itl_p99_ms", "ITL p99", Kind.ITL, true, "ms"),
          new Metric("tpot_p50_ms", "TPOT p50", Kind.REQUEST, true, "ms"),
          new Metric("tpot_p99_ms", "TPOT p99", Kind.REQUEST, true, "ms"),
          new Metric("e2e_p50_ms", "E2E p50", Kind.REQUEST, true, "ms"),
          new Metric("e2e_p99_ms", "E2E p99", Kind.REQUEST, true, "ms"),
          new Metric("output_tokens_per_s", "output tokens/s", Kind.BLOCK, false, ""),
          new Metric("requests_per_s", "requests/s", Kind.BLOCK, false, ""),
          new Metric("goodput_requests_per_s", "goodput requests/s", Kind.BLOCK, false, ""),
          new Metric("slo_attainment", "SLO attainment", Kind.REQUEST, false, ""),
          new Metric("cache_hit_ratio", "cache-hit ratio", Kind.REQUEST, false, ""));

  /**
   * The names of every metric, in output order.
   *
   * @return e.g. {@code ttft_p50_ms, ttft_p90_ms, ...}
   */
  public static List<String> metricNames() {
    return METRICS.stream().map(Metric::name).toList();
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
   * @param verdict the verdict, never null
   * @param lowerIsBetter whether a lower value is better
   */
  public record Row(
      String name,
      Double a,
      Double b,
      Double deltaPct,
      double[] ci95Pct,
      Verdict verdict,
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
     * The row as JSON-ready map: {@code a}, {@code b}, {@code delta_pct}, {@code ci95_pct} and
     * {@code verdict}.
     *
     * @return an ordered map
     */
    public Map<String, Object> toMap() {
      Map<String, Object> m = new LinkedHashMap<>();
      m.put("a", round(a));
      m.put("b", round(b));
      m.put("delta_pct", round(deltaPct));
      m.put("ci95_pct", ci95Pct == null ? null : List.of(round(ci95Pct[0]), round(ci95Pct[1])));
      m.put("verdict", verdict.wireName());
      return m;
    }
  }

  /**
   * The rows of one load level present in both runs.
   *
   * @param index the level's index, from 1
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
  private Side sideA;
  private Side sideB;

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
    List<Metric> metrics =
        METRICS.stream().filter(m -> only.isEmpty() || only.contains(m.name())).toList();
    SplittableRandom root = new SplittableRandom(settings.seed());
    Side sa = Side.all(a);
    Side sb = Side.all(b);
    Estimates ea = sa.estimates(settings.resamples(), root.split());
    Estimates eb = sb.estimates(settings.resamples(), root.split());
    List<Row> rows = rows(ea, eb, metrics, settings);
    List<Level> levels = new ArrayList<>();
    List<String> la = levelKeys(a.record);
    List<String> lb = levelKeys(b.record);
    if (!la.isEmpty()
        && la.equals(lb)
        && la.size() == a.levelWindows.size()
        && lb.size() == b.levelWindows.size()
        && la.size() > 1) {
      for (int l = 0; l < la.size(); l++) {
        Side pa = Side.level(a, l);
        Side pb = Side.level(b, l);
        SplittableRandom ra = root.split();
        SplittableRandom rb = root.split();
        if (pa == null || pb == null) {
          continue;
        }
        levels.add(
            new Level(
                l + 1,
                la.get(l),
                rows(
                    pa.estimates(settings.resamples(), ra),
                    pb.estimates(settings.resamples(), rb),
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
            promptDifferences(a.record, b.record),
            warnings(a, b),
            method(settings, ea, eb));
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
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    List<Double> out = new ArrayList<>();
    for (double p : QUANTILES) {
      out.add(round(sorted[p == 0 ? 0 : rank(p, sorted.length)]));
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
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("same_prompts", samePrompts());
    m.put("prompt_differences", promptDifferences);
    m.put("warnings", warnings);
    m.put("method", method);
    m.put("resamples", settings.resamples());
    m.put("seed", settings.seed());
    m.put("min_effect_pct", settings.minEffectPct());
    m.put("a", runMap(a));
    m.put("b", runMap(b));
    m.put("metrics", rowsMap(rows));
    if (!levels.isEmpty()) {
      List<Map<String, Object>> list = new ArrayList<>();
      for (Level l : levels) {
        Map<String, Object> lm = new LinkedHashMap<>();
        lm.put("index", l.index());
        lm.put("level", l.describe());
        lm.put("metrics", rowsMap(l.rows()));
        list.add(lm);
      }
      m.put("levels", list);
    }
    return m;
  }

  /**
   * The comparison as lines of text: the runs, the prompts check, the warnings, the method, then
   * one line per metric with A, B, the change and its interval, and the verdict; then each level's.
   *
   * @return the lines
   */
  public List<String> toText() {
    List<String> lines = new ArrayList<>();
    lines.add("A: " + a.folder + " (" + a.n + " measured requests)");
    lines.add("B: " + b.folder + " (" + b.n + " measured requests)");
    if (samePrompts()) {
      lines.add("prompts: same (workloads and phase digests)");
    } else {
      for (String d : promptDifferences) {
        lines.add("prompts DIFFER: " + d + " (compared anyway)");
      }
    }
    for (String w : warnings) {
      lines.add("warning: " + w);
    }
    lines.add(method);
    table(lines, rows);
    for (Level l : levels) {
      lines.add("");
      lines.add("level " + l.index() + ": " + l.describe());
      table(lines, l.rows());
    }
    return lines;
  }

  private static void table(List<String> lines, List<Row> rows) {
    lines.add(
        String.format(
            Locale.ROOT,
            "%-22s %12s %12s %9s %20s  %s",
            "metric",
            "A",
            "B",
            "change",
            "95% interval",
            "verdict"));
    for (Row r : rows) {
      Metric m = metric(r.name());
      lines.add(
          String.format(
              Locale.ROOT,
              "%-22s %12s %12s %9s %20s  %s",
              m.label() + (m.unit().isEmpty() ? "" : " " + m.unit()),
              figure(r.a()),
              figure(r.b()),
              r.deltaPct() == null ? "–" : String.format(Locale.ROOT, "%+.1f%%", r.deltaPct()),
              r.ci95Pct() == null
                  ? "–"
                  : String.format(
                      Locale.ROOT, "[%+.1f%%, %+.1f%%]", r.ci95Pct()[0], r.ci95Pct()[1]),
              r.verdict().wireName()));
    }
  }

  private static String figure(Double v) {
    if (v == null) {
      return "–";
    }
    return Decimals.ms(v);
  }

  static Metric metric(String name) {
    for (Metric m : METRICS) {
      if (m.name().equals(name)) {
        return m;
      }
    }
    throw new IllegalArgumentException("unknown metric " + name);
  }

  private static Map<String, Object> runMap(RunSamples s) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("folder", s.folder.toString());
    m.put("requests", s.n);
    return m;
  }

  private static Map<String, Object> rowsMap(List<Row> rows) {
    Map<String, Object> m = new LinkedHashMap<>();
    for (Row r : rows) {
      m.put(r.name(), r.toMap());
    }
    return m;
  }

  private static Double round(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return null;
    }
    return Math.round(v * 1000.0) / 1000.0;
  }

  // --- the statistics ---

  private static List<Row> rows(
      Estimates ea, Estimates eb, List<Metric> metrics, Settings settings) {
    List<Row> rows = new ArrayList<>();
    for (Metric m : metrics) {
      int k = METRICS.indexOf(m);
      Double va = ea.point[k];
      Double vb = eb.point[k];
      if (va == null && vb == null) {
        continue;
      }
      Double delta = va == null || vb == null || va == 0 ? null : (vb - va) / va * 100;
      double[] ci = null;
      if (delta != null && ea.replicates[k] != null && eb.replicates[k] != null) {
        ci = interval(ea.replicates[k], eb.replicates[k]);
      }
      rows.add(
          new Row(
              m.name(),
              va,
              vb,
              delta,
              ci,
              verdict(ci, settings.minEffectPct(), m.lowerIsBetter()),
              m.lowerIsBetter()));
    }
    return rows;
  }

  /** The 2.5th and 97.5th percentiles of the replicated change in percent. */
  static double[] interval(double[] a, double[] b) {
    int r = Math.min(a.length, b.length);
    double[] d = new double[r];
    int k = 0;
    for (int i = 0; i < r; i++) {
      if (a[i] > 0 && Double.isFinite(a[i]) && Double.isFinite(b[i])) {
        d[k++] = (b[i] / a[i] - 1) * 100;
      }
    }
    if (k < r * 0.9) {
      // Too many resamples without a value (a zero in A): no honest interval.
      return null;
    }
    Arrays.sort(d, 0, k);
    int lo = (int) Math.floor(0.025 * (k - 1));
    int hi = (int) Math.ceil(0.975 * (k - 1));
    return new double[] {d[lo], d[hi]};
  }

  /**
   * The verdict of an interval.
   *
   * @param ci the 95% interval of the change in percent, or null
   * @param minEffectPct the least change that counts, percent
   * @param lowerIsBetter whether a lower value is better
   * @return the verdict
   */
  static Verdict verdict(double[] ci, double minEffectPct, boolean lowerIsBetter) {
    if (ci == null) {
      return Verdict.UNCLEAR;
    }
    double lo = ci[0];
    double hi = ci[1];
    if (lo > minEffectPct) {
      return lowerIsBetter ? Verdict.WORSE : Verdict.BETTER;
    }
    if (hi < -minEffectPct) {
      return lowerIsBetter ? Verdict.BETTER : Verdict.WORSE;
    }
    if (lo >= -minEffectPct && hi <= minEffectPct) {
      return Verdict.SAME;
    }
    return Verdict.UNCLEAR;
  }

  /** One run's point estimates and replicates, by metric index; null where not measured. */
  record Estimates(Double[] point, double[][] replicates, int blocks, double blockSeconds) {}

  /** The requests of one run (or one level of it) that a comparison resamples. */
  static final class Side {
    final RunSamples s;
    final int[] idx;
    final MetricsAggregator.Metric itl;
    final long windowStart;
    final long windowEnd;

    private Side(RunSamples s, int[] idx, MetricsAggregator.Metric itl) {
      this.s = s;
      this.idx = idx;
      this.itl = itl;
      long start = Long.MAX_VALUE;
      long end = Long.MIN_VALUE;
      for (int i : idx) {
        start = Math.min(start, s.startMs[i]);
        end = Math.max(end, s.endMs[i]);
      }
      this.windowStart = start;
      this.windowEnd = end;
    }

    static Side all(RunSamples s) {
      int[] idx = new int[s.n];
      for (int i = 0; i < s.n; i++) {
        idx[i] = i;
      }
      return new Side(s, idx, s.itlAll);
    }

    static Side level(RunSamples s, int level) {
      int count = 0;
      int[] idx = new int[s.n];
      for (int i = 0; i < s.n; i++) {
        if (s.level(s.startMs[i]) == level) {
          idx[count++] = i;
        }
      }
      return count == 0 ? null : new Side(s, Arrays.copyOf(idx, count), s.itlByLevel.get(level));
    }

    /** TTFT (0), ITL gaps of the sampled requests (1), TPOT (2) or E2E (3) values. */
    double[] values(int field) {
      if (field == 0) {
        return gather(s.ttft, idx);
      }
      if (field == 2) {
        return gather(s.tpot, idx);
      }
      if (field == 3) {
        return gather(s.e2e, idx);
      }
      List<Double> gaps = new ArrayList<>();
      boolean[] in = new boolean[s.n];
      for (int i : idx) {
        in[i] = true;
      }
      for (int j = 0; j < s.itlKept; j++) {
        if (in[s.itlOwner[j]]) {
          for (float v : s.itlGaps[j]) {
            gaps.add((double) v);
          }
        }
      }
      return gaps.stream().mapToDouble(Double::doubleValue).toArray();
    }

    Estimates estimates(int resamples, SplittableRandom random) {
      int metrics = METRICS.size();
      Double[] point = new Double[metrics];
      double[][] reps = new double[metrics][];
      requestMetrics(point, reps, resamples, random.split());
      itlMetrics(point, reps, resamples, random.split());
      double[] blocks = blockMetrics(point, reps, resamples, random.split());
      return new Estimates(point, reps, (int) blocks[0], blocks[1]);
    }

    // TTFT, TPOT and E2E percentiles, SLO attainment, cache-hit ratio: over requests.
    private void requestMetrics(
        Double[] point, double[][] reps, int resamples, SplittableRandom random) {
      double[][] values = {gather(s.ttft, idx), gather(s.tpot, idx), gather(s.e2e, idx)};
      String[] prefixes = {"ttft_", "tpot_", "e2e_"};
      double[][] percentiles = {{50, 90, 99}, {50, 99}, {50, 99}};
      int draws = Math.min(idx.length, MAX_DRAWS);
      double scale = Math.sqrt((double) draws / idx.length);
      double[] scratch = new double[draws];
      // Point estimates, over every request.
      for (int f = 0; f < values.length; f++) {
        double[] v = values[f].clone();
        for (double p : percentiles[f]) {
          int k = index(prefixes[f] + "p" + (int) p + "_ms");
          if (v.length > 0) {
            point[k] = select(v, v.length, rank(p, v.length));
            if (tailed(p, v.length)) {
              reps[k] = new double[resamples];
            }
          }
        }
      }
      int slo = index("slo_attainment");
      int cache = index("cache_hit_ratio");
      long judged = 0;
      long met = 0;
      long promptSum = 0;
      long cachedSum = 0;
      for (int i : idx) {
        if (s.slo1[i] >= 0) {
          judged++;
          met += s.slo1[i];
        }
        if (s.prompt[i] >= 0) {
          promptSum += s.prompt[i];
          cachedSum += s.cached[i];
        }
      }
      if (judged > 0) {
        point[slo] = (double) met / judged;
        reps[slo] = new double[resamples];
      }
      if (promptSum > 0) {
        point[cache] = (double) cachedSum / promptSum;
        reps[cache] = new double[resamples];
      }
      double[][] fields = {s.ttft, s.tpot, s.e2e};
      int[] drawn = new int[draws];
      for (int r = 0; r < resamples; r++) {
        for (int d = 0; d < draws; d++) {
          drawn[d] = idx[random.nextInt(idx.length)];
        }
        for (int f = 0; f < fields.length; f++) {
          if (values[f].length == 0) {
            continue;
          }
          int len = 0;
          for (int d = 0; d < draws; d++) {
            double v = fields[f][drawn[d]];
            if (!Double.isNaN(v)) {
              scratch[len++] = v;
            }
          }
          for (double p : percentiles[f]) {
            int k = index(prefixes[f] + "p" + (int) p + "_ms");
            if (reps[k] == null) {
              continue;
            }
            double star = len == 0 ? Double.NaN : select(scratch, len, rank(p, len));
            reps[k][r] = point[k] + (star - point[k]) * scale;
          }
        }
        if (reps[slo] != null || reps[cache] != null) {
          long j = 0;
          long m = 0;
          long ps = 0;
          long cs = 0;
          for (int d = 0; d < draws; d++) {
            int i = drawn[d];
            if (s.slo1[i] >= 0) {
              j++;
              m += s.slo1[i];
            }
            if (s.prompt[i] >= 0) {
              ps += s.prompt[i];
              cs += s.cached[i];
            }
          }
          if (reps[slo] != null) {
            double star = j == 0 ? Double.NaN : (double) m / j;
            reps[slo][r] = point[slo] + (star - point[slo]) * scale;
          }
          if (reps[cache] != null) {
            double star = ps == 0 ? Double.NaN : (double) cs / ps;
            reps[cache][r] = point[cache] + (star - point[cache]) * scale;
          }
        }
      }
    }

    // ITL percentiles: whole requests drawn with their gaps.
    private void itlMetrics(
        Double[] point, double[][] reps, int resamples, SplittableRandom random) {
      List<float[]> kept = new ArrayList<>();
      boolean[] in = new boolean[s.n];
      for (int i : idx) {
        in[i] = true;
      }
      long requestsWithItl = 0;
      for (int i : idx) {
        if (s.hasItl[i]) {
          requestsWithItl++;
        }
      }
      for (int j = 0; j < s.itlKept; j++) {
        if (in[s.itlOwner[j]]) {
          kept.add(s.itlGaps[j]);
        }
      }
      if (kept.isEmpty()) {
        return;
      }
      int total = 0;
      for (float[] g : kept) {
        total += g.length;
      }
      double[] pooled = new double[total];
      int at = 0;
      for (float[] g : kept) {
        for (float v : g) {
          pooled[at++] = v;
        }
      }
      int p50 = index("itl_p50_ms");
      int p99 = index("itl_p99_ms");
      double sample50 = select(pooled, total, rank(50, total));
      double sample99 = select(pooled, total, rank(99, total));
      var full = itl.distribution();
      point[p50] = full.count() > 0 ? full.p50() : sample50;
      point[p99] = full.count() > 0 ? full.p99() : sample99;
      reps[p50] = tailed(50, total) ? new double[resamples] : null;
      reps[p99] = tailed(99, total) ? new double[resamples] : null;
      if (reps[p50] == null && reps[p99] == null) {
        return;
      }
      int draws = Math.min(kept.size(), MAX_ITL_DRAWS);
      double scale = Math.sqrt((double) draws / Math.max(draws, requestsWithItl));
      int longest = 0;
      for (float[] g : kept) {
        longest = Math.max(longest, g.length);
      }
      double[] scratch = new double[draws * longest];
      for (int r = 0; r < resamples; r++) {
        int len = 0;
        for (int d = 0; d < draws; d++) {
          float[] g = kept.get(random.nextInt(kept.size()));
          for (float v : g) {
            scratch[len++] = v;
          }
        }
        if (reps[p50] != null) {
          reps[p50][r] = point[p50] + (select(scratch, len, rank(50, len)) - sample50) * scale;
        }
        if (reps[p99] != null) {
          reps[p99][r] = point[p99] + (select(scratch, len, rank(99, len)) - sample99) * scale;
        }
      }
    }

    // Requests/s, output tokens/s, goodput: over time blocks. Returns {blocks, block seconds}.
    private double[] blockMetrics(
        Double[] point, double[][] reps, int resamples, SplittableRandom random) {
      double seconds = (windowEnd - windowStart) / 1000.0;
      if (!(seconds > 0)) {
        return new double[] {0, 0};
      }
      long okCount = 0;
      long tokens = 0;
      long good = 0;
      boolean judged = false;
      for (int i : idx) {
        if (s.ok[i]) {
          okCount++;
          tokens += s.completion[i];
        }
        if (s.slo1[i] >= 0) {
          judged = true;
          good += s.slo1[i];
        }
      }
      int rps = index("requests_per_s");
      int tps = index("output_tokens_per_s");
      int gps = index("goodput_requests_per_s");
      point[rps] = okCount / seconds;
      point[tps] = tokens / seconds;
      if (judged) {
        point[gps] = good / seconds;
      }
      double[] e2e = gather(s.e2e, idx);
      double e2eP90 = e2e.length == 0 ? 0 : select(e2e, e2e.length, rank(90, e2e.length));
      double windowMs = windowEnd - windowStart;
      double blockMs = Math.max(Math.max(2 * e2eP90, windowMs / MAX_BLOCKS), 1);
      int blocks = (int) Math.floor(windowMs / blockMs);
      if (blocks < MIN_BLOCKS) {
        return new double[] {blocks, blockMs / 1000};
      }
      blockMs = windowMs / blocks;
      long[] c = new long[blocks];
      long[] t = new long[blocks];
      long[] g = new long[blocks];
      for (int i : idx) {
        int block = (int) Math.min(blocks - 1, Math.max(0, (s.endMs[i] - windowStart) / blockMs));
        if (s.ok[i]) {
          c[block]++;
          t[block] += s.completion[i];
        }
        if (s.slo1[i] > 0) {
          g[block]++;
        }
      }
      reps[rps] = new double[resamples];
      reps[tps] = new double[resamples];
      if (judged) {
        reps[gps] = new double[resamples];
      }
      for (int r = 0; r < resamples; r++) {
        long sc = 0;
        long st = 0;
        long sg = 0;
        for (int k = 0; k < blocks; k++) {
          int j = random.nextInt(blocks);
          sc += c[j];
          st += t[j];
          sg += g[j];
        }
        reps[rps][r] = sc / seconds;
        reps[tps][r] = st / seconds;
        if (judged) {
          reps[gps][r] = sg / seconds;
        }
      }
      return new double[] {blocks, blockMs / 1000};
    }
  }

  /** The fewest values above a percentile for its interval: {@value #MIN_TAIL}. */
  static final int MIN_TAIL = 5;

  /**
   * Whether {@code n} values leave at least {@link #MIN_TAIL} above percentile {@code p}: below
   * that, the percentile is one of the few largest values, whose bootstrap is unreliable (it never
   * goes above the largest), so it gets no interval (p99 needs 500 values, p90 50).
   */
  static boolean tailed(double p, long n) {
    return n * (100 - p) / 100 >= MIN_TAIL - 1e-9;
  }

  static int index(String name) {
    for (int i = 0; i < METRICS.size(); i++) {
      if (METRICS.get(i).name().equals(name)) {
        return i;
      }
    }
    throw new IllegalArgumentException(name);
  }

  private static double[] gather(double[] field, int[] idx) {
    double[] out = new double[idx.length];
    int k = 0;
    for (int i : idx) {
      if (!Double.isNaN(field[i])) {
        out[k++] = field[i];
      }
    }
    return Arrays.copyOf(out, k);
  }

  /** The nearest rank of percentile {@code p} among {@code n} values, 0-based. */
  static int rank(double p, int n) {
    return (int) Math.max(1, Math.ceil(p / 100.0 * n)) - 1;
  }

  /** The {@code k}-th smallest (0-based) of the first {@code len} values; reorders them. */
  static double select(double[] a, int len, int k) {
    int lo = 0;
    int hi = len - 1;
    while (lo < hi) {
      double pivot = a[(lo + hi) >>> 1];
      int i = lo;
      int j = hi;
      while (i <= j) {
        while (a[i] < pivot) {
          i++;
        }
        while (a[j] > pivot) {
          j--;
        }
        if (i <= j) {
          double tmp = a[i];
          a[i] = a[j];
          a[j] = tmp;
          i++;
          j--;
        }
      }
      if (k <= j) {
        hi = j;
      } else if (k >= i) {
        lo = i;
      } else {
        return a[k];
      }
    }
    return a[k];
  }

  // --- prompts, warnings, method ---

  private static List<String> levelKeys(Map<String, Object> record) {
    List<String> keys = new ArrayList<>();
    if (record.get("levels") instanceof List<?> list) {
      for (Object o : list) {
        if (o instanceof Map<?, ?> l) {
          Object load = l.get("concurrency") != null ? l.get("concurrency") : l.get("rate");
          String unit = l.get("concurrency") != null ? " users" : " users/s";
          keys.add(
              l.get("scenario")
                  + " "
                  + (load instanceof Number n
                      ? Decimals.fmt(n.doubleValue()) + unit
                      : l.get("kind")));
        }
      }
    }
    return keys;
  }

  /**
   * What differs in two run records' prompts: a workload in one only, a phase digest that differs.
   *
   * @param a the first run's record (its {@code prompts} and {@code workloads})
   * @param b the second run's record
   * @return one line per difference; empty when the same
   */
  public static List<String> promptDifferences(Map<String, Object> a, Map<String, Object> b) {
    List<String> out = new ArrayList<>();
    Map<String, Map<String, Object>> wa = workloads(a);
    Map<String, Map<String, Object>> wb = workloads(b);
    for (String name : wa.keySet()) {
      if (!wb.containsKey(name)) {
        out.add("workload " + name + " is only in A");
        continue;
      }
      Map<String, Object> pa = wa.get(name);
      Map<String, Object> pb = wb.get(name);
      for (String phase : pa.keySet()) {
        Object da = pa.get(phase);
        Object db = pb.get(phase);
        if (!Objects.equals(da, db)) {
          out.add(
              "workload "
                  + name
                  + " phase "
                  + phase
                  + ": digest A "
                  + da
                  + ", B "
                  + (pb.containsKey(phase) ? db : "(no such phase)"));
        }
      }
      for (String phase : pb.keySet()) {
        if (!pa.containsKey(phase)) {
          out.add("workload " + name + " phase " + phase + " is only in B");
        }
      }
    }
    for (String name : wb.keySet()) {
      if (!wa.containsKey(name)) {
        out.add("workload " + name + " is only in B");
      }
    }
    return List.copyOf(out);
  }

  /** Each workload's name to its phase digests. */
  private static Map<String, Map<String, Object>> workloads(Map<String, Object> run) {
    Map<String, Map<String, Object>> out = new LinkedHashMap<>();
    List<Object> list = new ArrayList<>();
    if (run.get("workloads") instanceof List<?> w && !w.isEmpty()) {
      list.addAll(w);
    } else if (run.get("prompts") != null) {
      list.add(run.get("prompts"));
    }
    int i = 0;
    for (Object o : list) {
      i++;
      if (!(o instanceof Map<?, ?> prompts)) {
        continue;
      }
      String name = prompts.get("workload") != null ? prompts.get("workload").toString() : "#" + i;
      Map<String, Object> phases = new LinkedHashMap<>();
      if (prompts.get("phases") instanceof Map<?, ?> p) {
        for (Map.Entry<?, ?> e : p.entrySet()) {
          phases.put(
              String.valueOf(e.getKey()),
              e.getValue() instanceof Map<?, ?> ph ? ph.get("digest") : null);
        }
      }
      out.put(name, phases);
    }
    return out;
  }

  static List<String> warnings(RunSamples a, RunSamples b) {
    List<String> out = new ArrayList<>();
    // Not the base URL: the embedded simulator's port differs every run.
    for (String key : List.of("model", "endpoint")) {
      Object va = target(a.record, key);
      Object vb = target(b.record, key);
      if (va != null && vb != null && !va.equals(vb)) {
        out.add(
            "A and B differ in "
                + key
                + ": A \""
                + va
                + "\", B \""
                + vb
                + "\" (compared anyway: the change may be the "
                + key
                + "'s)");
      }
    }
    runWarnings(out, "A", a.record);
    runWarnings(out, "B", b.record);
    return List.copyOf(out);
  }

  /**
   * The warnings of one run record that a comparison repeats: interrupted, warm start, client lag.
   *
   * @param out where to add them
   * @param name the run's name in the lines ({@code A}, {@code B}, {@code baseline})
   * @param run its record
   */
  static void runWarnings(List<String> out, String name, Map<String, Object> run) {
    if (Boolean.TRUE.equals(run.get("interrupted"))) {
      out.add(
          name
              + " was interrupted"
              + (run.get("end_reason") != null ? " (" + run.get("end_reason") + ")" : "")
              + ": its figures cover the requests that finished");
    }
    if (run.get("cache") instanceof Map<?, ?> cache
        && Boolean.TRUE.equals(cache.get("warm_start"))) {
      out.add(name + " warm start: " + cache.get("warm_start_message"));
    }
    if (run.get("client") instanceof Map<?, ?> client
        && client.get("warnings") instanceof List<?> list) {
      for (Object w : list) {
        Object text = w instanceof Map<?, ?> m && m.get("message") != null ? m.get("message") : w;
        out.add(name + " client: " + text);
      }
    }
  }

  private static Object target(Map<String, Object> run, String key) {
    return run.get("target") instanceof Map<?, ?> t ? t.get(key) : null;
  }

  private static String method(Settings settings, Estimates ea, Estimates eb) {
    return String.format(
        Locale.ROOT,
        "95%% intervals: percentile bootstrap, %d resamples of each run (seed %d); TTFT, TPOT,"
            + " E2E, SLO attainment and cache-hit ratio over requests, ITL over whole requests'"
            + " gaps, throughput over time blocks (A: %s, B: %s); a percentile with fewer than %d"
            + " values above it (p99 under 500, p90 under 50) has no interval; verdict beyond"
            + " +/-%s%%",
        settings.resamples(),
        settings.seed(),
        blocks(ea),
        blocks(eb),
        MIN_TAIL,
        Decimals.fmt(settings.minEffectPct()));
  }

  private static String blocks(Estimates e) {
    if (e.blocks() < MIN_BLOCKS) {
      return "too short for " + MIN_BLOCKS + " blocks, no interval";
    }
    return e.blocks() + " blocks of " + String.format(Locale.ROOT, "%.2f", e.blockSeconds()) + " s";
  }
}
