package io.github.gatlingllm.bench;

import io.github.gatlingllm.api.SseParser;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import io.github.gatlingllm.report.RequestRecordJson;
import io.github.gatlingllm.report.RunFolders;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.io.IOException;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.Locale;
import java.util.SplittableRandom;
import java.util.function.IntConsumer;

/**
 * What gatling-llm's own code costs per streamed request, in CPU nanoseconds of the thread that
 * runs it (not wall time: the figure holds on a busy machine): each piece of the path of one
 * 64-token chat stream as the simulator sends it, one event per chunk, and of its record. Not a
 * test.
 *
 * <p>{@code java -cp target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * io.github.gatlingllm.bench.RequestPathCost [ROUNDS]}: 5 rounds by default, each after a warmup of
 * 20,000 operations; prints the median and the range of the rounds' CPU ns an operation.
 */
public final class RequestPathCost {

  private static final int TOKENS = 64;
  private static final int OPS = 20_000;

  private RequestPathCost() {}

  /**
   * Prints the figures.
   *
   * @param args the number of rounds, optional
   * @throws Exception if the simulator cannot be reached
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 5;
    List<byte[]> events = stream();
    long[] eventNanos = new long[events.size()];
    for (int i = 0; i < eventNanos.length; i++) {
      eventNanos[i] = 1_000_000L + i * 1_000_123L; // one event a millisecond, microsecond parts
    }
    SplittableRandom random = new SplittableRandom(42);
    RequestRecord[] records = new RequestRecord[4096];
    for (int i = 0; i < records.length; i++) {
      records[i] = record(events, eventNanos, random, i);
    }
    Path folder = Files.createTempDirectory("request-path-cost");
    RunRecorder recorder = new RunRecorder(RunFolders.before(folder, RequestPathCost.class));
    MetricsAggregator aggregator = new MetricsAggregator(io.github.gatlingllm.metrics.Slo.NONE);

    System.out.printf(
        Locale.ROOT,
        "%d-token chat stream of %d events (%d bytes), one event a chunk; CPU ns an operation,"
            + " median [min-max] of %d rounds of %,d%n",
        TOKENS,
        events.size(),
        events.stream().mapToInt(e -> e.length).sum(),
        rounds,
        OPS);
    measure(
        "stream: SseParser + StreamEvent.parse + RequestTimer",
        rounds,
        i -> parse(events, eventNanos),
        OPS / 10);
    measure(
        "stream: SseParser alone (events dropped)",
        rounds,
        i -> {
          SseParser parser = new SseParser((b, from, to) -> {});
          for (byte[] e : events) {
            parser.feed(e, 0, e.length);
          }
        },
        OPS / 10);
    byte[] content = events.get(2);
    int start = "data: ".length();
    measure(
        "event: StreamEvent.parse of a content chunk",
        rounds,
        i -> StreamEvent.parse(content, start, content.length - 2),
        OPS * 10);
    measure(
        "record: RequestRecordJson.toJson (with the ITL list)",
        rounds,
        i -> RequestRecordJson.toJson(records[i & 4095], true),
        OPS);
    measure("record: MetricsAggregator.add", rounds, i -> aggregator.add(records[i & 4095]), OPS);
    measure(
        "record: RunRecorder.record (JSON line, aggregate, file)",
        rounds,
        i -> recorder.record(records[i & 4095]),
        OPS);
    recorder.close();
    // The live endpoint (llm.prometheusPort): the event loop's part, then the drain thread's.
    io.github.gatlingllm.live.LiveMetrics.Gauges gauges =
        new io.github.gatlingllm.live.LiveMetrics.Gauges(() -> 0, List::of, () -> null);
    int port;
    try (java.net.ServerSocket socket = new java.net.ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    io.github.gatlingllm.live.LiveEndpoint endpoint =
        io.github.gatlingllm.live.LiveEndpoint.start(
            new io.github.gatlingllm.settings.LiveSettings(port, java.time.Duration.ZERO),
            new io.github.gatlingllm.live.LiveMetrics(null, gauges));
    measure(
        "live: LiveEndpoint.record (event loop: a queue insert)",
        rounds,
        i -> endpoint.record(records[i & 4095]),
        OPS);
    endpoint.close();
    io.github.gatlingllm.live.LiveMetrics live =
        new io.github.gatlingllm.live.LiveMetrics(null, gauges);
    measure(
        "live: LiveMetrics.add (drain thread, 63 ITL observations)",
        rounds,
        i -> live.add(records[i & 4095]),
        OPS);
    measure("live: a scrape (text format)", rounds, i -> live.scrapeText(), 2_000);
  }

  private static RequestTimings parse(List<byte[]> events, long[] eventNanos) {
    RequestTimer timer = new RequestTimer(0, 0);
    long[] now = new long[1];
    SseParser parser =
        new SseParser((b, from, to) -> timer.onEvent(now[0], StreamEvent.parse(b, from, to)));
    for (int k = 0; k < events.size(); k++) {
      now[0] = eventNanos[k];
      byte[] e = events.get(k);
      parser.feed(e, 0, e.length);
    }
    parser.end();
    return timer.finish(eventNanos[eventNanos.length - 1], 66);
  }

  private static RequestRecord record(
      List<byte[]> events, long[] eventNanos, SplittableRandom random, long index) {
    long[] jittered = eventNanos.clone();
    for (int k = 1; k < jittered.length; k++) {
      jittered[k] = jittered[k - 1] + 900_000 + random.nextInt(300_000);
    }
    RequestTimings timings = parse(events, jittered);
    RequestIdentity id =
        new RequestIdentity(
            "chat", "measured", index, "r-0123456789ab", "0123456789abcdef", null, null, 64);
    return RequestRecord.of(id, timings, 200, RequestStatus.OK, null);
  }

  private static void measure(String name, int rounds, IntConsumer op, int ops) {
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    for (int i = 0; i < ops; i++) {
      op.accept(i);
    }
    double[] perOp = new double[rounds];
    for (int r = 0; r < rounds; r++) {
      long cpu = threads.getCurrentThreadCpuTime();
      for (int i = 0; i < ops; i++) {
        op.accept(i);
      }
      perOp[r] = (threads.getCurrentThreadCpuTime() - cpu) / (double) ops;
    }
    Arrays.sort(perOp);
    System.out.printf(
        Locale.ROOT,
        "  %-58s %9.0f ns  [%.0f-%.0f]%n",
        name,
        perOp[rounds / 2],
        perOp[0],
        perOp[rounds - 1]);
  }

  /** The SSE events of one streamed chat completion from the simulator, one array each. */
  private static List<byte[]> stream() throws IOException, InterruptedException {
    try (Simulator simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0)) {
      String body =
          "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"hello\"}],"
              + "\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":"
              + TOKENS
              + "}";
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/chat/completions"))
                      .header("Content-Type", "application/json")
                      .POST(HttpRequest.BodyPublishers.ofString(body))
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      List<byte[]> events = new ArrayList<>();
      for (String event : response.body().split("\n\n")) {
        events.add((event + "\n\n").getBytes(StandardCharsets.UTF_8));
      }
      return events;
    }
  }
}
