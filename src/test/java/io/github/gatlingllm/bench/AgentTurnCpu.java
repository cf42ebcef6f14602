package io.github.gatlingllm.bench;

import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gatlingllm.api.EventParser;
import io.github.gatlingllm.api.Json;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.ToolCallAssembly;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.lang.management.ManagementFactory;
import java.lang.management.ThreadMXBean;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.Arrays;
import java.util.Locale;

/**
 * CPU an agent turn against a single prompt request of the same size (issue 32's scale target: at
 * most 1.2x), in one run: the embedded simulator's own chat stream of {@code TOKENS} content tokens
 * (default 64) read through the chat dialect's parser into a {@link RequestTimer} as the response
 * listener does, once as a prompt request reads it (text kept only while the timer wants it) and
 * once as an agent turn reads it (every event's text kept: the reply appended to a StringBuilder
 * and its tool-call deltas to a {@link ToolCallAssembly}, as {@code AgentSender.AgentTurn} does);
 * beside them, the simulator's tool-calling reply (one streamed {@code tool_calls} call) read as an
 * agent turn. Measured in this thread's CPU time (other load on a shared machine costs wall time,
 * not the figure), in interleaved rounds of 20,000 streams a side (prompt, agent, agent tool call,
 * prompt, ...) after 5 warm-up rounds; prints each side's median microseconds a stream and its
 * ratio to the prompt request's. A benchmark that prints figures: {@code java -cp
 * target/test-classes:target/classes:$(cat target/test-classpath.txt)
 * io.github.gatlingllm.bench.AgentTurnCpu [ROUNDS [TOKENS]]} (default 15, 64).
 */
public final class AgentTurnCpu {

  private AgentTurnCpu() {}

  /** One side: a stream's chunks and whether every event's text is kept. */
  private record Side(String name, byte[][] chunks, boolean agent) {

    /** One whole stream, a fresh parser and timer; returns what it read (so the JIT keeps it). */
    long stream() {
      RequestTimer timer = new RequestTimer(0, 0, WireApi.CHAT.dialect().terminalEvent());
      StringBuilder reply = agent ? new StringBuilder() : null;
      ToolCallAssembly calls = agent ? new ToolCallAssembly() : null;
      long[] now = {0};
      EventParser parser =
          WireApi.CHAT
              .dialect()
              .parser(
                  new EventParser.Listener() {
                    @Override
                    public boolean wantsText() {
                      return agent || timer.wantsText();
                    }

                    @Override
                    public void onEvent(StreamEvent event) {
                      if (agent) {
                        if (event.content() != null) {
                          reply.append(event.content());
                        }
                        if (event.toolCalls() != null) {
                          calls.add(event.toolCalls());
                        }
                      }
                      timer.onEvent(now[0], event);
                    }
                  });
      for (byte[] chunk : chunks) {
        now[0] += 1_000_000;
        parser.feed(chunk, 0, chunk.length);
      }
      parser.end();
      long read = timer.finish(now[0], null).completionTokens();
      if (agent) {
        read += reply.length() + calls.calls().size();
      }
      return read;
    }
  }

  /**
   * Runs the rounds and prints the figures.
   *
   * @param args optional number of measured rounds, then optional content tokens a reply
   * @throws Exception if the simulator does not answer
   */
  public static void main(String[] args) throws Exception {
    int rounds = args.length > 0 ? Integer.parseInt(args[0]) : 15;
    int tokens = args.length > 1 ? Integer.parseInt(args[1]) : 64;
    int streams = 20_000;
    byte[][] text;
    byte[][] tool;
    try (Simulator simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0)) {
      text = fetch(simulator, tokens, false);
      tool = fetch(simulator, tokens, true);
    }
    Side[] sides = {
      new Side("prompt request", text, false),
      new Side("agent turn", text, true),
      new Side("agent tool call", tool, true)
    };
    ThreadMXBean threads = ManagementFactory.getThreadMXBean();
    double[][] micros = new double[sides.length][rounds];
    long sink = 0;
    for (int r = -5; r < rounds; r++) {
      for (int s = 0; s < sides.length; s++) {
        long t0 = threads.getCurrentThreadCpuTime();
        for (int k = 0; k < streams; k++) {
          sink += sides[s].stream();
        }
        long cpu = threads.getCurrentThreadCpuTime() - t0;
        if (r >= 0) {
          micros[s][r] = cpu / 1000.0 / streams;
        }
      }
    }
    double prompt = median(micros[0]);
    System.out.printf(
        Locale.ROOT,
        "CPU a chat stream of %d tokens (parser + timer), median of %d rounds of %d (%d read);"
            + " load average %s%n",
        tokens,
        rounds,
        streams,
        sink,
        loadAverage());
    for (int s = 0; s < sides.length; s++) {
      double m = median(micros[s]);
      System.out.printf(
          Locale.ROOT,
          "%-16s %8.2f us/stream  %5.2fx prompt request  (%d events)%n",
          sides[s].name(),
          m,
          m / prompt,
          sides[s].chunks().length);
    }
  }

  /** The simulator's streamed answer to a 256-word prompt; with one tool offered, a tool call. */
  private static byte[][] fetch(Simulator simulator, int tokens, boolean tools) throws Exception {
    StringBuilder prompt = new StringBuilder();
    for (int i = 0; i < 256; i++) {
      prompt.append("word").append(i).append(' ');
    }
    String body =
        WireApi.CHAT
            .dialect()
            .body(RequestSettings.streaming(WireApi.CHAT, "m", tokens), prompt.toString());
    if (tools) {
      ObjectNode root = (ObjectNode) Json.MAPPER.readTree(body);
      ObjectNode function = root.putArray("tools").addObject().put("type", "function");
      ObjectNode f = function.putObject("function").put("name", "search_documents");
      f.put("description", "Searches the documents.");
      ObjectNode parameters = f.putObject("parameters").put("type", "object");
      parameters.putObject("properties").putObject("query").put("type", "string");
      parameters.putArray("required").add("query");
      root.put("tool_choice", "required");
      body = Json.MAPPER.writeValueAsString(root);
    }
    HttpRequest request =
        HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/" + WireApi.CHAT.path()))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body))
            .build();
    byte[] all =
        HttpClient.newHttpClient().send(request, HttpResponse.BodyHandlers.ofByteArray()).body();
    byte[][] chunks = ApiStreamBenchmark.events(all);
    Side check = new Side("check", chunks, true);
    if (check.stream() <= 0) {
      throw new IllegalStateException("the simulator's stream reads as nothing");
    }
    return chunks;
  }

  private static String loadAverage() {
    try {
      String[] f =
          new String(java.nio.file.Files.readAllBytes(java.nio.file.Path.of("/proc/loadavg")))
              .split(" ");
      return f[0] + " " + f[1] + " " + f[2];
    } catch (java.io.IOException e) {
      return "unknown";
    }
  }

  private static double median(double[] values) {
    double[] sorted = values.clone();
    Arrays.sort(sorted);
    return sorted[sorted.length / 2];
  }
}
