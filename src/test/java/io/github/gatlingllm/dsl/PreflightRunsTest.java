package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.sun.net.httpserver.HttpServer;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target that is not there stops the run before any load with one line naming the URL, the status
 * and the server's message; and a run too short to judge the client gives no CPU or lag warning.
 */
@Tag("forked")
class PreflightRunsTest {

  @TempDir Path results;

  private static int closedPort() throws Exception {
    try (ServerSocket socket = new ServerSocket(0)) {
      return socket.getLocalPort();
    }
  }

  @Test
  void aClosedPortStopsTheRunBeforeAnyLoad() throws Exception {
    int port = closedPort();
    DslRun run =
        DslRun.run(
            SessionPromptSimulation.class,
            results,
            "-Dllm.baseUrl=http://127.0.0.1:" + port + "/v1",
            "-Dllm.model=x");

    String line =
        "llm pre-flight: POST http://127.0.0.1:"
            + port
            + "/v1/chat/completions got no answer (connection refused); is the server up and"
            + " llm.baseUrl right? The run stops before any load (-Dllm.preflight=false skips"
            + " this check)";
    // on the console as a line of its own, with no stack trace (issue 30, point 3)
    run.stopsWithOneLine(line);
    assertFalse(DslRun.anyRunRecord(results), run.log);
  }

  @Test
  void aWrongPathStopsTheRunAfterOneRequest() throws Exception {
    List<String> posts = new CopyOnWriteArrayList<>();
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          if (exchange.getRequestMethod().equals("POST")) {
            posts.add(exchange.getRequestURI().getPath());
          }
          byte[] body = "{\"detail\":\"Not Found\"}".getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(404, body.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(body);
          }
        });
    server.start();
    try {
      int port = server.getAddress().getPort();
      DslRun run =
          DslRun.run(
              SessionPromptSimulation.class,
              results,
              "-Dllm.baseUrl=http://127.0.0.1:" + port + "/api",
              "-Dllm.model=x");

      assertEquals(1, run.exitCode, run.log);
      assertEquals(
          1,
          run.count(
              "\nllm pre-flight: POST http://127.0.0.1:"
                  + port
                  + "/api/chat/completions answered HTTP 404: Not Found; is llm.baseUrl right"
                  + " (most servers serve /v1/...)? The run stops before any load"),
          run.log);
      assertEquals(List.of("/api/chat/completions"), posts);
      assertFalse(DslRun.anyRunRecord(results), run.log);
    } finally {
      server.stop(0);
    }
  }

  @Test
  void aRunOfATenthOfASecondGivesNoClientWarning() throws Exception {
    // The requests fail at once (nothing listens): the run lasts a fraction of a second.
    DslRun run =
        DslRun.run(
            SessionPromptSimulation.class,
            results,
            "-Dllm.baseUrl=http://127.0.0.1:" + closedPort() + "/v1",
            "-Dllm.model=x",
            "-Dllm.preflight=false");

    assertEquals(0, run.exitCode, run.log);
    assertEquals(6, run.requests().size());
    JsonNode client = run.record().get("client");
    assertEquals("[]", client.get("warnings").toString(), client.toString());
    assertEquals(0, run.count("gatling-llm WARNING"), run.log);
    assertTrue(run.log.contains("LLM summary"), run.log);
  }

  @Test
  void aFiveSecondOpenLoopFromAColdJvmGivesNoLagWarning() throws Exception {
    DslRun run = DslRun.run(ShortOpenSimulation.class, results).exits(0);

    JsonNode client = run.record().get("client");
    assertEquals(30, client.get("schedule_lag_ms").get("count").asLong(), client.toString());
    assertEquals("[]", client.get("warnings").toString(), client.toString());
    assertEquals(0, run.count("gatling-llm WARNING"), run.log);
  }
}
