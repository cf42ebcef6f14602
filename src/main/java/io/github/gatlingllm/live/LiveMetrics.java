package io.github.gatlingllm.live;

import io.github.gatlingllm.levels.LoadLevel;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.prometheus.metrics.core.datapoints.CounterDataPoint;
import io.prometheus.metrics.core.datapoints.DistributionDataPoint;
import io.prometheus.metrics.core.metrics.Counter;
import io.prometheus.metrics.core.metrics.GaugeWithCallback;
import io.prometheus.metrics.core.metrics.Histogram;
import io.prometheus.metrics.expositionformats.PrometheusTextFormatWriter;
import io.prometheus.metrics.model.registry.PrometheusRegistry;
import io.prometheus.metrics.model.snapshots.Labels;
import io.prometheus.metrics.model.snapshots.Unit;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.LongSupplier;
import java.util.function.Supplier;

/**
 * Not API. The live metrics of a run, in a Prometheus registry of their own: what each finished
 * request's record adds ({@link #add}) and the gauges read at each scrape ({@link Gauges}).
 *
 * <p>Served names (the Prometheus text format; every series also has the {@code shard} label when
 * the run is one shard of several):
 *
 * <ul>
 *   <li>{@code gatling_llm_requests_total{request, status, phase}}: finished requests; {@code
 *       status} as the run record's ({@code ok}, {@code http_error}, {@code rejected}, {@code
 *       timeout}, ...), {@code phase} {@code warmup}, {@code measured} or {@code none}
 *   <li>{@code gatling_llm_input_tokens_total}, {@code gatling_llm_output_tokens_total}, {@code
 *       gatling_llm_cached_tokens_total} {@code {request, phase}}: prompt, completion and
 *       prefix-cached prompt tokens of the {@code ok} requests, as the run record's metrics count
 *       them (a count the server did not report adds nothing)
 *   <li>histograms {@code gatling_llm_ttft_seconds}, {@code gatling_llm_itl_seconds} (one
 *       observation per gap between tokens), {@code gatling_llm_tpot_seconds}, {@code
 *       gatling_llm_e2e_seconds} {@code {request, phase}}: the timings of the {@code ok} requests
 *       (as defined in {@link RequestRecord}), in seconds, over {@link #BUCKETS_SECONDS}
 *   <li>histogram {@code gatling_llm_schedule_lag_seconds}: the open-loop schedule lag of each
 *       user's first request ({@link RequestRecord#scheduleLagMs()}, below 0 counted as 0)
 *   <li>gauges {@code gatling_llm_requests_in_flight}, {@code gatling_llm_load_level{scenario,
 *       unit}} (the steady load level in force now: {@code unit} {@code users} for concurrent
 *       users, {@code users_per_second} for an arrival rate; no sample during a ramp or between
 *       levels), {@code gatling_llm_client_schedule_lag_seconds} (the lag of the latest open-loop
 *       first request recorded; no sample before one) and {@code gatling_llm_client_cpu_share} (the
 *       client JVM's CPU time over wall time times processors over the last 5 s of the client
 *       watch's 1-second samples, 0..1; no sample before two)
 * </ul>
 *
 * <p>{@link #add} is called from one thread at a time (the endpoint's drain thread); the collectors
 * are the client's own, safe to scrape from any thread.
 */
public final class LiveMetrics {

  /**
   * The histograms' upper bounds, seconds: 1, 2.5, 5 and 7.5 of each decade from 1 ms to 10 min, so
   * that a quantile is read within a quarter of its decade from ITLs of a millisecond to end-to-end
   * times of minutes.
   */
  public static final double[] BUCKETS_SECONDS = {
    0.001, 0.0025, 0.005, 0.0075, 0.01, 0.025, 0.05, 0.075, 0.1, 0.25, 0.5, 0.75, 1, 2.5, 5, 7.5,
    10, 25, 50, 75, 100, 250, 500, 600
  };

  /** The phase label of a request with no phase (its own prompt, no feeder). */
  static final String NO_PHASE = "none";

  /** What the gauges read at each scrape; each supplier is called from the scraping thread. */
  public record Gauges(
      LongSupplier inFlight, Supplier<List<LoadLevel>> levels, Supplier<Double> cpuShare) {

    /**
     * Checks the suppliers.
     *
     * @throws NullPointerException if one is null
     */
    public Gauges {
      Objects.requireNonNull(inFlight, "inFlight");
      Objects.requireNonNull(levels, "levels");
      Objects.requireNonNull(cpuShare, "cpuShare");
    }
  }

  private final PrometheusRegistry registry = new PrometheusRegistry();
  private final Counter requests;
  private final Counter inputTokens;
  private final Counter outputTokens;
  private final Counter cachedTokens;
  private final Histogram ttft;
  private final Histogram itl;
  private final Histogram tpot;
  private final Histogram e2e;
  private final DistributionDataPoint scheduleLag;
  private final Map<String, Series> series = new HashMap<>();
  private volatile double lastLagSeconds = Double.NaN;
  private volatile boolean ended;

  /**
   * Registers the metrics.
   *
   * @param shard the {@code shard} label's value on every series (the shard's index), or null for
   *     none (a run on one machine)
   * @param gauges what the gauges read, never null
   */
  public LiveMetrics(String shard, Gauges gauges) {
    Objects.requireNonNull(gauges, "gauges");
    Labels constant = shard == null ? Labels.EMPTY : Labels.of("shard", shard);
    this.requests =
        Counter.builder()
            .name("gatling_llm_requests_total")
            .help("Finished LLM requests, by request name, status and phase")
            .labelNames("request", "status", "phase")
            .constLabels(constant)
            .withoutExemplars()
            .register(registry);
    this.inputTokens = tokens("input", "Prompt tokens of the ok requests", constant);
    this.outputTokens = tokens("output", "Completion tokens of the ok requests", constant);
    this.cachedTokens =
        tokens("cached", "Prompt tokens of the ok requests served from the prefix cache", constant);
    this.ttft = seconds("ttft", "Time to first token of the ok requests", constant);
    this.itl = seconds("itl", "Inter-token latencies of the ok requests, one per gap", constant);
    this.tpot =
        seconds("tpot", "Time per output token after the first, of the ok requests", constant);
    this.e2e = seconds("e2e", "Start to end of the ok requests", constant);
    this.scheduleLag =
        Histogram.builder()
            .name("gatling_llm_schedule_lag_seconds")
            .unit(Unit.SECONDS)
            .help("Open-loop schedule lag of each virtual user's first request")
            .constLabels(constant)
            .classicOnly()
            .classicUpperBounds(BUCKETS_SECONDS)
            .withoutExemplars()
            .register(registry);
    GaugeWithCallback.builder()
        .name("gatling_llm_requests_in_flight")
        .help("LLM requests sent and not ended")
        .constLabels(constant)
        .callback(cb -> cb.call(gauges.inFlight().getAsLong()))
        .register(registry);
    GaugeWithCallback.builder()
        .name("gatling_llm_load_level")
        .help(
            "The steady load level in force: concurrent users (unit=users) or arrival rate"
                + " (unit=users_per_second), by scenario")
        .labelNames("scenario", "unit")
        .constLabels(constant)
        .callback(
            cb -> {
              if (ended) {
                return;
              }
              for (LoadLevel level : gauges.levels().get()) {
                cb.call(
                    level.load(), level.scenario(), level.closed() ? "users" : "users_per_second");
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("gatling_llm_client_schedule_lag_seconds")
        .unit(Unit.SECONDS)
        .help("Schedule lag of the latest open-loop first request recorded")
        .constLabels(constant)
        .callback(
            cb -> {
              double lag = lastLagSeconds;
              if (!Double.isNaN(lag)) {
                cb.call(lag);
              }
            })
        .register(registry);
    GaugeWithCallback.builder()
        .name("gatling_llm_client_cpu_share")
        .help("The client JVM's CPU share of the machine over the last 5 s, 0..1")
        .constLabels(constant)
        .callback(
            cb -> {
              Double share = gauges.cpuShare().get();
              if (share != null) {
                cb.call(share);
              }
            })
        .register(registry);
  }

  private Counter tokens(String kind, String help, Labels constant) {
    return Counter.builder()
        .name("gatling_llm_" + kind + "_tokens_total")
        .help(help)
        .labelNames("request", "phase")
        .constLabels(constant)
        .withoutExemplars()
        .register(registry);
  }

  private Histogram seconds(String kind, String help, Labels constant) {
    return Histogram.builder()
        .name("gatling_llm_" + kind + "_seconds")
        .unit(Unit.SECONDS)
        .help(help)
        .labelNames("request", "phase")
        .constLabels(constant)
        .classicOnly()
        .classicUpperBounds(BUCKETS_SECONDS)
        .withoutExemplars()
        .register(registry);
  }

  /** One request name and phase's data points, looked up once. */
  private final class Series {
    final String request;
    final String phase;
    final CounterDataPoint[] statuses = new CounterDataPoint[RequestStatus.values().length];
    final CounterDataPoint input;
    final CounterDataPoint output;
    final CounterDataPoint cached;
    final DistributionDataPoint ttft;
    final DistributionDataPoint itl;
    final DistributionDataPoint tpot;
    final DistributionDataPoint e2e;

    Series(String request, String phase) {
      this.request = request;
      this.phase = phase;
      this.input = inputTokens.labelValues(request, phase);
      this.output = outputTokens.labelValues(request, phase);
      this.cached = cachedTokens.labelValues(request, phase);
      this.ttft = LiveMetrics.this.ttft.labelValues(request, phase);
      this.itl = LiveMetrics.this.itl.labelValues(request, phase);
      this.tpot = LiveMetrics.this.tpot.labelValues(request, phase);
      this.e2e = LiveMetrics.this.e2e.labelValues(request, phase);
    }

    CounterDataPoint status(RequestStatus status) {
      CounterDataPoint point = statuses[status.ordinal()];
      if (point == null) {
        point = requests.labelValues(request, status.wireName(), phase);
        statuses[status.ordinal()] = point;
      }
      return point;
    }
  }

  /**
   * Adds one finished request; call from one thread at a time.
   *
   * @param record the request, never null
   */
  public void add(RequestRecord record) {
    String phase = record.phase() == null ? NO_PHASE : record.phase();
    String key = record.request() + '\u0000' + phase;
    Series s = series.get(key);
    if (s == null) {
      s = new Series(record.request(), phase);
      series.put(key, s);
    }
    s.status(record.status()).inc();
    Double lag = record.scheduleLagMs();
    if (lag != null && Double.isFinite(lag)) {
      double seconds = Math.max(0, lag) / 1000;
      scheduleLag.observe(seconds);
      lastLagSeconds = seconds;
    }
    if (record.status() != RequestStatus.OK) {
      return;
    }
    if (record.promptTokens() != null) {
      s.input.inc(record.promptTokens());
      if (record.cachedTokens() != null) {
        s.cached.inc(record.cachedTokens());
      }
    }
    if (record.completionTokens() != null) {
      s.output.inc(record.completionTokens());
    }
    observe(s.ttft, record.ttftMs());
    observe(s.tpot, record.tpotMs());
    observe(s.e2e, record.e2eMs());
    List<Double> gaps = record.itlMs();
    if (gaps != null) {
      for (int i = 0, n = gaps.size(); i < n; i++) {
        observe(s.itl, gaps.get(i));
      }
    }
  }

  private static void observe(DistributionDataPoint point, Double ms) {
    if (ms != null) {
      point.observe(ms / 1000);
    }
  }

  /**
   * The run is over (its record is written): the load-level gauge serves no sample from now on,
   * whatever the injection profile planned after the run stopped (a spent budget, a stop).
   */
  public void runEnded() {
    ended = true;
  }

  /**
   * The registry the endpoint serves.
   *
   * @return never null
   */
  public PrometheusRegistry registry() {
    return registry;
  }

  /**
   * A scrape now, in the Prometheus text format (version 0.0.4), as the endpoint serves it.
   *
   * @return the text
   */
  public String scrapeText() {
    ByteArrayOutputStream out = new ByteArrayOutputStream();
    try {
      PrometheusTextFormatWriter.create().write(out, registry.scrape());
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
    return out.toString(StandardCharsets.UTF_8);
  }
}
