package io.github.gatlingllm.bench;

import java.util.ArrayList;
import java.util.Collection;
import java.util.Comparator;
import java.util.List;
import java.util.Locale;
import org.openjdk.jmh.results.Result;
import org.openjdk.jmh.results.RunResult;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * Runs {@link SseStreamBenchmark} through JMH and prints its figures as a plain table: nanoseconds
 * an event, events a second and {@value SseStreamBenchmark#TOKENS}-token streams a second, on one
 * thread.
 *
 * <p>Arguments are JMH's own command line ({@code -h} lists them): an include regex, {@code -prof
 * gc} and so on. Without an include regex every benchmark of {@link SseStreamBenchmark} runs (about
 * 40 seconds). Start it with the test classpath, for example after {@code ./mvnw -q -B
 * test-compile}: {@code java -cp target/test-classes:target/classes:$(cat
 * target/test-classpath.txt) io.github.gatlingllm.bench.SseBenchmarks}.
 */
public final class SseBenchmarks {

  private SseBenchmarks() {}

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
      builder.include(SseStreamBenchmark.class.getName());
    }
    print(new Runner(builder.build()).run());
  }

  private static void print(Collection<RunResult> results) {
    List<RunResult> sorted = new ArrayList<>(results);
    sorted.sort(Comparator.comparing(r -> r.getParams().getBenchmark()));
    System.out.println();
    System.out.printf(
        Locale.ROOT,
        "SSE stream: %d events (%d content deltas), one event per chunk, fresh parser per stream,"
            + " one thread%n",
        SseStreamBenchmark.EVENTS,
        SseStreamBenchmark.TOKENS);
    String row = "%-22s %18s %14s %12s%n";
    System.out.printf(Locale.ROOT, row, "benchmark", "ns/event", "events/s", "streams/s");
    for (RunResult result : sorted) {
      String name = result.getParams().getBenchmark();
      Result<?> primary = result.getPrimaryResult();
      double nsPerEvent = primary.getScore();
      double error = Double.isFinite(primary.getScoreError()) ? primary.getScoreError() : 0.0;
      double eventsPerSecond = 1e9 / nsPerEvent;
      System.out.printf(
          Locale.ROOT,
          row,
          name.substring(name.lastIndexOf('.') + 1),
          String.format(Locale.ROOT, "%.1f ± %.1f", nsPerEvent, error),
          String.format(Locale.ROOT, "%,.0f", eventsPerSecond),
          String.format(Locale.ROOT, "%,.0f", eventsPerSecond / SseStreamBenchmark.EVENTS));
    }
    System.out.println("(errors are JMH's 99.9% confidence half-widths)");
  }
}
