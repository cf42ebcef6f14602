package io.github.gatlingllm.protocol;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.cache.WorkingSetSweepSummary;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.levels.SweepStep;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.WorkingSetSweep;
import io.github.gatlingllm.server.ServerMetrics;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. What a run learns of the server's cache besides each request's own record: the server's
 * Prometheus metrics ({@link ServerMetrics}, unless {@code llm.metricsInterval} is 0), the
 * prefix-cache hit rate of the run's requests to set beside the server's, and the steps of any
 * working-set sweep. Adds {@code server_metrics} and {@code working_set_sweep} to {@code
 * llm-run.json}. Thread-safe.
 */
final class ServerWatch {

  private static final Logger LOG = LoggerFactory.getLogger(ServerWatch.class);
  private static final ObjectMapper JSON = new ObjectMapper();

  private final ServerMetrics metrics;
  private final SimulatorConfig simulator;
  private final LongAdder promptTokens = new LongAdder();
  private final LongAdder cachedTokens = new LongAdder();
  private final Map<Workload, SweepStep> steps = new ConcurrentHashMap<>();
  private volatile io.github.gatlingllm.server.CancelRelease cancelRelease;

  private ServerWatch(ServerMetrics metrics, SimulatorConfig simulator) {
    this.metrics = metrics;
    this.simulator = simulator;
  }

  /**
   * Starts watching: scrapes the server's metrics once now (at most {@link ServerMetrics#TIMEOUT})
   * and then every {@code llm.metricsInterval} on a thread of its own. Never throws.
   *
   * @param settings the run's settings
   * @param baseUrl the base URL requests go to (credentials included, never logged)
   * @param simulator the embedded simulator's configuration, or null for a server
   * @return the watch
   */
  static ServerWatch start(LlmSettings settings, String baseUrl, SimulatorConfig simulator) {
    ServerMetrics metrics = null;
    if (!settings.metricsInterval().isZero()) {
      try {
        metrics = ServerMetrics.start(baseUrl, settings.apiKey(), settings.metricsInterval());
      } catch (RuntimeException e) {
        LOG.warn("server metrics: not scraped: {}", e.toString());
      }
    }
    return new ServerWatch(metrics, simulator);
  }

  /**
   * Probes how fast the server lets go of cancelled requests ({@code llm.cancelRate}).
   *
   * @param probe the prober, never null
   */
  void cancelRelease(io.github.gatlingllm.server.CancelRelease probe) {
    this.cancelRelease = probe;
  }

  /**
   * A request was cancelled by the client now.
   *
   * @param nanos when its connection was closed, {@link System#nanoTime()}
   */
  void cancelled(long nanos) {
    io.github.gatlingllm.server.CancelRelease probe = cancelRelease;
    if (probe != null) {
      probe.cancelled(nanos);
    }
  }

  /**
   * Notes a finished request.
   *
   * @param workload the request's workload, or null
   * @param record the request
   */
  void record(Workload workload, RequestRecord record) {
    if (record.promptTokens() != null && record.cachedTokens() != null) {
      promptTokens.add(record.promptTokens());
      cachedTokens.add(record.cachedTokens());
    }
    if (workload != null && workload.sweepStep() != null) {
      steps
          .computeIfAbsent(
              workload, w -> new SweepStep(w.name(), w.measured().caseId(), w.sweepStep().groups()))
          .add(record);
    }
  }

  /**
   * Stops the scrapes (after a last one) and adds {@code server_metrics} and {@code
   * working_set_sweep} to a run record; logs what they say.
   *
   * @param record the run record being written
   */
  void addTo(Map<String, Object> record) {
    io.github.gatlingllm.server.CancelRelease probe = cancelRelease;
    if (probe != null) {
      probe.close();
      Map<String, Object> release = probe.toRecord();
      record.put("server_cancel_release", release);
      LOG.info("server after cancellations: {}", release);
    }
    io.github.gatlingllm.record.ServerMetrics server = null;
    if (metrics != null) {
      Map<String, Object> block = new LinkedHashMap<>(metrics.finish());
      long prompt = promptTokens.sum();
      block.put(
          "run_hit_rate",
          prompt == 0 ? null : Math.round(cachedTokens.sum() * 10_000.0 / prompt) / 10_000.0);
      record.put("server_metrics", block);
      server = typed(block);
      if (server != null && server.prefixCacheHitRate() != null) {
        Double run = server.runHitRate();
        LOG.info(
            "server metrics: {}'s own prefix-cache hit rate over the run {}; {}",
            server.engine(),
            server.prefixCacheHitRate(),
            run == null
                ? "no request of the run reported prompt tokens in its usage, so the run's own"
                    + " hit rate is not known"
                : "the run's requests saw " + run + " (cached_tokens in their usage)");
      }
    }
    List<WorkingSetSweep> sweeps = sweeps(server);
    if (!sweeps.isEmpty()) {
      record.put("working_set_sweep", sweeps);
      for (WorkingSetSweep sweep : sweeps) {
        LOG.info("working-set sweep {}: {}", sweep.name(), sweep.summary());
      }
    }
  }

  /** The block as its type, for what the end of the run logs and the sweeps read of it. */
  private static io.github.gatlingllm.record.ServerMetrics typed(Map<String, Object> block) {
    try {
      return JSON.convertValue(block, io.github.gatlingllm.record.ServerMetrics.class);
    } catch (IllegalArgumentException e) {
      LOG.debug("server_metrics does not read as its type: {}", e.getMessage());
      return null;
    }
  }

  private List<WorkingSetSweep> sweeps(io.github.gatlingllm.record.ServerMetrics server) {
    Map<String, TreeMap<Integer, SweepStep>> byName = new TreeMap<>();
    for (Map.Entry<Workload, SweepStep> e : steps.entrySet()) {
      Workload.SweepStep tag = e.getKey().sweepStep();
      byName.computeIfAbsent(tag.sweep(), n -> new TreeMap<>()).put(tag.step(), e.getValue());
    }
    Long capacity = null;
    String source = null;
    if (simulator != null) {
      capacity = (long) simulator.cacheBlocks() * simulator.blockSize();
      source = "embedded simulator: cacheBlocks x blockSize";
    } else if (server != null && server.cacheCapacityTokens() != null) {
      capacity = server.cacheCapacityTokens().longValue();
      source = server.engine() + " /metrics";
    }
    List<WorkingSetSweep> out = new ArrayList<>();
    for (Map.Entry<String, TreeMap<Integer, SweepStep>> e : byName.entrySet()) {
      List<WorkingSetSweep.Step> records = new ArrayList<>();
      e.getValue().values().stream()
          .sorted(Comparator.comparingInt(SweepStep::groups))
          .forEach(s -> records.add(s.toRecord()));
      out.add(WorkingSetSweepSummary.toRecord(e.getKey(), records, capacity, source));
    }
    return out;
  }
}
