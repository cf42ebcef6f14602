package io.github.gatlingllm.levels;

import java.util.Arrays;

/**
 * The client JVM's CPU time, sampled over a run. Its <em>share</em> of the machine's CPU over a
 * window is the CPU time the process used in it ({@code
 * com.sun.management.OperatingSystemMXBean#getProcessCpuTime}: user and kernel time of every
 * thread) over the window's wall time times the processors available to the JVM ({@link
 * Runtime#availableProcessors()}), so 1.0 is every processor busy with the client (GuideLLM and
 * AIPerf report the same kind of figure for their own workers). A window's CPU time is read between
 * the samples around its ends, linearly interpolated.
 *
 * <p>Every share is taken over a window of at least {@value #MIN_WINDOW_MS} ms, and is a value in
 * [0, 1]. A shorter window is no measure: wall and CPU time are read one after the other, the wall
 * clock to the millisecond, so two samples a few ms apart (the last periodic one and the one taken
 * when the run ends) gave shares such as 1.67 (issue 40). {@link #max()} walks the samples into
 * consecutive windows of at least {@value #MIN_WINDOW_MS} ms, the shorter remainder at the end
 * merged into the window before it; a span shorter than that has no share at all. A share still
 * above 1 over such a window (the JVM runs on more processors than it was told, {@code
 * -XX:ActiveProcessorCount}) is given as 1, and the raw figure is kept ({@link #rawMax()}).
 *
 * <p>Thread-safe; samples must come in time order.
 */
public final class CpuSamples {

  /** The shortest window a share is taken over, in milliseconds. */
  public static final long MIN_WINDOW_MS = 1_000;

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
   * @return the share in [0, 1], or null when fewer than two samples fall around the window or it
   *     overlaps the sampled span by less than {@value #MIN_WINDOW_MS} ms
   */
  public synchronized Double share(long startMs, long endMs) {
    Double raw = rawShare(startMs, endMs);
    return raw == null ? null : Math.min(1.0, raw);
  }

  /** The share over a window cut to the sampled span, uncapped; null under the shortest window. */
  private Double rawShare(long startMs, long endMs) {
    if (size < 2) {
      return null;
    }
    long from = Math.max(startMs, epochMs[0]);
    long to = Math.min(endMs, epochMs[size - 1]);
    if (to - from < MIN_WINDOW_MS) {
      return null;
    }
    double cpu = cpuAt(to) - cpuAt(from);
    return Math.max(0.0, cpu / ((to - from) * 1e6 * processors));
  }

  /**
   * The share over the whole sampled span.
   *
   * @return the share in [0, 1], or null while the samples span less than {@value #MIN_WINDOW_MS}
   *     ms
   */
  public synchronized Double mean() {
    return size < 2 ? null : share(epochMs[0], epochMs[size - 1]);
  }

  /**
   * The highest share over the run's windows: consecutive samples grouped into windows of at least
   * {@value #MIN_WINDOW_MS} ms each, from the first sample on; a remainder shorter than that at the
   * end is merged into the window before it, never taken alone.
   *
   * @return the share in [0, 1], or null while the samples span less than {@value #MIN_WINDOW_MS}
   *     ms
   */
  public synchronized Double max() {
    Double raw = rawMax();
    return raw == null ? null : Math.min(1.0, raw);
  }

  /**
   * The highest share over the windows of {@link #max()}, not capped at 1: above 1 only when the
   * JVM used more processors than {@link Runtime#availableProcessors()} told it it had.
   *
   * @return the share, at least 0, or null while the samples span less than {@value #MIN_WINDOW_MS}
   *     ms
   */
  public synchronized Double rawMax() {
    Double max = null;
    int[] ends = windowEnds();
    int from = 0;
    for (int end : ends) {
      double s = Math.max(0.0, rawShare(epochMs[from], epochMs[end]));
      max = max == null ? s : Math.max(max, s);
      from = end;
    }
    return max;
  }

  /**
   * How many windows {@link #max()} is taken over.
   *
   * @return at least 0
   */
  public synchronized int windows() {
    return windowEnds().length;
  }

  /** The index of each window's last sample, in order; a short remainder joins the last window. */
  private int[] windowEnds() {
    int[] ends = new int[Math.max(0, size - 1)];
    int n = 0;
    int from = 0;
    for (int i = 1; i < size; i++) {
      if (epochMs[i] - epochMs[from] >= MIN_WINDOW_MS) {
        ends[n++] = i;
        from = i;
      }
    }
    if (n > 0 && ends[n - 1] < size - 1) {
      // the short remainder: merged into the window before it
      ends[n - 1] = size - 1;
    }
    return Arrays.copyOf(ends, n);
  }

  /**
   * The share over the last {@code windowMs} of the sampled span, for checks during the run.
   *
   * @param windowMs the window, milliseconds, at least {@value #MIN_WINDOW_MS} for a share
   * @return the share in [0, 1], or null while the samples span less than the window
   */
  public synchronized Double last(long windowMs) {
    if (size < 2 || epochMs[size - 1] - epochMs[0] < windowMs) {
      return null;
    }
    return share(epochMs[size - 1] - windowMs, epochMs[size - 1]);
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
