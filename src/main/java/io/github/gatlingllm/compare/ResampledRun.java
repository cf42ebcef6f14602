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
 *   <li>TTFT, TPOT and E2E percentiles, SLO attainment and the cache-hit ratio: over requests (each
 *       measured request drawn with replacement). A run of more than {@link #MAX_DRAWS} requests is
 *       resampled {@value #MAX_DRAWS} at a time and each resample's deviation from the run's value
 *       scaled by {@code sqrt(draws / requests)} (the m-out-of-n bootstrap of a percentile, which
 *       is asymptotically normal).
 *   <li>ITL percentiles: whole requests drawn with their gaps (at most {@value #MAX_ITL_DRAWS} a
 *       resample) from the run's sample of requests ({@link RunSamples#ITL_REQUESTS}), the
 *       percentile taken over the pooled gaps, scaled as above when the sample holds fewer than
 *       all; the value itself is the run's ITL percentile over every gap.
 *   <li>Requests/s, output tokens/s and goodput: the window cut into equal blocks of at least twice
 *       the E2E p90 (at most {@value #MAX_BLOCKS}), blocks drawn with replacement; fewer than
 *       {@value #MIN_BLOCKS} blocks: no replicates.
 * </ul>
 *
 * <p>A percentile without {@link Bootstrap#MIN_TAIL} values above it has a value but no replicates.
 * Times in milliseconds, rates per second of the window; not thread-safe.
 */
final class ResampledRun {

  /** The most requests drawn in one resample of a per-request metric. */
  static final int MAX_DRAWS = 20_000;

  /** The most requests drawn in one resample of ITL. */
  static final int MAX_ITL_DRAWS = 2_000;

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

  private ResampledRun(RunSamples s, int[] idx, MetricsAggregator.Metric itl) {
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
        int k = HeadlineMetric.index(prefixes[f] + "p" + (int) p + "_ms");
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
          int k = HeadlineMetric.index(prefixes[f] + "p" + (int) p + "_ms");
          if (reps[k] == null) {
            continue;
          }
          double star =
              len == 0 ? Double.NaN : NearestRank.select(scratch, len, NearestRank.rank(p, len));
          reps[k][r] = point[k] + (star - point[k]) * scale;
        }
      }
      if (reps[slo] != null || reps[cache] != null) {
        long[] sums = sloAndCache(drawn, draws);
        if (reps[slo] != null) {
          double star = sums[0] == 0 ? Double.NaN : (double) sums[1] / sums[0];
          reps[slo][r] = point[slo] + (star - point[slo]) * scale;
        }
        if (reps[cache] != null) {
          double star = sums[2] == 0 ? Double.NaN : (double) sums[3] / sums[2];
          reps[cache][r] = point[cache] + (star - point[cache]) * scale;
        }
      }
    }
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

  // ITL percentiles: whole requests drawn with their gaps.
  private void itlMetrics(Double[] point, double[][] reps, int resamples, SplittableRandom random) {
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
    int p50 = HeadlineMetric.index("itl_p50_ms");
    int p99 = HeadlineMetric.index("itl_p99_ms");
    double sample50 = NearestRank.select(pooled, total, NearestRank.rank(50, total));
    double sample99 = NearestRank.select(pooled, total, NearestRank.rank(99, total));
    var full = itl.distribution();
    point[p50] = full.count() > 0 ? full.p50() : sample50;
    point[p99] = full.count() > 0 ? full.p99() : sample99;
    reps[p50] = Bootstrap.tailed(50, total) ? new double[resamples] : null;
    reps[p99] = Bootstrap.tailed(99, total) ? new double[resamples] : null;
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
        reps[p50][r] =
            point[p50]
                + (NearestRank.select(scratch, len, NearestRank.rank(50, len)) - sample50) * scale;
      }
      if (reps[p99] != null) {
        reps[p99][r] =
            point[p99]
                + (NearestRank.select(scratch, len, NearestRank.rank(99, len)) - sample99) * scale;
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
    double[] e2e = gather(s.e2e, idx);
    double e2eP90 =
        e2e.length == 0 ? 0 : NearestRank.select(e2e, e2e.length, NearestRank.rank(90, e2e.length));
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
