package io.github.gatlingllm.protocol;

import io.github.gatlingllm.record.ClientSummary;
import java.lang.management.CompilationMXBean;
import java.lang.management.ManagementFactory;
import java.util.Arrays;
import java.util.Locale;
import java.util.function.LongSupplier;

/**
 * Not API. How long the client JVM's JIT compilers worked during the run, and during the first
 * measured requests (issue 43): on a client with few cores a compilation takes the core from the
 * event loop, and the first requests after a short warm-up run on code still being compiled (JFR of
 * the stream benchmark, 64 streams on one core: 12% of the core compiling 5 s after a 30 s warm-up,
 * the cause of most client-added TTFTs over 2 ms). {@code client.jit} in {@code llm-run.json}.
 *
 * <p>The compilers' total time ({@link CompilationMXBean#getTotalCompilationTime()}, milliseconds
 * summed over the compiler threads) is read at each of {@link ClientWatch}'s 1-second samples and
 * kept as one pair of longs a sample (about 58 KB an hour), nothing per request. Thread-safe.
 */
final class JitWatch {

  /** The first measured stretch judged, in ms. */
  static final long FIRST_MS = 10_000;

  /** A first measured stretch compiling at least this share of the JVM's processors is noted. */
  static final double NOTE_SHARE = 0.10;

  private final LongSupplier compileMs;
  private final int processors;
  private long[] at = new long[64];
  private long[] ms = new long[64];
  private int size;
  private long measuredFromMs = Long.MAX_VALUE;
  private ClientSummary.Jit finished;

  JitWatch() {
    this(compileClock(), Runtime.getRuntime().availableProcessors());
  }

  /**
   * A watch of the given clock.
   *
   * @param compileMs the compilers' total time so far, ms; null when the JVM does not say
   * @param processors the JVM's processors
   */
  JitWatch(LongSupplier compileMs, int processors) {
    this.compileMs = compileMs;
    this.processors = processors;
  }

  private static LongSupplier compileClock() {
    CompilationMXBean c = ManagementFactory.getCompilationMXBean();
    return c == null || !c.isCompilationTimeMonitoringSupported()
        ? null
        : c::getTotalCompilationTime;
  }

  /**
   * Reads the compilers' time now.
   *
   * @param nowMs now, epoch ms
   */
  void sample(long nowMs) {
    if (compileMs != null) {
      add(nowMs, compileMs.getAsLong());
    }
  }

  /**
   * Adds a reading.
   *
   * @param nowMs when, epoch ms, not before the last one
   * @param totalMs the compilers' total time then, ms
   */
  synchronized void add(long nowMs, long totalMs) {
    if (finished != null || (size > 0 && (nowMs < at[size - 1] || totalMs < ms[size - 1]))) {
      return;
    }
    if (size == at.length) {
      at = Arrays.copyOf(at, size * 2);
      ms = Arrays.copyOf(ms, size * 2);
    }
    at[size] = nowMs;
    ms[size] = totalMs;
    size++;
  }

  /**
   * A measured request started then.
   *
   * @param startMs its start, epoch ms
   */
  synchronized void measured(long startMs) {
    measuredFromMs = Math.min(measuredFromMs, startMs);
  }

  /**
   * Stops (once; later calls give the same block) and sums up.
   *
   * @return {@code client.jit}, or null when the JVM does not report its compilers' time or fewer
   *     than two readings were taken
   */
  synchronized ClientSummary.Jit finish() {
    if (finished != null || size < 2) {
      return finished;
    }
    Long measured = null;
    Long first = null;
    if (measuredFromMs != Long.MAX_VALUE && measuredFromMs < at[size - 1]) {
      measured = ms[size - 1] - at(measuredFromMs);
      first = at(Math.min(at[size - 1], measuredFromMs + FIRST_MS)) - at(measuredFromMs);
    }
    finished = new ClientSummary.Jit(ms[size - 1] - ms[0], measured, first, FIRST_MS, processors);
    return finished;
  }

  /** The compilers' total at an instant, interpolated between readings, ms. */
  private long at(long t) {
    if (t <= at[0]) {
      return ms[0];
    }
    for (int i = 1; i < size; i++) {
      if (t <= at[i]) {
        long span = at[i] - at[i - 1];
        return span == 0
            ? ms[i]
            : ms[i - 1] + Math.round((double) (ms[i] - ms[i - 1]) * (t - at[i - 1]) / span);
      }
    }
    return ms[size - 1];
  }

  /**
   * The note of a run whose first measured stretch ran beside much JIT compiling, or null.
   *
   * @param jit the block, or null
   * @return the note, or null when the first {@value #FIRST_MS} ms of the measured requests had the
   *     compilers below {@value #NOTE_SHARE} of the JVM's processors
   */
  static String note(ClientSummary.Jit jit) {
    if (jit == null || jit.firstMeasuredCompileMs() == null) {
      return null;
    }
    double share = jit.firstMeasuredCompileMs() / (double) (jit.firstMs() * jit.processors());
    if (share < NOTE_SHARE) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "the client's JIT compiled for %d ms in the first %d s of the measured requests (%.0f%% of"
            + " its %d processor(s)): those requests ran beside it, partly on code not yet"
            + " compiled; a longer warm-up (llm.warmupRequests) moves that out of the measure",
        jit.firstMeasuredCompileMs(),
        jit.firstMs() / 1000,
        100 * share,
        jit.processors());
  }
}
