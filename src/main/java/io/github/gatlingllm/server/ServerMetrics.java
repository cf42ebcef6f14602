package io.github.gatlingllm.server;

import io.github.gatlingllm.server.PrometheusText.Exposition;
import io.github.gatlingllm.server.ServerEngine.Role;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Base64;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Scrapes a server's Prometheus {@code /metrics} during a run: once when it starts, every {@code
 * interval} on a daemon thread of its own (JDK HTTP client, never Gatling's event loops), and once
 * more when it ends. Each scrape may take {@link #TIMEOUT} at most, connect included; a scrape that
 * fails (refused, slow, not Prometheus text) is logged once per run and recorded, and the run goes
 * on. A server that answers the first scrape with HTTP 404 or 501 serves no metrics: it is not
 * asked again.
 *
 * <p>What is kept of each scrape: the series of the known engines' {@link Role}s ({@link
 * ServerEngine}); of any other server, only the names of the series it serves (nothing is guessed
 * from them). {@link #finish()} gives the record written under {@code server_metrics} in {@code
 * llm-run.json}.
 *
 * <p>Thread-safe.
 */
public final class ServerMetrics {

  /** How long one scrape may take, connect included: 2 seconds. */
  public static final Duration TIMEOUT = Duration.ofSeconds(2);

  /** Samples kept at most (the end scrape's is always kept). */
  static final int MAX_SAMPLES = 10_000;

  /** Errors kept at most; all are counted. */
  static final int MAX_ERRORS = 20;

  /** Series names kept at most for a server of no known engine. */
  static final int MAX_NAMES = 500;

  private static final Logger LOG = LoggerFactory.getLogger(ServerMetrics.class);

  private final String url;
  private final String authorization;
  private final Duration interval;
  private final Duration timeout;
  private final HttpClient client;
  private final long startedAtMs;
  private final long startedNanos;
  private ScheduledExecutorService scheduler;

  // Guarded by this.
  private ServerEngine engine;
  private final Map<Role, String> series = new EnumMap<>(Role.class);
  private final List<Map<Role, Double>> values = new ArrayList<>();
  private final List<Long> times = new ArrayList<>();
  private long samplesDropped;
  private final Set<String> namesFound = new LinkedHashSet<>();
  private Map<String, Object> cacheConfig = Map.of();
  private long scrapes;
  private long failed;
  private final List<Map<String, Object>> errors = new ArrayList<>();
  private boolean warned;
  private boolean notServed;
  private boolean finished;
  private Map<String, Object> record;

  ServerMetrics(
      String url, String authorization, Duration interval, Duration timeout, HttpClient client) {
    this.url = url;
    this.authorization = authorization;
    this.interval = interval;
    this.timeout = timeout;
    this.client = client;
    this.startedAtMs = System.currentTimeMillis();
    this.startedNanos = System.nanoTime();
  }

  /**
   * The metrics URL of an OpenAI-compatible base URL: {@code /metrics} beside {@code /v1}, as vLLM,
   * SGLang and llama.cpp serve it (the base URL without its {@code /v1}, as the server probe asks
   * {@code /props}); credentials in the URL are left out of it.
   *
   * @param baseUrl e.g. {@code http://127.0.0.1:8000/v1}
   * @return e.g. {@code http://127.0.0.1:8000/metrics}
   */
  public static String metricsUrl(String baseUrl) {
    String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    String root = base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;
    return redact(root + "/metrics");
  }

  /**
   * Starts scraping: the first scrape now, on the calling thread (at most {@link #TIMEOUT}), then
   * one every {@code interval} on a daemon thread.
   *
   * @param baseUrl the OpenAI-compatible base URL (see {@link #metricsUrl})
   * @param apiKey sent as a bearer token when not null (vLLM serves {@code /metrics} without one, a
   *     proxy may want it); else a {@code user:password@} of the base URL is sent as basic
   *     authentication
   * @param interval the time between two scrapes, more than 0
   * @return the running scraper; call {@link #finish()} once the run ends
   * @throws IllegalArgumentException if {@code interval} is not positive
   */
  public static ServerMetrics start(String baseUrl, String apiKey, Duration interval) {
    return start(baseUrl, apiKey, interval, TIMEOUT);
  }

  /** As {@link #start(String, String, Duration)}, with another timeout per scrape. */
  static ServerMetrics start(String baseUrl, String apiKey, Duration interval, Duration timeout) {
    if (interval == null || interval.isZero() || interval.isNegative()) {
      throw new IllegalArgumentException("interval: got " + interval + ", expected more than 0");
    }
    String authorization = apiKey != null ? "Bearer " + apiKey : basic(baseUrl);
    HttpClient client =
        HttpClient.newBuilder()
            .connectTimeout(timeout)
            .version(HttpClient.Version.HTTP_1_1)
            .followRedirects(HttpClient.Redirect.NORMAL)
            .build();
    ServerMetrics metrics =
        new ServerMetrics(metricsUrl(baseUrl), authorization, interval, timeout, client);
    metrics.scrape();
    synchronized (metrics) {
      if (metrics.notServed) {
        return metrics;
      }
    }
    ScheduledExecutorService scheduler =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gatling-llm-server-metrics");
              t.setDaemon(true);
              return t;
            });
    long ms = interval.toMillis();
    scheduler.scheduleWithFixedDelay(metrics::scrape, ms, ms, TimeUnit.MILLISECONDS);
    metrics.scheduler = scheduler;
    LOG.info(
        "server metrics: scraping {} every {} ms (llm.metricsInterval; 0 turns it off)",
        metrics.url,
        ms);
    return metrics;
  }

  /**
   * Stops the periodic scrapes, scrapes once more (at most {@link #TIMEOUT}) and gives the record.
   * Idempotent: later calls give the same record.
   *
   * @return the {@code server_metrics} record (see {@link #record()})
   */
  public Map<String, Object> finish() {
    synchronized (this) {
      if (record != null) {
        return record;
      }
    }
    if (scheduler != null) {
      scheduler.shutdownNow();
      try {
        scheduler.awaitTermination(timeout.toMillis() + 500, TimeUnit.MILLISECONDS);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
    }
    boolean scrape;
    synchronized (this) {
      scrape = !notServed && !finished;
      finished = true;
    }
    if (scrape) {
      scrape();
    }
    synchronized (this) {
      record = record();
      return record;
    }
  }

  /** One scrape; never throws. */
  void scrape() {
    long t = (System.nanoTime() - startedNanos) / 1_000_000;
    synchronized (this) {
      if (notServed || record != null) {
        return;
      }
    }
    String error;
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(url))
              .timeout(timeout)
              .header("Accept", "text/plain;version=0.0.4;q=0.9,*/*;q=0.1")
              .GET();
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      CompletableFuture<HttpResponse<String>> call =
          client.sendAsync(request.build(), HttpResponse.BodyHandlers.ofString());
      HttpResponse<String> response;
      try {
        response = call.get(timeout.toMillis(), TimeUnit.MILLISECONDS);
      } catch (TimeoutException e) {
        call.cancel(true);
        throw e;
      }
      int status = response.statusCode();
      if (status == 200) {
        Exposition exposition = PrometheusText.parse(response.body());
        if (exposition.samples().isEmpty() && !exposition.errors().isEmpty()) {
          error =
              "not Prometheus text ("
                  + exposition.errors().size()
                  + " lines did not parse; first: "
                  + exposition.errors().get(0)
                  + ")";
        } else {
          accept(t, exposition);
          return;
        }
      } else {
        error = "HTTP " + status;
        boolean first;
        synchronized (this) {
          first = scrapes == 0 && failed == 0;
        }
        if (first && (status == 404 || status == 501)) {
          synchronized (this) {
            notServed = true;
            failed(t, error + ": the server serves no metrics there");
          }
          LOG.info(
              "server metrics: {} answered HTTP {}: the server serves no Prometheus metrics there"
                  + " (llama.cpp needs --metrics); none are recorded",
              url,
              status);
          return;
        }
      }
    } catch (TimeoutException e) {
      error = "no answer within " + timeout.toMillis() + " ms";
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return;
    } catch (ExecutionException e) {
      Throwable cause = e.getCause() == null ? e : e.getCause();
      error =
          cause instanceof java.net.http.HttpTimeoutException
              ? "no answer within " + timeout.toMillis() + " ms"
              : cause.getClass().getSimpleName() + describe(cause);
    } catch (RuntimeException e) {
      error = e.getClass().getSimpleName() + describe(e);
    }
    boolean warn;
    synchronized (this) {
      failed(t, error);
      warn = !warned;
      warned = true;
    }
    if (warn) {
      LOG.warn(
          "server metrics: scraping {} failed: {}; the run goes on (said once; every failure is"
              + " in llm-run.json's server_metrics.errors)",
          url,
          error);
    }
  }

  private static String describe(Throwable e) {
    return e.getMessage() == null ? "" : ": " + e.getMessage();
  }

  /** Keeps what a scrape found. */
  synchronized void accept(long tMs, Exposition exposition) {
    scrapes++;
    if (engine == null) {
      engine = ServerEngine.detect(exposition);
    }
    if (engine == null) {
      for (String name : exposition.names()) {
        if (namesFound.size() >= MAX_NAMES) {
          break;
        }
        namesFound.add(name);
      }
      return;
    }
    Map<Role, Double> sample = new EnumMap<>(Role.class);
    for (Map.Entry<Role, Map.Entry<String, Double>> e : engine.read(exposition).entrySet()) {
      series.putIfAbsent(e.getKey(), e.getValue().getKey());
      if (e.getValue().getKey().equals(series.get(e.getKey()))) {
        sample.put(e.getKey(), e.getValue().getValue());
      }
    }
    if (cacheConfig.isEmpty()) {
      cacheConfig = engine.cacheConfig(exposition);
    }
    if (values.size() >= MAX_SAMPLES) {
      // Keep the first ones and the latest.
      values.remove(values.size() - 1);
      times.remove(times.size() - 1);
      samplesDropped++;
    }
    values.add(sample);
    times.add(tMs);
  }

  /** Records a failed scrape. */
  synchronized void failed(long tMs, String error) {
    failed++;
    if (errors.size() < MAX_ERRORS) {
      Map<String, Object> e = new LinkedHashMap<>();
      e.put("t_ms", tMs);
      e.put("error", error);
      errors.add(e);
    }
  }

  /**
   * The record: {@code url} (without credentials), {@code interval_ms}, {@code engine} ({@code
   * vLLM}, {@code SGLang}, {@code llama.cpp}, {@code gatling-llm simulator}, {@code unknown}, or
   * null when no scrape succeeded), {@code started_at_ms} (epoch ms of the first scrape's start:
   * {@code t_ms} 0), {@code scrapes} and {@code failed_scrapes}; for a known engine {@code series}
   * (role to the server's series name), {@code samples} ({@code t_ms} and each role's value, plus
   * {@code hit_rate}: the server's prefix-cache hit rate of the prompt tokens it processed since
   * the previous sample, when it processed any), {@code deltas} (each counter's increase from the
   * first to the last sample, a counter that went down counted from 0 as Prometheus' {@code
   * increase} does), {@code prefix_cache_hit_rate} over the whole run and its {@code
   * hit_rate_formula}, and {@code cache_config} when the server says its block size or capacity;
   * for an unknown server, {@code series_found} (the names it serves); {@code errors} (the first
   * {@value #MAX_ERRORS} failures with their {@code t_ms}) when any.
   *
   * @return an ordered, JSON-ready map
   */
  synchronized Map<String, Object> record() {
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("url", url);
    out.put("interval_ms", interval.toMillis());
    out.put(
        "engine", engine != null ? engine.displayName() : scrapes > 0 ? "unknown" : (String) null);
    out.put("started_at_ms", startedAtMs);
    out.put("scrapes", scrapes);
    out.put("failed_scrapes", failed);
    if (engine != null) {
      Map<String, Object> names = new LinkedHashMap<>();
      series.forEach((role, name) -> names.put(role.key(), name));
      out.put("series", names);
      Map<Role, Double> deltas = deltas();
      List<Map<String, Object>> samples = new ArrayList<>(values.size());
      for (int i = 0; i < values.size(); i++) {
        Map<String, Object> s = new LinkedHashMap<>();
        s.put("t_ms", times.get(i));
        values.get(i).forEach((role, v) -> s.put(role.key(), finite(v)));
        if (i > 0) {
          Double rate = engine.hitRate(step(values.get(i - 1), values.get(i)));
          if (rate != null) {
            s.put("hit_rate", round4(rate));
          }
        }
        samples.add(s);
      }
      out.put("samples", samples);
      if (samplesDropped > 0) {
        out.put("samples_dropped", samplesDropped);
      }
      Map<String, Object> d = new LinkedHashMap<>();
      deltas.forEach((role, v) -> d.put(role.key(), finite(v)));
      out.put("deltas", d);
      Double rate = engine.hitRate(deltas);
      out.put("prefix_cache_hit_rate", rate == null ? null : round4(rate));
      out.put("hit_rate_formula", engine.hitRateFormula());
      if (!cacheConfig.isEmpty()) {
        out.put("cache_config", cacheConfig);
      }
    } else if (scrapes > 0) {
      out.put("series_found", List.copyOf(namesFound));
    }
    if (!errors.isEmpty()) {
      out.put("errors", List.copyOf(errors));
    }
    return out;
  }

  /** Each counter's increase over the samples, resets counted from 0. */
  private Map<Role, Double> deltas() {
    Map<Role, Double> out = new EnumMap<>(Role.class);
    Map<Role, Double> last = new EnumMap<>(Role.class);
    for (Map<Role, Double> sample : values) {
      for (Map.Entry<Role, Double> e : sample.entrySet()) {
        Role role = e.getKey();
        if (!role.counter()) {
          continue;
        }
        double v = e.getValue();
        Double previous = last.put(role, v);
        if (previous == null) {
          out.putIfAbsent(role, 0.0);
        } else {
          out.merge(role, v >= previous ? v - previous : v, Double::sum);
        }
      }
    }
    return out;
  }

  private static Map<Role, Double> step(Map<Role, Double> from, Map<Role, Double> to) {
    Map<Role, Double> out = new EnumMap<>(Role.class);
    for (Map.Entry<Role, Double> e : to.entrySet()) {
      Double previous = from.get(e.getKey());
      if (e.getKey().counter() && previous != null) {
        double v = e.getValue();
        out.put(e.getKey(), v >= previous ? v - previous : v);
      }
    }
    return out;
  }

  private static double round4(double v) {
    return Math.round(v * 10_000) / 10_000.0;
  }

  /** JSON has no NaN or infinity: null instead. */
  private static Double finite(double v) {
    return Double.isFinite(v) ? v : null;
  }

  /** A basic authorization of the URL's user info, or null. */
  private static String basic(String baseUrl) {
    try {
      String info = new URI(baseUrl).getRawUserInfo();
      if (info == null || info.isEmpty()) {
        return null;
      }
      String decoded = java.net.URLDecoder.decode(info, StandardCharsets.UTF_8);
      return "Basic "
          + Base64.getEncoder().encodeToString(decoded.getBytes(StandardCharsets.UTF_8));
    } catch (URISyntaxException | IllegalArgumentException e) {
      return null;
    }
  }

  /** The URL without user info. */
  private static String redact(String url) {
    try {
      URI uri = new URI(url);
      if (uri.getRawUserInfo() == null) {
        return url;
      }
      return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null)
          .toString();
    } catch (URISyntaxException e) {
      return url;
    }
  }
}
