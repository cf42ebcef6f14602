package io.github.gatlingllm.protocol;

import io.github.gatlingllm.record.Machine;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. How busy the machine is with other work over a run ({@link Machine}): a daemon thread
 * reads {@code /proc/stat} and {@code /proc/self/stat} every {@value #EVERY_MS} ms, off the
 * requests' path, and keeps only running sums (nothing per sample). Where there is no {@code
 * /proc}, the block holds the CPUs and the OS MXBean's load average, its {@code /proc} figures
 * null.
 *
 * <p>Thread-safe.
 */
final class MachineWatch {

  private static final Logger LOG = LoggerFactory.getLogger(MachineWatch.class);

  /** The sampling period, and so the windows of the maxima, in milliseconds. */
  static final long EVERY_MS = 1_000;

  private static final Path STAT = Path.of("/proc/stat");
  private static final Path SELF = Path.of("/proc/self/stat");
  private static final Path LOADAVG = Path.of("/proc/loadavg");

  private final Samples samples = new Samples();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final boolean proc = Files.isReadable(STAT) && Files.isReadable(SELF);
  private final Thread thread;
  private Double loadStart;
  private Machine finished;

  MachineWatch() {
    this.thread = new Thread(this::run, "gatling-llm-machine-watch");
    thread.setDaemon(true);
  }

  /** Takes the first sample and starts the thread: call when the load starts. */
  void start() {
    loadStart = loadAverage();
    sample();
    if (proc) {
      thread.start();
    }
  }

  /**
   * Stops sampling (once; later calls return the same block) and sums up.
   *
   * @return the block, never null
   */
  synchronized Machine finish() {
    if (finished != null) {
      return finished;
    }
    stopped.set(true);
    thread.interrupt();
    try {
      thread.join(2_000);
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
    }
    sample();
    finished =
        samples.toRecord(
            Runtime.getRuntime().availableProcessors(),
            loadStart,
            loadAverage(),
            proc
                ? "/proc/stat less /proc/self/stat, 1-s windows; load average from "
                    + (Files.isReadable(LOADAVG) ? "/proc/loadavg" : "the OS MXBean")
                : "no /proc: CPU shares not measured; load average from the OS MXBean");
    return finished;
  }

  private void run() {
    while (!stopped.get()) {
      try {
        Thread.sleep(EVERY_MS);
      } catch (InterruptedException e) {
        return;
      }
      sample();
    }
  }

  private void sample() {
    if (!proc) {
      return;
    }
    try {
      Stat stat = Stat.parse(Files.readString(STAT));
      long own = ownTicks(Files.readString(SELF));
      samples.add(System.nanoTime(), stat, own);
    } catch (IOException | RuntimeException e) {
      LOG.debug("machine watch: {}", e.toString());
    }
  }

  private static Double loadAverage() {
    try {
      if (Files.isReadable(LOADAVG)) {
        return loadAverage(Files.readString(LOADAVG));
      }
    } catch (IOException | RuntimeException e) {
      LOG.debug("machine watch: {}", e.toString());
    }
    double l = ManagementFactory.getOperatingSystemMXBean().getSystemLoadAverage();
    return l >= 0 ? l : null;
  }

  /**
   * The 1-minute load average of {@code /proc/loadavg}'s text.
   *
   * @param text e.g. {@code 0.72 1.03 1.78 2/613 12981}
   * @return its first figure
   * @throws NumberFormatException if it does not start with a number
   */
  static double loadAverage(String text) {
    return Double.parseDouble(text.trim().split("\\s+")[0]);
  }

  /**
   * This process's CPU ticks from {@code /proc/self/stat}'s text: {@code utime} plus {@code stime}
   * (fields 14 and 15, counted after the command name in parentheses, which may hold spaces).
   *
   * @param text the file's one line
   * @return clock ticks
   * @throws IllegalArgumentException if the line has not the fields
   */
  static long ownTicks(String text) {
    int close = text.lastIndexOf(')');
    if (close < 0) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + text);
    }
    String[] f = text.substring(close + 1).trim().split("\\s+");
    // f[0] is field 3 (state): utime, field 14, is f[11]; stime f[12].
    if (f.length < 13) {
      throw new IllegalArgumentException("not a /proc/<pid>/stat line: " + text);
    }
    return Long.parseLong(f[11]) + Long.parseLong(f[12]);
  }

  /**
   * The machine's CPU ticks since boot, the first ({@code cpu}) line of {@code /proc/stat}.
   *
   * @param busy user, nice, system, irq and softirq
   * @param steal steal (0 when the kernel does not report it)
   * @param total every column up to steal (guest time is already in user and nice)
   */
  record Stat(long busy, long steal, long total) {

    /**
     * Parses the {@code cpu} line of {@code /proc/stat}'s text.
     *
     * @param text the file's text
     * @return the ticks
     * @throws IllegalArgumentException if it has no {@code cpu} line of at least 4 numbers
     */
    static Stat parse(String text) {
      for (String line : text.split("\n")) {
        if (line.startsWith("cpu ")) {
          String[] f = line.trim().split("\\s+");
          if (f.length < 5) {
            break;
          }
          long[] v = new long[8];
          for (int i = 1; i < f.length && i <= 8; i++) {
            v[i - 1] = Long.parseLong(f[i]);
          }
          long busy = v[0] + v[1] + v[2] + v[5] + v[6];
          long total = busy + v[3] + v[4] + v[7];
          return new Stat(busy, v[7], total);
        }
      }
      throw new IllegalArgumentException("no cpu line in /proc/stat: " + text.lines().findFirst());
    }
  }

  /**
   * Running sums of the samples: the spans' totals for the means, the largest window's share for
   * the maxima. Windows shorter than {@value #MIN_WINDOW_NS} ns count toward the means only.
   */
  static final class Samples {

    static final long MIN_WINDOW_NS = 500_000_000L;

    private int count;
    private long firstNanos;
    private long lastNanos;
    private Stat first;
    private Stat last;
    private long firstOwn;
    private long lastOwn;
    private double otherMax = Double.NaN;
    private double stealMax = Double.NaN;

    /**
     * Adds a sample; samples come in time order.
     *
     * @param nanos when it was taken, {@link System#nanoTime()}
     * @param stat the machine's ticks
     * @param own this process's ticks
     */
    synchronized void add(long nanos, Stat stat, long own) {
      if (count > 0) {
        long total = stat.total() - last.total();
        if (total > 0 && nanos - lastNanos >= MIN_WINDOW_NS) {
          otherMax = max(otherMax, other(stat.busy() - last.busy(), own - lastOwn, total));
          stealMax = max(stealMax, share(stat.steal() - last.steal(), total));
        }
      } else {
        first = stat;
        firstNanos = nanos;
        firstOwn = own;
      }
      last = stat;
      lastNanos = nanos;
      lastOwn = own;
      count++;
    }

    synchronized Machine toRecord(int cpus, Double loadStart, Double loadEnd, String source) {
      Double otherMean = null;
      Double ownMean = null;
      Double stealMean = null;
      Double span = null;
      if (count > 1 && last.total() > first.total()) {
        long total = last.total() - first.total();
        otherMean = round(other(last.busy() - first.busy(), lastOwn - firstOwn, total));
        ownMean = round(share(lastOwn - firstOwn, total));
        stealMean = round(share(last.steal() - first.steal(), total));
        span = Math.round((lastNanos - firstNanos) / 1e6) / 1000.0;
      }
      return new Machine(
          cpus,
          round(loadStart),
          round(loadEnd),
          otherMean,
          Double.isNaN(otherMax) ? otherMean : round(otherMax),
          ownMean,
          stealMean,
          Double.isNaN(stealMax) ? stealMean : round(stealMax),
          count,
          span,
          source,
          null);
    }

    private static double other(long busy, long own, long total) {
      return share(Math.max(0, busy - own), total);
    }

    private static double share(long part, long total) {
      return Math.min(1, Math.max(0, (double) part / total));
    }

    private static double max(double m, double v) {
      return Double.isNaN(m) ? v : Math.max(m, v);
    }

    private static Double round(Double v) {
      return v == null ? null : Math.round(v * 10_000) / 10_000.0;
    }
  }
}
