package io.github.gatlingllm.capacity;

import java.util.Arrays;

/**
 * When a load level knows enough to end: the pure statistics of the capacity search's levels (issue
 * 44), usable by any stepped profile.
 *
 * <p>A level ends when its SLO attainment is known to be on one side of the threshold ({@code
 * llm.slo.levelAttainment}): the 95% <b>Wilson score interval</b> of the attainment (Wilson 1927;
 * the interval Agresti and Coull recommend over the normal one for proportions near 0 or 1) lies
 * wholly above the threshold (met) or wholly below it (missed). Or when every percentile the SLO
 * names is known to within a margin: for each bounded metric, the q-quantile (q = the threshold,
 * the percentile the SLO is read at) has a distribution-free 95% confidence interval between two
 * order statistics, X<sub>(l)</sub> and X<sub>(u)</sub>, whose ranks come from the exact binomial
 * distribution Bin(n, q) of the count of values below the quantile (as in Conover, <i>Practical
 * Nonparametric Statistics</i>, 3.2; GuideLLM stops a point once its p95/p99 is stable, this is the
 * interval behind such a rule); the level's percentiles are known when each interval is no wider
 * than {@code margin} times its bound (and no request is stale, below). Neither before {@code
 * minRequests} ended requests and {@code minSeconds}; always at {@code maxSeconds}.
 *
 * <p>Requests still in flight are censored, not ignored: one older than every time bound of the SLO
 * (and than the median E2E of the level's ended requests: younger, it is most likely decoding after
 * a first token in time) may already have missed it: the caller counts these as stale. The
 * attainment is bracketed: counting such requests as missed for the test that it is above the
 * threshold, and as met for the test that it is below. So a level whose queue grows (its slow
 * requests not yet ended) is never called met on its fast ones.
 */
public final class LevelPrecision {

  /** The two-sided 95% normal quantile. */
  public static final double Z95 = 1.959963984540054;

  private LevelPrecision() {}

  /**
   * A closed interval.
   *
   * @param low its lower end
   * @param high its upper end, at least {@code low}
   */
  public record Interval(double low, double high) {
    /** Checks the ends. */
    public Interval {
      if (!(low <= high)) {
        throw new IllegalArgumentException("interval: low " + low + " must be <= high " + high);
      }
    }
  }

  /**
   * Why a level ends (or that it goes on), as {@code llm-run.json}'s {@code ended_by} writes it.
   */
  public enum Reason {
    /** Not yet known: the level goes on. */
    CONTINUE,
    /** The attainment's Wilson interval lies above the threshold. */
    ATTAINMENT_ABOVE,
    /** The attainment's Wilson interval lies below the threshold. */
    ATTAINMENT_BELOW,
    /** Every percentile the SLO names is known to within the margin. */
    PERCENTILES_KNOWN,
    /** The level reached its longest duration. */
    MAX_DURATION,
    /** The hold's set length is over. */
    HOLD_OVER,
    /** The warm-up's set length is over (a level not judged). */
    WARMUP_OVER,
    /** The run stopped inside the level (the target down, the run's own end). */
    RUN_STOPPED;

    /**
     * The name in the record.
     *
     * @return e.g. {@code attainment_above}
     */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * The Wilson score interval of a proportion.
   *
   * @param successes successes, in [0, n]
   * @param n trials, at least 1
   * @param z the normal quantile of the confidence (e.g. {@link #Z95})
   * @return the interval, within [0, 1]
   * @throws IllegalArgumentException if the counts are out of range or z is not above 0
   */
  public static Interval wilson(long successes, long n, double z) {
    if (n < 1 || successes < 0 || successes > n) {
      throw new IllegalArgumentException(
          "wilson: successes " + successes + " of n " + n + ": need 0 <= successes <= n, n >= 1");
    }
    if (!(z > 0) || Double.isInfinite(z)) {
      throw new IllegalArgumentException("wilson: z must be finite and > 0, got " + z);
    }
    double p = (double) successes / n;
    double z2 = z * z;
    double denominator = 1 + z2 / n;
    double centre = (p + z2 / (2.0 * n)) / denominator;
    double half = z / denominator * Math.sqrt(p * (1 - p) / n + z2 / (4.0 * n * n));
    return new Interval(Math.max(0, centre - half), Math.min(1, centre + half));
  }

  /**
   * The ranks (1-based) of the order statistics that bound a distribution-free confidence interval
   * of the q-quantile of n values: the largest l with P(B &lt;= l - 1) &lt;= alpha/2 and the
   * smallest u with P(B &gt;= u) &lt;= alpha/2, B ~ Bin(n, q), so that P(X<sub>(l)</sub> &lt;=
   * quantile &lt; X<sub>(u)</sub>) &gt;= 1 - alpha.
   *
   * @param n the number of values, at least 1
   * @param q the quantile, in (0, 1)
   * @param alpha one minus the confidence, in (0, 1)
   * @return {l, u}; l is 0 when no order statistic bounds it from below, u is n + 1 when none
   *     bounds it from above (too few values for that confidence)
   * @throws IllegalArgumentException if a value is out of range
   */
  public static int[] quantileRanks(int n, double q, double alpha) {
    if (n < 1 || !(q > 0 && q < 1) || !(alpha > 0 && alpha < 1)) {
      throw new IllegalArgumentException(
          "quantileRanks: need n >= 1, q and alpha in (0, 1), got n "
              + n
              + ", q "
              + q
              + ", alpha "
              + alpha);
    }
    double[] pmf = binomialPmf(n, q);
    double half = alpha / 2;
    // lower: the largest l in [1, n] with P(B <= l - 1) <= alpha / 2
    int l = 0;
    double below = 0;
    for (int k = 1; k <= n; k++) {
      below += pmf[k - 1];
      if (below <= half) {
        l = k;
      } else {
        break;
      }
    }
    // upper: the smallest u in [1, n] with P(B >= u) <= alpha / 2
    int u = n + 1;
    double above = 0;
    for (int k = n; k >= 1; k--) {
      above += pmf[k];
      if (above <= half) {
        u = k;
      } else {
        break;
      }
    }
    return new int[] {l, u};
  }

  /** P(B = k) for k in [0, n], B ~ Bin(n, q), in log space. */
  private static double[] binomialPmf(int n, double q) {
    double[] pmf = new double[n + 1];
    double logQ = Math.log(q);
    double log1Q = Math.log1p(-q);
    double logC = 0; // log C(n, 0)
    for (int k = 0; k <= n; k++) {
      if (k > 0) {
        logC += Math.log((double) (n - k + 1) / k);
      }
      pmf[k] = Math.exp(logC + k * logQ + (n - k) * log1Q);
    }
    return pmf;
  }

  /**
   * The distribution-free 95% confidence interval of the q-quantile of some values.
   *
   * @param values the values (not changed), none NaN
   * @param q the quantile, in (0, 1)
   * @return the interval between the two order statistics, or null when there are too few values
   *     for either end
   */
  public static Interval quantileInterval(double[] values, double q) {
    if (values.length == 0) {
      return null;
    }
    int[] ranks = quantileRanks(values.length, q, 0.05);
    if (ranks[0] < 1 || ranks[1] > values.length) {
      return null;
    }
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return new Interval(sorted[ranks[0] - 1], sorted[ranks[1] - 1]);
  }

  /**
   * What a level knows so far.
   *
   * @param elapsedMs how long the level has run, ms
   * @param ended its requests that ended (succeeded or not), at least 0
   * @param met those of them that met the SLO, in [0, ended]
   * @param stale requests still in flight that started longer ago than every time bound of the SLO:
   *     each may have missed it already, at least 0
   * @param percentiles for each metric the SLO bounds, its values' q-quantile interval ({@link
   *     #quantileInterval}) and its bound; empty when the SLO bounds none that way
   */
  public record Known(long elapsedMs, long ended, long met, long stale, Percentile[] percentiles) {
    /** Checks the counts. */
    public Known {
      if (elapsedMs < 0 || ended < 0 || met < 0 || met > ended || stale < 0) {
        throw new IllegalArgumentException(
            "known: need elapsedMs, ended, stale >= 0 and 0 <= met <= ended, got elapsedMs "
                + elapsedMs
                + ", ended "
                + ended
                + ", met "
                + met
                + ", stale "
                + stale);
      }
      percentiles = percentiles == null ? new Percentile[0] : percentiles.clone();
    }
  }

  /**
   * One SLO metric's percentile and its bound.
   *
   * @param metric e.g. {@code ttft}
   * @param interval the percentile's interval, or null when not known yet
   * @param boundMs the SLO's bound, ms, above 0
   */
  public record Percentile(String metric, Interval interval, double boundMs) {}

  /**
   * The rules' settings.
   *
   * @param threshold the least attainment meeting the SLO, in (0, 1]
   * @param minRequests ended requests before any rule but the longest duration, at least 1
   * @param minMs time before any rule but the longest duration, ms, at least 0
   * @param maxMs the longest a level runs, ms, at least {@code minMs}
   * @param margin the widest a percentile's interval may be, as a share of its bound, above 0
   */
  public record Rules(double threshold, long minRequests, long minMs, long maxMs, double margin) {
    /** Checks the values. */
    public Rules {
      if (!(threshold > 0 && threshold <= 1)) {
        throw new IllegalArgumentException("rules: threshold must be in (0, 1], got " + threshold);
      }
      if (minRequests < 1 || minMs < 0 || maxMs < minMs || !(margin > 0)) {
        throw new IllegalArgumentException(
            "rules: need minRequests >= 1, 0 <= minMs <= maxMs, margin > 0, got "
                + minRequests
                + ", "
                + minMs
                + ", "
                + maxMs
                + ", "
                + margin);
      }
    }
  }

  /**
   * Whether a level ends now, and why: at its longest duration; else, past its minimum requests and
   * time, when the attainment's bracketed Wilson interval is clear of the threshold, or when every
   * SLO percentile is known to within the margin.
   *
   * @param known what the level knows, never null
   * @param rules the rules, never null
   * @return {@link Reason#CONTINUE} while the level goes on
   */
  public static Reason judge(Known known, Rules rules) {
    if (known.elapsedMs() >= rules.maxMs()) {
      return Reason.MAX_DURATION;
    }
    if (known.elapsedMs() < rules.minMs() || known.ended() < rules.minRequests()) {
      return Reason.CONTINUE;
    }
    long n = known.ended() + known.stale();
    // above: the stale ones counted as missed; below: counted as met
    if (wilson(known.met(), n, Z95).low() > rules.threshold()) {
      return Reason.ATTAINMENT_ABOVE;
    }
    if (wilson(known.met() + known.stale(), n, Z95).high() < rules.threshold()) {
      return Reason.ATTAINMENT_BELOW;
    }
    if (known.percentiles().length == 0 || known.stale() > 0) {
      // the percentiles of the ended requests say nothing of those still in flight
      return Reason.CONTINUE;
    }
    for (Percentile p : known.percentiles()) {
      if (p.interval() == null
          || p.interval().high() - p.interval().low() > rules.margin() * p.boundMs()) {
        return Reason.CONTINUE;
      }
    }
    return Reason.PERCENTILES_KNOWN;
  }
}
