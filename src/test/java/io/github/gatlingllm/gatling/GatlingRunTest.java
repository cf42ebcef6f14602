package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The real Gatling engine, in a JVM of its own as {@code ./mvnw gatling:test} runs it, against the
 * embedded simulator (the timing oracle) and against a loopback server that refuses requests.
 *
 * <p>Tolerances: Gatling stamps each SSE message in whole milliseconds, and the request start is
 * stamped just before the connect; on a loaded 2-core machine the client adds a few milliseconds. A
 * measured time is never below the model (the server cannot answer sooner); the median of the
 * measured requests' TTFT must lie within [60, 75] ms (model 60), E2E within [200, 220] ms (model
 * 200), TPOT and the ITL median within 20 ± 3 ms; no single request may be more than 100 ms late
 * (the first requests of a fresh JVM are slow to be handled).
 */
class GatlingRunTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  @Test
  void measuredTimingsMatchTheSimulatorsModelAndTheRunRecordIsComplete() throws Exception {
    Path run = runGatling(OracleSimulation.class, List.of());
    JsonNode record = JSON.readTree(run.resolve("llm-run.json").toFile());
    List<JsonNode> requests = requests(run);

    assertEquals(44, requests.size());
    assertFalse(record.get("interrupted").asBoolean());
    TreeSet<Long> measured = new TreeSet<>();
    List<Double> ttfts = new ArrayList<>();
    List<Double> e2es = new ArrayList<>();
    List<Double> tpots = new ArrayList<>();
    for (JsonNode r : requests) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals(8, r.get("completion_tokens").asInt());
      if (r.get("phase").asText().equals("measured")) {
        measured.add(r.get("index").asLong());
        double ttft = r.get("ttft_ms").asDouble();
        assertTrue(ttft >= 60 && ttft <= 160, "TTFT " + ttft + " ms, model 60 ms");
        ttfts.add(ttft);
        // 60 ms to the first token, then 7 more tokens 20 ms apart.
        double e2e = r.get("e2e_ms").asDouble();
        assertTrue(e2e >= 200 && e2e <= 300, "E2E " + e2e + " ms, model 200 ms");
        e2es.add(e2e);
        tpots.add(r.get("tpot_ms").asDouble());
      }
    }
    assertTrue(median(ttfts) <= 75, "TTFT median " + median(ttfts) + " ms, model 60 ms");
    assertTrue(median(e2es) <= 220, "E2E median " + median(e2es) + " ms, model 200 ms");
    assertTrue(Math.abs(median(tpots) - 20) <= 3, "TPOT median " + median(tpots) + ", model 20");
    assertEquals(40, measured.size());
    assertEquals(0L, measured.first());
    assertEquals(39L, measured.last());

    JsonNode overall = record.get("metrics").get("overall");
    double itlP50 = overall.get("itl_ms").get("p50").asDouble();
    assertTrue(Math.abs(itlP50 - 20) <= 3, "ITL p50 " + itlP50 + " ms, model 20 ms");
    // Overall covers the measured phase only.
    assertEquals(40, overall.get("status").get("ok").asInt());

    PromptSource expected =
        new PromptSource(
            PromptSpec.unique(),
            EstimatedTokenCounter.INSTANCE,
            0,
            "c4_in128_out8",
            "measured",
            128);
    for (long i = 0; i < 40; i++) {
      expected.take(i);
    }
    JsonNode phases = record.get("prompts").get("phases");
    assertEquals(expected.digest(), phases.get("measured").get("digest").asText());
    assertEquals(40, phases.get("measured").get("requests").asInt());
    assertEquals(4, phases.get("warmup").get("requests").asInt());

    assertTrue(Files.isRegularFile(run.resolve("llm-report.html")));
    try (Stream<Path> files = Files.list(run)) {
      List<String> names = files.map(p -> p.getFileName().toString()).toList();
      assertTrue(names.stream().anyMatch(n -> n.startsWith("req_chat-ttft")), names.toString());
      assertTrue(names.stream().anyMatch(n -> n.startsWith("req_chat-e2e")), names.toString());
      assertTrue(names.stream().anyMatch(n -> n.startsWith("req_chat-tpot")), names.toString());
    }
  }

  @Test
  void http429IsRecordedAsRejectedWithItsStatus() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          byte[] body =
              "{\"error\":{\"message\":\"slow down\",\"type\":\"rate_limit\"}}"
                  .getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(429, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    try {
      String baseUrl = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
      Path run =
          runGatling(
              OracleSimulation.class,
              List.of(
                  "-Dllm.baseUrl=" + baseUrl,
                  "-Dllm.model=m",
                  "-Dllm.requests=3",
                  "-Dllm.warmupRequests=0",
                  "-Dllm.concurrency=1"));
      List<JsonNode> requests = requests(run);
      assertEquals(3, requests.size());
      for (JsonNode r : requests) {
        assertEquals("rejected", r.get("status").asText(), r.toString());
        assertEquals(429, r.get("http_status").asInt());
        assertTrue(r.get("ttft_ms").isNull());
      }
      JsonNode record = JSON.readTree(run.resolve("llm-run.json").toFile());
      assertEquals(baseUrl, record.get("target").get("base_url").asText());
      assertEquals(3, record.get("metrics").get("overall").get("status").get("rejected").asInt());
    } finally {
      server.stop(0);
    }
  }

  @Test
  void nonStreamingRequestsMeasureOnlyE2e() throws Exception {
    Path run =
        runGatling(
            OracleSimulation.class,
            List.of("-Dllm.stream=false", "-Dllm.requests=8", "-Dllm.warmupRequests=0"));
    List<JsonNode> requests = requests(run);
    assertEquals(8, requests.size());
    for (JsonNode r : requests) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertTrue(r.get("ttft_ms").isNull());
      assertTrue(r.get("tpot_ms").isNull());
      // The simulator sends a non-streamed body at E2E: 60 ms + 7 * 20 ms.
      assertTrue(r.get("e2e_ms").asDouble() >= 200, r.toString());
      assertEquals(8, r.get("completion_tokens").asInt());
      assertTrue(r.get("prompt_tokens_exact").asBoolean());
    }
    JsonNode record = JSON.readTree(run.resolve("llm-run.json").toFile());
    assertEquals(
        "llm.stream=false: no TTFT, ITL or TPOT are measured, only E2E",
        record.get("note").asText());
  }

  @Test
  void withoutUsageThePlannedCountStandsInAndIsMarkedNotExact() throws Exception {
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          exchange.getRequestBody().readAllBytes();
          exchange.getResponseHeaders().add("Content-Type", "text/event-stream");
          exchange.sendResponseHeaders(200, 0);
          try (OutputStream out = exchange.getResponseBody()) {
            for (String data :
                List.of(
                    "{\"choices\":[{\"delta\":{\"role\":\"assistant\",\"content\":null}}]}",
                    "{\"choices\":[{\"delta\":{\"content\":\"a\"}}]}",
                    "{\"choices\":[{\"delta\":{\"content\":\" b\"}}]}",
                    "{\"choices\":[{\"delta\":{},\"finish_reason\":\"stop\"}]}",
                    "[DONE]")) {
              out.write(("data: " + data + "\n\n").getBytes(StandardCharsets.UTF_8));
              out.flush();
            }
          }
        });
    server.start();
    try {
      Path run =
          runGatling(
              OracleSimulation.class,
              List.of(
                  "-Dllm.baseUrl=http://127.0.0.1:" + server.getAddress().getPort() + "/v1",
                  "-Dllm.requests=2",
                  "-Dllm.warmupRequests=0",
                  "-Dllm.concurrency=1"));
      for (JsonNode r : requests(run)) {
        assertEquals("ok", r.get("status").asText(), r.toString());
        assertEquals(128, r.get("prompt_tokens").asInt());
        assertFalse(r.get("prompt_tokens_exact").asBoolean());
        assertEquals(2, r.get("completion_tokens").asInt());
        assertFalse(r.get("completion_tokens_exact").asBoolean());
        assertEquals("stop", r.get("finish_reason").asText());
      }
    } finally {
      server.stop(0);
    }
  }

  private static double median(List<Double> values) {
    List<Double> sorted = values.stream().sorted().toList();
    return sorted.get(sorted.size() / 2);
  }

  private static List<JsonNode> requests(Path run) throws IOException {
    List<JsonNode> lines = new ArrayList<>();
    for (String line : Files.readAllLines(run.resolve("llm-requests.jsonl"))) {
      lines.add(JSON.readTree(line));
    }
    return lines;
  }

  /** Runs a simulation in a Gatling JVM of its own; returns its run folder. */
  private Path runGatling(Class<?> simulation, List<String> properties) throws Exception {
    Path log = results.resolve("gatling-" + System.nanoTime() + ".log");
    Process process = GatlingJvm.start(simulation, results, properties, log);
    assertTrue(process.waitFor(180, TimeUnit.SECONDS), "Gatling did not finish within 180 s");
    assertEquals(0, process.exitValue(), () -> "Gatling failed:\n" + GatlingJvm.read(log));
    List<Path> runs = GatlingJvm.runFolders(simulation, results);
    assertEquals(1, runs.size(), () -> "run folders: " + runs + "\n" + GatlingJvm.read(log));
    return runs.get(0);
  }
}
