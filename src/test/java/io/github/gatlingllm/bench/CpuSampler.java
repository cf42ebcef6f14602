package io.github.gatlingllm.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
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
 * CPU time per stream is the figure that survives a busy machine: streams/s one core sustains =
 * 1,000,000 / (CPU microseconds per stream), whatever else the machine runs. Used by the benchmark
 * simulations only.
 */
final class CpuSampler {

  /** {@code USER_HZ} of proc(5), 100 on Linux. */
  private static final int TICKS_PER_SECOND = 100;

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final AtomicLong finished = new AtomicLong();
  private final AtomicLong ok = new AtomicLong();
  private final List<long[]> samples = new ArrayList<>();
  private final List<Map<String, long[]>> threadSamples = new ArrayList<>();
  private final long startMs = System.currentTimeMillis();
  private final Thread thread;

  CpuSampler() {
    thread =
        new Thread(
            () -> {
              while (!Thread.currentThread().isInterrupted()) {
                sample();
                try {
                  Thread.sleep(1000);
                } catch (InterruptedException e) {
                  return;
                }
              }
            },
            "bench-cpu-sampler");
    thread.setDaemon(true);
    thread.start();
  }

  /** Counts one finished stream. */
  void finished(boolean succeeded) {
    finished.incrementAndGet();
    if (succeeded) {
      ok.incrementAndGet();
    }
  }

  private synchronized void sample() {
    samples.add(
        new long[] {System.currentTimeMillis(), os.getProcessCpuTime(), finished.get(), ok.get()});
    threadSamples.add(threadTicks());
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
   * Writes the figures of the steady window: from {@code skipS} seconds after the first counted
   * stream finished to the last sample at which the count still grew.
   *
   * @param skipS seconds of the counted phase left out at its start
   */
  synchronized void write(int skipS) {
    thread.interrupt();
    sample();
    String file = System.getProperty("bench.cpuFile");
    if (file == null) {
      return;
    }
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
      if (last == null || s[2] > last[2]) {
        last = s;
      }
    }
    Map<String, Object> out = new LinkedHashMap<>();
    if (first != null && last != null && last[2] > first[2]) {
      double seconds = (last[0] - first[0]) / 1000.0;
      long streams = last[2] - first[2];
      double cpuUs = (last[1] - first[1]) / 1000.0 / streams;
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
    try {
      new ObjectMapper().writeValue(Path.of(file).toFile(), out);
    } catch (IOException e) {
      throw new IllegalStateException("could not write " + file, e);
    }
  }
}
