package io.github.gatlingllm.server;

import io.github.gatlingllm.server.PrometheusText.Exposition;
import io.github.gatlingllm.server.ServerEngine.Role;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.RejectedExecutionException;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.function.LongSupplier;

/**
 * How fast the server lets go of the requests the client cancelled, read from its {@code /metrics}
 * (vLLM, SGLang, llama.cpp, the embedded simulator: the running and waiting request gauges).
 *
 * <p>Method: after a cancellation (one at a time, the first {@link #MAX_PROBES} of a run), a thread
 * of its own reads the server's running + waiting requests every {@link #POLL_MS} ms and compares
 * them with the client's own requests in flight. A server that still works on a cancelled request
 * holds more requests than the client waits for; the release time is from the cancel to the first
 * reading where it holds no more than the client's ({@code running + waiting <= in flight}). The
 * comparison keeps a closed loop's next request (sent at once, counted on both sides) out of it.
 * Readings take a loopback HTTP call each (a millisecond or two): the figure is good to about
 * {@link #POLL_MS} ms. Another client's requests on the same server keep the server above the
 * client: such probes end as not released after {@link #GIVE_UP_MS} ms.
 *
 * <p>Thread-safe; never throws from {@link #cancelled}.
 */
public final class CancelRelease implements AutoCloseable {

  /** Cancellations probed at most in a run. */
  public static final int MAX_PROBES = 64;

  /** Time between two readings, ms. */
  public static final long POLL_MS = 10;

  /** How long a probe waits for the release, ms. */
  public static final long GIVE_UP_MS = 3_000;

  private final String url;
  private final String authorization;
  private final LongSupplier clientInFlight;
  private final HttpClient client =
      HttpClient.newBuilder()
          .connectTimeout(Duration.ofSeconds(2))
          .version(HttpClient.Version.HTTP_1_1)
          .build();
  private final ExecutorService thread =
      Executors.newSingleThreadExecutor(
          r -> {
            Thread t = new Thread(r, "gatling-llm-cancel-release");
            t.setDaemon(true);
            return t;
          });
  private final AtomicBoolean busy = new AtomicBoolean();

  // Guarded by this.
  private final List<Double> releasedMs = new ArrayList<>();
  private int probes;
  private int notReleased;
  private String unavailable;

  /**
   * A prober of a server.
   *
   * @param baseUrl the OpenAI-compatible base URL ({@link ServerMetrics#metricsUrl})
   * @param apiKey sent as a bearer token when not null
   * @param clientInFlight the client's requests in flight now
   */
  public CancelRelease(String baseUrl, String apiKey, LongSupplier clientInFlight) {
    String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
    String root = base.endsWith("/v1") ? base.substring(0, base.length() - 3) : base;
    this.url = root + "/metrics";
    this.authorization = apiKey == null ? null : "Bearer " + apiKey;
    this.clientInFlight = clientInFlight;
  }

  /**
   * A request was cancelled now: probes the release unless a probe runs or enough were made.
   *
   * @param cancelNanos when the connection was closed, {@link System#nanoTime()}
   */
  public void cancelled(long cancelNanos) {
    synchronized (this) {
      if (probes >= MAX_PROBES || unavailable != null) {
        return;
      }
    }
    if (!busy.compareAndSet(false, true)) {
      return;
    }
    try {
      thread.execute(() -> probe(cancelNanos));
    } catch (RejectedExecutionException e) {
      busy.set(false);
    }
  }

  private void probe(long cancelNanos) {
    try {
      synchronized (this) {
        probes++;
      }
      while (true) {
        Double held = held();
        if (held == null) {
          return;
        }
        long now = System.nanoTime();
        if (held <= clientInFlight.getAsLong()) {
          synchronized (this) {
            releasedMs.add(Math.round((now - cancelNanos) / 1_000.0) / 1_000.0);
          }
          return;
        }
        if (now - cancelNanos > GIVE_UP_MS * 1_000_000L) {
          synchronized (this) {
            notReleased++;
          }
          return;
        }
        Thread.sleep(POLL_MS);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    } finally {
      busy.set(false);
    }
  }

  /** The server's running + waiting requests now, or null (then the prober stops for good). */
  private Double held() {
    try {
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(2)).GET();
      if (authorization != null) {
        request.header("Authorization", authorization);
      }
      HttpResponse<String> response =
          client.send(request.build(), HttpResponse.BodyHandlers.ofString());
      if (response.statusCode() != 200) {
        return stop("GET /metrics answered HTTP " + response.statusCode());
      }
      Exposition exposition = PrometheusText.parse(response.body());
      ServerEngine engine = ServerEngine.detect(exposition);
      if (engine == null) {
        return stop("no known engine's metrics on /metrics");
      }
      Map<Role, Map.Entry<String, Double>> values = engine.read(exposition);
      Map.Entry<String, Double> running = values.get(Role.REQUESTS_RUNNING);
      if (running == null) {
        return stop("no running-requests gauge on /metrics");
      }
      Map.Entry<String, Double> waiting = values.get(Role.REQUESTS_WAITING);
      return running.getValue() + (waiting == null ? 0 : waiting.getValue());
    } catch (java.io.IOException | RuntimeException e) {
      return stop("GET /metrics failed: " + e);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      return null;
    }
  }

  private synchronized Double stop(String reason) {
    unavailable = reason;
    return null;
  }

  /**
   * The {@code cancellation.server_release} object of {@code llm-run.json}: {@code probes}, {@code
   * released}, {@code not_released} (still held after {@link #GIVE_UP_MS} ms), {@code release_ms}
   * ({@code p50}, {@code max}: milliseconds from the cancel to the server holding no more requests
   * than the client), {@code unavailable} (why the server could not be read, or null), {@code
   * method}.
   *
   * @return an ordered, unmodifiable map
   */
  public synchronized Map<String, Object> toRecord() {
    List<Double> sorted = new ArrayList<>(releasedMs);
    Collections.sort(sorted);
    Map<String, Object> release = new LinkedHashMap<>();
    release.put("p50", sorted.isEmpty() ? null : sorted.get((sorted.size() - 1) / 2));
    release.put("max", sorted.isEmpty() ? null : sorted.get(sorted.size() - 1));
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("probes", probes);
    m.put("released", releasedMs.size());
    m.put("not_released", notReleased);
    m.put("release_ms", Collections.unmodifiableMap(release));
    m.put("unavailable", unavailable);
    m.put(
        "method",
        "after a cancel, the server's running + waiting requests (/metrics) read every "
            + POLL_MS
            + " ms until no more than the client's requests in flight");
    return Collections.unmodifiableMap(m);
  }

  /** Stops the probing thread. */
  @Override
  public void close() {
    thread.shutdownNow();
  }
}
