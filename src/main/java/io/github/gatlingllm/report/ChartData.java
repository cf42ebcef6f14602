package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.TokenArrivals;
import io.github.gatlingllm.stats.ValueCounts;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.Collection;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.Set;

/**
 * The report's chart data, prepared from the requests so that the page stays small whatever the
 * run's size: time series are binned (per second, or per a whole number of seconds chosen so a
 * series has at most {@value #MAX_TIME_BINS} bins: 2, 5, 10, 15, 30, 60 s...), histograms have at
 * most about {@value #HISTOGRAM_BINS} bins of a round width (1, 2, 2.5 or 5 times a power of ten;
 * whole numbers for token counts), so a 100,000-request run charts as few points as a 100-request
 * one of the same length. Every series is one workload's requests of one name ({@link Key}), never
 * pooled across them.
 */
final class ChartData {

  /** Most bins of a time series. */
  static final int MAX_TIME_BINS = 2000;

  /** Most bins of a histogram (about: the width is rounded up to a round number). */
  static final int HISTOGRAM_BINS = 50;

  private static final long[] BIN_SECONDS = {
    1, 2, 5, 10, 15, 30, 60, 120, 300, 600, 900, 1800, 3600, 7200, 21_600, 43_200, 86_400
  };

  private ChartData() {}

  /**
   * A series: one workload's requests of one name.
   *
   * @param workload the workload, or null (requests with their own prompt)
   * @param request the request name, never null
   */
  record Key(String workload, String request) {

    /**
     * The key of a request.
     *
     * @param r the request
     * @return its key
     */
    static Key of(RequestRecord r) {
      return new Key(r.workload(), r.request());
    }
  }

  /**
   * Legend labels, in workload then request-name order: the request name when it tells the series
   * apart, else {@code workload/request}.
   *
   * @param rs the requests
   * @return each series' label, ordered
   */
  static Map<Key, String> labels(Collection<RequestRecord> rs) {
    Set<Key> keys = new java.util.TreeSet<>(ORDER);
    for (RequestRecord r : rs) {
      keys.add(Key.of(r));
    }
    return labels(keys);
  }

  /** Workload then request name, a null workload first. */
  static final Comparator<Key> ORDER =
      Comparator.comparing((Key k) -> Objects.toString(k.workload(), ""))
          .thenComparing(Key::request);

  /**
   * Legend labels of the given series, in the given order.
   *
   * @param keys the series
   * @return each series' label
   */
  static Map<Key, String> labels(Set<Key> keys) {
    Set<String> requests = new LinkedHashSet<>();
    for (Key k : keys) {
      requests.add(k.request());
    }
    boolean byRequest = requests.size() == keys.size();
    Map<Key, String> labels = new LinkedHashMap<>();
    for (Key k : keys) {
      labels.put(
          k, byRequest || k.workload() == null ? k.request() : k.workload() + "/" + k.request());
    }
    return labels;
  }

  /**
   * The time bins of a run: from the first request start, of a whole number of seconds.
   *
   * @param t0 the first request start, epoch ms
   * @param binMs the bin width, ms
   * @param count how many bins
   */
  record TimeBins(long t0, long binMs, int count) {

    /**
     * The bins covering requests: 1 s wide, or wider so there are at most {@value
     * ChartData#MAX_TIME_BINS}.
     *
     * @param rs the requests, not empty
     * @return the bins
     */
    static TimeBins of(List<RequestRecord> rs) {
      long t0 = Long.MAX_VALUE;
      double end = Long.MIN_VALUE;
      for (RequestRecord r : rs) {
        t0 = Math.min(t0, r.startMs());
        end = Math.max(end, r.endMs());
      }
      return over(t0, end - t0);
    }

    /**
     * The bins covering a span.
     *
     * @param t0 the start, epoch ms
     * @param spanMs the span, ms, at least 0
     * @return the bins
     */
    static TimeBins over(long t0, double spanMs) {
      long bin = BIN_SECONDS[BIN_SECONDS.length - 1] * 1000;
      for (long s : BIN_SECONDS) {
        if (Math.floor(spanMs / (s * 1000.0)) + 1 <= MAX_TIME_BINS) {
          bin = s * 1000;
          break;
        }
      }
      return new TimeBins(t0, bin, (int) Math.floor(spanMs / bin) + 1);
    }

    /** The bin of an instant (epoch ms), clamped to the bins. */
    int index(double atMs) {
      return (int) Math.max(0, Math.min(count - 1, Math.floor((atMs - t0) / binMs)));
    }

    /** The bins' starts, seconds since {@code t0}. */
    List<Double> xs() {
      List<Double> xs = new ArrayList<>(count);
      for (int i = 0; i < count; i++) {
        xs.add(i * binMs / 1000.0);
      }
      return xs;
    }

    /** How the bins are made, for the page: {@code per second} or {@code per 5 s}. */
    String describe() {
      return binMs == 1000 ? "per second" : "per " + binMs / 1000 + " s";
    }

    /**
     * Adds {@code amount} spread evenly over [fromMs, toMs] (all of it at {@code fromMs} when the
     * interval is empty).
     */
    void spread(double[] bins, double fromMs, double toMs, double amount) {
      if (!(toMs > fromMs)) {
        bins[index(fromMs)] += amount;
        return;
      }
      int first = index(fromMs);
      int last = index(toMs);
      for (int i = first; i <= last; i++) {
        // The first and last bins take what lies beyond them (clamped instants).
        double lo = i == first ? fromMs : t0 + (double) i * binMs;
        double hi = i == last ? toMs : t0 + (double) (i + 1) * binMs;
        bins[i] += amount * Math.max(0, hi - lo) / (toMs - fromMs);
      }
    }
  }

  /**
   * Output tokens per second by the second they arrived, per series: each successful request's
   * completion tokens shared equally among its token-bearing events, the first at start + TTFT and
   * each next one an ITL later; without ITLs (not recorded), one token at the first token and the
   * others spread evenly from there to the request's end; without a TTFT (not streamed), all at the
   * end, when the body arrived.
   *
   * @param rs the requests
   * @param bins the time bins
   * @param labels the series' labels
   * @return tokens per second in each bin, per label
   */
  static Map<String, double[]> tokensByArrival(
      List<RequestRecord> rs, TimeBins bins, Map<Key, String> labels) {
    TokensByArrival c = new TokensByArrival(bins, labels);
    rs.forEach(c::add);
    return c.result();
  }

  /** {@link #tokensByArrival}, a request at a time. */
  static final class TokensByArrival {
    private final TimeBins bins;
    private final Map<Key, String> labels;
    private final Map<String, double[]> out = new LinkedHashMap<>();

    TokensByArrival(TimeBins bins, Map<Key, String> labels) {
      this.bins = bins;
      this.labels = labels;
      for (String label : labels.values()) {
        out.put(label, new double[bins.count()]);
      }
    }

    void add(RequestRecord r) {
      if (r.status() != RequestStatus.OK
          || r.completionTokens() == null
          || r.completionTokens() == 0) {
        return;
      }
      arrivals(r, bins, out.get(labels.get(Key.of(r))));
    }

    Map<String, double[]> result() {
      double perS = bins.binMs() / 1000.0;
      Map<String, double[]> result = new LinkedHashMap<>();
      out.forEach(
          (label, b) -> {
            double[] y = new double[b.length];
            for (int i = 0; i < b.length; i++) {
              y[i] = b[i] / perS;
            }
            result.put(label, y);
          });
      return result;
    }
  }

  /**
   * Adds one request's output tokens to the bins they arrived in ({@link TokenArrivals}; nothing
   * for a request that did not succeed).
   */
  static void arrivals(RequestRecord r, TimeBins bins, double[] b) {
    TokenArrivals.visit(
        r,
        new TokenArrivals.Sink() {
          @Override
          public void at(double atMs, double tokens) {
            b[bins.index(atMs)] += tokens;
          }

          @Override
          public void spread(double fromMs, double toMs, double tokens) {
            bins.spread(b, fromMs, toMs, tokens);
          }
        });
  }

  /**
   * The most requests in flight (started, not ended) at once within each bin, per series, and for
   * all requests when there are several series (label {@code all}); to the millisecond (a start is
   * a whole millisecond of Gatling's clock, an end is floored to one): a request that ends in the
   * millisecond another starts does not overlap it.
   *
   * @param rs the requests
   * @param bins the time bins
   * @param labels the series' labels
   * @return the peak in each bin, per label
   */
  static Map<String, double[]> inFlight(
      List<RequestRecord> rs, TimeBins bins, Map<Key, String> labels) {
    InFlight c = new InFlight(bins, labels);
    rs.forEach(c::add);
    return c.result();
  }

  /**
   * {@link #inFlight}, a request at a time. Keeps 16 bytes a request (its start and end, each a
   * microsecond instant packed with its series in one {@code long}) until {@link #result}, which
   * sorts them once: the exact peaks need the order of every start and end.
   */
  static final class InFlight {
    /** Bits of an event below its instant: the start flag and the series. */
    private static final int SERIES_BITS = 20;

    private final TimeBins bins;
    private final Map<Key, Integer> series = new LinkedHashMap<>();
    private final List<String> names = new ArrayList<>();
    private long[] events = new long[1024];
    private int n;

    InFlight(TimeBins bins, Map<Key, String> labels) {
      this.bins = bins;
      labels.forEach(
          (k, label) -> {
            int i = names.indexOf(label);
            if (i < 0) {
              i = names.size();
              names.add(label);
            }
            series.put(k, i);
          });
    }

    void add(RequestRecord r) {
      int s = series.get(Key.of(r));
      // To the millisecond, as starts are (whole ms of Gatling's clock): an end in microseconds
      // overlapped the next request a user started in the same millisecond (a closed loop of 8
      // users charted a peak of 9).
      long start = Math.max(0, (r.startMs() - bins.t0()) * 1000);
      long end = Math.max(start, (long) Math.floor(r.endMs() - bins.t0()) * 1000);
      if (n + 2 > events.length) {
        events = Arrays.copyOf(events, events.length * 2);
      }
      // Ends (flag 0) sort before starts (flag 1) at the same instant.
      events[n++] = (start << (SERIES_BITS + 1)) | (1L << SERIES_BITS) | s;
      events[n++] = (end << (SERIES_BITS + 1)) | s;
    }

    Map<String, double[]> result() {
      Arrays.sort(events, 0, n);
      int k = names.size();
      double[][] peak = new double[k + 1][bins.count()];
      int[] current = new int[k + 1];
      int[] last = new int[k + 1];
      long binUs = bins.binMs() * 1000;
      for (int e = 0; e < n; e++) {
        long event = events[e];
        int s = (int) (event & ((1L << SERIES_BITS) - 1));
        boolean start = (event & (1L << SERIES_BITS)) != 0;
        long atUs = event >>> (SERIES_BITS + 1);
        int bin = (int) Math.min(bins.count() - 1, atUs / binUs);
        step(peak[s], current, last, s, bin, start ? 1 : -1);
        step(peak[k], current, last, k, bin, start ? 1 : -1);
      }
      Map<String, double[]> out = new LinkedHashMap<>();
      if (k > 1) {
        out.put("all", peak[k]);
      }
      for (int s = 0; s < k; s++) {
        out.put(names.get(s), peak[s]);
      }
      return out;
    }

    private static void step(double[] peak, int[] current, int[] last, int s, int bin, int d) {
      // The level carried into the bins up to this event's, its own included.
      for (int b = last[s] + 1; b <= bin; b++) {
        peak[b] = Math.max(peak[b], current[s]);
      }
      current[s] += d;
      peak[bin] = Math.max(peak[bin], current[s]);
      last[s] = Math.max(last[s], bin);
    }
  }

  /**
   * TTFT of successful requests by the bin they started in, per series: the median (nearest rank)
   * and the maximum; NaN where a bin has none.
   *
   * @param rs the requests
   * @param bins the time bins
   * @param labels the series' labels
   * @return per label, {p50[], max[]}
   */
  static Map<String, double[][]> ttftByStart(
      List<RequestRecord> rs, TimeBins bins, Map<Key, String> labels) {
    TtftByStart c = new TtftByStart(bins, labels);
    rs.forEach(c::add);
    return c.result();
  }

  /**
   * {@link #ttftByStart}, a request at a time: each bin's TTFTs counted by microsecond ({@link
   * ValueCounts}), exact while a bin holds at most 4,096 distinct values, else to 2 significant
   * digits (its maximum stays exact).
   */
  static final class TtftByStart {
    private final TimeBins bins;
    private final Map<Key, String> labels;
    private final Map<String, ValueCounts[]> values = new LinkedHashMap<>();

    TtftByStart(TimeBins bins, Map<Key, String> labels) {
      this.bins = bins;
      this.labels = labels;
      for (String label : labels.values()) {
        values.put(label, new ValueCounts[bins.count()]);
      }
    }

    void add(RequestRecord r) {
      if (r.status() != RequestStatus.OK || r.ttftMs() == null) {
        return;
      }
      ValueCounts[] b = values.get(labels.get(Key.of(r)));
      int i = bins.index(r.startMs());
      if (b[i] == null) {
        b[i] = new ValueCounts(4096, 2, 4);
      }
      b[i].add(Math.round(r.ttftMs() * 1000));
    }

    Map<String, double[][]> result() {
      Map<String, double[][]> out = new LinkedHashMap<>();
      values.forEach(
          (label, b) -> {
            double[] p50 = new double[bins.count()];
            double[] max = new double[bins.count()];
            Arrays.fill(p50, Double.NaN);
            Arrays.fill(max, Double.NaN);
            for (int i = 0; i < b.length; i++) {
              if (b[i] == null) {
                continue;
              }
              p50[i] = b[i].atRank(0.5) / 1000.0;
              max[i] = b[i].max() / 1000.0;
            }
            out.put(label, new double[][] {p50, max});
          });
      return out;
    }
  }

  /** Values to count, visited as often as needed without being copied. */
  @FunctionalInterface
  interface Values {
    /** Hands every distinct value and how often it occurs to the consumer. */
    void each(Counted consumer);
  }

  /** A value and how often it occurs. */
  @FunctionalInterface
  interface Counted {
    /**
     * One value.
     *
     * @param value the value
     * @param count how often, at least 1
     */
    void accept(double value, long count);

    /** One value, once. */
    default void accept(double value) {
      accept(value, 1);
    }
  }

  /** The values of counts kept in whole units of {@code 1 / scale} (1000: ms kept in us). */
  static Values of(ValueCounts counts, double scale) {
    return c -> counts.forEach((v, n) -> c.accept(scale == 1 ? v : v / scale, n));
  }

  /**
   * A histogram shared by several series: bins of one round width from a multiple of it.
   *
   * @param width the bin width
   * @param edges the bins' lower edges, then the last bin's upper edge
   * @param counts per label, the count of each bin
   * @param above how many values lie above the last edge, counted in the last bin (a long tail cut
   *     off, see {@link ChartData#histogram}); 0 when none
   */
  record Histogram(double width, List<Double> edges, Map<String, long[]> counts, long above) {}

  /** Share of the values the bins cover when a long tail is cut off. */
  static final double TAIL_QUANTILE = 0.995;

  /**
   * Bins the values of every series alike, at most about {@value #HISTOGRAM_BINS} bins of a round
   * width covering the smallest to the largest value; when the largest is more than twice the
   * 99.5th percentile of all values (a long tail, such as a few stalls among thousands of ITLs),
   * the bins stop at that percentile (read from 4,096 even bins, so slightly above it) and the last
   * bin also counts the values above it, so the body of the distribution stays readable.
   *
   * @param values per label, its values
   * @param whole whether the values are whole numbers (token counts): the width is then whole too
   * @return the histogram, or null when no series has a value
   */
  static Histogram histogram(Map<String, Values> values, boolean whole) {
    double[] range = {Double.POSITIVE_INFINITY, Double.NEGATIVE_INFINITY};
    long[] total = {0};
    for (Values v : values.values()) {
      v.each(
          (x, k) -> {
            range[0] = Math.min(range[0], x);
            range[1] = Math.max(range[1], x);
            total[0] += k;
          });
    }
    if (range[0] == Double.POSITIVE_INFINITY) {
      return null;
    }
    double lo = range[0];
    double hi = range[1];
    if (hi > lo) {
      double cut = tail(values, lo, hi, total[0]);
      if (hi > 2 * cut && cut > lo) {
        hi = cut;
      }
    }
    double width =
        hi > lo
            ? niceWidth((hi - lo) / HISTOGRAM_BINS, whole)
            : whole ? 1 : niceWidth(Math.max(Math.abs(lo), 0.001) / 10, false);
    long first = (long) Math.floor(lo / width + 1e-9);
    int n = (int) (Math.floor(hi / width + 1e-9) - first) + 1;
    List<Double> edges = new ArrayList<>(n + 1);
    for (int i = 0; i <= n; i++) {
      edges.add(roundEdge((first + i) * width));
    }
    double top = edges.get(n);
    long[] above = {0};
    Map<String, long[]> counts = new LinkedHashMap<>();
    values.forEach(
        (label, v) -> {
          long[] c = new long[n];
          v.each(
              (x, k) -> {
                if (x >= top) {
                  above[0] += k;
                }
                c[(int) Math.max(0, Math.min(n - 1, Math.floor(x / width + 1e-9) - first))] += k;
              });
          counts.put(label, c);
        });
    return new Histogram(width, edges, counts, above[0]);
  }

  /** The upper edge of the fine bin holding the {@link #TAIL_QUANTILE} quantile of all values. */
  private static double tail(Map<String, Values> values, double lo, double hi, long total) {
    int fine = 4096;
    long[] counts = new long[fine];
    double w = (hi - lo) / fine;
    for (Values v : values.values()) {
      v.each((x, k) -> counts[(int) Math.min(fine - 1, Math.floor((x - lo) / w))] += k);
    }
    long need = (long) Math.ceil(TAIL_QUANTILE * total);
    long seen = 0;
    for (int i = 0; i < fine; i++) {
      seen += counts[i];
      if (seen >= need) {
        return lo + (i + 1) * w;
      }
    }
    return hi;
  }

  private static double roundEdge(double v) {
    return Math.round(v * 1e6) / 1e6;
  }

  /**
   * The smallest round width (1, 2, 2.5 or 5 times a power of ten; for whole values 1, 2 or 5 times
   * one, at least 1) at least {@code raw}.
   *
   * @param raw the width wanted, above 0
   * @param whole whether the width must be whole
   * @return the width
   */
  static double niceWidth(double raw, boolean whole) {
    if (whole && raw <= 1) {
      return 1;
    }
    double magnitude = Math.pow(10, Math.floor(Math.log10(raw)));
    for (double m : new double[] {1, 2, 2.5, 5, 10}) {
      double w = m * magnitude;
      if (whole && (w != Math.rint(w))) {
        continue;
      }
      if (w >= raw * (1 - 1e-9)) {
        return w;
      }
    }
    return 10 * magnitude;
  }
}
