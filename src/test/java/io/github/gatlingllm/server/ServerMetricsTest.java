package io.github.gatlingllm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * {@link ServerMetrics}: the record it keeps of canned scrapes, and real scrapes over loopback of
 * the embedded simulator and of servers that refuse, fail or stay silent.
 */
class ServerMetricsTest {

  private HttpServer server;
  private Simulator simulator;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
    if (simulator != null) {
      simulator.close();
    }
  }

  private static ServerMetrics canned() {
    return new ServerMetrics(
        "http://127.0.0.1:1/metrics",
        null,
        Duration.ofSeconds(5),
        ServerMetrics.TIMEOUT,
        HttpClient.newHttpClient());
  }

  @Test
  void metricsUrlIsBesideV1WithoutCredentials() {
    assertEquals(
        "http://127.0.0.1:8000/metrics", ServerMetrics.metricsUrl("http://127.0.0.1:8000/v1"));
    assertEquals(
        "http://127.0.0.1:8000/metrics", ServerMetrics.metricsUrl("http://127.0.0.1:8000/v1/"));
    assertEquals(
        "https://example.test/llm/metrics",
        ServerMetrics.metricsUrl("https://user:secret@example.test/llm/v1"));
    assertEquals("http://h:9/metrics", ServerMetrics.metricsUrl("http://h:9"));
  }

  @Test
  void recordOfAKnownEngine() {
    ServerMetrics m = canned();
    m.accept(
        0,
        PrometheusText.parse(
            "llamacpp:prompt_tokens_total 100\nllamacpp:prompt_tokens_cached_total 0\n"
                + "llamacpp:requests_processing 0\nllamacpp:requests_deferred 0\n"));
    m.accept(
        5000,
        PrometheusText.parse(
            "llamacpp:prompt_tokens_total 110\nllamacpp:prompt_tokens_cached_total 90\n"
                + "llamacpp:requests_processing 1\nllamacpp:requests_deferred 3\n"));
    m.accept(
        10_000,
        PrometheusText.parse(
            "llamacpp:prompt_tokens_total 110\nllamacpp:prompt_tokens_cached_total 90\n"
                + "llamacpp:requests_processing 0\nllamacpp:requests_deferred 0\n"));
    Map<String, Object> r = m.record();
    assertEquals("llama.cpp", r.get("engine"));
    assertEquals(3L, r.get("scrapes"));
    assertEquals(0L, r.get("failed_scrapes"));
    assertEquals(
        Map.of(
            "prompt_tokens", "llamacpp:prompt_tokens_total",
            "cached_prompt_tokens", "llamacpp:prompt_tokens_cached_total",
            "requests_running", "llamacpp:requests_processing",
            "requests_waiting", "llamacpp:requests_deferred"),
        r.get("series"));
    assertEquals(
        List.of(
            Map.of(
                "t_ms", 0L,
                "prompt_tokens", 100.0,
                "cached_prompt_tokens", 0.0,
                "requests_running", 0.0,
                "requests_waiting", 0.0),
            Map.of(
                "t_ms", 5000L,
                "prompt_tokens", 110.0,
                "cached_prompt_tokens", 90.0,
                "requests_running", 1.0,
                "requests_waiting", 3.0,
                // 90 cached of 10 processed + 90 cached since the previous sample.
                "hit_rate", 0.9),
            Map.of(
                "t_ms", 10_000L,
                "prompt_tokens", 110.0,
                "cached_prompt_tokens", 90.0,
                "requests_running", 0.0,
                "requests_waiting", 0.0)),
        r.get("samples"));
    assertEquals(Map.of("prompt_tokens", 10.0, "cached_prompt_tokens", 90.0), r.get("deltas"));
    assertEquals(0.9, r.get("prefix_cache_hit_rate"));
    assertNull(r.get("errors"));
    assertNull(r.get("series_found"));
  }

  @Test
  void aCounterThatGoesDownCountsFromZero() {
    ServerMetrics m = canned();
    m.accept(0, PrometheusText.parse("gatling_llm_simulator_prompt_tokens_total 500\n"));
    m.accept(1, PrometheusText.parse("gatling_llm_simulator_prompt_tokens_total 700\n"));
    // The server restarted.
    m.accept(2, PrometheusText.parse("gatling_llm_simulator_prompt_tokens_total 30\n"));
    m.accept(3, PrometheusText.parse("gatling_llm_simulator_prompt_tokens_total 40\n"));
    assertEquals(Map.of("prompt_tokens", 240.0), m.record().get("deltas"));
  }

  @Test
  void unknownServerGivesTheNamesItServesOnly() {
    ServerMetrics m = canned();
    m.accept(
        0,
        PrometheusText.parse(
            "tgi_queue_size 3\ntgi_batch_current_size 2\ntgi_queue_size{x=\"y\"} 1\n"));
    Map<String, Object> r = m.record();
    assertEquals("unknown", r.get("engine"));
    assertEquals(List.of("tgi_queue_size", "tgi_batch_current_size"), r.get("series_found"));
    assertNull(r.get("samples"));
    assertNull(r.get("prefix_cache_hit_rate"));
  }

  @Test
  void errorsAreCountedAllAndKeptFirst() {
    ServerMetrics m = canned();
    for (int i = 0; i < 25; i++) {
      m.failed(i, "HTTP 500");
    }
    Map<String, Object> r = m.record();
    assertNull(r.get("engine"));
    assertEquals(25L, r.get("failed_scrapes"));
    assertEquals(20, ((List<?>) r.get("errors")).size());
    assertEquals(Map.of("t_ms", 0L, "error", "HTTP 500"), ((List<?>) r.get("errors")).get(0));
  }

  @Test
  void scrapesTheEmbeddedSimulator() throws Exception {
    simulator = Simulator.start(SimulatorConfig.zeroDelay(), 0);
    // A long timeout: a loaded machine may be slow to answer; no scrape may fail here.
    ServerMetrics m =
        ServerMetrics.start(
            simulator.baseUrl(), null, Duration.ofMillis(100), Duration.ofSeconds(30));
    String words = "w ".repeat(100).strip();
    for (int i = 0; i < 2; i++) {
      HttpResponse<String> response =
          HttpClient.newHttpClient()
              .send(
                  HttpRequest.newBuilder(URI.create(simulator.baseUrl() + "/completions"))
                      .POST(
                          HttpRequest.BodyPublishers.ofString(
                              "{\"prompt\": \"" + words + "\", \"max_tokens\": 2}"))
                      .header("Content-Type", "application/json")
                      .build(),
                  HttpResponse.BodyHandlers.ofString());
      assertEquals(200, response.statusCode(), response.body());
    }
    Map<String, Object> r = m.finish();
    assertEquals("gatling-llm simulator", r.get("engine"));
    assertEquals(0L, r.get("failed_scrapes"));
    assertTrue((Long) r.get("scrapes") >= 2, r.toString());
    assertEquals(
        Map.of("prompt_tokens", 200.0, "cached_prompt_tokens", 96.0, "generation_tokens", 4.0),
        r.get("deltas"));
    assertEquals(0.48, r.get("prefix_cache_hit_rate"));
    assertEquals(
        Map.of("block_size_tokens", 16L, "capacity_tokens", 1_048_576L), r.get("cache_config"));
    List<?> samples = (List<?>) r.get("samples");
    Map<?, ?> last = (Map<?, ?>) samples.get(samples.size() - 1);
    assertEquals(6.0 / 65_536, last.get("kv_cache_usage"));
    assertEquals(0.0, last.get("requests_running"));
    // Finishing again changes nothing.
    assertEquals(r, m.finish());
  }

  @Test
  void aServerWithoutMetricsIsAskedOnce() throws IOException {
    AtomicInteger asked = new AtomicInteger();
    String base =
        serve(
            exchange -> {
              asked.incrementAndGet();
              byte[] body = "Not Found".getBytes(StandardCharsets.UTF_8);
              exchange.sendResponseHeaders(404, body.length);
              exchange.getResponseBody().write(body);
              exchange.close();
            });
    ServerMetrics m = ServerMetrics.start(base + "/v1", null, Duration.ofMillis(50));
    Map<String, Object> r = m.finish();
    assertEquals(1, asked.get());
    assertNull(r.get("engine"));
    assertEquals(0L, r.get("scrapes"));
    assertEquals(1L, r.get("failed_scrapes"));
    assertEquals(
        "HTTP 404: the server serves no metrics there",
        ((Map<?, ?>) ((List<?>) r.get("errors")).get(0)).get("error"));
  }

  @Test
  void textThatIsNotPrometheusIsAFailedScrape() throws IOException {
    String base =
        serve(
            exchange -> {
              byte[] body = "<html><body>hello</body></html>".getBytes(StandardCharsets.UTF_8);
              exchange.sendResponseHeaders(200, body.length);
              exchange.getResponseBody().write(body);
              exchange.close();
            });
    Map<String, Object> r =
        ServerMetrics.start(base + "/v1", "key", Duration.ofSeconds(60)).finish();
    assertEquals(2L, r.get("failed_scrapes"));
    assertEquals(
        "not Prometheus text (1 lines did not parse; first: line 1: expected a metric name at"
            + " column 1, found '<')",
        ((Map<?, ?>) ((List<?>) r.get("errors")).get(0)).get("error"));
  }

  @Test
  void sendsTheBearerToken() throws IOException {
    AtomicInteger authorized = new AtomicInteger();
    String base =
        serve(
            exchange -> {
              if ("Bearer sk-1".equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                authorized.incrementAndGet();
              }
              byte[] body = "up 1\n".getBytes(StandardCharsets.UTF_8);
              exchange.sendResponseHeaders(200, body.length);
              exchange.getResponseBody().write(body);
              exchange.close();
            });
    Map<String, Object> r =
        ServerMetrics.start(base + "/v1", "sk-1", Duration.ofSeconds(60)).finish();
    assertEquals(2, authorized.get());
    assertEquals("unknown", r.get("engine"));
    assertEquals(List.of("up"), r.get("series_found"));
  }

  @Test
  void aRefusedConnectionIsRecordedAndTheRunGoesOn() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    Map<String, Object> r =
        ServerMetrics.start("http://127.0.0.1:" + port + "/v1", null, Duration.ofSeconds(60))
            .finish();
    assertEquals(2L, r.get("failed_scrapes"));
    assertEquals(
        "ConnectException",
        ((String) ((Map<?, ?>) ((List<?>) r.get("errors")).get(0)).get("error")).split(":")[0]);
  }

  @Test
  void aSilentServerCostsOneTimeoutPerScrape() throws IOException {
    CountDownLatch release = new CountDownLatch(1);
    String base =
        serve(
            exchange -> {
              try {
                release.await();
              } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
              }
              exchange.close();
            });
    try {
      Map<String, Object> r =
          ServerMetrics.start(base + "/v1", null, Duration.ofSeconds(60), Duration.ofMillis(300))
              .finish();
      assertEquals(2L, r.get("failed_scrapes"));
      assertEquals(
          "no answer within 300 ms", ((Map<?, ?>) ((List<?>) r.get("errors")).get(0)).get("error"));
    } finally {
      release.countDown();
    }
  }

  private String serve(com.sun.net.httpserver.HttpHandler handler) throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(java.util.concurrent.Executors.newCachedThreadPool());
    server.createContext("/metrics", handler);
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort();
  }
}
