package io.github.gatlingllm.cache;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.CacheSummary;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.TreeMap;

/**
 * The run's prefix cache against its plan: planned and observed cache-hit ratios, outcome counts,
 * TTFT and E2E by outcome, overall, per workload and request name (a series: never pooled across
 * workloads, so modes are never mixed) and per prefix group; whether the server's cache was warm
 * before the run; and a verdict. This is {@code llm-run.json}'s {@code cache}.
 *
 * <p>What counts: successful measured requests with a cache plan (a prompt workload's); warmup
 * requests only count towards the warm start, which any phase reveals. The planned ratio is the
 * planned cached tokens over the prompt tokens, the observed ratio the cached tokens over the
 * prompt tokens, both over the requests whose server reported cached tokens (when none did, the
 * planned ratio is over those that reported prompt tokens and the observed one is null).
 *
 * <p>Verdict, for the run and for each series: {@code unknown} when no request reported cached
 * tokens, or when most measured requests with a cache plan did not succeed (failed, or cut by the
 * run's end): the few that did say nothing of the cache, and a run that mostly failed is as planned
 * nowhere; {@code above plan} when the observed ratio exceeds the planned one by more than the
 * tolerance, {@code below plan} when it falls short by more than it, else {@code as planned}.
 *
 * <p>Thread-safe; each {@link #add} takes a lock.
 */
public final class CacheAggregator {

  /** The verdict when observed and planned ratios agree within the tolerance. */
  public static final String AS_PLANNED = "as planned";

  /** The verdict when the server cached more than planned. */
  public static final String ABOVE_PLAN = "above plan";

  /** The verdict when the server cached less than planned. */
  public static final String BELOW_PLAN = "below plan";

  /** The verdict when the server reports no cached tokens. */
  public static final String UNKNOWN = "unknown";

  private static final double EPSILON = 1e-9;

  private final double tolerance;
  private final Bucket overall = new Bucket();
  private final TreeMap<SeriesKey, Series> series = new TreeMap<>();
  private long warmStarts;
  private long plannedRequests;
  private long measuredFailed;
  private long measuredCut;

  /**
   * An empty aggregator.
   *
   * @param tolerance how far the observed ratio may be from the planned one for {@code as planned},
   *     in [0, 1]
   * @throws IllegalArgumentException if the tolerance is out of range
   */
  public CacheAggregator(double tolerance) {
    if (!(tolerance >= 0 && tolerance <= 1)) {
      throw new IllegalArgumentException(
          "cache tolerance: got " + tolerance + ", expected a share in [0, 1]");
    }
    this.tolerance = tolerance;
  }

  /**
   * Adds one request; requests without a cache plan are left out.
   *
   * @param r the record, never null
   */
  public synchronized void add(RequestRecord r) {
    Objects.requireNonNull(r, "record");
    if (r.cachePlanned() == null) {
      return;
    }
    plannedRequests++;
    if (r.warmStart()) {
      warmStarts++;
    }
    if (Phase.isWarmup(r.phase())) {
      return;
    }
    if (r.status() == RequestStatus.CUT_BY_RUN_END) {
      measuredCut++;
      return;
    }
    if (r.status() != RequestStatus.OK) {
      measuredFailed++;
      return;
    }
    overall.add(r);
    Series s =
        series.computeIfAbsent(
            new SeriesKey(r.workload() == null ? "" : r.workload(), r.request()),
            k -> new Series());
    s.all.add(r);
    if (r.prefixGroup() != null) {
      s.groups.computeIfAbsent(r.prefixGroup(), g -> new Bucket()).add(r);
    }
  }

  /**
   * Requests of any phase whose plan says they must miss and that found an unplanned hit.
   *
   * @return the count
   */
  public synchronized long warmStarts() {
    return warmStarts;
  }

  /**
   * The run's verdict.
   *
   * @return {@code as planned}, {@code above plan}, {@code below plan} or {@code unknown}
   */
  public synchronized String verdict() {
    return mostFailed() ? UNKNOWN : overall.verdict(tolerance);
  }

  /** Whether most measured requests with a cache plan did not succeed (failed or cut). */
  private boolean mostFailed() {
    return measuredFailed + measuredCut > overall.requests;
  }

  /**
   * Why a run whose measured requests mostly failed has no verdict, in words.
   *
   * @return e.g. {@code most measured requests with a cache plan did not succeed (1921 of 2000:
   *     1921 failed), so the 79 that did are too few to judge the cache}
   */
  private String mostFailedReason() {
    long notOk = measuredFailed + measuredCut;
    List<String> parts = new ArrayList<>();
    if (measuredFailed > 0) {
      parts.add(measuredFailed + " failed");
    }
    if (measuredCut > 0) {
      parts.add(measuredCut + " cut by the run's end");
    }
    return "most measured requests with a cache plan did not succeed ("
        + notOk
        + " of "
        + (notOk + overall.requests)
        + ": "
        + String.join(", ", parts)
        + "), so the "
        + overall.requests
        + (overall.requests == 1 ? " that did is" : " that did are")
        + " too few to judge the cache";
  }

  /**
   * The run's verdict and figures in one line, for the log, e.g. {@code cache as planned: observed
   * hit ratio 0.48, planned 0.48 (tolerance 0.05); 96 hit, 4 miss of 100 measured requests}, and
   * the warm start's count when there was one; null when no request had a plan. With no verdict,
   * the line says why in words: {@code cache: no verdict: none of the 4 measured requests with a
   * cache plan succeeded (4 failed), so no cache hit was observed}, or {@code cache unknown: the
   * server reported no cached tokens for the 100 measured requests (planned hit ratio 0.48)}.
   *
   * @return the line, or null
   */
  public synchronized String describe() {
    if (plannedRequests == 0) {
      return null;
    }
    StringBuilder text;
    if (overall.requests == 0) {
      text = new StringBuilder("cache: no verdict: ").append(noSuccess());
    } else if (mostFailed()) {
      text = new StringBuilder("cache unknown: ").append(mostFailedReason());
    } else if (overall.observed() == null) {
      text =
          new StringBuilder("cache unknown: the server reported no cached tokens for the ")
              .append(overall.requests)
              .append(overall.requests == 1 ? " measured request" : " measured requests")
              .append(" (planned hit ratio ")
              .append(overall.planned() == null ? "unknown" : round(overall.planned()))
              .append(')');
    } else {
      text = new StringBuilder("cache ").append(overall.verdict(tolerance));
      text.append(": observed hit ratio ")
          .append(round(overall.observed()))
          .append(", planned ")
          .append(round(overall.planned()))
          .append(" (tolerance ")
          .append(round(tolerance))
          .append(");");
      boolean first = true;
      for (CacheOutcome o : CacheOutcome.values()) {
        long n = overall.outcomes.get(o);
        if (n > 0) {
          text.append(first ? " " : ", ").append(n).append(' ').append(o.wireName());
          first = false;
        }
      }
      text.append(" of ").append(overall.requests).append(" measured requests");
    }
    if (warmStarts > 0) {
      text.append("; warm start: ")
          .append(warmStarts)
          .append(warmStarts == 1 ? " request" : " requests")
          .append(" found prompts of this run in the cache before the run sent them");
    }
    return text.toString();
  }

  /**
   * Why there is no verdict, in words, when no measured request with a plan succeeded.
   *
   * @return e.g. {@code none of the 4 measured requests with a cache plan succeeded (3 failed, 1
   *     cut by the run's end), so no cache hit was observed}
   */
  private String noSuccess() {
    long measured = measuredFailed + measuredCut;
    if (measured == 0) {
      return "no measured request with a cache plan was sent, so no cache hit was observed";
    }
    List<String> parts = new ArrayList<>();
    if (measuredFailed > 0) {
      parts.add(measuredFailed + " failed");
    }
    if (measuredCut > 0) {
      parts.add(measuredCut + " cut by the run's end");
    }
    return (measured == 1
            ? "the one measured request with a cache plan did not succeed ("
            : "none of the " + measured + " measured requests with a cache plan succeeded (")
        + String.join(", ", parts)
        + "), so no cache hit was observed";
  }

  /**
   * The warm-start warning, as the console, {@code llm-run.json} and the report give it.
   *
   * @param prompts how many of the run's prompts the cache already held
   * @return the text
   */
  public static String warmStartText(long prompts) {
    return "the server's cache already held "
        + prompts
        + " of this run's prompts (a run with the same seed before?): change llm.seed"
        + " (llm.seed=auto picks a fresh one) or reset the server's cache";
  }

  /**
   * The record, {@code llm-run.json}'s {@code cache} ({@link CacheSummary}).
   *
   * @param parameters what the plan knew of the server (block tokens, template tokens...), or null
   *     when not known
   * @return the summary
   */
  public synchronized CacheSummary summary(CacheSummary.Parameters parameters) {
    boolean mostFailed = overall.requests > 0 && mostFailed();
    // The verdict after the warm start, as people read it.
    String verdict = mostFailed ? UNKNOWN : overall.verdict(tolerance);
    List<CacheSummary.Series> list = new ArrayList<>();
    for (Map.Entry<SeriesKey, Series> e : series.entrySet()) {
      Bucket all = e.getValue().all;
      List<CacheSummary.PrefixGroup> groups = null;
      if (!e.getValue().groups.isEmpty()) {
        groups = new ArrayList<>();
        for (Map.Entry<Integer, Bucket> g : e.getValue().groups.entrySet()) {
          Bucket b = g.getValue();
          groups.add(
              new CacheSummary.PrefixGroup(
                  g.getKey(),
                  b.requests,
                  b.planned(),
                  b.observed(),
                  b.outcomeCounts(),
                  b.asPlanned,
                  b.ttft.distribution(),
                  b.e2e.distribution()));
        }
      }
      list.add(
          new CacheSummary.Series(
              e.getKey().workload().isEmpty() ? null : e.getKey().workload(),
              e.getKey().request(),
              all.requests,
              all.planned(),
              all.observed(),
              all.outcomeCounts(),
              all.asPlanned,
              // A run that mostly failed is as planned nowhere, not even in a series.
              mostFailed ? UNKNOWN : all.verdict(tolerance),
              all.latencyByOutcome(),
              groups));
    }
    return new CacheSummary(
        parameters,
        tolerance,
        overall.requests,
        overall.planned(),
        overall.observed(),
        overall.outcomeCounts(),
        overall.asPlanned,
        warmStarts > 0,
        warmStarts,
        warmStarts > 0 ? warmStartText(warmStarts) : null,
        verdict,
        plannedRequests,
        UNKNOWN.equals(verdict)
            ? overall.requests == 0
                ? noSuccess()
                : mostFailed ? mostFailedReason() : "the server reported no cached tokens"
            : null,
        overall.latencyByOutcome(),
        list,
        null);
  }

  private static double round(Double v) {
    return v == null ? Double.NaN : Math.round(v * 1000) / 1000.0;
  }

  private record SeriesKey(String workload, String request) implements Comparable<SeriesKey> {
    private static final Comparator<SeriesKey> ORDER =
        Comparator.comparing(SeriesKey::workload).thenComparing(SeriesKey::request);

    @Override
    public int compareTo(SeriesKey o) {
      return ORDER.compare(this, o);
    }
  }

  private static final class Series {
    final Bucket all = new Bucket();
    final TreeMap<Integer, Bucket> groups = new TreeMap<>();
  }

  /** The figures of one set of requests. */
  private static final class Bucket {
    long requests;
    long asPlanned;
    final EnumMap<CacheOutcome, Long> outcomes = new EnumMap<>(CacheOutcome.class);
    long promptReported;
    long plannedReported;
    long cachedReported;
    long promptAll;
    long plannedAll;
    final MetricsAggregator.Metric ttft = new MetricsAggregator.Metric();
    final MetricsAggregator.Metric e2e = new MetricsAggregator.Metric();
    final EnumMap<CacheOutcome, MetricsAggregator.Metric[]> byOutcome =
        new EnumMap<>(CacheOutcome.class);

    Bucket() {
      for (CacheOutcome o : CacheOutcome.values()) {
        outcomes.put(o, 0L);
      }
    }

    void add(RequestRecord r) {
      requests++;
      if (r.cacheAsPlanned()) {
        asPlanned++;
      }
      CacheOutcome o = r.cache() == null ? CacheOutcome.UNKNOWN : r.cache();
      outcomes.merge(o, 1L, Long::sum);
      int planned = r.plannedCachedTokens() == null ? 0 : r.plannedCachedTokens();
      if (r.promptTokens() != null) {
        promptAll += r.promptTokens();
        plannedAll += planned;
        if (r.cachedTokens() != null) {
          promptReported += r.promptTokens();
          plannedReported += planned;
          cachedReported += r.cachedTokens();
        }
      }
      ttft.record(r.ttftMs());
      e2e.record(r.e2eMs());
      MetricsAggregator.Metric[] m =
          byOutcome.computeIfAbsent(
              o,
              k ->
                  new MetricsAggregator.Metric[] {
                    new MetricsAggregator.Metric(), new MetricsAggregator.Metric()
                  });
      m[0].record(r.ttftMs());
      m[1].record(r.e2eMs());
    }

    Double observed() {
      return promptReported > 0 ? (double) cachedReported / promptReported : null;
    }

    Double planned() {
      if (promptReported > 0) {
        return (double) plannedReported / promptReported;
      }
      return promptAll > 0 ? (double) plannedAll / promptAll : null;
    }

    String verdict(double tolerance) {
      Double observed = observed();
      Double planned = planned();
      if (observed == null || planned == null) {
        return UNKNOWN;
      }
      if (observed > planned + tolerance + EPSILON) {
        return ABOVE_PLAN;
      }
      if (observed < planned - tolerance - EPSILON) {
        return BELOW_PLAN;
      }
      return AS_PLANNED;
    }

    Map<String, Long> outcomeCounts() {
      Map<String, Long> counts = new LinkedHashMap<>();
      for (Map.Entry<CacheOutcome, Long> e : outcomes.entrySet()) {
        counts.put(e.getKey().wireName(), e.getValue());
      }
      return Collections.unmodifiableMap(counts);
    }

    Map<String, CacheSummary.Latency> latencyByOutcome() {
      Map<String, CacheSummary.Latency> latency = new LinkedHashMap<>();
      for (Map.Entry<CacheOutcome, MetricsAggregator.Metric[]> e : byOutcome.entrySet()) {
        latency.put(
            e.getKey().wireName(),
            new CacheSummary.Latency(
                e.getValue()[0].distribution(), e.getValue()[1].distribution()));
      }
      return Collections.unmodifiableMap(latency);
    }
  }
}
