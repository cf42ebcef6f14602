package io.github.gatlingllm.bench;

import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.lang.management.ManagementFactory;
import java.lang.management.MemoryMXBean;

/**
 * Prints what a handed-out prompt costs in memory after {@code forget}: the retained heap of a
 * phase of N taken-and-forgotten prompts, divided by N. Run: {@code java -cp ...
 * io.github.gatlingllm.bench.PromptMemory [N]} (default 1,000,000).
 */
public final class PromptMemory {

  private PromptMemory() {}

  /**
   * Runs the measurement.
   *
   * @param args optional prompt count
   */
  public static void main(String[] args) {
    int n = args.length > 0 ? Integer.parseInt(args[0]) : 1_000_000;
    // Load and initialize every class involved first, so that only the phase's own data counts.
    measure(PromptSpec.unique(), 10_000, false);
    measure(PromptSpec.sharedPrefix(0.5, 4), 10_000, false);
    measure(PromptSpec.unique(), n, true);
    measure(PromptSpec.sharedPrefix(0.5, 4), n, true);
  }

  private static void measure(PromptSpec spec, int n, boolean print) {
    long before = retained();
    PromptSource source =
        new PromptSource(
            spec, EstimatedTokenCounter.INSTANCE, 0, "c1_in512_out128", "measured", 512);
    for (long i = 0; i < n; i++) {
      source.take(i);
      source.forget(i);
    }
    long after = retained();
    if (source.digest() == null) {
      throw new IllegalStateException("no phase digest");
    }
    if (print) {
      System.out.printf(
          "%-64s %,d prompts handed out and forgotten: %,d bytes retained, %.2f bytes a prompt%n",
          spec, n, after - before, (after - before) / (double) n);
    }
  }

  private static long retained() {
    MemoryMXBean memory = ManagementFactory.getMemoryMXBean();
    long used = Long.MAX_VALUE;
    for (int i = 0; i < 5; i++) {
      System.gc();
      used = Math.min(used, memory.getHeapMemoryUsage().getUsed());
    }
    return used;
  }
}
