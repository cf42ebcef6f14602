package io.github.gatlingllm.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
import io.gatling.javaapi.core.Session;
import java.io.File;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one stream costs the client: samples the JVM's CPU time and a count of finished streams once
 * a second, and writes the steady part of the measured phase as JSON to {@code -Dbench.cpuFile}.
 * The measured streams are those that start {@code warmupSeconds} or more after {@link #start()}.
 * CPU time per stream is the figure that survives a busy machine: streams/s one core sustains =
 * 1,000,000 / (CPU microseconds per stream), whatever else the machine runs.
 *
 * <p>With {@code -Dbench.heapSampleSeconds=N}, every N seconds it also runs a full GC and samples
 * the used heap, the streams in flight and the open file descriptors (the {@code heap} list of the
 * JSON). Used by the benchmark simulations only.
 */
final class CpuSampler {

  /** {@code USER_HZ} of proc(5), 100 on Linux. */
  private static final int TICKS_PER_SECOND = 100;

  private static final String COUNTED = "bench.counted";

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final int warmupSeconds;
  private final int heapSampleSeconds = Integer.getInteger("bench.heapSampleSeconds", 0);
  private final AtomicLong started = new AtomicLong();
  private final AtomicLong ended = new AtomicLong();
  private final AtomicLong finished = new AtomicLong();
  private final AtomicLong ok = new AtomicLong();
  private final List<long[]> samples = new ArrayList<>();
  private final List<Map<String, long[]>> threadSamples = new ArrayList<>();
  private final List<Map<String, Object>> heap = new ArrayList<>();
  private volatile long startMs = System.currentTimeMillis();
  private volatile long countFromMs = startMs + 3_600_000L;
  private Thread thread;

  /**
   * A sampler whose measured streams start {@code warmupSeconds} after {@link #start()}.
   *
   * @param warmupSeconds seconds of warmup, at least 0
   */
  CpuSampler(int warmupSeconds) {
    this.warmupSeconds = warmupSeconds;
  }

  /** Starts the clock and the sampling thread: call it from {@code before()}. */
  synchronized void start() {
    startMs = System.currentTimeMillis();
    countFromMs = startMs + warmupSeconds * 1000L;
    thread =
        new Thread(
            () -> {
              long next = System.currentTimeMillis();
              long nextHeap = startMs + heapSampleSeconds * 1000L;
              if (heapSampleSeconds > 0) {
                sampleHeap(); // the baseline: before the first stream
              }
              while (!Thread.currentThread().isInterrupted()) {
                sample();
                if (heapSampleSeconds > 0 && System.currentTimeMillis() >= nextHeap) {
                  sampleHeap();
                  nextHeap += heapSampleSeconds * 1000L;
                }
                next += 1000;
                try {
                  Thread.sleep(Math.max(1, next - System.currentTimeMillis()));
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "bench-cpu-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  /**
   * Whether a loop that ends {@code totalSeconds} after {@link #start()} goes on.
   *
   * @param totalSeconds seconds from the start
   * @return true before that time
   */
  boolean before(int totalSeconds) {
    return System.currentTimeMillis() < startMs + totalSeconds * 1000L;
  }

  /** A stream starts: it is measured if the warmup is over. */
  Session started(Session session) {
    started.incrementAndGet();
    return session.set(COUNTED, System.currentTimeMillis() >= countFromMs);
  }

  /** A stream ended; counted if it started after the warmup. */
  Session finished(Session session, boolean succeeded) {
    ended.incrementAndGet();
    if (session.contains(COUNTED) && session.getBoolean(COUNTED)) {
      finished.incrementAndGet();
      if (succeeded) {
        ok.incrementAndGet();
      }
    }
    return session;
  }

  private synchronized void sample() {
    samples.add(
        new long[] {System.currentTimeMillis(), os.getProcessCpuTime(), finished.get(), ok.get()});
    threadSamples.add(threadTicks());
  }

  private void sampleHeap() {
    System.gc();
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("t_s", (System.currentTimeMillis() - startMs) / 1000.0);
    s.put("heap_used_bytes", ManagementFactory.getMemoryMXBean().getHeapMemoryUsage().getUsed());
    s.put("in_flight", started.get() - ended.get());
    String[] fds = new File("/proc/self/fd").list();
    s.put("open_fds", fds == null ? -1 : fds.length);
    synchronized (this) {
      heap.add(s);
    }
  }

  /**
   * User and system CPU ticks of this JVM's threads from {@code /proc/self/task}, summed by thread
   * group (the name without its trailing numbers: {@code gatling-http-1}, {@code C2
   * CompilerThread}, {@code GC Thread}); empty where there is no {@code /proc}.
   */
  private static Map<String, long[]> threadTicks() {
    Map<String, long[]> ticks = new TreeMap<>();
    File[] tasks = new File("/proc/self/task").listFiles();
    if (tasks == null) {
      return ticks;
    }
    for (File task : tasks) {
      try {
        String stat = Files.readString(task.toPath().resolve("stat"));
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        String name = stat.substring(open + 1, close).replaceAll("[-#]?[0-9]+$", "").trim();
        String[] fields = stat.substring(close + 2).split(" ");
        // Fields 14 and 15 of proc(5) (utime, stime) are 12 and 13 after the name.
        long[] sum = ticks.computeIfAbsent(name, k -> new long[2]);
        sum[0] += Long.parseLong(fields[11]);
        sum[1] += Long.parseLong(fields[12]);
      } catch (IOException | RuntimeException e) {
        // a thread that ended between the listing and the read
      }
    }
    return ticks;
  }

  /**
   * Writes the figures of the steady window: from {@code skipS} seconds after the first measured
   * stream finished to the last sample at which the count still grew, cut at the end of the
   * injection (warmup + {@code -Dbench.seconds}) when the drain goes on past it.
   *
   * @param skipS seconds of the measured phase left out at its start
   */
  synchronized void write(int skipS) {
    if (thread != null) {
      thread.interrupt();
    }
    sample();
    String file = System.getProperty("bench.cpuFile");
    if (file == null) {
      return;
    }
    long endMs = countFromMs + Integer.getInteger("bench.seconds", 30) * 1000L + 1000;
    long firstFinish = -1;
    for (long[] s : samples) {
      if (s[2] > 0) {
        firstFinish = s[0];
        break;
      }
    }
    long[] first = null;
    long[] last = null;
    for (long[] s : samples) {
      if (firstFinish >= 0 && first == null && s[0] >= firstFinish + skipS * 1000L) {
        first = s;
      }
      if ((last == null || s[2] > last[2]) && (s[0] <= endMs || last == null)) {
        last = s;
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    out.put("start_ms", startMs);
    out.put("counted_from_ms", countFromMs);
    out.put("streams_started", started.get());
    out.put("streams_ended", ended.get());
    out.put("streams_counted", finished.get());
    out.put("samples", samples.size());
    if (first != null && last != null && last[2] > first[2]) {
      double seconds = (last[0] - first[0]) / 1000.0;
      long streams = last[2] - first[2];
      double cpuUs = (last[1] - first[1]) / 1000.0 / streams;
      out.put("window_from_ms", first[0]);
      out.put("window_to_ms", last[0]);
      out.put("window_s", seconds);
      out.put("streams", streams);
      out.put("ok", last[3] - first[3]);
      out.put("achieved_per_s", streams / seconds);
      out.put("cpu_us_per_stream", cpuUs);
      out.put("streams_per_core_s", 1_000_000.0 / cpuUs);
      // CPU microseconds a stream by thread group, user and system (kernel: loopback TCP, epoll)
      // time apart; a thread that ended inside the window is missing, so these may sum short.
      Map<String, long[]> from = threadSamples.get(samples.indexOf(first));
      Map<String, long[]> to = threadSamples.get(samples.indexOf(last));
      double usPerTick = 1_000_000.0 / TICKS_PER_SECOND / streams;
      Map<String, Object> threads = new LinkedHashMap<>();
      long user = 0;
      long system = 0;
      for (Map.Entry<String, long[]> e : to.entrySet()) {
        long[] before = from.getOrDefault(e.getKey(), new long[2]);
        long u = e.getValue()[0] - before[0];
        long k = e.getValue()[1] - before[1];
        user += u;
        system += k;
        if (u + k > 0) {
          threads.put(
              e.getKey(),
              Map.of("user_us", Math.round(u * usPerTick), "system_us", Math.round(k * usPerTick)));
        }
      }
      out.put("user_us_per_stream", Math.round(user * usPerTick));
      out.put("system_us_per_stream", Math.round(system * usPerTick));
      out.put("threads_us_per_stream", threads);
    }
    out.put("heap", heap);
    try {
      new ObjectMapper().writeValue(Path.of(file).toFile(), out);
    } catch (IOException e) {
      throw new IllegalStateException("could not write " + file, e);
    }
  }
}
