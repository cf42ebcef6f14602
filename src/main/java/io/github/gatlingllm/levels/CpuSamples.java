package io.github.gatlingllm.levels;

import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The client JVM's CPU time, sampled over a run: its share of the machine's CPU is the CPU time the
 * process used over the wall time times the processors available to the JVM ({@link
 * Runtime#availableProcessors()}), so 1.0 is every processor busy with the client (GuideLLM and
 * AIPerf report the same kind of figure for their own workers). A window's CPU time is read between
 * the samples around its ends, linearly interpolated.
 *
 * <p>Thread-safe; samples must come in time order.
 */
public final class CpuSamples {

  private final int processors;
  private long[] epochMs = new long[256];
  private long[] cpuNanos = new long[256];
  private int size;

  /**
   * No samples yet.
   *
   * @param processors the processors available to the JVM, at least 1
   * @throws IllegalArgumentException if {@code processors} is below 1
   */
  public CpuSamples(int processors) {
    if (processors < 1) {
      throw new IllegalArgumentException("processors must be >= 1, got " + processors);
    }
    this.processors = processors;
  }

  /**
   * The processors the shares are taken of.
   *
   * @return at least 1
   */
  public int processors() {
    return processors;
  }

  /**
   * Adds a sample.
   *
   * @param atMs when it was taken, epoch milliseconds, not before the previous sample's
   * @param cpuNanos the process's CPU time so far, nanoseconds, not below the previous sample's
   * @throws IllegalArgumentException if the sample goes back in time or in CPU time
   */
  public synchronized void add(long atMs, long cpuNanos) {
    if (size > 0 && (atMs < epochMs[size - 1] || cpuNanos < this.cpuNanos[size - 1])) {
      throw new IllegalArgumentException(
          "CPU sample ("
              + atMs
              + " ms, "
              + cpuNanos
              + " ns) is before the previous one ("
              + epochMs[size - 1]
              + " ms, "
              + this.cpuNanos[size - 1]
              + " ns)");
    }
    if (size == epochMs.length) {
      epochMs = Arrays.copyOf(epochMs, size * 2);
      this.cpuNanos = Arrays.copyOf(this.cpuNanos, size * 2);
    }
    epochMs[size] = atMs;
    this.cpuNanos[size] = cpuNanos;
    size++;
  }

  /**
   * How many samples were taken.
   *
   * @return at least 0
   */
  public synchronized int size() {
    return size;
  }

  /**
   * The CPU share over a window, cut to the sampled span.
   *
   * @param startMs the window's start, epoch ms
   * @param endMs its end, epoch ms
   * @return the share in [0, 1] (above 1 only if the JVM used more processors than it was told), or
   *     null when fewer than two samples fall around the window or it overlaps the sampled span by
   *     less than a millisecond
   */
  public synchronized Double share(long startMs, long endMs) {
    if (size < 2) {
      return null;
    }
    long from = Math.max(startMs, epochMs[0]);
    long to = Math.min(endMs, epochMs[size - 1]);
    if (to - from < 1) {
      return null;
    }
    double cpu = cpuAt(to) - cpuAt(from);
    return cpu / ((to - from) * 1e6 * processors);
  }

  /**
   * The share over the whole sampled span.
   *
   * @return the share, or null with fewer than two samples
   */
  public synchronized Double mean() {
    return size < 2 ? null : share(epochMs[0], epochMs[size - 1]);
  }

  /**
   * The highest share between two consecutive samples.
   *
   * @return the share, or null with fewer than two samples
   */
  public synchronized Double max() {
    Double max = null;
    for (int i = 1; i < size; i++) {
      long wall = epochMs[i] - epochMs[i - 1];
      if (wall > 0) {
        double s = (cpuNanos[i] - cpuNanos[i - 1]) / (wall * 1e6 * processors);
        max = max == null ? s : Math.max(max, s);
      }
    }
    return max;
  }

  /**
   * The share over the last {@code windowMs} of the sampled span, for checks during the run.
   *
   * @param windowMs the window, milliseconds
   * @return the share, or null while the samples span less than the window
   */
  public synchronized Double last(long windowMs) {
    if (size < 2 || epochMs[size - 1] - epochMs[0] < windowMs) {
      return null;
    }
    return share(epochMs[size - 1] - windowMs, epochMs[size - 1]);
  }

  /**
   * The JSON form: {@code mean} and {@code max} (each rounded to 4 decimals, null without two
   * samples), {@code processors}, {@code samples}.
   *
   * @return an ordered map
   */
  public synchronized Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("mean", round4(mean()));
    m.put("max", round4(max()));
    m.put("processors", processors);
    m.put("samples", size);
    return m;
  }

  /**
   * A share rounded to 4 decimals.
   *
   * @param share a share, or null
   * @return the rounded share, or null
   */
  public static Double round4(Double share) {
    return share == null ? null : Math.round(share * 10_000) / 10_000.0;
  }

  private double cpuAt(long t) {
    int i = Arrays.binarySearch(epochMs, 0, size, t);
    if (i >= 0) {
      // the first sample at that time (equal times may repeat)
      while (i > 0 && epochMs[i - 1] == t) {
        i--;
      }
      return cpuNanos[i];
    }
    int after = -i - 1;
    int before = after - 1;
    double f = (double) (t - epochMs[before]) / (epochMs[after] - epochMs[before]);
    return cpuNanos[before] + f * (cpuNanos[after] - cpuNanos[before]);
  }
}
