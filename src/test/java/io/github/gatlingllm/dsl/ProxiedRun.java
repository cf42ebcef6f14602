package io.github.gatlingllm.dsl;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.sun.net.httpserver.HttpServer;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;

/**
 * A simulation run against a fast simulator behind a recording proxy, which keeps each LLM
 * request's body and session header and the reply's bytes, so a test sees what went on the wire.
 *
 * @param run the run
 * @param exchanges the LLM exchanges in the order they ended
 */
record ProxiedRun(DslRun run, List<ProxiedRun.Exchange> exchanges) {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** One LLM exchange as the proxy saw it. */
  record Exchange(String session, JsonNode request, String reply) {}

  /**
   * Runs a simulation with {@code -Dllm.baseUrl} on the proxy, seed 7 and the estimate tokenizer.
   *
   * @param simulation the simulation class
   * @param folder Gatling's results folder
   * @param properties more {@code -D} options
   */
  static ProxiedRun run(Class<?> simulation, Path folder, String... properties) throws Exception {
    List<Exchange> seen = Collections.synchronizedList(new ArrayList<>());
    HttpClient client = HttpClient.newHttpClient();
    try (Simulator simulator =
        Simulator.start(
            SimulatorConfig.defaults()
                .withBaseTtftMs(2)
                .withPrefillUsPerToken(20)
                .withDecodeMsPerToken(1),
            0)) {
      HttpServer proxy = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
      proxy.createContext(
          "/",
          exchange -> {
            byte[] body = exchange.getRequestBody().readAllBytes();
            HttpRequest.Builder forward =
                HttpRequest.newBuilder(
                    URI.create(
                        "http://127.0.0.1:"
                            + simulator.port()
                            + exchange.getRequestURI().toString()));
            String type = exchange.getRequestHeaders().getFirst("Content-Type");
            if (type != null) {
              forward.header("Content-Type", type);
            }
            forward.method(
                exchange.getRequestMethod(),
                body.length == 0
                    ? HttpRequest.BodyPublishers.noBody()
                    : HttpRequest.BodyPublishers.ofByteArray(body));
            try {
              HttpResponse<byte[]> answer =
                  client.send(forward.build(), HttpResponse.BodyHandlers.ofByteArray());
              String path = exchange.getRequestURI().getPath();
              if (path.endsWith("/chat/completions")
                  || path.endsWith("/responses")
                  || path.endsWith("/messages")) {
                String session = exchange.getRequestHeaders().getFirst("X-Session-Affinity");
                seen.add(
                    new Exchange(
                        session,
                        JSON.readTree(body),
                        new String(answer.body(), StandardCharsets.UTF_8)));
              }
              answer
                  .headers()
                  .firstValue("Content-Type")
                  .ifPresent(v -> exchange.getResponseHeaders().set("Content-Type", v));
              exchange.sendResponseHeaders(answer.statusCode(), answer.body().length);
              exchange.getResponseBody().write(answer.body());
            } catch (InterruptedException e) {
              Thread.currentThread().interrupt();
              exchange.sendResponseHeaders(502, -1);
            } finally {
              exchange.close();
            }
          });
      proxy.start();
      try {
        List<String> all = new ArrayList<>();
        all.add("-Dllm.baseUrl=http://127.0.0.1:" + proxy.getAddress().getPort() + "/v1");
        all.add("-Dllm.seed=7");
        all.add("-Dllm.tokenizer=estimate");
        all.addAll(List.of(properties));
        Files.createDirectories(folder);
        DslRun run = DslRun.run(simulation, folder, all.toArray(String[]::new));
        return new ProxiedRun(run, new ArrayList<>(seen));
      } finally {
        proxy.stop(0);
      }
    }
  }
}
