package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.gatling.CancelSimulation;
import io.github.gatlingllm.testing.GatlingJvm;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.Socket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * A cancelled stream frees its llama.cpp slot: the server's {@code /slots} shows every slot idle
 * again (and {@code /metrics} {@code llamacpp:requests_processing} back to 0) soon after the client
 * closed the connection, long before the request's {@code max_tokens} would have been generated.
 * Once with a raw socket (the server's own reaction, timed), once through the product ({@code
 * llm.cancelRate}) in a Gatling JVM of its own.
 *
 * <p>Runs when {@code LLAMA_BASE_URL} (environment) or {@code -Dllm.it.llamaBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails.
 */
@Tag("forked")
class LlamaCancelTest {

  private static final Logger LOG = LoggerFactory.getLogger(LlamaCancelTest.class);
  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP =
      HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(5)).build();

  private static String baseUrl;
  private static String root;

  @TempDir Path results;

  @BeforeAll
  static void server() {
    String url = System.getProperty("llm.it.llamaBaseUrl", System.getenv("LLAMA_BASE_URL"));
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no llama.cpp server is named (LLAMA_BASE_URL or -Dllm.it.llamaBaseUrl):"
                + " .ci/run starts one with scripts/llama-server.sh start");
      }
      Assumptions.abort(
          "no llama.cpp server: set LLAMA_BASE_URL (eval \"$(scripts/llama-server.sh start)\";"
              + " export LLAMA_BASE_URL) to run these tests");
    }
    baseUrl = url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
    root = baseUrl.endsWith("/v1") ? baseUrl.substring(0, baseUrl.length() - 3) : baseUrl;
  }

  private static String get(String path) throws IOException, InterruptedException {
    return HTTP.send(
            HttpRequest.newBuilder(URI.create(root + path)).GET().build(),
            HttpResponse.BodyHandlers.ofString())
        .body();
  }

  /** How many of the server's slots are processing a request now. */
  private static int busySlots() throws IOException, InterruptedException {
    int busy = 0;
    for (JsonNode slot : JSON.readTree(get("/slots"))) {
      if (slot.path("is_processing").asBoolean(false)) {
        busy++;
      }
    }
    return busy;
  }

  /** Polls every 5 ms until no slot is busy; returns how long it took, ms; fails after 10 s. */
  private static double untilIdle(long fromNanos) throws Exception {
    long deadline = System.nanoTime() + 10_000_000_000L;
    while (busySlots() > 0) {
      assertTrue(System.nanoTime() < deadline, "a slot is still busy 10 s after the cancel");
      Thread.sleep(5);
    }
    return (System.nanoTime() - fromNanos) / 1e6;
  }

  @Test
  void aStreamWhoseClientLeavesFreesItsSlot() throws Exception {
    untilIdle(System.nanoTime());
    String body =
        JSON.writeValueAsString(
            JSON.createObjectNode()
                .put("model", "m")
                .put("stream", true)
                .put("max_tokens", 4000)
                .put("ignore_eos", true)
                .set(
                    "messages",
                    JSON.createArrayNode()
                        .add(
                            JSON.createObjectNode()
                                .put("role", "user")
                                .put("content", "Tell a long story."))));
    URI uri = URI.create(baseUrl + "/chat/completions");
    double idleMs;
    try (Socket socket = new Socket(uri.getHost(), uri.getPort())) {
      socket.setSoTimeout(30_000);
      byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
      OutputStream out = socket.getOutputStream();
      out.write(
          ("POST "
                  + uri.getPath()
                  + " HTTP/1.1\r\nHost: "
                  + uri.getHost()
                  + "\r\nContent-Type: application/json\r\nContent-Length: "
                  + bytes.length
                  + "\r\n\r\n")
              .getBytes(StandardCharsets.US_ASCII));
      out.write(bytes);
      out.flush();
      // Read until some tokens came: the slot is generating.
      InputStream in = socket.getInputStream();
      StringBuilder text = new StringBuilder();
      byte[] buffer = new byte[4096];
      int events = 0;
      while (events < 5) {
        int n = in.read(buffer);
        assertTrue(n > 0, "the stream ended early: " + text);
        String s = new String(buffer, 0, n, StandardCharsets.UTF_8);
        text.append(s);
        events += s.split("data: ", -1).length - 1;
      }
      assertEquals(1, busySlots(), "the slot generating the stream");
      socket.close();
      idleMs = untilIdle(System.nanoTime());
    }
    LOG.info("llama.cpp freed the slot {} ms after the client closed the stream", idleMs);
    // 4000 tokens at ~200 tokens/s would take 20 s: the slot was freed because the client left.
    assertTrue(idleMs < 5_000, "slot freed " + idleMs + " ms after the close");
    JsonNode metricsProcessing = null;
    for (String line : get("/metrics").split("\n")) {
      if (line.startsWith("llamacpp:requests_processing ")) {
        metricsProcessing = JSON.readTree(line.substring(line.indexOf(' ') + 1).strip());
      }
    }
    if (metricsProcessing != null) {
      assertEquals(0.0, metricsProcessing.asDouble(), "llamacpp:requests_processing");
    }
  }

  @Test
  void cancelledRequestsOfARunFreeTheirSlots() throws Exception {
    untilIdle(System.nanoTime());
    Path run =
        GatlingJvm.run(
            CancelSimulation.class,
            results,
            List.of(
                "-Dllm.baseUrl=" + baseUrl,
                "-Dllm.cancelRate=0.5",
                "-Dllm.cancelAfterMs=150",
                "-Dllm.outputTokens=400",
                "-Dllm.ignoreEos=true",
                "-Dllm.requests=8",
                "-Dllm.warmupRequests=0",
                "-Dllm.concurrency=1"),
            0,
            300);
    long end = System.nanoTime();
    List<JsonNode> requests = GatlingJvm.requests(run);
    assertEquals(8, requests.size());
    int cancelled = 0;
    for (JsonNode r : requests) {
      String status = r.get("status").asText();
      if (status.equals("cancelled")) {
        cancelled++;
        // 400 tokens take about 2 s here: cut after about 150 ms.
        assertTrue(r.get("e2e_ms").asDouble() < 1_500, r.toString());
        assertTrue(r.get("completion_tokens").asInt() < 400, r.toString());
      } else {
        assertEquals("ok", status, r.toString());
      }
    }
    assertTrue(cancelled > 0, "no request was cancelled");
    JsonNode release = GatlingJvm.runRecord(run).get("server_cancel_release");
    assertTrue(release.get("unavailable").isNull(), release.toString());
    assertTrue(release.get("released").asInt() > 0, release.toString());
    LOG.info("llama.cpp after the run's cancellations: {}", release);
    double idleMs = untilIdle(end);
    LOG.info("{} of 8 requests cancelled; every slot idle {} ms after the run", cancelled, idleMs);
  }
}
