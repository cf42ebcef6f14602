package io.github.gatlingllm.bench;

import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.runner.Runner;
import org.openjdk.jmh.runner.RunnerException;
import org.openjdk.jmh.runner.options.CommandLineOptionException;
import org.openjdk.jmh.runner.options.CommandLineOptions;
import org.openjdk.jmh.runner.options.OptionsBuilder;

/**
 * JMH: what reading one stream costs the client on each API, the action's whole path after the
 * wire: the dialect's {@link EventParser} (SSE framing and each event's decoding) into a {@link
 * RequestTimer}, with the timer's {@code wantsText} deciding what text is kept, as the response
 * listener does. Each stream is the embedded simulator's own answer to a 256-word prompt with 64
 * output tokens on that API ({@code chat}: role delta, 64 content deltas, finish, usage, {@code
 * [DONE]}; {@code responses}: {@code response.created} ... {@code response.incomplete}; {@code
 * messages}: {@code message_start} ... {@code message_stop}), fed one SSE event per chunk, a fresh
 * parser and timer per stream. Scores are nanoseconds per stream.
 *
 * <p>Run: {@code ./mvnw -q -B -o test-compile && java -cp target/test-classes:target/classes:$(cat
 * target/test-classpath.txt) io.github.gatlingllm.bench.ApiStreamBenchmark} (about 60 s).
 */
@Fork(1)
@BenchmarkMode(Mode.AverageTime)
@OutputTimeUnit(TimeUnit.NANOSECONDS)
@Warmup(iterations = 4, time = 1, timeUnit = TimeUnit.SECONDS)
@Measurement(iterations = 6, time = 1, timeUnit = TimeUnit.SECONDS)
@State(Scope.Thread)
public class ApiStreamBenchmark {

  /** The API. */
  @Param({"chat", "responses", "messages"})
  public String api;

  private WireApi wire;
  private byte[][] chunks;

  /**
   * Fetches the simulator's stream for the API once.
   *
   * @throws Exception if the simulator does not answer
   */
  @Setup(Level.Trial)
  public void fetch() throws Exception {
    wire = WireApi.of("api", api);
    StringBuilder prompt = new StringBuilder();
    for (int i = 0; i < 256; i++) {
      prompt.append("word").append(i).append(' ');
    }
    try (Simulator simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0)) {
      String body =
          wire.dialect().body(RequestSettings.streaming(WireApi.CHAT, "m", 64), prompt.toString());
      HttpRequest.Builder request =
          HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/" + wire.path()))
              .header("Content-Type", "application/json")
              .POST(HttpRequest.BodyPublishers.ofString(body));
      byte[] all =
          HttpClient.newHttpClient()
              .send(request.build(), HttpResponse.BodyHandlers.ofByteArray())
              .body();
      chunks = events(all);
    }
    RequestTimings check = stream();
    if (check.completionTokens() != 64 || check.streamError() != null) {
      throw new IllegalStateException(api + ": the stream does not read as 64 tokens: " + check);
    }
  }

  /** The body cut after each blank line: one SSE event a chunk. */
  static byte[][] events(byte[] all) {
    List<byte[]> out = new ArrayList<>();
    int from = 0;
    for (int i = 0; i + 1 < all.length; i++) {
      if (all[i] == '\n' && all[i + 1] == '\n') {
        out.add(Arrays.copyOfRange(all, from, i + 2));
        from = i + 2;
      }
    }
    return out.toArray(new byte[0][]);
  }

  /**
   * One whole stream.
   *
   * @return its timings (so the JIT keeps the work)
   */
  @Benchmark
  public RequestTimings stream() {
    RequestTimer timer = new RequestTimer(0, 0, wire.dialect().terminalEvent());
    long[] now = {0};
    EventParser parser =
        wire.dialect()
            .parser(
                new EventParser.Listener() {
                  @Override
                  public boolean wantsText() {
                    return timer.wantsText();
                  }

                  @Override
                  public void onEvent(StreamEvent event) {
                    timer.onEvent(now[0], event);
                  }
                });
    for (byte[] chunk : chunks) {
      now[0] += 1_000_000;
      parser.feed(chunk, 0, chunk.length);
    }
    parser.end();
    return timer.finish(now[0], null);
  }

  /**
   * Runs the benchmark (JMH's command line as arguments) and prints JMH's table.
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
      builder.include(ApiStreamBenchmark.class.getName());
    }
    new Runner(builder.build()).run();
  }
}
