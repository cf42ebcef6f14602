package io.github.gatlingllm.bench;

import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.util.Arrays;
import java.util.Locale;

/**
 * CPU a stream on each API against chat completions, side by side in one run: {@link
 * ApiStreamBenchmark}'s work (the simulator's own 64-token stream on each API, through the
 * dialect's parser into a request timer), measured in this thread's CPU time (so other load on a
 * shared machine costs wall time, not the figure), in interleaved rounds of 20,000 streams an API
 * (chat, responses, messages, chat, ...) after 5 warm-up rounds; prints each API's median
 * microseconds of CPU a stream and its ratio to chat's. A benchmark that prints figures: {@code
 * java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * io.github.gatlingllm.bench.ApiStreamCpu [ROUNDS]} (default 15).
 */
public final class ApiStreamCpu {

  private ApiStreamCpu() {}

  /**
   * Runs the rounds and prints the figures.
   *
   * @param args optional number of measured rounds
   * @throws Exception if the simulator does not answer
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int streams = 20_000;
    String[] apis = {"chat", "responses", "messages"};
    ApiStreamBenchmark[] benches = new ApiStreamBenchmark[apis.length];
    for (int a = 0; a < apis.length; a++) {
      benches[a] = new ApiStreamBenchmark();
      benches[a].api = apis[a];
      benches[a].fetch();
    }
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[][] micros = new double[apis.length][rounds];
    long sink = 0;
    for (int r = -5; r < rounds; r++) {
      for (int a = 0; a < apis.length; a++) {
        long t0 = threads.getCurrentThreadCpuTime();
        for (int s = 0; s < streams; s++) {
          sink += benches[a].stream().completionTokens();
        }
        long cpu = threads.getCurrentThreadCpuTime() - t0;
        if (r >= 0) {
          micros[a][r] = cpu / 1000.0 / streams;
        }
      }
    }
    double chat = median(micros[0]);
    System.out.printf(
        Locale.ROOT,
        "CPU a 64-token stream (parser + timer), median of %d rounds of %d, (%d tokens read)%n",
        rounds,
        streams,
        sink);
    for (int a = 0; a < apis.length; a++) {
      double m = median(micros[a]);
      System.out.printf(Locale.ROOT, "%-10s %8.2f us/stream  %5.2fx chat%n", apis[a], m, m / chat);
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
