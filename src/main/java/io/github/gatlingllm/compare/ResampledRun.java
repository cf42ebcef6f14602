package io.github.gatlingllm.compare;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.stats.Bootstrap;
import io.github.gatlingllm.stats.NearestRank;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.SplittableRandom;

/**
 * The requests of one run (or one load level of it) that a comparison resamples, and their
 * estimates: each headline metric's value and its bootstrap replicates ({@link Estimates}), by
 * {@link HeadlineMetric#ALL} index.
 *
 * <ul>
 *   <li>Every metric over time blocks: the window cut into equal blocks of at least twice the E2E
 *       p90 (at least {@value #MIN_BLOCKS}, at most {@value #MAX_BLOCKS}), whole blocks drawn with
 *       replacement.
 *   <li>TTFT, TPOT and E2E percentiles, SLO attainment and the cache-hit ratio: over the requests
 *       started in the drawn blocks; a run of more than {@value #MAX_DRAWS} requests keeps a seeded
 *       uniform share of each block.
 *   <li>ITL percentiles: the gaps of the sampled requests ({@link RunSamples#ITL_REQUESTS}) started
 *       in the drawn blocks, the deviation from the sample's percentile carried onto the run's
 *       value over every gap.
 *   <li>Requests/s, output tokens/s and goodput: each request's count spread over its life and its
 *       tokens over their stream, in proportion to the time in each block; fewer than {@value
 *       #MIN_BLOCKS} blocks: no replicates.
 * </ul>
 *
 * <p>A percentile without {@link Bootstrap#MIN_TAIL} values above it has a value but no replicates.
 * Times in milliseconds, rates per second of the window; not thread-safe.
 */
final class ResampledRun {

  /** The most requests drawn in one resample of a per-request metric. */
  static final int MAX_DRAWS = 20_000;

  /** The fewest time blocks a throughput interval is made from. */
  static final int MIN_BLOCKS = 5;

  /** The most time blocks a run's window is cut into. */
  static final int MAX_BLOCKS = 200;

  /**
   * One run's point estimates and replicates, by metric index; null where not measured.
   *
   * @param point each metric's value in the run, or null
   * @param replicates each metric's bootstrap replicates, or null without an interval
   * @param blocks the time blocks of the throughput metrics
   * @param blockSeconds a block's length, seconds
   */
  record Estimates(Double[] point, double[][] replicates, int blocks, double blockSeconds) {}

  private final RunSamples s;
  private final int[] idx;
  private final MetricsAggregator.Metric itl;
  private final long windowStart;
  private final long windowEnd;
  private final long lastStart;

  private ResampledRun(RunSamples s, int[] idx, MetricsAggregator.Metric itl) {
    this.s = s;
    this.idx = idx;
    this.itl = itl;
    long start = Long.MAX_VALUE;
    long end = Long.MIN_VALUE;
    long last = Long.MIN_VALUE;
    for (int i : idx) {
      start = Math.min(start, s.startMs[i]);
      end = Math.max(end, s.endMs[i]);
      last = Math.max(last, s.startMs[i]);
    }
    this.windowStart = start;
    this.windowEnd = end;
    this.lastStart = last;
  }

  /**
   * Every measured request of a run.
   *
   * @param s the run, never null
   * @return its requests
   */
  static ResampledRun all(RunSamples s) {
    int[] idx = new int[s.n];
    for (int i = 0; i < s.n; i++) {
      idx[i] = i;
    }
    return new ResampledRun(s, idx, s.itlAll);
  }

  /**
   * The requests of a run that started in one of its load levels.
   *
   * @param s the run, never null
   * @param level the level's index, from 0
   * @return its requests, or null when none started in it
   */
  static ResampledRun level(RunSamples s, int level) {
    int count = 0;
    int[] idx = new int[s.n];
    for (int i = 0; i < s.n; i++) {
      if (s.level(s.startMs[i]) == level) {
        idx[count++] = i;
      }
    }
    return count == 0
        ? null
        : new ResampledRun(s, Arrays.copyOf(idx, count), s.itlByLevel.get(level));
  }

  /**
   * Each metric's value in each of {@code k} stretches of the run with equal shares of its
   * requests, in start order (throughput over each stretch's own window; ITL over the sampled
   * requests' gaps): what the run itself shows of the variation between stretches of time, the
   * noise floor of a comparison.
   *
   * @param k how many stretches, at least 2
   * @return each stretch's values by metric index, null where not measured; null when the run has
   *     fewer than {@code k} requests
   */
  Double[][] stretches(int k) {
    if (idx.length < k) {
      return null;
    }
    Integer[] order = new Integer[idx.length];
    for (int j = 0; j < idx.length; j++) {
      order[j] = idx[j];
    }
    Arrays.sort(order, (x, y) -> Long.compare(s.startMs[x], s.startMs[y]));
    Double[][] out = new Double[k][];
    SplittableRandom none = new SplittableRandom(0);
    for (int part = 0; part < k; part++) {
      int from = (int) ((long) idx.length * part / k);
      int to = (int) ((long) idx.length * (part + 1) / k);
      int[] some = new int[to - from];
      for (int j = from; j < to; j++) {
        some[j - from] = order[j];
      }
      out[part] = new ResampledRun(s, some, null).estimates(0, none.split()).point();
    }
    return out;
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

  /**
   * Each metric's value and replicates.
   *
   * @param resamples how many replicates of each metric with an interval
   * @param random the seeded source of the draws; split for each kind of metric
   * @return the estimates
   */
  Estimates estimates(int resamples, SplittableRandom random) {
    int metrics = HeadlineMetric.ALL.size();
    Double[] point = new Double[metrics];
    double[][] reps = new double[metrics][];
    requestMetrics(point, reps, resamples, random.split());
    itlMetrics(point, reps, resamples, random.split());
    double[] blocks = blockMetrics(point, reps, resamples, random.split());
    return new Estimates(point, reps, (int) blocks[0], blocks[1]);
  }

  // TTFT, TPOT and E2E percentiles, SLO attainment, cache-hit ratio: over time blocks.
  private void requestMetrics(
      Double[] point, double[][] reps, int resamples, SplittableRandom random) {
    double[][] values = {gather(s.ttft, idx), gather(s.tpot, idx), gather(s.e2e, idx)};
    // Point estimates, over every request.
    for (int f = 0; f < values.length; f++) {
      double[] v = values[f].clone();
      for (double p : PERCENTILES[f]) {
        int k = HeadlineMetric.index(PREFIXES[f] + "p" + (int) p + "_ms");
        if (v.length > 0) {
          point[k] = NearestRank.select(v, v.length, NearestRank.rank(p, v.length));
          if (Bootstrap.tailed(p, v.length)) {
            reps[k] = new double[resamples];
          }
        }
      }
    }
    int slo = HeadlineMetric.index("slo_attainment");
    int cache = HeadlineMetric.index("cache_hit_ratio");
    long[] all = sloAndCache(idx, idx.length);
    if (all[0] > 0) {
      point[slo] = (double) all[1] / all[0];
      reps[slo] = new double[resamples];
    }
    if (all[2] > 0) {
      point[cache] = (double) all[3] / all[2];
      reps[cache] = new double[resamples];
    }
    // Each time block's requests, at most MAX_DRAWS in all (a seeded uniform share of each block).
    int[][] members = blockMembers(random.split());
    int kept = 0;
    for (int[] m : members) {
      kept += m.length;
    }
    double[][] fields = {s.ttft, s.tpot, s.e2e};
    int[] drawn = new int[kept * 2 + 16];
    double[] scratch = new double[drawn.length];
    for (int r = 0; r < resamples; r++) {
      int len = 0;
      for (int b = 0; b < members.length; b++) {
        int[] m = members[random.nextInt(members.length)];
        if (len + m.length > drawn.length) {
          drawn = Arrays.copyOf(drawn, (len + m.length) * 2);
          scratch = new double[drawn.length];
        }
        System.arraycopy(m, 0, drawn, len, m.length);
        len += m.length;
      }
      for (int f = 0; f < fields.length; f++) {
        if (values[f].length == 0) {
          continue;
        }
        int count = 0;
        for (int d = 0; d < len; d++) {
          double v = fields[f][drawn[d]];
          if (!Double.isNaN(v)) {
            scratch[count++] = v;
          }
        }
        for (double p : PERCENTILES[f]) {
          int k = HeadlineMetric.index(PREFIXES[f] + "p" + (int) p + "_ms");
          if (reps[k] != null) {
            reps[k][r] =
                count == 0
                    ? Double.NaN
                    : NearestRank.select(scratch, count, NearestRank.rank(p, count));
          }
        }
      }
      if (reps[slo] != null || reps[cache] != null) {
        long[] sums = sloAndCache(drawn, len);
        if (reps[slo] != null) {
          reps[slo][r] = sums[0] == 0 ? Double.NaN : (double) sums[1] / sums[0];
        }
        if (reps[cache] != null) {
          reps[cache][r] = sums[2] == 0 ? Double.NaN : (double) sums[3] / sums[2];
        }
      }
    }
  }

  private static final String[] PREFIXES = {"ttft_", "tpot_", "e2e_"};
  private static final double[][] PERCENTILES = {{50, 90, 99}, {50, 99}, {50, 99}};

  /**
   * The requests of each time block by start ({@link #startBlocks()}), in start order; a run of
   * more than {@link #MAX_DRAWS} requests keeps a seeded uniform share of each block, so that at
   * most about {@value #MAX_DRAWS} are kept in all.
   */
  private int[][] blockMembers(SplittableRandom random) {
    int blocks = startBlocks();
    double blockMs = (double) (lastStart - windowStart + 1) / blocks;
    int[] count = new int[blocks];
    int[] of = new int[idx.length];
    for (int j = 0; j < idx.length; j++) {
      of[j] = (int) Math.min(blocks - 1, (s.startMs[idx[j]] - windowStart) / blockMs);
      count[of[j]]++;
    }
    int[][] members = new int[blocks][];
    for (int b = 0; b < blocks; b++) {
      members[b] = new int[count[b]];
    }
    int[] at = new int[blocks];
    for (int j = 0; j < idx.length; j++) {
      members[of[j]][at[of[j]]++] = idx[j];
    }
    if (idx.length > MAX_DRAWS) {
      double share = (double) MAX_DRAWS / idx.length;
      for (int b = 0; b < blocks; b++) {
        int[] m = members[b];
        int keep = (int) Math.ceil(m.length * share);
        // A partial Fisher-Yates shuffle: the first keep are a uniform sample of the block.
        for (int i = 0; i < keep; i++) {
          int j = i + random.nextInt(m.length - i);
          int t = m[i];
          m[i] = m[j];
          m[j] = t;
        }
        members[b] = Arrays.copyOf(m, keep);
      }
    }
    return members;
  }

  /**
   * How many time blocks the requests' starts are cut into for the latency metrics: blocks as long
   * as the throughput's (at least twice the E2E p90), over the span of the starts, at least {@value
   * #MIN_BLOCKS} and at most {@value #MAX_BLOCKS}, and never more than the requests.
   */
  int startBlocks() {
    double spanMs = lastStart - windowStart + 1;
    int blocks = (int) Math.min(MAX_BLOCKS, Math.floor(spanMs / blockMs()));
    return Math.max(1, Math.min(idx.length, Math.max(MIN_BLOCKS, blocks)));
  }

  /**
   * The length of a time block: twice the E2E p90, at least the window over MAX_BLOCKS and 1 ms.
   */
  private double blockMs() {
    double[] e2e = gather(s.e2e, idx);
    double e2eP90 =
        e2e.length == 0 ? 0 : NearestRank.select(e2e, e2e.length, NearestRank.rank(90, e2e.length));
    double windowMs = windowEnd - windowStart;
    return Math.max(Math.max(2 * e2eP90, windowMs / MAX_BLOCKS), 1);
  }

  /**
   * The SLO and cache sums of some requests: {@code {judged, met, prompt tokens, cached tokens}}
   * over the first {@code len} of {@code indices} (repeats counted each time), the requests not
   * judged or not reporting cached tokens left out of their pair.
   */
  private long[] sloAndCache(int[] indices, int len) {
    long[] sums = new long[4];
    for (int d = 0; d < len; d++) {
      int i = indices[d];
      if (s.slo1[i] >= 0) {
        sums[0]++;
        sums[1] += s.slo1[i];
      }
      if (s.prompt[i] >= 0) {
        sums[2] += s.prompt[i];
        sums[3] += s.cached[i];
      }
    }
    return sums;
  }

  // ITL percentiles: the sampled requests of whole time blocks drawn, with all their gaps.
  private void itlMetrics(Double[] point, double[][] reps, int resamples, SplittableRandom random) {
    boolean[] in = new boolean[s.n];
    for (int i : idx) {
      in[i] = true;
    }
    int blocks = startBlocks();
    double blockMs = (double) (lastStart - windowStart + 1) / blocks;
    List<List<float[]>> byBlock = new ArrayList<>();
    for (int b = 0; b < blocks; b++) {
      byBlock.add(new ArrayList<>());
    }
    int total = 0;
    for (int j = 0; j < s.itlKept; j++) {
      int owner = s.itlOwner[j];
      if (in[owner]) {
        int b = (int) Math.min(blocks - 1, Math.max(0, (s.startMs[owner] - windowStart) / blockMs));
        byBlock.get(b).add(s.itlGaps[j]);
        total += s.itlGaps[j].length;
      }
    }
    if (total == 0) {
      return;
    }
    float[][] blockGaps = new float[blocks][];
    double[] pooled = new double[total];
    int at = 0;
    for (int b = 0; b < blocks; b++) {
      int len = 0;
      for (float[] g : byBlock.get(b)) {
        len += g.length;
      }
      blockGaps[b] = new float[len];
      int k = 0;
      for (float[] g : byBlock.get(b)) {
        System.arraycopy(g, 0, blockGaps[b], k, g.length);
        k += g.length;
        for (float v : g) {
          pooled[at++] = v;
        }
      }
    }
    int p50 = HeadlineMetric.index("itl_p50_ms");
    int p99 = HeadlineMetric.index("itl_p99_ms");
    double sample50 = NearestRank.select(pooled, total, NearestRank.rank(50, total));
    double sample99 = NearestRank.select(pooled, total, NearestRank.rank(99, total));
    var full = itl == null ? null : itl.distribution();
    point[p50] = full != null && full.count() > 0 ? full.p50() : sample50;
    point[p99] = full != null && full.count() > 0 ? full.p99() : sample99;
    reps[p50] = Bootstrap.tailed(50, total) ? new double[resamples] : null;
    reps[p99] = Bootstrap.tailed(99, total) ? new double[resamples] : null;
    if (reps[p50] == null && reps[p99] == null) {
      return;
    }
    double[] scratch = new double[total * 2 + 16];
    for (int r = 0; r < resamples; r++) {
      int len = 0;
      for (int d = 0; d < blocks; d++) {
        float[] g = blockGaps[random.nextInt(blocks)];
        if (len + g.length > scratch.length) {
          scratch = Arrays.copyOf(scratch, (len + g.length) * 2);
        }
        for (float v : g) {
          scratch[len++] = v;
        }
      }
      // The sample's deviation carried onto the run's value (over every gap).
      if (reps[p50] != null) {
        reps[p50][r] =
            len == 0
                ? Double.NaN
                : point[p50]
                    + NearestRank.select(scratch, len, NearestRank.rank(50, len))
                    - sample50;
      }
      if (reps[p99] != null) {
        reps[p99][r] =
            len == 0
                ? Double.NaN
                : point[p99]
                    + NearestRank.select(scratch, len, NearestRank.rank(99, len))
                    - sample99;
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
    int rps = HeadlineMetric.index("requests_per_s");
    int tps = HeadlineMetric.index("output_tokens_per_s");
    int gps = HeadlineMetric.index("goodput_requests_per_s");
    point[rps] = okCount / seconds;
    point[tps] = tokens / seconds;
    if (judged) {
      point[gps] = good / seconds;
    }
    double windowMs = windowEnd - windowStart;
    double blockMs = blockMs();
    int blocks = (int) Math.floor(windowMs / blockMs);
    if (blocks < MIN_BLOCKS) {
      return new double[] {blocks, blockMs / 1000};
    }
    blockMs = windowMs / blocks;
    // Each request's count spread over its life (start to end) and its output tokens over their
    // stream (first token to end), in proportion to the time in each block: the sums over the
    // blocks stay the run's own, but a request ending just past a block's edge no longer swings
    // two blocks' counts (in a closed loop the ends come in waves, and counting them where they
    // fall made the interval several times too wide).
    double[] c = new double[blocks];
    double[] t = new double[blocks];
    double[] g = new double[blocks];
    for (int i : idx) {
      double from = s.startMs[i] - windowStart;
      double to = s.endMs[i] - windowStart;
      if (s.ok[i]) {
        spread(c, 1, from, to, blockMs);
        double first = Double.isNaN(s.ttft[i]) ? from : Math.min(to, from + s.ttft[i]);
        spread(t, s.completion[i], first, to, blockMs);
      }
      if (s.slo1[i] > 0) {
        spread(g, 1, from, to, blockMs);
      }
    }
    reps[rps] = new double[resamples];
    reps[tps] = new double[resamples];
    if (judged) {
      reps[gps] = new double[resamples];
    }
    for (int r = 0; r < resamples; r++) {
      double sc = 0;
      double st = 0;
      double sg = 0;
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

  /**
   * Adds {@code amount} to the blocks of {@code into} in proportion to the part of {@code [from,
   * to]} (ms from the window's start) in each; all of it to one block when the span is empty.
   */
  static void spread(double[] into, double amount, double from, double to, double blockMs) {
    int blocks = into.length;
    int first = (int) Math.min(blocks - 1, Math.max(0, Math.floor(from / blockMs)));
    int last = (int) Math.min(blocks - 1, Math.max(0, Math.floor(to / blockMs)));
    if (!(to > from) || first == last) {
      into[last] += amount;
      return;
    }
    double span = to - from;
    for (int b = first; b <= last; b++) {
      double lo = b == first ? from : b * blockMs;
      double hi = b == last ? to : (b + 1) * blockMs;
      into[b] += amount * Math.max(0, hi - lo) / span;
    }
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
}
