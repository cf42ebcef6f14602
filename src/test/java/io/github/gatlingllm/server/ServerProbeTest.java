package io.github.gatlingllm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpServer;
import java.io.IOException;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.ServerSocket;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.Executors;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link ServerProbe} against loopback servers answering as llama.cpp and vLLM do. */
class ServerProbeTest {

  /** /v1/models of llama-server b11669 (scripts/llama-server.sh), trimmed. */
  private static final String LLAMA_MODELS =
      "{\"models\":[{\"name\":\"qwen3-vocab-random\",\"model\":\"qwen3-vocab-random\"}],"
          + "\"object\":\"list\",\"data\":[{\"id\":\"qwen3-vocab-random\",\"object\":\"model\","
          + "\"owned_by\":\"llamacpp\",\"meta\":{\"vocab_type\":2,\"n_vocab\":151669,"
          + "\"n_ctx\":8192,\"n_ctx_train\":8192,\"n_embd\":256,\"n_params\":42237440}}]}";

  private static final String LLAMA_PROPS =
      "{\"default_generation_settings\":{\"n_ctx\":8192},\"total_slots\":1,"
          + "\"model_alias\":\"qwen3-vocab-random\",\"build_info\":\"b11669-Debian\"}";

  private static final String VLLM_MODELS =
      "{\"object\":\"list\",\"data\":[{\"id\":\"Qwen/Qwen3-0.6B\",\"object\":\"model\","
          + "\"owned_by\":\"vllm\",\"root\":\"Qwen/Qwen3-0.6B\",\"max_model_len\":4096}]}";

  private HttpServer server;

  @AfterEach
  void stop() {
    if (server != null) {
      server.stop(0);
    }
  }

  @Test
  void llamaCppSaysItsBuildModelContextAndSlots() throws IOException {
    String base = serve(Map.of("/v1/models", LLAMA_MODELS, "/props", LLAMA_PROPS), null);

    ServerInfo info = ServerProbe.probe(base, null, Duration.ofSeconds(2));

    assertEquals(
        new ServerInfo(
            "llama.cpp",
            "b11669-Debian",
            List.of("qwen3-vocab-random"),
            8192,
            1,
            Map.of("/v1/models", 200, "/props", 200, "/version", 404)),
        info);
    assertEquals("qwen3-vocab-random", info.firstModel());
  }

  @Test
  void llamaCppsContextIsASlotsShareWhenItsModelsSayTheWhole() throws IOException {
    // -c 16384 -np 4: a build whose /v1/models says the whole context, /props a slot's 4096
    String models = LLAMA_MODELS.replace("\"n_ctx\":8192", "\"n_ctx\":16384");
    String props =
        "{\"default_generation_settings\":{\"n_ctx\":4096},\"total_slots\":4,"
            + "\"build_info\":\"b11669-Debian\"}";
    String base = serve(Map.of("/v1/models", models, "/props", props), null);

    ServerInfo info = ServerProbe.probe(base, null, Duration.ofSeconds(2));

    assertEquals(List.of(4096, 4), java.util.Arrays.asList(info.contextTokens(), info.slots()));
  }

  @Test
  void vllmSaysItsVersionAndMaxModelLen() throws IOException {
    String base =
        serve(Map.of("/v1/models", VLLM_MODELS, "/version", "{\"version\":\"0.11.0\"}"), null);

    ServerInfo info = ServerProbe.probe(base + "/", null, Duration.ofSeconds(2));

    assertEquals(
        new ServerInfo(
            "vLLM",
            "0.11.0",
            List.of("Qwen/Qwen3-0.6B"),
            4096,
            null,
            Map.of("/v1/models", 200, "/props", 404, "/version", 200)),
        info);
  }

  @Test
  void theApiKeyIsSentAsABearerToken() throws IOException {
    AtomicReference<String> authorization = new AtomicReference<>();
    String base = serve(Map.of("/v1/models", VLLM_MODELS), authorization);

    ServerProbe.probe(base, "sk-test", Duration.ofSeconds(2));

    assertEquals("Bearer sk-test", authorization.get());
  }

  @Test
  void aBodyThatIsNotJsonLeavesTheFieldsUnknown() throws IOException {
    String base = serve(Map.of("/v1/models", "<html>models</html>"), null);

    ServerInfo info = ServerProbe.probe(base, null, Duration.ofSeconds(2));

    assertNull(info.engine());
    assertEquals(List.of(), info.models());
    assertNull(info.firstModel());
    assertEquals(200, info.answers().get("/v1/models"));
  }

  @Test
  void aRefusedConnectionGivesAnEmptyAnswerAndNoException() throws IOException {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }

    ServerInfo info =
        ServerProbe.probe("http://127.0.0.1:" + port + "/v1", null, Duration.ofSeconds(1));

    assertEquals(
        new ServerInfo(
            null, null, List.of(), null, null, Map.of("/v1/models", 0, "/props", 0, "/version", 0)),
        info);
  }

  @Test
  void aServerSlowerThanTheTimeoutCountsAsNoAnswer() throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.setExecutor(Executors.newCachedThreadPool());
    server.createContext(
        "/v1/models",
        exchange -> {
          try {
            Thread.sleep(3_000);
            reply(exchange, 200, LLAMA_MODELS);
          } catch (InterruptedException | IOException e) {
            exchange.close();
          }
        });
    server.start();
    String base = "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";

    ServerInfo info = ServerProbe.probe(base, null, Duration.ofMillis(300));

    assertEquals(0, info.answers().get("/v1/models"));
    assertEquals(List.of(), info.models());
    // /props and /version answered 404: something is there.
    assertFalse(info.answeredNothing());
  }

  @Test
  void aClosedPortAnswersNothing() throws IOException {
    int port;
    try (java.net.ServerSocket socket =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = socket.getLocalPort();
    }

    ServerInfo info =
        ServerProbe.probe("http://127.0.0.1:" + port + "/v1", null, Duration.ofMillis(500));

    assertTrue(info.answeredNothing(), info.answers().toString());
    assertEquals(3, info.answers().size());
  }

  @Test
  void theRecordNamesEveryField() {
    ServerInfo info =
        new ServerInfo("llama.cpp", "b1", List.of("m"), 4096, 2, Map.of("/v1/models", 200));

    assertEquals(
        "{engine=llama.cpp, version=b1, models=[m], context_tokens=4096, slots=2,"
            + " answers={/v1/models=200}}",
        info.toRecord().toString());
  }

  private String serve(Map<String, String> bodies, AtomicReference<String> authorization)
      throws IOException {
    server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    for (Map.Entry<String, String> body : bodies.entrySet()) {
      server.createContext(
          body.getKey(),
          exchange -> {
            if (authorization != null) {
              authorization.set(exchange.getRequestHeaders().getFirst("Authorization"));
            }
            reply(exchange, 200, body.getValue());
          });
    }
    server.start();
    return "http://127.0.0.1:" + server.getAddress().getPort() + "/v1";
  }

  private static void reply(com.sun.net.httpserver.HttpExchange exchange, int status, String body)
      throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().add("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    try (OutputStream out = exchange.getResponseBody()) {
      out.write(bytes);
    }
  }
}
