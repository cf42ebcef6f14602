package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.net.InetAddress;
import java.net.ServerSocket;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The live endpoint ({@code llm.prometheusPort}, issue 34) scraped by a real Prometheus: Debian's
 * {@code prometheus} binary ({@code scripts/fetch-prometheus.sh}, which {@code .ci/run} runs, or
 * {@code PROMETHEUS_BIN}), started with its own config, a temporary storage folder and a free
 * loopback port, scraping every second. Its last {@code
 * sum(gatling_llm_requests_total{status="ok"})} and output tokens equal the run's records; every
 * query of the Grafana dashboard runs on it. A port in use or out of range is refused before any
 * load with one line.
 */
@Tag("forked")
class LivePrometheusRunTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final HttpClient HTTP = HttpClient.newHttpClient();

  @TempDir Path results;

  private static Path prometheusBinary() {
    String named = System.getenv("PROMETHEUS_BIN");
    Path bin =
        named != null && !named.isBlank()
            ? Path.of(named)
            : Path.of(".cache/prometheus/usr/bin/prometheus");
    if (!Files.isExecutable(bin)) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but there is no Prometheus at "
                + bin
                + ": .ci/run fetches it with scripts/fetch-prometheus.sh");
      }
      Assumptions.abort(
          "no Prometheus at "
              + bin
              + ": run scripts/fetch-prometheus.sh (or set PROMETHEUS_BIN) to run this test");
    }
    return bin;
  }

  private static int freePort() throws IOException {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  private static JsonNode get(String url) throws IOException, InterruptedException {
    HttpResponse<String> response =
        HTTP.send(
            HttpRequest.newBuilder(URI.create(url)).timeout(Duration.ofSeconds(10)).build(),
            HttpResponse.BodyHandlers.ofString());
    return JSON.readTree(response.body());
  }

  private static String encode(String text) {
    return URLEncoder.encode(text, StandardCharsets.UTF_8);
  }

  /** The last value of a query over the run, evaluated every second (query_range). */
  private static double last(String api, String query, long fromS, long toS)
      throws IOException, InterruptedException {
    JsonNode answer =
        get(
            api
                + "/query_range?query="
                + encode(query)
                + "&start="
                + fromS
                + "&end="
                + toS
                + "&step=1");
    assertEquals("success", answer.path("status").asText(), answer.toString());
    JsonNode result = answer.path("data").path("result");
    assertEquals(1, result.size(), query + ": " + answer);
    JsonNode values = result.get(0).path("values");
    return values.get(values.size() - 1).get(1).asDouble();
  }

  @Test
  void prometheusScrapingEverySecondEndsWithTheRecordsCounts() throws Exception {
    Path bin = prometheusBinary();
    int live = freePort();
    int web = freePort();
    Path config = results.resolve("prometheus.yml");
    Files.writeString(
        config,
        "global:\n"
            + "  scrape_interval: 1s\n"
            + "  scrape_timeout: 1s\n"
            + "scrape_configs:\n"
            + "  - job_name: gatling-llm\n"
            + "    static_configs:\n"
            + "      - targets: ['127.0.0.1:"
            + live
            + "']\n");
    Path storage = Files.createDirectories(results.resolve("tsdb"));
    Process prometheus =
        new ProcessBuilder(
                bin.toString(),
                "--config.file=" + config,
                "--storage.tsdb.path=" + storage,
                "--web.listen-address=127.0.0.1:" + web,
                "--log.level=warn")
            .redirectErrorStream(true)
            .redirectOutput(results.resolve("prometheus.log").toFile())
            .start();
    try {
      String api = "http://127.0.0.1:" + web + "/api/v1";
      awaitReady("http://127.0.0.1:" + web + "/-/ready", prometheus, results);
      long fromS = System.currentTimeMillis() / 1000 - 1;

      DslRun run =
          DslRun.run(
                  SteppedLevelsSimulation.class,
                  results,
                  "-Dllm.prometheusPort=" + live,
                  "-Dllm.prometheusLinger=3s")
              .exits(0);
      long toS = System.currentTimeMillis() / 1000 + 1;

      long ok = 0;
      long outputTokens = 0;
      for (JsonNode r : run.requests()) {
        if (r.path("status").asText().equals("ok")) {
          ok++;
          outputTokens += r.path("completion_tokens").asLong();
        }
      }
      assertTrue(ok > 100, "a run of a few hundred requests: " + ok);
      assertEquals(
          List.of((double) ok, (double) outputTokens),
          List.of(
              last(api, "sum(gatling_llm_requests_total{status=\"ok\"})", fromS, toS),
              last(api, "sum(gatling_llm_output_tokens_total)", fromS, toS)),
          run.log);
      // The closed scenario's levels, 2 then 4 users, scraped while they ran.
      assertEquals(
          4.0,
          last(
              api,
              "max(max_over_time(gatling_llm_load_level{scenario=\"closed\"}[1h]))",
              fromS,
              toS));
      assertEquals(1, run.count("live metrics: the final values stay served on port " + live));
      for (String query : dashboardQueries()) {
        JsonNode answer = get(api + "/query?query=" + encode(query) + "&time=" + toS);
        assertEquals("success", answer.path("status").asText(), query + ": " + answer);
      }
      // Each panel as Grafana draws it over the run: no series drawn twice, no legend naming a
      // label its series lack (a run of one JVM has no shard label).
      assertEquals(List.of(), drawnWrong(api, fromS, toS));
    } finally {
      prometheus.destroy();
      if (!prometheus.waitFor(20, TimeUnit.SECONDS)) {
        prometheus.destroyForcibly();
      }
    }
  }

  /**
   * What the dashboard's panels draw wrong over a run: a series two targets of one panel both draw
   * (the same labels and the same values at every step), a legend naming a label its series lacks.
   */
  private static List<String> drawnWrong(String api, long fromS, long toS)
      throws IOException, InterruptedException {
    JsonNode dashboard = JSON.readTree(Path.of("deploy/grafana/gatling-llm.json").toFile());
    List<String> wrong = new ArrayList<>();
    java.util.regex.Pattern label = java.util.regex.Pattern.compile("\\{\\{\\s*(\\w+)\\s*}}");
    for (JsonNode panel : dashboard.path("panels")) {
      java.util.Map<String, String> drawn = new java.util.HashMap<>();
      for (JsonNode target : panel.path("targets")) {
        String query = filled(target.path("expr").asText());
        JsonNode answer =
            get(
                api
                    + "/query_range?query="
                    + encode(query)
                    + "&start="
                    + fromS
                    + "&end="
                    + toS
                    + "&step=1");
        String where = panel.path("title").asText() + " " + target.path("refId").asText();
        for (JsonNode series : answer.path("data").path("result")) {
          String key = series.path("metric").toString() + series.path("values").toString();
          String before = drawn.putIfAbsent(key, where);
          if (before != null) {
            wrong.add(where + " draws " + series.path("metric") + " as " + before + " does");
          }
          java.util.regex.Matcher m = label.matcher(target.path("legendFormat").asText());
          while (m.find()) {
            if (series.path("metric").path(m.group(1)).asText().isEmpty()) {
              wrong.add(
                  where + " legend names " + m.group(1) + ", absent from " + series.path("metric"));
            }
          }
        }
      }
    }
    return wrong;
  }

  /** A query with Grafana's variables filled in as "All" and a 5 s rate window. */
  private static String filled(String expr) {
    return expr.replace("$__rate_interval", "5s")
        .replace("$request", ".*")
        .replace("$phase", ".*")
        .replace("$shard", ".*");
  }

  /** The dashboard's queries with Grafana's variables filled in as "All" and a 5 s rate window. */
  private static List<String> dashboardQueries() throws IOException {
    JsonNode dashboard = JSON.readTree(Path.of("deploy/grafana/gatling-llm.json").toFile());
    List<String> out = new ArrayList<>();
    for (JsonNode panel : dashboard.path("panels")) {
      for (JsonNode target : panel.path("targets")) {
        out.add(
            target
                .path("expr")
                .asText()
                .replace("$__rate_interval", "5s")
                .replace("$request", ".*")
                .replace("$phase", ".*")
                .replace("$shard", ".*"));
      }
    }
    return out;
  }

  private static void awaitReady(String url, Process prometheus, Path results)
      throws IOException, InterruptedException {
    long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(30);
    while (System.nanoTime() < deadline) {
      if (!prometheus.isAlive()) {
        fail("Prometheus exited: " + Files.readString(results.resolve("prometheus.log")));
      }
      try {
        HttpResponse<Void> r =
            HTTP.send(
                HttpRequest.newBuilder(URI.create(url)).build(),
                HttpResponse.BodyHandlers.discarding());
        if (r.statusCode() == 200) {
          return;
        }
      } catch (IOException e) {
        // not listening yet
      }
      Thread.sleep(200);
    }
    fail("Prometheus not ready in 30 s: " + Files.readString(results.resolve("prometheus.log")));
  }

  @Test
  void aPortInUseIsRefusedBeforeAnyLoadWithOneLine() throws Exception {
    try (ServerSocket taken = new ServerSocket(0, 50, InetAddress.getByName("0.0.0.0"))) {
      int port = taken.getLocalPort();
      DslRun run =
          DslRun.run(SessionPromptSimulation.class, results, "-Dllm.prometheusPort=" + port);
      run.stopsWithOneLine(
          "llm.prometheusPort: got "
              + port
              + ", expected a free TCP port in [1, 65535]: it cannot be bound on 127.0.0.1"
              + " (Address already in use)");
      assertFalse(DslRun.anyRunRecord(results), run.log);
    }
  }

  @Test
  void aPortOutOfRangeIsRefusedBeforeAnyLoadWithOneLine() throws Exception {
    DslRun run = DslRun.run(SessionPromptSimulation.class, results, "-Dllm.prometheusPort=70000");
    run.stopsWithOneLine(
        "llm.prometheusPort: got 70000, expected a TCP port in [1, 65535] that is free, e.g. 9464,"
            + " or unset");
    assertFalse(DslRun.anyRunRecord(results), run.log);
  }
}
