package io.github.gatlingllm.bench;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.management.OperatingSystemMXBean;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;

/**
 * What one stream costs the client: samples the JVM's CPU time and a count of finished streams once
 * a second, and writes the steady part of the measured phase as JSON to {@code -Dbench.cpuFile}.
 * CPU time per stream is the figure that survives a busy machine: streams/s one core sustains =
 * 1,000,000 / (CPU microseconds per stream), whatever else the machine runs. Used by the benchmark
 * simulations only.
 */
final class CpuSampler {

  private final OperatingSystemMXBean os =
      (OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean();
  private final AtomicLong finished = new AtomicLong();
  private final AtomicLong ok = new AtomicLong();
  private final List<long[]> samples = new ArrayList<>();
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
    }
    try {
      new ObjectMapper().writeValue(Path.of(file).toFile(), out);
    } catch (IOException e) {
      throw new IllegalStateException("could not write " + file, e);
    }
  }
}
