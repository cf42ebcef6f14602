package io.github.gatlingllm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Preflight}'s verdicts, and {@link ServerProbe#preflight} over loopback. */
class PreflightTest {

  private static final String URL = "http://127.0.0.1:8000/v1/chat/completions";
  private static final String TAIL =
      " The run stops before any load (-Dllm.preflight=false skips this check)";

  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  private static Preflight answer(Integer status, String message) {
    return new Preflight("POST", URL, "qwen", status, message, status != null);
  }

  @Test
  void okGoesOn() {
    assertNull(answer(200, null).stopLine());
    assertNull(answer(200, null).warningLine());
  }

  @Test
  void aWebPageAnsweredWithOkStops() {
    // A web UI answering index.html for any path: the run went on and every request failed.
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 200 with a web page, not JSON: <html><body><h1>Welcome to"
            + " nginx!</h1></body></html>; is llm.baseUrl the LLM server's OpenAI-compatible /v1"
            + " (not a web UI or a proxy's page)?"
            + TAIL,
        answer(200, Preflight.messageOf("<html><body><h1>Welcome to nginx!</h1></body></html>"))
            .stopLine());
  }

  @Test
  void aJsonCompletionWithOkGoesOn() {
    assertNull(
        answer(200, Preflight.messageOf("{\"choices\":[{\"message\":{\"content\":\"<b>\"}}]}"))
            .stopLine());
  }

  @Test
  void refusedStops() {
    Preflight p = new Preflight("POST", URL, "qwen", null, "connection refused", false);

    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " got no answer (connection refused); is the server up and llm.baseUrl right?"
            + TAIL,
        p.stopLine());
  }

  @Test
  void notFoundStopsAndAsksForTheUrl() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 404: Not Found; is llm.baseUrl right (most servers serve /v1/...)?"
            + TAIL,
        answer(404, "Not Found").stopLine());
  }

  @Test
  void notFoundModelStopsAndAsksForTheModel() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 404: The model `qwen` does not exist.; is llm.model one the server"
            + " serves?"
            + TAIL,
        answer(404, "The model `qwen` does not exist.").stopLine());
  }

  @Test
  void notFoundModelNamesTheModelsTheServerServes() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 404: The model `qwen` does not exist.; llm.model qwen is not one the"
            + " server serves: it serves qwen3-vocab-random, llama-3 (GET /v1/models)"
            + TAIL,
        answer(404, "The model `qwen` does not exist.")
            .stopLine(java.util.List.of("qwen3-vocab-random", "llama-3")));
  }

  @Test
  void notFoundPathNamesNoModels() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 404: Not Found; is llm.baseUrl right (most servers serve /v1/...)?"
            + TAIL,
        answer(404, "Not Found").stopLine(java.util.List.of("qwen3-vocab-random")));
  }

  @Test
  void unauthorizedStops() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 401: Invalid API Key; the server wants credentials: set llm.apiKey"
            + " (or OPENAI_API_KEY)"
            + TAIL,
        answer(401, "Invalid API Key").stopLine());
  }

  @Test
  void forbiddenStops() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 403; the server wants credentials: set llm.apiKey (or"
            + " OPENAI_API_KEY)"
            + TAIL,
        answer(403, null).stopLine());
  }

  @Test
  void badRequestAboutTheModelStops() {
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 400: model 'qwen' not found; is llm.model one the server serves?"
            + TAIL,
        answer(400, "model 'qwen' not found").stopLine());
  }

  @Test
  void badRequestAboutAFieldGoesOnWithAWarning() {
    Preflight p =
        answer(400, "Unsupported parameter: 'max_tokens' is not supported with this model");

    assertNull(p.stopLine());
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " answered HTTP 400: Unsupported parameter: 'max_tokens' is not supported with this"
            + " model; the run goes on",
        p.warningLine());
  }

  @Test
  void aBusyServerGoesOn() {
    assertNull(answer(503, "overloaded").stopLine());
    assertNull(answer(429, "model qwen is rate limited").stopLine());
  }

  @Test
  void noAnswerAfterConnectingGoesOn() {
    Preflight p = new Preflight("POST", URL, "qwen", null, "no answer in time", true);

    assertNull(p.stopLine());
    assertEquals(
        "llm pre-flight: POST "
            + URL
            + " got no answer after connecting (no answer in time); the"
            + " run goes on",
        p.warningLine());
  }

  @Test
  void messageOfOpenAiError() {
    assertEquals(
        "Incorrect API key provided",
        Preflight.messageOf(
            "{\"error\":{\"message\":\"Incorrect API key provided\",\"type\":\"invalid_request_error\"}}"));
  }

  @Test
  void messageOfVllmError() {
    assertEquals(
        "The model `x` does not exist.",
        Preflight.messageOf(
            "{\"object\":\"error\",\"message\":\"The model `x` does not exist.\",\"code\":404}"));
  }

  @Test
  void messageOfFastApiDetail() {
    assertEquals("Not Found", Preflight.messageOf("{\"detail\":\"Not Found\"}"));
  }

  @Test
  void messageOfPlainTextOnOneLine() {
    assertEquals("404 page not found", Preflight.messageOf("404 page\nnot found\n"));
  }

  @Test
  void messageOfBlankBody() {
    assertNull(Preflight.messageOf(""));
  }

  @Test
  void aClosedPortIsRefused() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    String url = "http://127.0.0.1:" + port + "/v1/chat/completions";

    Preflight p =
        ServerProbe.preflight(
            url, url, "m", new byte[] {'{', '}'}, Map.of(), Duration.ofSeconds(2), null);

    assertEquals(null, p.status());
    assertEquals(false, p.connected());
    assertEquals("connection refused", p.message());
  }

  @Test
  void aServerAnswerIsReadWithTheBodyAndHeaders() throws IOException {
    AtomicReference<String> authorization = new AtomicReference<>();
    AtomicReference<String> body = new AtomicReference<>();
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/v1/chat/completions",
        exchange -> {
          authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
          body.set(new String(exchange.getRequestBody().readAllBytes(), StandardCharsets.UTF_8));
          byte[] answer =
              "{\"error\":{\"message\":\"Invalid API Key\"}}".getBytes(StandardCharsets.UTF_8);
          exchange.sendResponseHeaders(401, answer.length);
          try (OutputStream out = exchange.getResponseBody()) {
            out.write(answer);
          }
        });
    server.start();
    String url = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1/chat/completions";

    Preflight p =
        ServerProbe.preflight(
            url,
            url,
            "m",
            "{\"model\":\"m\"}".getBytes(StandardCharsets.UTF_8),
            Map.of("Authorization", "Bearer sk-1"),
            Duration.ofSeconds(2),
            null);

    assertEquals(new Preflight("POST", url, "m", 401, "Invalid API Key", true), p);
    assertEquals("Bearer sk-1", authorization.get());
    assertEquals("{\"model\":\"m\"}", body.get());
  }

  @Test
  void aServersControlCharactersNeverReachTheConsole() {
    Preflight p = new Preflight("POST", "http://h/v1", "m", 401, "bad\u001b[2Jkey\u0000", true);

    assertEquals(
        "llm pre-flight: POST http://h/v1 answered HTTP 401: bad?[2Jkey?; the server wants"
            + " credentials: set llm.apiKey (or OPENAI_API_KEY) The run stops before any load"
            + " (-Dllm.preflight=false skips this check)",
        p.stopLine());
  }

  @Test
  void aShortModelNameInsideAnotherWordIsNotAboutTheModel() {
    assertEquals(null, new Preflight("POST", URL, "a", 400, "bad request", true).stopLine());
  }

  @Test
  void theModelNamedAsAWordIsAboutTheModel() {
    assertEquals(
        true,
        new Preflight("POST", URL, "a", 400, "model 'a' is not loaded", true).stopLine() != null);
  }

  @Test
  void serverHistoryRefusedStops() {
    // llama.cpp b11669's answer to previous_response_id (issue 40, item 7): before, the run went
    // on to its first later turn and crashed there.
    assertEquals(
        "llm.responses.history=server: the server refused previous_response_id in the pre-flight"
            + " (POST http://127.0.0.1:8000/v1/chat/completions answered HTTP 400:"
            + " llama.cpp does not support 'previous_response_id'.), so it keeps no conversation"
            + " history for later turns: set llm.responses.history=client (the default) to send"
            + " each turn's whole history. The run stops before any load (-Dllm.preflight=false"
            + " skips this check)",
        answer(400, "llama.cpp does not support 'previous_response_id'.").historyStopLine());
  }

  @Test
  void serverHistoryTakenGoesOn() {
    assertNull(answer(200, null).historyStopLine());
  }

  @Test
  void serverHistoryBusyGoesOn() {
    assertNull(answer(429, "slow down").historyStopLine());
  }

  @Test
  void serverHistoryTimeoutGoesOn() {
    assertNull(answer(408, null).historyStopLine());
  }

  @Test
  void serverHistoryServerErrorGoesOn() {
    assertNull(answer(503, "loading").historyStopLine());
  }

  @Test
  void serverHistoryNoAnswerGoesOn() {
    assertNull(answer(null, "timed out").historyStopLine());
  }
}
