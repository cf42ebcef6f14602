package io.github.gatlingllm.live;

import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.settings.LiveSettings;
import io.prometheus.metrics.exporter.httpserver.HTTPServer;
import java.io.IOException;
import java.net.BindException;
import java.time.Duration;
import java.util.Objects;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.locks.LockSupport;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The live {@code /metrics} endpoint of a run ({@code llm.prometheusPort}): Prometheus'
 * own {@link HTTPServer} over the run's {@link LiveMetrics}, started before any load.
 *
 * <p>Off the event loops: {@link #record} only puts the finished request's record on a lock-free
 * queue; a daemon thread adds the queued records to the metrics every {@value #DRAIN_EVERY_MS} ms,
 * so a record waits at most that long and nothing per request stays once it is added.
 *
 * <p>Nothing lost at the end: {@link #runRecorded()}, called once the run record is written, adds
 * every record still queued, refuses later ones (a request the run record does not hold either),
 * says once on the console how long the final values stay served, and keeps serving them for {@code
 * llm.prometheusLinger}: on a thread of its own that the JVM waits for, and in a shutdown hook when
 * Gatling exits the JVM before then.
 *
 * <p>Thread-safe.
 */
public final class LiveEndpoint {

  private static final Logger LOG = LoggerFactory.getLogger(LiveEndpoint.class);

  /** How often queued records are added to the metrics, milliseconds. */
  static final long DRAIN_EVERY_MS = 100;

  /** The endpoint of a run without {@code llm.prometheusPort}: does nothing. */
  public static final LiveEndpoint OFF = new LiveEndpoint();

  private final LiveMetrics metrics;
  private final HTTPServer server;
  private final Duration linger;
  private final ConcurrentLinkedQueue<RequestRecord> queue = new ConcurrentLinkedQueue<>();
  private final AtomicBoolean recorded = new AtomicBoolean();
  private final Thread drainer;
  private volatile boolean open = true;
  private volatile Thread lingerer;

  private LiveEndpoint() {
    this.metrics = null;
    this.server = null;
    this.linger = Duration.ZERO;
    this.drainer = null;
    this.open = false;
  }

  private LiveEndpoint(LiveMetrics metrics, HTTPServer server, Duration linger) {
    this.metrics = metrics;
    this.server = server;
    this.linger = linger;
    this.drainer = new Thread(this::drainLoop, "gatling-llm-live");
    drainer.setDaemon(true);
    drainer.start();
  }

  /**
   * Starts the live endpoint of a run, or does nothing.
   *
   * @param settings the endpoint's settings, never null
   * @param shard this JVM's shard: its index is the {@code shard} label when the test runs on
   *     several machines ({@code llm.shard}, a Kubernetes Indexed Job)
   * @param gauges what the gauges read, never null
   * @return the endpoint, {@link #OFF} when {@code llm.prometheusPort} is unset
   * @throws IllegalArgumentException naming {@code llm.prometheusPort} when the port cannot be
   *     bound
   */
  public static LiveEndpoint start(LiveSettings settings, Shard shard, LiveMetrics.Gauges gauges) {
    if (!settings.isSet()) {
      return OFF;
    }
    return start(
        settings, new LiveMetrics(shard.single() ? null : String.valueOf(shard.index()), gauges));
  }

  /**
   * Starts serving {@code /metrics} on the settings' address ({@code llm.prometheusHost}, loopback
   * by default) and port, or does nothing.
   *
   * @param settings the endpoint's settings, never null
   * @param metrics the run's live metrics, never null
   * @return the endpoint, {@link #OFF} when {@code llm.prometheusPort} is unset
   * @throws IllegalArgumentException naming {@code llm.prometheusPort}, the port and what is
   *     allowed, when the port cannot be bound (in use, or not allowed to this user); naming {@code
   *     llm.prometheusHost} when the address is not this machine's
   */
  public static LiveEndpoint start(LiveSettings settings, LiveMetrics metrics) {
    Objects.requireNonNull(metrics, "metrics");
    if (!settings.isSet()) {
      return OFF;
    }
    HTTPServer server;
    try {
      server =
          HTTPServer.builder()
              .hostname(settings.host())
              .port(settings.port())
              .registry(metrics.registry())
              .buildAndStart();
    } catch (BindException e) {
      if (e.getMessage() != null && e.getMessage().contains("assign requested address")) {
        throw new IllegalArgumentException(
            "llm.prometheusHost: got "
                + settings.host()
                + ", expected an address of this machine (127.0.0.1, 0.0.0.0 or an interface's):"
                + " it cannot be bound ("
                + e.getMessage()
                + ")");
      }
      throw new IllegalArgumentException(
          "llm.prometheusPort: got "
              + settings.port()
              + ", expected a free TCP port in [1, 65535]: it cannot be bound on "
              + settings.host()
              + " ("
              + e.getMessage()
              + ")");
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "llm.prometheusPort: got "
              + settings.port()
              + ", expected a TCP port this JVM can serve on "
              + settings.host()
              + ": "
              + e);
    }
    String host = settings.host().contains(":") ? "[" + settings.host() + "]" : settings.host();
    LOG.info(
        "live metrics on http://{}:{}/metrics (llm.prometheusPort{}; docs/live-metrics.md)",
        host,
        server.getPort(),
        LiveSettings.DEFAULT_HOST.equals(settings.host())
            ? ": this machine only, llm.prometheusHost=0.0.0.0 serves every interface"
            : ", llm.prometheusHost");
    return new LiveEndpoint(metrics, server, settings.linger());
  }

  /**
   * A request finished: its record is added to the metrics within {@value #DRAIN_EVERY_MS} ms.
   * Cheap and non-blocking (for the event loops); does nothing once the run is recorded or when the
   * endpoint is off.
   *
   * @param record the request's record, never null
   */
  public void record(RequestRecord record) {
    if (open) {
      queue.offer(record);
    }
  }

  /**
   * The port served.
   *
   * @return the port, or -1 when off
   */
  public int port() {
    return server == null ? -1 : server.getPort();
  }

  private void drainLoop() {
    while (open) {
      LockSupport.parkNanos(TimeUnit.MILLISECONDS.toNanos(DRAIN_EVERY_MS));
      try {
        drain();
      } catch (RuntimeException e) {
        LOG.warn("live metrics: could not add a request: {}", e.toString());
      }
    }
  }

  /** Adds every queued record; one thread at a time, as {@link LiveMetrics#add} needs. */
  synchronized void drain() {
    RequestRecord record;
    while ((record = queue.poll()) != null) {
      metrics.add(record);
    }
  }

  /**
   * The run record is written: adds the records still queued, takes no more, says once on the
   * console how long the final values stay served, and closes the endpoint {@code
   * llm.prometheusLinger} later (the JVM waits for it). Runs once; does nothing when off.
   */
  public void runRecorded() {
    if (server == null || !recorded.compareAndSet(false, true)) {
      return;
    }
    open = false;
    drainer.interrupt();
    drain();
    metrics.runEnded();
    long ms = linger.toMillis();
    if (ms == 0) {
      LOG.info(
          "live metrics: the final values are in; the endpoint on port {} closes now"
              + " (llm.prometheusLinger=0s)",
          server.getPort());
    } else {
      LOG.info(
          "live metrics: the final values stay served on port {} for {} more"
              + " (llm.prometheusLinger), then the endpoint closes",
          server.getPort(),
          ms % 1000 == 0 ? ms / 1000 + " s" : ms + " ms");
    }
    if (ms == 0) {
      server.close();
      return;
    }
    long until = System.nanoTime() + TimeUnit.MILLISECONDS.toNanos(ms);
    Thread thread =
        new Thread(
            () -> {
              long left;
              while ((left = until - System.nanoTime()) > 0) {
                LockSupport.parkNanos(left);
              }
              server.close();
            },
            "gatling-llm-live-linger");
    thread.setDaemon(false);
    lingerer = thread;
    thread.start();
    try {
      // Gatling may exit the JVM right after its report: the hook holds the exit until then.
      Runtime.getRuntime().addShutdownHook(new Thread(this::awaitClosed, "gatling-llm-live-exit"));
    } catch (IllegalStateException e) {
      // The JVM is shutting down already (a run stopped with Ctrl+C): serve until the deadline.
      awaitClosed();
    }
  }

  /** Waits until the linger is over and the endpoint closed. */
  void awaitClosed() {
    Thread thread = lingerer;
    if (thread == null) {
      return;
    }
    try {
      thread.join();
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
  }

  /** Closes the endpoint now, without lingering (tests, a run that failed to start). */
  public void close() {
    open = false;
    if (drainer != null) {
      drainer.interrupt();
    }
    if (server != null) {
      server.close();
    }
  }
}
