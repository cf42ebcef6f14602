package io.github.gatlingllm.bench;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.core.JsonGenerator;
import io.github.gatlingllm.simulator.ServedRequest;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.simulator.SimulatorStats;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.Map;

/**
 * The server of the stream benchmarks: the embedded simulator in its own JVM (pinned to its own
 * core by the scripts), with zero TTFT and {@code DECODE_MS} per token, that records when it sent
 * each token chunk and each request's {@code X-Request-Id}. Not a test.
 *
 * <p>{@code java ... BenchServer PORT DECODE_MS MAX_CONCURRENT RECORDS CONTROL_DIR}: prints {@code
 * listening URL} once it accepts requests, then every 100 ms looks for {@code CONTROL_DIR/dump}.
 * That file holds {@code OUT_PATH [ID_PREFIX]}: the server writes to {@code OUT_PATH} its counters
 * ({@code connections_accepted}, {@code requests_by_status}, {@code generation_tokens}) and, with
 * an id prefix, the kept records ({@code RECORDS} newest) of the requests whose {@code
 * X-Request-Id} starts with it: {@code id} (the client's), {@code completed}, {@code
 * first_token_ns} (scheduled) and {@code sent_ns} (when each token chunk was written, in
 * nanoseconds after the request was read), then deletes {@code dump}. It runs until killed.
 */
public final class BenchServer {

  private BenchServer() {}

  /**
   * Runs the server.
   *
   * @param args port, milliseconds per token, concurrent sequences, records kept, control folder
   * @throws Exception if it cannot listen
   */
  public static void main(String[] args) throws Exception {
    int port = Integer.parseInt(args[0]);
    double decodeMs = Double.parseDouble(args[1]);
    int maxConcurrent = Integer.parseInt(args[2]);
    int records = Integer.parseInt(args[3]);
    Path control = Path.of(args[4]);
    Files.createDirectories(control);
    Simulator simulator =
        Simulator.start(
            SimulatorConfig.zeroDelay()
                .withDecodeMsPerToken(decodeMs)
                .withMaxConcurrent(maxConcurrent)
                .withRecordCapacity(records)
                .withRecordSendTimes(records > 0),
            port);
    System.out.println("listening " + simulator.baseUrl());
    System.out.flush();
    Path dump = control.resolve("dump");
    while (true) {
      if (Files.exists(dump)) {
        String[] request = Files.readString(dump).trim().split("\\s+");
        write(simulator, Path.of(request[0]), request.length > 1 ? request[1] : null);
        Files.delete(dump);
      }
      Thread.sleep(100);
    }
  }

  private static void write(Simulator simulator, Path out, String prefix) throws IOException {
    Path tmp = out.resolveSibling(out.getFileName() + ".tmp");
    SimulatorStats stats = simulator.stats();
    try (JsonGenerator g =
        new JsonFactory().createGenerator(Files.newBufferedWriter(tmp, StandardCharsets.UTF_8))) {
      g.writeStartObject();
      g.writeNumberField("connections_accepted", stats.connectionsAccepted());
      g.writeObjectFieldStart("requests_by_status");
      for (Map.Entry<Integer, Long> e : stats.requestsByStatus().entrySet()) {
        g.writeNumberField(String.valueOf(e.getKey()), e.getValue());
      }
      g.writeEndObject();
      g.writeNumberField("generation_tokens", stats.generationTokens());
      g.writeArrayFieldStart("requests");
      if (prefix != null) {
        for (ServedRequest r : simulator.requests()) {
          if (r.clientRequestId() == null || !r.clientRequestId().startsWith(prefix)) {
            continue;
          }
          g.writeStartObject();
          g.writeStringField("id", r.clientRequestId());
          g.writeBooleanField("completed", r.completed());
          g.writeNumberField("first_token_ns", r.firstTokenNanos());
          g.writeArrayFieldStart("sent_ns");
          for (long t : r.sentNanos()) {
            g.writeNumber(t);
          }
          g.writeEndArray();
          g.writeEndObject();
        }
      }
      g.writeEndArray();
      g.writeEndObject();
    }
    Files.move(tmp, out, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.ATOMIC_MOVE);
  }
}
