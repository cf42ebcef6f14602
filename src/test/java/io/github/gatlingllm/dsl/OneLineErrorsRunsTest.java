package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import io.github.gatlingllm.trace.TraceRunSimulation;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Each bad input of issue 30's point 3, run as {@code ./mvnw gatling:test} runs it (Gatling's
 * launcher in a JVM of its own): the run ends with its one line, alone, exit code 1, and no stack
 * trace; {@code -Dllm.debug=true} brings Gatling's traces back. Gatling's check for a newer release
 * prints nothing (point 6).
 */
@Tag("forked")
@Tag("parallel")
class OneLineErrorsRunsTest {

  @TempDir Path results;

  @Test
  void anUnknownSettingIsOneLine() throws Exception {
    DslRun run = DslRun.run(SessionPromptSimulation.class, results, "-Dllm.maxToken=10");

    run.stopsWithOneLine(
        "llm.maxToken: unknown setting; did you mean llm.outputTokens? (every setting:"
            + " docs/settings.md)");
    assertEquals(0, run.count("is available!"), run.log);
  }

  @Test
  void aMissingTokenizerIsOneLine() throws Exception {
    DslRun run = DslRun.run(SessionPromptSimulation.class, results, "-Dllm.tokenizer=/no/such");

    run.stopsWithOneLine(
        "llm.tokenizer: got \"/no/such\", expected estimate, or the path of an existing"
            + " tokenizer.json or of a folder holding one");
  }

  @Test
  void debugBringsTheStackTracesBack() throws Exception {
    DslRun run =
        DslRun.run(
            SessionPromptSimulation.class, results, "-Dllm.tokenizer=/no/such", "-Dllm.debug=true");

    assertEquals(1, run.exitCode, run.log);
    assertTrue(run.count("Failed to create the Simulation instance") >= 1, run.log);
    assertTrue(run.count("\tat io.github.gatlingllm.") >= 1, run.log);
  }

  @Test
  void aBadTraceRowIsOneLine() throws Exception {
    Path trace = results.resolve("trace.jsonl");
    Files.writeString(
        trace,
        "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 4, \"hash_ids\": [1]}\n"
            + "{\"timestamp\": 100, \"input_length\": 10, \"hash_ids\": [2]}\n");

    DslRun run = DslRun.run(TraceRunSimulation.class, results, "-Dllm.trace=" + trace);

    run.stopsWithOneLine(
        "llm.trace: "
            + trace
            + " line 2: output_length: got none, expected tokens from 1 to 1048576");
    assertFalse(DslRun.anyRunRecord(results), run.log);
  }

  @Test
  void aModelTheServerDoesNotServeIsOneLineNamingTheServedModels() throws Exception {
    // As vLLM answers a model it does not serve; /v1/models lists the one it does.
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          boolean models = exchange.getRequestURI().getPath().equals("/v1/models");
          int status = models ? 200 : 404;
          String text =
              models
                  ? "{\"object\":\"list\",\"data\":[{\"id\":\"qwen3-vocab-random\","
                      + "\"object\":\"model\"}]}"
                  : "{\"object\":\"error\",\"message\":\"The model `foo` does not exist.\","
                      + "\"type\":\"NotFoundError\",\"code\":404}";
          byte[] body = text.getBytes(StandardCharsets.UTF_8);
          exchange.getResponseHeaders().add("Content-Type", "application/json");
          exchange.sendResponseHeaders(status, body.length);
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
              "-Dllm.baseUrl=http://127.0.0.1:" + port + "/v1",
              "-Dllm.model=foo");

      run.stopsWithOneLine(
          "llm pre-flight: POST http://127.0.0.1:"
              + port
              + "/v1/chat/completions answered HTTP 404: The model `foo` does not exist.; llm.model"
              + " foo is not one the server serves: it serves qwen3-vocab-random (GET /v1/models)"
              + " The run stops before any load (-Dllm.preflight=false skips this check)");
      assertFalse(DslRun.anyRunRecord(results), run.log);
    } finally {
      server.stop(0);
    }
  }
}
