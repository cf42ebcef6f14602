package io.github.gatlingllm.protocol;

import io.gatling.core.session.Session;
import io.github.gatlingllm.levels.CpuSamples;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.InjectionSchedule;
import io.github.gatlingllm.levels.ScheduleLag;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.report.Console;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.stats.Distribution;
import java.lang.management.ManagementFactory;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.HashMap;
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
 * as soon as it is seen, and in {@code llm-run.json}'s {@code client.warnings}: during the run,
 * checked every second, the lag once at least 100 lags are in (before that a p99 is one request's
 * lag) and only when at least {@value #MIN_LATE_USERS} users were later than the bound (at 100
 * users a p99 is the 2nd largest lag: one or two users), the CPU over the last 10 s; at the end,
 * the lag of all requests (again only with at least 100 of them and 10 late) and the CPU of the run
 * (only when its samples span 10 s or more: a shorter run's share is its JVM start-up). What could
 * not be judged so is said in {@code client.notes}.
 *
 * <p>The schedule: user {@code k} of a scenario (its rank by Gatling user id among the scenario's
 * users: Gatling hands ids out in injection order) is due at the start of the scenario's injection
 * plus {@link InjectionSchedule#offsetMs(long)}, on Gatling's millisecond grid. The start is the
 * one Gatling's injector adds the offsets to, read from its state ({@code
 * internal.GatlingInjector}); should that fail (a Gatling upgrade), it is estimated as the earliest
 * {@code start - offset} over the scenario's users so far (no user starts before it is due, so the
 * estimate is never early, and it is exact once one user started on time), and the record says so
 * in {@code client.notes}. Gatling's own truncation to the millisecond makes a user up to 1 ms late
 * by design; that is in the lags.
 *
 * <p>One clock: Gatling's clock is {@link System#nanoTime()} anchored once to the epoch, and so is
 * this one (its millisecond grid is found once, at the run's start). Starts and sends are {@link
 * System#nanoTime()}; ranks are taken when the user's first request ends, when every user due
 * before it has started (a rank taken too early would make its schedule earlier, never later).
 *
 * <p>Thread-safe: users start and send on every event loop.
 */
public final class ClientWatch {

  private static final Logger LOG = LoggerFactory.getLogger(ClientWatch.class);

  /** How often the CPU is sampled and the warnings checked, in ms. */
  static final long SAMPLE_EVERY_MS = 1_000;

  /** The CPU window checked during the run, in ms. */
  static final long CPU_WINDOW_MS = 10_000;

  /**
   * The fewest lags whose p99 is judged, during the run and at its end: with fewer, the p99 is the
   * worst one or two users' lag (the first user's JVM warm-up, say), not the client's.
   */
  static final long LIVE_MIN_LAGS = 100;

  /**
   * The fewest users later than {@code llm.client.maxLagP99Ms} that make the client's lag a tail,
   * during the run and at its end: at the 100-lag minimum a p99 is the 2nd largest lag, one or two
   * users (the first user's start, a stray pause); from 1,000 users on, a p99 over the bound means
   * at least 10 users over it anyway.
   */
  static final long MIN_LATE_USERS = 10;

  /** What the client's schedule lag says ({@link #lagVerdict}). */
  enum LagVerdict {
    /** Too few lags for a p99 ({@link #LIVE_MIN_LAGS}). */
    TOO_FEW_USERS,
    /** The p99 is within the bound. */
    KEPT_UP,
    /** The p99 is over the bound, but on fewer than {@link #MIN_LATE_USERS} users. */
    TOO_FEW_LATE,
    /** The client fell behind: the p99 is over the bound, on enough users. */
    BEHIND
  }

  /**
   * Judges the schedule lag: behind when its p99 is over the bound on at least {@value
   * #LIVE_MIN_LAGS} users, and at least {@value #MIN_LATE_USERS} of them were later than the bound.
   *
   * @param users how many lags
   * @param p99Ms their 99th percentile, milliseconds
   * @param lateUsers how many were more than {@code maxMs}
   * @param maxMs {@code llm.client.maxLagP99Ms}
   * @return the verdict
   */
  static LagVerdict lagVerdict(long users, double p99Ms, long lateUsers, double maxMs) {
    if (!(p99Ms > maxMs)) {
      return LagVerdict.KEPT_UP;
    }
    if (users < LIVE_MIN_LAGS) {
      return LagVerdict.TOO_FEW_USERS;
    }
    return lateUsers >= MIN_LATE_USERS ? LagVerdict.BEHIND : LagVerdict.TOO_FEW_LATE;
  }

  /**
   * The shortest span of CPU samples whose share is judged, in ms, during the run and at its end: a
   * shorter run's share is its JVM start-up and class loading, not its load.
   */
  static final long MIN_CPU_SPAN_MS = CPU_WINDOW_MS;

  /**
   * The raw CPU share over a window above which the JVM is said to have used more processors than
   * it was told: the two clocks are read one after the other, so a busy machine's sample can be a
   * few ms late against its CPU time.
   */
  static final double OVER_ONE = 1.05;

  private static final String COORDINATED_OMISSION =
      "coordinated omission may hide in the server's figures (requests sent late meet a lighter"
          + " load than planned, so TTFT and E2E look better than they would be)";

  private final double maxLagP99Ms;
  private final double maxCpuShare;
  private final Map<String, Scenario> scenarios = new HashMap<>();
  private final List<String> notes = new ArrayList<>();
  private final java.util.function.LongSupplier gatlingMillis;
  private final java.util.function.Function<String, Long> injectionStart;
  private final long gridMillis;
  private final long gridNanos;
  private volatile boolean injectorReadable = true;
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
  private final java.util.concurrent.atomic.AtomicLong fromInjector =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong estimated =
      new java.util.concurrent.atomic.AtomicLong();
  private final Thread sampler;
  private final MachineWatch machine = new MachineWatch();
  private final GcWatch gc = new GcWatch();
  private final JitWatch jit = new JitWatch();

  /**
   * Watches a run; call {@link #start()} when the load may begin.
   *
   * @param settings the run's settings (the thresholds), never null
   * @param injections the simulation's injection profiles ({@code RunContext#injections()})
   * @param injectionUnknown why the profiles could not be read, or null
   * @param gatlingMillis Gatling's clock, epoch ms
   * @param injectionStart a scenario's injection start by Gatling's clock, or null while unknown;
   *     may throw {@link IllegalStateException} when Gatling's internals moved
   */
  ClientWatch(
      LlmSettings settings,
      List<Injection> injections,
      String injectionUnknown,
      java.util.function.LongSupplier gatlingMillis,
      java.util.function.Function<String, Long> injectionStart) {
    this.gatlingMillis = gatlingMillis;
    this.injectionStart = injectionStart;
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
        scenarios.put(injection.scenario(), new Scenario(schedule));
      }
    }
    // Gatling's millisecond grid on nanoTime: the instant its clock turns a millisecond.
    long ms = gatlingMillis.getAsLong();
    long turned;
    long at;
    do {
      at = System.nanoTime();
      turned = gatlingMillis.getAsLong();
    } while (turned == ms);
    this.gridMillis = turned;
    this.gridNanos = at;
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
    machine.start();
    gc.start();
  }

  /**
   * The machine the run ran on and how busy it was with other work (stops its sampling).
   *
   * @return the run record's {@code machine} block, never null
   */
  io.github.gatlingllm.record.Machine machine() {
    return machine.finish();
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
    scenario.started(session.userId(), now);
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
   * @return a token for {@link #scheduledMs(First)}, {@link First#NONE} when the request has no
   *     schedule; never null
   */
  public First firstSend(Session session) {
    Scenario scenario = due.remove(session.userId());
    return scenario == null ? First.NONE : new First(scenario, session.userId(), -1);
  }

  /**
   * A trace row about to be sent by a user of an open scenario: its schedule is the row's own due
   * time ({@code dueNanos} after the scenario's injection start), whichever user carries it.
   *
   * @param session the user's session
   * @param dueNanos when the row is due, in nanoseconds after the injection's start, at least 0
   * @return a token for {@link #dueNanos(First)} and {@link #scheduledMs(First)}, or null when the
   *     scenario's injection is closed or unknown
   */
  public First traceRow(Session session, long dueNanos) {
    Scenario scenario = due.remove(session.userId());
    if (scenario == null) {
      scenario = scenarios.get(session.scenario());
    }
    return scenario == null ? null : new First(scenario, session.userId(), dueNanos);
  }

  /**
   * When a trace row is due, on {@link System#nanoTime()}.
   *
   * @param first a token of {@link #traceRow}, never null
   * @return the nanoTime, or null while the injection's start is unknown or for a token of {@link
   *     #firstSend}
   */
  public Long dueNanos(First first) {
    if (first.dueNanos < 0) {
      return null;
    }
    Long start = start(first.scenario);
    return start == null ? null : start + first.dueNanos;
  }

  /**
   * Whether a user of an open scenario with a schedule has sent its first LLM request already (or
   * had it held back): a user due later has not.
   *
   * @param session the user's session
   * @return false for a user whose first request is still to come; true otherwise, also for users
   *     of scenarios without a schedule
   */
  boolean sentBefore(Session session) {
    return !due.containsKey(session.userId());
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
   * @param first the token of {@link #firstSend} or {@link #traceRow}, never null
   * @return epoch milliseconds on the clock of {@link #epochMs(long)}, or null for {@link
   *     First#NONE} or when the user's rank lies past its profile (users of one scenario seen under
   *     two profiles)
   */
  public Double scheduledMs(First first) {
    Scenario s = first.scenario;
    if (s == null) {
      return null;
    }
    if (first.dueNanos >= 0) {
      Long due = dueNanos(first);
      return due == null ? null : epochMs(due);
    }
    long k = s.rank(first.userId);
    Long start = start(s);
    if (start == null || k < 0 || k >= s.schedule.users()) {
      return null;
    }
    return epochMs(start + s.schedule.offsetMs(k) * 1_000_000L);
  }

  /** The scenario's injection start in nanoTime: Gatling's, else the estimate, else null. */
  private Long start(Scenario s) {
    if (s.gatlingStart == null && injectorReadable) {
      try {
        Long ms = injectionStart.apply(s.schedule.scenario());
        if (ms != null) {
          s.gatlingStart = gridNanos + (ms - gridMillis) * 1_000_000L;
        }
      } catch (RuntimeException e) {
        injectorReadable = false;
        synchronized (this) {
          notes.add(
              "the injection start is estimated (the earliest user start less its offset), not"
                  + " read from Gatling's injector: "
                  + e.getMessage());
        }
        LOG.warn("cannot read Gatling's injection start, it is estimated: {}", e.getMessage());
      }
    }
    if (s.gatlingStart != null) {
      fromInjector.incrementAndGet();
      return s.gatlingStart;
    }
    Long estimate = s.estimate();
    if (estimate != null) {
      // e.g. a request that ended before the injector finished its first batch
      estimated.incrementAndGet();
    }
    return estimate;
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
    if (!io.github.gatlingllm.prompt.Phase.isWarmup(record.phase())) {
      jit.measured((long) record.startMs());
    }
  }

  /** The window of {@link #cpuShareNow()}, in ms. */
  static final long LIVE_CPU_WINDOW_MS = 5_000;

  /**
   * The client JVM's CPU share over the last {@value #LIVE_CPU_WINDOW_MS} ms of the 1-second
   * samples, for the live endpoint's gauge.
   *
   * @return the share in [0, 1], or null before two samples
   */
  public Double cpuShareNow() {
    long now = System.currentTimeMillis();
    return cpu.share(now - LIVE_CPU_WINDOW_MS, now);
  }

  /**
   * The client's figures over a window, for a load level: {@code schedule_lag_ms} (the lags of the
   * open-loop first requests sent in the window: {@code count, mean, min, p50, p90, p95, p99, max},
   * milliseconds; left out when none was sent in it, as in a closed loop) and {@code client_cpu}
   * (the client JVM's CPU share over the window, 0..1, 4 decimals; null when the samples do not
   * cover it).
   *
   * @param startMs the window's start, epoch ms, inclusive
   * @param endMs its end, epoch ms, exclusive
   * @return the figures, never null
   */
  public LevelEntry.Client forWindow(long startMs, long endMs) {
    Distribution d = lag.distribution(startMs, endMs);
    return new LevelEntry.Client(
        d.count() > 0 ? d : null, CpuSamples.round4(cpu.share(startMs, endMs)));
  }

  /**
   * Stops sampling, checks the whole run and gives {@code llm-run.json}'s {@code client}: {@code
   * schedule_lag_ms} (a {@link Distribution} of every open-loop first request's lag), {@code
   * injection_start} (how many schedules started where Gatling's injector started, {@code
   * gatling_injector}, and how many from the estimate, {@code estimated}: a request that ended
   * before the injector published its start), {@code cpu_share} ({@link ClientSummary.CpuShare}:
   * {@code mean} over the run, {@code max} over windows of at least 1 s of the one-second samples,
   * both in [0, 1], {@code processors}, {@code samples}, {@code min_window_ms}, {@code windows}),
   * {@code max_lag_p99_ms}, {@code max_cpu_share}, {@code notes} (what could not be measured, and
   * the client's GC pauses when the longest is over {@code llm.client.maxLagP99Ms}), {@code
   * warnings}, {@code gc} (the client JVM's own GC pauses, {@link GcWatch}) and {@code jit} (its
   * JIT compilers' time, {@link JitWatch}). Later calls give the same figures.
   *
   * @return the block
   */
  ClientSummary finish() {
    if (stopped.compareAndSet(false, true)) {
      sampler.interrupt();
      try {
        sampler.join(2_000);
      } catch (InterruptedException e) {
        Thread.currentThread().interrupt();
      }
      takeSample();
      machine.finish();
      String gcNote = GcWatch.note(gc.finish(), maxLagP99Ms);
      if (gcNote != null) {
        note(gcNote);
      }
      String jitNote = JitWatch.note(jit.finish());
      if (jitNote != null) {
        note(jitNote);
      }
    }
    ClientSummary.Gc pauses = gc.finish();
    Distribution all = lag.distribution();
    long late = all.count() == 0 ? 0 : lag.countOver(maxLagP99Ms);
    switch (all.count() == 0
        ? LagVerdict.KEPT_UP
        : lagVerdict(all.count(), all.p99(), late, maxLagP99Ms)) {
      case BEHIND -> warnLag(all.p99(), all.count(), late, "over the run");
      case TOO_FEW_USERS ->
          note(
              "schedule lag not judged: "
                  + all.count()
                  + " open-loop users, fewer than the "
                  + LIVE_MIN_LAGS
                  + " a p99 needs");
      case TOO_FEW_LATE ->
          note(
              String.format(
                  java.util.Locale.ROOT,
                  "schedule lag not judged a fall-behind: p99 %.1f ms over llm.client.maxLagP99Ms=%s"
                      + " ms, but only %d of %d open-loop users were later than it, fewer than the %d"
                      + " a tail needs (a user's start-up or a stray pause, not the client's pace)",
                  all.p99(),
                  plain(maxLagP99Ms),
                  late,
                  all.count(),
                  MIN_LATE_USERS));
      default -> {}
    }
    // The share over the whole run, judged only when the samples span long enough.
    Double mean = cpu.last(MIN_CPU_SPAN_MS) == null ? null : cpu.mean();
    if (mean != null && mean > maxCpuShare) {
      warnCpu(mean, "over the run");
    } else if (mean == null && cpu.size() > 0) {
      Double share = cpu.mean();
      if (share != null && share > maxCpuShare) {
        note(
            "client CPU not judged: the run's samples span less than "
                + MIN_CPU_SPAN_MS / 1000
                + " s");
      }
    }
    String capped = cpuCapNote(cpu.rawMax(), cpu.processors());
    if (capped != null) {
      note(capped);
    }
    ClientSummary.CpuShare share;
    synchronized (cpu) {
      share =
          new ClientSummary.CpuShare(
              CpuSamples.round4(cpu.mean()),
              CpuSamples.round4(cpu.max()),
              cpu.processors(),
              cpu.size(),
              CpuSamples.MIN_WINDOW_MS,
              cpu.windows());
    }
    synchronized (this) {
      return new ClientSummary(
          all,
          new ClientSummary.InjectionStart(fromInjector.get(), estimated.get()),
          share,
          maxLagP99Ms,
          maxCpuShare,
          List.copyOf(notes),
          List.copyOf(warnings),
          pauses,
          jit.finish(),
          null);
    }
  }

  /**
   * The note of a CPU share capped at 1: over a window of at least 1 s the JVM used more CPU than
   * its processors allow ({@link CpuSamples#rawMax()} over {@value #OVER_ONE}).
   *
   * @param rawMax the highest uncapped share, or null
   * @param processors the processors the shares are taken of
   * @return the note, or null when no share went over {@value #OVER_ONE}
   */
  static String cpuCapNote(Double rawMax, int processors) {
    if (rawMax == null || rawMax <= OVER_ONE) {
      return null;
    }
    return String.format(
        java.util.Locale.ROOT,
        "client CPU share capped at 1: over a window of at least %d s the JVM used %.2f times the"
            + " CPU of the %d processors it was told it has (Runtime.availableProcessors, e.g."
            + " -XX:ActiveProcessorCount below the cores it runs on)",
        CpuSamples.MIN_WINDOW_MS / 1000,
        rawMax,
        processors);
  }

  private synchronized void note(String note) {
    if (!notes.contains(note)) {
      notes.add(note);
    }
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
    jit.sample(System.currentTimeMillis());
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
      long count = lag.count();
      if (p99 != null
          && lagVerdict(count, p99, lag.countOverEstimate(maxLagP99Ms), maxLagP99Ms)
              == LagVerdict.BEHIND) {
        warnLag(p99, count, lag.countOverEstimate(maxLagP99Ms), "so far");
      }
    }
    Double recent = cpu.last(CPU_WINDOW_MS);
    if (recent != null && recent > maxCpuShare) {
      warnCpu(recent, "over the last " + CPU_WINDOW_MS / 1000 + " s");
    }
  }

  private synchronized void warnLag(double p99, long count, long late, String when) {
    if (lagWarned) {
      return;
    }
    lagWarned = true;
    String text =
        String.format(
            java.util.Locale.ROOT,
            "the client fell behind its injection profile: schedule lag p99 %.1f ms %s (%d"
                + " open-loop users), over llm.client.maxLagP99Ms=%s ms (%d users more than %s ms"
                + " late); %s",
            p99,
            when,
            count,
            plain(maxLagP99Ms),
            late,
            plain(maxLagP99Ms),
            COORDINATED_OMISSION);
    warnings.add(text);
    Console.warning(LOG, text);
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
    Console.warning(LOG, text);
  }

  static String plain(double v) {
    return v == Math.rint(v) ? Long.toString((long) v) : Double.toString(v);
  }

  /** A first request's schedule token: its user and scenario. */
  public static final class First {
    /** The token of a request without a schedule. */
    public static final First NONE = new First(null, -1, -1);

    private final Scenario scenario;
    private final long userId;
    private final long dueNanos;

    private First(Scenario scenario, long userId, long dueNanos) {
      this.scenario = scenario;
      this.userId = userId;
      this.dueNanos = dueNanos;
    }
  }

  /** An open scenario: its schedule, its start, and the ids of its users started so far. */
  private static final class Scenario {
    private final InjectionSchedule schedule;
    private long[] ids = new long[256];
    private int size;
    private long earliest = Long.MAX_VALUE;
    private volatile Long gatlingStart;

    Scenario(InjectionSchedule schedule) {
      this.schedule = schedule;
    }

    /** Notes a start, and how early the injection may have started by it. */
    synchronized void started(long userId, long nanos) {
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
      // A rank taken now is at most the true one: the estimate can only be later, never early.
      if (at < schedule.users()) {
        earliest = Math.min(earliest, nanos - schedule.offsetMs(at) * 1_000_000L);
      }
    }

    synchronized Long estimate() {
      return earliest == Long.MAX_VALUE ? null : earliest;
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
