package io.github.gatlingllm.record;

import com.fasterxml.jackson.annotation.JsonAnySetter;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.stats.Distribution;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The run record's {@code client}: how late the client sent and how busy its JVM was, written by
 * {@code protocol.ClientWatch} at the run's end (issue 13), and merged over several run folders by
 * {@link #merge}.
 *
 * <p>{@code cpu_share} is written even when null (a merged record has no one machine); the other
 * fields are left out when null (older files without them load and are written again as they were).
 * Keys this version does not know are kept in {@link #extra} and written after the others.
 *
 * @param scheduleLagMs every open-loop first request's schedule lag (sent minus scheduled time),
 *     milliseconds; count 0 in a closed loop
 * @param injectionStart where the schedules started: Gatling's injector or the estimate
 * @param cpuShare the client JVM's share of the machine's CPU, or null for a merged record
 * @param maxLagP99Ms {@code llm.client.maxLagP99Ms}, milliseconds
 * @param maxCpuShare {@code llm.client.maxCpuShare}, in (0, 1]
 * @param notes what could not be measured or judged, one line each
 * @param warnings the client fell behind its injection profile or was too busy, one line each
 * @param gc the client JVM's own garbage-collection pauses over the run ({@link Gc}), or null (a
 *     merged record, a file written before issue 43)
 * @param jit how long the client JVM's JIT compilers worked over the run and its first measured
 *     requests ({@link Jit}), or null (as {@code gc}, or a JVM that does not say)
 * @param extra keys of newer versions, in the file's order; never null
 */
@JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
@JsonInclude(JsonInclude.Include.NON_NULL)
@JsonPropertyOrder({
  "schedule_lag_ms",
  "injection_start",
  "cpu_share",
  "max_lag_p99_ms",
  "max_cpu_share",
  "notes",
  "warnings",
  "gc",
  "jit"
})
public record ClientSummary(
    Distribution scheduleLagMs,
    InjectionStart injectionStart,
    @JsonInclude(JsonInclude.Include.ALWAYS) CpuShare cpuShare,
    Double maxLagP99Ms,
    Double maxCpuShare,
    List<String> notes,
    List<String> warnings,
    Gc gc,
    Jit jit,
    @JsonAnySetter Map<String, Object> extra)
    implements KeepsNewerKeys {

  /** The key of the block in {@code llm-run.json}. */
  public static final String KEY = "client";

  /** The note of a merged record, whose CPU share is each folder's. */
  public static final String MERGED_NOTE = "merged: each folder's CPU share is in shards[].client";

  /** Normalises {@code extra} to an ordered map. */
  public ClientSummary {
    extra = KeepsNewerKeys.ordered(extra);
  }

  /**
   * A block without keys of newer versions.
   *
   * @param scheduleLagMs the schedule lag, milliseconds
   * @param injectionStart where the schedules started
   * @param cpuShare the CPU share, or null
   * @param maxLagP99Ms the lag threshold, milliseconds
   * @param maxCpuShare the CPU threshold
   * @param notes the notes
   * @param warnings the warnings
   */
  public ClientSummary(
      Distribution scheduleLagMs,
      InjectionStart injectionStart,
      CpuShare cpuShare,
      Double maxLagP99Ms,
      Double maxCpuShare,
      List<String> notes,
      List<String> warnings) {
    this(
        scheduleLagMs,
        injectionStart,
        cpuShare,
        maxLagP99Ms,
        maxCpuShare,
        notes,
        warnings,
        null,
        null,
        null);
  }

  /**
   * The client's own garbage-collection pauses over the run (issue 43), written by {@code
   * protocol.GcWatch}: every stop-the-world pause the JVM reported while the load ran.
   *
   * @param collectors the JVM's collector beans, as {@code GarbageCollectorMXBean.getName()} gives
   *     them ({@code Copy} and {@code MarkSweepCompact}: Serial GC, which the JVM picks when it
   *     sees one processor; {@code G1 Young Generation} ...; {@code ZGC Pauses} ...), never null
   * @param pauseMs the pauses' durations, whole milliseconds as the JVM reports them; count 0 when
   *     there was none
   * @param pausedMs the pauses' sum, milliseconds
   * @param processors the processors the JVM saw ({@code Runtime.availableProcessors()})
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"collectors", "pause_ms", "paused_ms", "processors"})
  public record Gc(List<String> collectors, Distribution pauseMs, long pausedMs, int processors) {

    /** Checks the fields. */
    public Gc {
      Objects.requireNonNull(collectors, "collectors");
      Objects.requireNonNull(pauseMs, "pauseMs");
      if (pausedMs < 0) {
        throw new IllegalArgumentException("pausedMs must be >= 0, got " + pausedMs);
      }
    }
  }

  /**
   * How long the client JVM's JIT compilers worked (issue 43), written by {@code protocol.JitWatch}
   * from {@code CompilationMXBean.getTotalCompilationTime()} (milliseconds summed over the compiler
   * threads) read every second: on a client with few cores a compilation takes the core from the
   * event loop.
   *
   * @param compileMs the compilers' time over the load, ms
   * @param measuredCompileMs their time after the first measured request started, ms; null when no
   *     measured request started
   * @param firstMeasuredCompileMs their time in the first {@code first_ms} of the measured
   *     requests, ms; null as {@code measured_compile_ms}
   * @param firstMs the first measured stretch, ms
   * @param processors the processors the JVM saw
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.ALWAYS)
  @JsonPropertyOrder({
    "compile_ms",
    "measured_compile_ms",
    "first_measured_compile_ms",
    "first_ms",
    "processors"
  })
  public record Jit(
      long compileMs,
      Long measuredCompileMs,
      Long firstMeasuredCompileMs,
      long firstMs,
      int processors) {}

  /**
   * The {@code client} of a record merged from several run folders (load generators): the schedule
   * lag of all their requests (recomputed by the caller from {@code llm-requests.jsonl}), the
   * injection starts added up, no CPU share (there is no one machine: each folder's is in its
   * {@code shards[]} entry), the first folder's thresholds and each folder's warnings, prefixed by
   * its name ({@code "b: the client fell behind"}).
   *
   * @param clients each folder's block, in the merge's order; an entry is null for a folder without
   *     one
   * @param folders each folder's name in the warnings, in the same order, never null
   * @param scheduleLagMs the schedule lag of every folder's requests, milliseconds, never null
   * @return the merged block, or null when no folder has one
   * @throws IllegalArgumentException if the two lists differ in size
   */
  public static ClientSummary merge(
      List<ClientSummary> clients, List<String> folders, Distribution scheduleLagMs) {
    if (clients.size() != folders.size()) {
      throw new IllegalArgumentException(
          "clients and folders must pair up, got " + clients.size() + " and " + folders.size());
    }
    ClientSummary first = null;
    List<String> warnings = new ArrayList<>();
    List<InjectionStart> starts = new ArrayList<>();
    for (int i = 0; i < clients.size(); i++) {
      ClientSummary c = clients.get(i);
      if (c == null) {
        continue;
      }
      if (first == null) {
        first = c;
      }
      if (c.warnings() != null) {
        for (String w : c.warnings()) {
          warnings.add(folders.get(i) + ": " + w);
        }
      }
      starts.add(c.injectionStart());
    }
    if (first == null) {
      return null;
    }
    return new ClientSummary(
        Objects.requireNonNull(scheduleLagMs, "scheduleLagMs"),
        InjectionStart.merge(starts),
        null,
        first.maxLagP99Ms(),
        first.maxCpuShare(),
        List.of(MERGED_NOTE),
        warnings);
  }

  /**
   * How many schedules started where Gatling's injector started ({@code gatling_injector}), and how
   * many from the estimate ({@code estimated}: a request that ended before the injector published
   * its start). Either is left out when null.
   *
   * @param gatlingInjector schedules started at Gatling's injector start, or null
   * @param estimated schedules started at the estimate, or null
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"gatling_injector", "estimated"})
  public record InjectionStart(
      Long gatlingInjector, Long estimated, @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public InjectionStart {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * The counts of one run.
     *
     * @param gatlingInjector schedules started at Gatling's injector start
     * @param estimated schedules started at the estimate
     */
    public InjectionStart(long gatlingInjector, long estimated) {
      this(gatlingInjector, estimated, null);
    }

    /**
     * The counts of several runs added up: each count summed over the runs that have it (null when
     * none has), and keys of newer versions whose values are numbers summed alike; other keys are
     * left out.
     *
     * @param starts the runs' counts; null entries are skipped
     * @return the sums; all null (written {@code {}}) when no run has a count
     */
    public static InjectionStart merge(List<InjectionStart> starts) {
      Long injector = null;
      Long estimated = null;
      Map<String, Object> extra = new LinkedHashMap<>();
      for (InjectionStart s : starts) {
        if (s == null) {
          continue;
        }
        injector = sum(injector, s.gatlingInjector());
        estimated = sum(estimated, s.estimated());
        s.extra()
            .forEach(
                (k, v) -> {
                  if (v instanceof Number n) {
                    extra.merge(k, n.longValue(), (a, b) -> (Long) a + (Long) b);
                  }
                });
      }
      return new InjectionStart(injector, estimated, extra);
    }

    private static Long sum(Long a, Long b) {
      if (a == null || b == null) {
        return a == null ? b : a;
      }
      return a + b;
    }
  }

  /**
   * The client JVM's share of the machine's CPU ({@code levels.CpuSamples}): CPU time over wall
   * time times the processors available to the JVM. {@code mean} and {@code max} are written even
   * when null; the others are left out when null (files before issue 40 have no {@code
   * min_window_ms} and {@code windows}).
   *
   * @param mean the share over the whole sampled span, in [0, 1], 4 decimals, or null when the
   *     samples span less than {@code min_window_ms}
   * @param max the highest share over windows of at least {@code min_window_ms}, in [0, 1], 4
   *     decimals, or null as {@code mean}
   * @param processors the processors the shares are taken of
   * @param samples how many samples were taken
   * @param minWindowMs the shortest window a share is taken over, milliseconds
   * @param windows how many windows {@code max} is the highest of
   * @param extra keys of newer versions, in the file's order; never null
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonInclude(JsonInclude.Include.NON_NULL)
  @JsonPropertyOrder({"mean", "max", "processors", "samples", "min_window_ms", "windows"})
  public record CpuShare(
      @JsonInclude(JsonInclude.Include.ALWAYS) Double mean,
      @JsonInclude(JsonInclude.Include.ALWAYS) Double max,
      Integer processors,
      Integer samples,
      Long minWindowMs,
      Integer windows,
      @JsonAnySetter Map<String, Object> extra)
      implements KeepsNewerKeys {

    /** Normalises {@code extra} to an ordered map. */
    public CpuShare {
      extra = KeepsNewerKeys.ordered(extra);
    }

    /**
     * The share of one run, as written today.
     *
     * @param mean the share over the run, or null
     * @param max the highest window's share, or null
     * @param processors the processors
     * @param samples the samples
     * @param minWindowMs the shortest window, milliseconds
     * @param windows the windows of {@code max}
     */
    public CpuShare(
        Double mean, Double max, int processors, int samples, long minWindowMs, int windows) {
      this(mean, max, processors, samples, minWindowMs, windows, null);
    }
  }
}
