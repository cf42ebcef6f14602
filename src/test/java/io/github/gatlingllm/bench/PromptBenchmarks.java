package io.github.gatlingllm.bench;

import io.github.gatlingllm.token.TokenCounter;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.HashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import org.openjdk.jmh.infra.BenchmarkParams;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.Options;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link PromptSourceBenchmark} through JMH and prints its figures as a plain table: prompts a
 * second and MB a second for each phase, and the repeat prompt's build time.
 *
 * <p>Arguments are JMH's own command line ({@code -h} lists them): an include regex, {@code -p
 * counter=estimate}, {@code -prof gc} and so on. Without an include regex every benchmark of {@link
 * PromptSourceBenchmark} runs. MB a second uses the average UTF-8 size of the first {@value
 * PromptSourceBenchmark#BYTES_SAMPLE} prompts of each phase, recomputed here with the benchmark's
 * own settings. Usually started by {@code scripts/bench-prompts.sh}.
 */
public final class PromptBenchmarks {

  private PromptBenchmarks() {}

  /**
   * Runs the benchmarks and prints the table to standard output.
   *
   * @param args JMH command-line arguments, optional
   * @throws RunnerException if JMH fails
   * @throws CommandLineOptionException if the arguments are not JMH's
   */
  public static void main(String[] args) throws RunnerException, CommandLineOptionException {
    CommandLineOptions command = new CommandLineOptions(args);
    OptionsBuilder builder = new OptionsBuilder();
    builder.parent(command);
    if (command.getIncludes().isEmpty()) {
      builder.include(PromptSourceBenchmark.class.getName());
    }
    Options options = builder.build();
    Collection<RunResult> results = new Runner(options).run();
    print(results);
  }

  private static void print(Collection<RunResult> results) {
    List<RunResult> phases = new ArrayList<>();
    List<RunResult> repeats = new ArrayList<>();
    for (RunResult result : results) {
      String benchmark = result.getParams().getBenchmark();
      if (benchmark.endsWith(".phase")) {
        phases.add(result);
      } else if (benchmark.endsWith(".repeatPrompt")) {
        repeats.add(result);
      }
    }
    phases.sort(
        Comparator.comparing((RunResult r) -> r.getParams().getParam("mode"))
            .reversed()
            .thenComparing(r -> Integer.parseInt(r.getParams().getParam("inputTokens")))
            .thenComparing(r -> r.getParams().getParam("counter")));
    repeats.sort(Comparator.comparing(r -> r.getParams().getParam("counter")));

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Prompt phases: %,d prompts on a fresh PromptSource per op, seed %d, phase %s;"
            + " shared-prefix ratio %s, %d groups%n",
        PromptSourceBenchmark.PHASE_PROMPTS,
        PromptSourceBenchmark.SEED,
        PromptSourceBenchmark.PHASE,
        PromptSourceBenchmark.SHARED_PREFIX_RATIO,
        PromptSourceBenchmark.SHARED_PREFIX_GROUPS);
    String phaseRow = "%-14s %7s %-9s %18s %12s %12s %12s %9s%n";
    System.out.printf(
        Locale.ROOT,
        phaseRow,
        "mode",
        "tokens",
        "counter",
        "us/prompt",
        "prompts/s",
        "best/s",
        "avg bytes",
        "MB/s");
    Map<String, TokenCounter> counters = new HashMap<>();
    try {
      for (RunResult result : phases) {
        BenchmarkParams params = result.getParams();
        String mode = params.getParam("mode");
        int tokens = Integer.parseInt(params.getParam("inputTokens"));
        String counter = params.getParam("counter");
        Result<?> primary = result.getPrimaryResult();
        double usPerPrompt = primary.getScore();
        double promptsPerSecond = 1e6 / usPerPrompt;
        double bytes =
            PromptSourceBenchmark.averageUtf8Bytes(
                mode, tokens, counters.computeIfAbsent(counter, PromptSourceBenchmark::counter));
        System.out.printf(
            Locale.ROOT,
            phaseRow,
            mode,
            tokens,
            counter,
            String.format(Locale.ROOT, "%.3f ± %.3f", usPerPrompt, finite(primary.getScoreError())),
            String.format(Locale.ROOT, "%,.0f", promptsPerSecond),
            String.format(Locale.ROOT, "%,.0f", 1e6 / primary.getStatistics().getMin()),
            String.format(Locale.ROOT, "%,.0f", bytes),
            String.format(Locale.ROOT, "%,.1f", promptsPerSecond * bytes / 1e6));
      }
    } finally {
      counters.values().forEach(PromptSourceBenchmark::close);
    }

    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "Repeat prompt: one %,d-token prompt on a fresh PromptSource per shot%n",
        PromptSourceBenchmark.REPEAT_TOKENS);
    String repeatRow = "%-9s %12s %12s %10s %10s %6s%n";
    System.out.printf(
        Locale.ROOT, repeatRow, "counter", "mean ms", "error ms", "min ms", "max ms", "shots");
    for (RunResult result : repeats) {
      Result<?> primary = result.getPrimaryResult();
      var stats = primary.getStatistics();
      System.out.printf(
          Locale.ROOT,
          repeatRow,
          result.getParams().getParam("counter"),
          String.format(Locale.ROOT, "%.3f", primary.getScore()),
          String.format(Locale.ROOT, "%.3f", finite(primary.getScoreError())),
          String.format(Locale.ROOT, "%.3f", stats.getMin()),
          String.format(Locale.ROOT, "%.3f", stats.getMax()),
          stats.getN());
    }
    System.out.println(
        "(errors are JMH's 99.9% confidence half-widths; best/s is the fastest measured iteration,"
            + " prompts/s the mean)");
  }

  private static double finite(double value) {
    return Double.isFinite(value) ? value : 0.0;
  }
}
