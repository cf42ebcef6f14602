package io.github.gatlingllm.metrics;

import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.stats.Distribution;
import io.github.gatlingllm.stats.ValueCounts;
import java.math.BigDecimal;
import java.math.MathContext;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import org.HdrHistogram.ConcurrentHistogram;
import org.HdrHistogram.Histogram;

/**
 * Aggregates request records per (request name, phase) and overall. "Overall" leaves out the {@code
 * warmup} phase: warmup requests pay the cold start (JIT, empty caches) the measured ones must not
 * be judged by; their own group keeps them.
 *
 * <p>Thread-safe and lock-free on the recording side: {@link #add(RequestRecord)} may be called
 * from many threads at once; it costs a few atomic updates per metric plus one histogram update per
 * value. Each value is kept as a whole number of thousandths: microseconds for times (which {@link
 * RequestTimer} already rounds to the microsecond), milli-tokens per second for throughput; so the
 * sum, min and max are exact to the thousandth and the mean is rounded to it. Percentiles are exact
 * (nearest rank: the smallest value with at least p% of the values at or below it, no
 * interpolation) while a metric takes at most 65,536 distinct values in thousandths (a time always
 * does when its values span less than 65.536 ms; a long run's ITL, TTFT or E2E may not); beyond
 * that they come from an HdrHistogram ({@link ConcurrentHistogram}, 3 significant digits) and are
 * printed to its 3 significant digits. {@link #summary()} takes a snapshot; taken while records are
 * still being added, its figures may not all include the same records.
 *
 * <p>What counts where, as vLLM's {@code benchmark_serving.py} ({@code calculate_metrics} counts
 * successful requests only):
 *
 * <ul>
 *   <li>request counts by status and the measured window: every request. The window runs from the
 *       first request start to the last request end (start + E2E).
 *   <li>TTFT, ITL (every interval), TPOT, E2E and per-request output tokens/s distributions, token
 *       sums, cache-hit ratio, requests/s and output tokens/s: {@link RequestStatus#OK} requests
 *       only; values that were not measured (null) are left out.
 *   <li>goodput ({@link Goodput}): every request but those {@link RequestStatus#CUT_BY_RUN_END} and
 *       {@link RequestStatus#CANCELLED}, which are not judged against the SLO.
 *   <li>TTFO, reasoning tokens, phase TPOTs ({@link AnswerSummary}): {@link RequestStatus#OK}
 *       requests; cancellation counts: every request.
 *   <li>requests/s = OK requests / window seconds; output tokens/s = their completion tokens /
 *       window seconds (vLLM's {@code request_throughput} and {@code output_throughput}).
 * </ul>
 */
public final class MetricsAggregator {

  /** The phase left out of the overall figures: {@link Phase#WARMUP}'s name. */
  public static final String WARMUP = Phase.WARMUP.wireName();

  /**
   * Distinct values (in thousandths) a metric keeps exact counts of; beyond, its percentiles come
   * from the histogram.
   */
  static final int EXACT_LIMIT = 65_536;

  private final Slo slo;
  private final Group overall;
  private final ConcurrentHashMap<Key, Group> groups = new ConcurrentHashMap<>();

  /** An empty aggregator without SLOs: its summaries have no goodput. */
  public MetricsAggregator() {
    this(Slo.NONE);
  }

  /**
   * An empty aggregator that checks each request against an SLO.
   *
   * @param slo the objectives; with {@link Slo#NONE} summaries have no goodput
   */
  public MetricsAggregator(Slo slo) {
    this.slo = Objects.requireNonNull(slo, "slo");
    this.overall = new Group(null, null, slo);
  }

  /**
   * Adds one request.
   *
   * @param record the request's record, never null
   * @throws NullPointerException if {@code record} is null
   */
  public void add(RequestRecord record) {
    Objects.requireNonNull(record, "record");
    Key key = new Key(record.request(), record.phase());
    Group group = groups.get(key);
    if (group == null) {
      group = groups.computeIfAbsent(key, k -> new Group(k.request, k.phase, slo));
    }
    group.add(record);
    if (!Phase.isWarmup(record.phase())) {
      overall.add(record);
    }
  }

  /**
   * A snapshot of everything added so far.
   *
   * @return the summary, never null
   */
  public MetricsSummary summary() {
    List<Group> list = new ArrayList<>(groups.values());
    list.sort(
        Comparator.comparing((Group g) -> g.request)
            .thenComparing(g -> g.phase, Comparator.nullsFirst(Comparator.naturalOrder())));
    List<GroupSummary> summaries = new ArrayList<>(list.size());
    for (Group g : list) {
      summaries.add(g.summary());
    }
    return new MetricsSummary(overall.summary(), summaries);
  }

  private record Key(String request, String phase) {}

  /** One group's counters; every field is safe for concurrent update. */
  private static final class Group {
    final String request;
    final String phase;
    final LongAdder requests = new LongAdder();
    final LongAdder[] statuses = new LongAdder[RequestStatus.values().length];
    final LongAdder okRequests = new LongAdder();
    final LongAdder promptTokens = new LongAdder();
    final LongAdder cachedTokens = new LongAdder();
    final LongAdder promptTokensWithCached = new LongAdder();
    final LongAdder anyCachedReported = new LongAdder();
    final LongAdder completionTokens = new LongAdder();
    final LongAccumulator windowStart = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator windowEnd = new LongAccumulator(Math::max, Long.MIN_VALUE);
    final Metric ttft = new Metric();
    final Metric itl = new Metric();
    final Metric tpot = new Metric();
    final Metric e2e = new Metric();
    final Metric tokensPerS = new Metric();
    final Metric ttfo = new Metric();
    final Metric reasoningPerRequest = new Metric();
    final Metric reasoningTpot = new Metric();
    final Metric answerTpot = new Metric();
    final LongAdder reasoningTokens = new LongAdder();
    final LongAdder answerTokens = new LongAdder();
    final LongAdder reasoningRequests = new LongAdder();
    final LongAdder neverAnswered = new LongAdder();
    final LongAdder cancelChosen = new LongAdder();
    final LongAdder cancelled = new LongAdder();
    final LongAdder cancelledWithFirstToken = new LongAdder();

    final Slo slo;
    final LongAdder met = new LongAdder();
    final LongAdder metTokens = new LongAdder();
    final LongAdder[] missed = new LongAdder[Slo.CRITERIA.size()];

    Group(String request, String phase, Slo slo) {
      this.request = request;
      this.phase = phase;
      this.slo = slo;
      for (int i = 0; i < missed.length; i++) {
        missed[i] = new LongAdder();
      }
      for (int i = 0; i < statuses.length; i++) {
        statuses[i] = new LongAdder();
      }
    }

    void add(RequestRecord r) {
      requests.increment();
      statuses[r.status().ordinal()].increment();
      windowStart.accumulate(r.startMs());
      windowEnd.accumulate((long) Math.ceil(r.endMs()));
      if (r.cancelAfterMs() != null) {
        cancelChosen.increment();
      }
      if (r.status() == RequestStatus.CANCELLED) {
        cancelled.increment();
        if (r.ttftMs() != null) {
          cancelledWithFirstToken.increment();
        }
      }
      // A request cut by the run's end is not judged: it might have met the SLO; nor one the
      // client cancelled on purpose.
      if (slo.isSet()
          && r.status() != RequestStatus.CUT_BY_RUN_END
          && r.status() != RequestStatus.CANCELLED) {
        List<String> miss = slo.missed(r);
        if (miss.isEmpty()) {
          met.increment();
          if (r.completionTokens() != null) {
            metTokens.add(r.completionTokens());
          }
        }
        for (String c : miss) {
          int i = Slo.CRITERIA.indexOf(c);
          if (i >= 0) {
            missed[i].increment();
          }
        }
      }
      if (r.status() != RequestStatus.OK) {
        return;
      }
      okRequests.increment();
      if (r.promptTokens() != null) {
        promptTokens.add(r.promptTokens());
        if (r.cachedTokens() != null) {
          cachedTokens.add(r.cachedTokens());
          promptTokensWithCached.add(r.promptTokens());
          anyCachedReported.increment();
        }
      }
      if (r.completionTokens() != null) {
        completionTokens.add(r.completionTokens());
      }
      ttft.record(r.ttftMs());
      tpot.record(r.tpotMs());
      e2e.record(r.e2eMs());
      tokensPerS.record(r.outputTokensPerS());
      ttfo.record(r.ttfoMs());
      answerTpot.record(r.answerTpotMs());
      reasoningTpot.record(r.reasoningTpotMs());
      if (r.reasoningTokens() != null) {
        reasoningPerRequest.record((double) r.reasoningTokens());
        if (r.reasoningTokens() > 0) {
          reasoningRequests.increment();
          if (r.ttfoMs() == null && r.ttftMs() != null) {
            neverAnswered.increment();
          }
        }
        if (r.answerTokens() != null) {
          reasoningTokens.add(r.reasoningTokens());
          answerTokens.add(r.answerTokens());
        }
      }
      if (r.itlMs() != null) {
        for (Double v : r.itlMs()) {
          itl.record(v);
        }
      }
    }

    GroupSummary summary() {
      Map<RequestStatus, Long> byStatus = new EnumMap<>(RequestStatus.class);
      for (RequestStatus s : RequestStatus.values()) {
        byStatus.put(s, statuses[s.ordinal()].sum());
      }
      long start = windowStart.get();
      long end = windowEnd.get();
      boolean any = start != Long.MAX_VALUE;
      double seconds = any ? (end - start) / 1000.0 : 0;
      long ok = okRequests.sum();
      long completion = completionTokens.sum();
      long withCached = promptTokensWithCached.sum();
      long cached = cachedTokens.sum();
      Double ratio =
          anyCachedReported.sum() > 0 && withCached > 0 ? (double) cached / withCached : null;
      return new GroupSummary(
          request,
          phase,
          requests.sum(),
          byStatus,
          promptTokens.sum(),
          cached,
          ratio,
          completion,
          any ? start : null,
          any ? end : null,
          seconds > 0 ? ok / seconds : null,
          seconds > 0 ? completion / seconds : null,
          ttft.distribution(),
          itl.distribution(),
          tpot.distribution(),
          e2e.distribution(),
          tokensPerS.distribution(),
          slo.isSet() ? goodput(byStatus, seconds) : null,
          new AnswerSummary(
              ttfo.distribution(),
              reasoningPerRequest.distribution(),
              reasoningTpot.distribution(),
              answerTpot.distribution(),
              reasoningTokens.sum(),
              answerTokens.sum(),
              reasoningRequests.sum(),
              neverAnswered.sum(),
              cancelChosen.sum(),
              cancelled.sum(),
              cancelledWithFirstToken.sum()));
    }

    private Goodput goodput(Map<RequestStatus, Long> byStatus, double seconds) {
      long offered =
          requests.sum()
              - byStatus.get(RequestStatus.CUT_BY_RUN_END)
              - byStatus.get(RequestStatus.CANCELLED);
      long good = met.sum();
      Map<String, Long> miss = new java.util.LinkedHashMap<>();
      for (int i = 0; i < missed.length; i++) {
        if (slo.bound(Slo.CRITERIA.get(i)) != null) {
          miss.put(Slo.CRITERIA.get(i), missed[i].sum());
        }
      }
      long failed = offered - byStatus.get(RequestStatus.OK);
      return new Goodput(
          slo,
          offered,
          good,
          failed,
          miss,
          offered > 0 ? (double) good / offered : null,
          seconds > 0 ? good / seconds : null,
          seconds > 0 ? metTokens.sum() / seconds : null);
    }
  }

  /**
   * One metric in whole thousandths (microseconds for times): an exact count, sum, min and max, and
   * percentiles that are exact while the values take at most {@link #EXACT_LIMIT} distinct
   * thousandths, else from a histogram rounded to its 3 significant digits.
   */
  public static final class Metric {
    private static final double SCALE = 1000.0;
    final ConcurrentHistogram histogram = new ConcurrentHistogram(3);

    /**
     * Exact counts, 16 to 32 bytes a distinct value (microseconds below 35 minutes), dropped beyond
     * the limit; guarded by itself.
     */
    final ValueCounts exact = new ValueCounts(EXACT_LIMIT, 0, 16);

    volatile boolean overflow;
    final LongAdder count = new LongAdder();
    final LongAdder sum = new LongAdder();
    final LongAccumulator min = new LongAccumulator(Math::min, Long.MAX_VALUE);
    final LongAccumulator max = new LongAccumulator(Math::max, Long.MIN_VALUE);

    public void record(Double value) {
      if (value == null) {
        return;
      }
      long scaled = Math.round(value * SCALE);
      histogram.recordValue(scaled);
      if (!overflow) {
        synchronized (exact) {
          exact.add(scaled);
          if (!exact.exact()) {
            overflow = true;
          }
        }
      }
      sum.add(scaled);
      min.accumulate(scaled);
      max.accumulate(scaled);
      count.increment();
    }

    public Distribution distribution() {
      Histogram h = histogram.copy();
      long n = count.sum();
      if (n == 0 || h.getTotalCount() == 0) {
        return Distribution.EMPTY;
      }
      double lo = min.get() / SCALE;
      double hi = max.get() / SCALE;
      double[] p = {50, 90, 95, 99};
      Double[] values = new Double[p.length];
      boolean exactly;
      synchronized (exact) {
        exactly = exact.exact();
        if (exactly) {
          for (int i = 0; i < p.length; i++) {
            values[i] = exact.atRank(p[i] / 100.0) / SCALE;
          }
        }
      }
      if (!exactly) {
        for (int i = 0; i < p.length; i++) {
          double v = round3(h.getValueAtPercentile(p[i]) / SCALE);
          values[i] = Math.max(lo, Math.min(hi, v));
        }
      }
      double mean = Math.round((double) sum.sum() / n) / SCALE;
      return new Distribution(n, mean, lo, values[0], values[1], values[2], values[3], hi);
    }

    private static double round3(double v) {
      return v == 0 ? 0 : new BigDecimal(v).round(new MathContext(3)).doubleValue();
    }
  }
}
