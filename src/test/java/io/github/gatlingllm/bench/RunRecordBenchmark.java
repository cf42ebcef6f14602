package io.github.gatlingllm.bench;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.ReportPage;
import io.github.gatlingllm.report.RunFolders;
import io.github.gatlingllm.report.RunRecorder;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryPoolMXBean;
import java.lang.management.MemoryType;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;

/**
 * The end of a long run: records N requests (default 1,000,000) through {@link RunRecorder} as a
 * run does (64-token streams: TTFT, 63 ITLs, TPOT, E2E; two request names; 2,440 requests a second,
 * so 1,000,000 span about 410 s; one in 100 an HTTP 503), then writes the run record, the CSV and
 * the report page ({@link RunRecorder#finish}), and prints how long each took and the peak heap.
 * Run it in the heap a run would have, e.g. {@code -Xmx512m}: {@code ./mvnw -B -q test-compile &&
 * java -Xmx512m -cp target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * io.github.gatlingllm.bench.RunRecordBenchmark 1000000 DIR}.
 */
public final class RunRecordBenchmark {

  private RunRecordBenchmark() {}

  /**
   * Measures.
   *
   * @param args the number of requests, then the results folder (default a temporary one)
   * @throws IOException if a file cannot be written
   */
  public static void main(String[] args) throws IOException {
    long n = args.length > 0 ? Long.parseLong(args[0]) : 1_000_000;
    Path results =
        args.length > 1 ? Path.of(args[1]) : Files.createTempDirectory("run-record-bench");
    RunRecorder recorder =
        new RunRecorder(RunFolders.before(results, null), new Slo(300.0, null, null, 500.0), 0.05);
    long t = System.nanoTime();
    long cpu = cpuNanos();
    for (long i = 0; i < n; i++) {
      recorder.record(request(i));
    }
    double recordS = (System.nanoTime() - t) / 1e9;
    double recordCpuS = (cpuNanos() - cpu) / 1e9;
    RunRecord info = RunRecord.create().with("generator", "gatling-llm");
    info.with("simulation", RunRecordBenchmark.class.getName());
    t = System.nanoTime();
    cpu = cpuNanos();
    Path folder =
        recorder.finish(
            info, null, false, (record, requests) -> ReportPage.render(record, requests));
    double finishS = (System.nanoTime() - t) / 1e9;
    double finishCpuS = (cpuNanos() - cpu) / 1e9;
    long peak = 0;
    for (MemoryPoolMXBean pool : ManagementFactory.getMemoryPoolMXBeans()) {
      if (pool.getType() == MemoryType.HEAP && pool.getPeakUsage() != null) {
        peak += pool.getPeakUsage().getUsed();
      }
    }
    System.out.printf(
        Locale.ROOT,
        "requests %d, -Xmx %d MB: recorded in %.1f s (%.1f s of CPU, every thread); run record,"
            + " CSV and page written in %.1f s (%.1f s of CPU); peak heap %d MB (sum of pools'"
            + " peaks)%n",
        n,
        Runtime.getRuntime().maxMemory() >> 20,
        recordS,
        recordCpuS,
        finishS,
        finishCpuS,
        peak >> 20);
    for (String f :
        List.of(
            RunRecorder.REQUESTS_FILE,
            RunRecorder.RUN_FILE,
            "llm-requests.csv",
            RunRecorder.REPORT_FILE)) {
      Path p = folder.resolve(f);
      System.out.printf(
          Locale.ROOT,
          "  %-20s %s%n",
          f,
          Files.exists(p) ? (Files.size(p) >> 10) + " KB" : "MISSING");
    }
  }

  /** The CPU time of this JVM so far, every thread (GC and JIT included), ns. */
  private static long cpuNanos() {
    return ((com.sun.management.OperatingSystemMXBean) ManagementFactory.getOperatingSystemMXBean())
        .getProcessCpuTime();
  }

  /** Request {@code i}: 2,440 a second, 64 tokens in about 150 ms, every 100th an HTTP 503. */
  static RequestRecord request(long i) {
    boolean ok = i % 100 != 99;
    boolean chat = i % 2 == 0;
    List<Double> itl = null;
    if (ok) {
      itl = new ArrayList<>(63);
      for (int k = 0; k < 63; k++) {
        itl.add((1000 + (i * 7 + k * 13) % 900) / 1000.0);
      }
    }
    double ttft = 20 + (i * 31 % 5000) / 1000.0;
    return RequestRecord.builder()
        .request(chat ? "chat" : "summarize")
        .phase(i < 100 ? "warmup" : "measured")
        .index(i)
        .promptId("g" + (i % 4) + "-" + i)
        .digest(String.format(Locale.ROOT, "%016x", i * 0x9E3779B97F4A7C15L))
        .prefixGroup((int) (i % 4))
        .sharedPrefixTokens(64)
        .plannedTokens(128)
        .startMs(1_700_000_000_000L + i * 1000 / 2440)
        .promptTokens(128)
        .promptTokensExact(true)
        .cachedTokens(64)
        .completionTokens(ok ? 64 : null)
        .completionTokensExact(ok)
        .ttftMs(ok ? ttft : null)
        .timeToFirstEventMs(ok ? ttft : null)
        .itlMs(itl)
        .tpotMs(ok ? 1.45 + (i % 100) / 1000.0 : null)
        .e2eMs(ok ? ttft + 95 + (i % 400) / 1000.0 : 3.0)
        .outputTokensPerS(ok ? 550.0 : null)
        .finishReason(ok ? "length" : null)
        .httpStatus(ok ? 200 : 503)
        .status(ok ? RequestStatus.OK : RequestStatus.REJECTED)
        .error(ok ? null : "HTTP 503: overloaded")
        .build();
  }
}
