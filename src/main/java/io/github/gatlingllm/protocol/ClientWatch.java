package io.github.gatlingllm.protocol;

import io.gatling.core.session.Session;
import io.github.gatlingllm.LlmSettings;
import io.github.gatlingllm.metrics.CpuSamples;
import io.github.gatlingllm.metrics.Distribution;
import io.github.gatlingllm.metrics.Injection;
import io.github.gatlingllm.metrics.InjectionSchedule;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.ScheduleLag;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Whether the client kept up: each open-loop virtual user's due time by its scenario's
 * injection profile against the time its first LLM request was handed to Gatling's HTTP client (the
 * schedule lag), and the client JVM's CPU share, sampled every second from the run's start to its
 * end. When the client falls behind (lag p99 over {@code llm.client.maxLagP99Ms}, or CPU share over
 * {@code llm.client.maxCpuShare} over the last 10 s or the whole run) it warns once on the console,
 * as soon as it is seen, and in {@code llm-run.json}'s {@code client.warnings}.
 *
 * <p>The schedule: user {@code k} of a scenario (its rank by Gatling user id among the scenario's
 * users: Gatling hands ids out in injection order) is due at the injection's start plus {@link
 * InjectionSchedule#offsetMs(long)}. Gatling's injector does not publish its start, so it is taken
 * from the first user the LLM protocol sees start ({@code onStart}) of the scenario's start group:
 * the scenarios that start with the run share one start, each scenario started by {@code andThen}
 * has its own; the start is that user's start minus the scenario's first offset (the leading {@code
 * nothingFor}). A first user that started late would hide its lateness from every lag of the group;
 * it is the first thing the run does, on idle event loops.
 *
 * <p>One clock: starts and sends are {@link System#nanoTime()}, turned into epoch milliseconds with
 * one anchor taken when the run starts (Gatling schedules users on the wall clock each second, so a
 * wall clock slewed by NTP shifts the lags by its drift, parts per million of the run's length).
 * Ranks are taken when the user's first request ends, when every user due before it has started.
 *
 * <p>Thread-safe: users start and send on every event loop.
 */
public final class ClientWatch {

  private static final Logger LOG = LoggerFactory.getLogger(ClientWatch.class);

  /** How often the CPU is sampled and the warnings checked, in ms. */
  static final long SAMPLE_EVERY_MS = 1_000;

  /** The CPU window checked during the run, in ms. */
  static final long CPU_WINDOW_MS = 10_000;

  /** The fewest lags whose p99 is checked during the run (the run's end checks any count). */
  static final long LIVE_MIN_LAGS = 100;

  private static final String COORDINATED_OMISSION =
      "coordinated omission may hide in the server's figures (requests sent late meet a lighter"
          + " load than planned, so TTFT and E2E look better than they would be)";

  private final double maxLagP99Ms;
  private final double maxCpuShare;
  private final Map<String, Scenario> scenarios = new HashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final Map<String, Long> groupStarts = new ConcurrentHashMap<>();
  private final Map<Long, Scenario> due = new ConcurrentHashMap<>();
  private final long anchorNanos;
  private final double anchorEpochMs;
  private final ScheduleLag lag = new ScheduleLag();
  private final CpuSamples cpu = new CpuSamples(Runtime.getRuntime().availableProcessors());
  private final CpuClock cpuClock = CpuClock.of();
  private final List<String> warnings = new ArrayList<>();
  private boolean lagWarned;
  private boolean cpuWarned;
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final Thread sampler;

  /**
   * Watches a run; call {@link #start()} when the load may begin.
   *
   * @param settings the run's settings (the thresholds), never null
   * @param injections the simulation's injection profiles ({@code RunContext#injections()})
   * @param injectionUnknown why the profiles could not be read, or null
   */
  ClientWatch(LlmSettings settings, List<Injection> injections, String injectionUnknown) {
    this.maxLagP99Ms = settings.clientMaxLagP99Ms();
    this.maxCpuShare = settings.clientMaxCpuShare();
    if (injectionUnknown != null) {
      notes.add(
          "no schedule lag: the injection profiles could not be read (" + injectionUnknown + ")");
    }
    for (Injection injection : injections) {
      if (injection.closed()) {
        continue;
      }
      InjectionSchedule schedule = InjectionSchedule.of(injection);
      if (schedule.users() > 0) {
        String group = injection.after().isEmpty() ? "" : injection.scenario();
        scenarios.put(injection.scenario(), new Scenario(schedule, group));
      }
    }
    Instant now = Instant.now();
    this.anchorNanos = System.nanoTime();
    this.anchorEpochMs = now.getEpochSecond() * 1000.0 + now.getNano() / 1e6;
    if (cpuClock == null) {
      notes.add("no CPU share: this JVM reports no process CPU time");
    }
    this.sampler = new Thread(this::sample, "gatling-llm-client-watch");
    sampler.setDaemon(true);
  }

  /** Starts sampling the CPU. */
  void start() {
    takeSample();
    sampler.start();
  }

  /**
   * A virtual user started (Gatling's protocol {@code onStart}, on its event loop).
   *
   * @param session the new user's session
   */
  void userStarted(Session session) {
    Scenario scenario = scenarios.get(session.scenario());
    if (scenario == null) {
      return;
    }
    long now = System.nanoTime();
    groupStarts.computeIfAbsent(
        scenario.group, g -> now - scenario.schedule.offsetMs(0) * 1_000_000L);
    scenario.started(session.userId());
    due.put(session.userId(), scenario);
  }

  /**
   * A virtual user ended: it has no first request to come.
   *
   * @param session its session
   */
  void userExited(Session session) {
    due.remove(session.userId());
  }

  /**
   * The request about to be sent by a user: its schedule when it is the user's first LLM request in
   * an open loop.
   *
   * @param session the user's session
   * @return a token for {@link #scheduledMs(First)}, or null when the request has no schedule
   */
  public First firstSend(Session session) {
    Scenario scenario = due.remove(session.userId());
    return scenario == null ? null : new First(scenario, session.userId());
  }

  /**
   * The user's first request is held back (until the warmup ends): its wait is the test's own, so
   * it gets no schedule.
   *
   * @param session the user's session
   */
  public void unscheduled(Session session) {
    due.remove(session.userId());
  }

  /**
   * When a first request's user was due.
   *
   * @param first the token of {@link #firstSend}, never null
   * @return epoch milliseconds on the clock of {@link #epochMs(long)}, or null when the user's rank
   *     lies past its profile (users of one scenario seen under two profiles)
   */
  public Double scheduledMs(First first) {
    Scenario s = first.scenario;
    long k = s.rank(first.userId);
    Long start = groupStarts.get(s.group);
    if (start == null || k < 0 || k >= s.schedule.users()) {
      return null;
    }
    return epochMs(start + s.schedule.offsetMs(k) * 1_000_000L);
  }

  /**
   * A {@link System#nanoTime()} instant as epoch milliseconds, through the run's one anchor.
   *
   * @param nanos a nanoTime of this JVM
   * @return epoch milliseconds rounded to the microsecond
   */
  public double epochMs(long nanos) {
    return Math.round((anchorEpochMs + (nanos - anchorNanos) / 1e6) * 1000.0) / 1000.0;
  }

  /**
   * Counts a finished request's lag, if it has one.
   *
   * @param record the request, never null
   */
  void recorded(RequestRecord record) {
    Double l = record.scheduleLagMs();
    if (l != null) {
      lag.add(record.sentMs(), l);
    }
  }

  /**
   * The client's figures over a window, for a load level: {@code schedule_lag_ms} (the lags of the
   * open-loop first requests sent in the window: {@code count, mean, min, p50, p90, p95, p99, max},
   * milliseconds; null when none was sent in it) and {@code client_cpu} (the client JVM's CPU share
   * over the window, 0..1, 4 decimals; null when the samples do not cover it).
   *
   * @param startMs the window's start, epoch ms, inclusive
   * @param endMs its end, epoch ms, exclusive
   * @return an ordered map with the two keys
   */
  public Map<String, Object> forWindow(long startMs, long endMs) {
    Map<String, Object> m = new LinkedHashMap<>();
    Distribution d = lag.distribution(startMs, endMs);
    m.put("schedule_lag_ms", d.count() == 0 ? null : d.toRecord());
    m.put("client_cpu", CpuSamples.round4(cpu.share(startMs, endMs)));
    return m;
  }

  /**
   * Stops sampling, checks the whole run and gives {@code llm-run.json}'s {@code client}: {@code
   * schedule_lag_ms} (a {@link Distribution} of every open-loop first request's lag), {@code
   * cpu_share} ({@code mean}, {@code max} over one-second samples, {@code processors}, {@code
   * samples}), {@code max_lag_p99_ms}, {@code max_cpu_share}, {@code notes} (what could not be
   * measured) and {@code warnings}. Later calls give the same figures.
   *
   * @return an ordered map
   */
  Map<String, Object> finish() {
    if (stopped.compareAndSet(false, true)) {
      sampler.interrupt();
      try {
        sampler.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      takeSample();
    }
    Distribution all = lag.distribution();
    if (all.count() > 0 && all.p99() > maxLagP99Ms) {
      warnLag(all.p99(), all.count(), "over the run");
    }
    Double mean = cpu.mean();
    if (mean != null && mean > maxCpuShare) {
      warnCpu(mean, "over the run");
    }
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("schedule_lag_ms", all.toRecord());
    m.put("cpu_share", cpu.toRecord());
    m.put("max_lag_p99_ms", maxLagP99Ms);
    m.put("max_cpu_share", maxCpuShare);
    synchronized (this) {
      m.put("notes", List.copyOf(notes));
      m.put("warnings", List.copyOf(warnings));
    }
    return m;
  }

  private void sample() {
    while (!stopped.get()) {
      try {
        Thread.sleep(SAMPLE_EVERY_MS);
      } catch (InterruptedException e) {
        return;
      }
      try {
        takeSample();
        check();
      } catch (RuntimeException e) {
        LOG.debug("client watch: {}", e.toString());
      }
    }
  }

  private void takeSample() {
    if (cpuClock != null) {
      long t = System.currentTimeMillis();
      long n = cpuClock.nanos();
      if (n >= 0) {
        synchronized (cpu) {
          if (cpu.size() == 0 || n >= lastCpu && t >= lastAt) {
            cpu.add(t, n);
            lastCpu = n;
            lastAt = t;
          }
        }
      }
    }
  }

  private long lastCpu;
  private long lastAt;

  /** The checks during the run. */
  private void check() {
    if (lag.count() >= LIVE_MIN_LAGS) {
      Double p99 = lag.p99Estimate();
      if (p99 != null && p99 > maxLagP99Ms) {
        warnLag(p99, lag.count(), "so far");
      }
    }
    Double recent = cpu.last(CPU_WINDOW_MS);
    if (recent != null && recent > maxCpuShare) {
      warnCpu(recent, "over the last " + CPU_WINDOW_MS / 1000 + " s");
    }
  }

  private synchronized void warnLag(double p99, long count, String when) {
    if (lagWarned) {
      return;
    }
    lagWarned = true;
    String text =
        String.format(
            java.util.Locale.ROOT,
            "the client fell behind its injection profile: schedule lag p99 %.1f ms %s (%d"
                + " open-loop users), over llm.client.maxLagP99Ms=%s ms; %s",
            p99,
            when,
            count,
            plain(maxLagP99Ms),
            COORDINATED_OMISSION);
    warnings.add(text);
    LOG.warn("{}", text);
  }

  private synchronized void warnCpu(double share, String when) {
    if (cpuWarned) {
      return;
    }
    cpuWarned = true;
    String text =
        String.format(
            java.util.Locale.ROOT,
            "the client JVM used %.0f%% of the CPU of %d processors %s, over"
                + " llm.client.maxCpuShare=%s: it may not keep to its schedule; %s",
            share * 100,
            cpu.processors(),
            when,
            plain(maxCpuShare),
            COORDINATED_OMISSION);
    warnings.add(text);
    LOG.warn("{}", text);
  }

  private static String plain(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** A first request's schedule token: its user and scenario. */
  public static final class First {
    private final Scenario scenario;
    private final long userId;

    private First(Scenario scenario, long userId) {
      this.scenario = scenario;
      this.userId = userId;
    }
  }

  /** An open scenario: its schedule, start group and the ids of its users started so far. */
  private static final class Scenario {
    private final InjectionSchedule schedule;
    private final String group;
    private long[] ids = new long[256];
    private int size;

    Scenario(InjectionSchedule schedule, String group) {
      this.schedule = schedule;
      this.group = group;
    }

    synchronized void started(long userId) {
      if (size == ids.length) {
        ids = Arrays.copyOf(ids, size * 2);
      }
      int at = size;
      if (size > 0 && ids[size - 1] > userId) {
        int i = Arrays.binarySearch(ids, 0, size, userId);
        at = i >= 0 ? i : -i - 1;
        System.arraycopy(ids, at, ids, at + 1, size - at);
      }
      ids[at] = userId;
      size++;
    }

    /** The user's rank among the scenario's users started so far, or -1 if it never started. */
    synchronized long rank(long userId) {
      int i = Arrays.binarySearch(ids, 0, size, userId);
      return i >= 0 ? i : -1;
    }
  }

  /** The process's CPU time. */
  private interface CpuClock {
    long nanos();

    static CpuClock of() {
      if (ManagementFactory.getOperatingSystemMXBean()
              instanceof com.sun.management.OperatingSystemMXBean os
          && os.getProcessCpuTime() >= 0) {
        return os::getProcessCpuTime;
      }
      if (ProcessHandle.current().info().totalCpuDuration().isPresent()) {
        return () ->
            ProcessHandle.current()
                .info()
                .totalCpuDuration()
                .map(java.time.Duration::toNanos)
                .orElse(-1L);
      }
      return null;
    }
  }
}
