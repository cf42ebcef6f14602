package io.github.gatlingllm.conversation;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpServer;
import io.github.gatlingllm.testing.GatlingJvm;
import java.io.IOException;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 32, point 3: every turn of a conversation carries one header whose value is the
 * conversation's session id ({@code X-Session-Affinity} by default, {@code -Dllm.sessionHeader} to
 * rename it, empty for none). A stub server records the headers of the chat requests it answers
 * (non-streamed, a fixed reply).
 */
@Tag("forked")
@Tag("parallel")
class SessionHeaderTest {

  private static final String REPLY =
      "{\"id\":\"x\",\"object\":\"chat.completion\",\"created\":1,\"model\":\"m\",\"choices\":"
          + "[{\"index\":0,\"message\":{\"role\":\"assistant\",\"content\":\"ok fine\"},"
          + "\"finish_reason\":\"stop\"}],\"usage\":{\"prompt_tokens\":10,\"completion_tokens\":2,"
          + "\"total_tokens\":12}}";

  @TempDir Path results;

  /** The chat requests' values of {@code header} ("" when absent), in arrival order. */
  private List<String> run(String name, String header, List<String> properties) throws Exception {
    List<String> values = Collections.synchronizedList(new ArrayList<>());
    HttpServer server = HttpServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
    server.createContext(
        "/",
        exchange -> {
          String path = exchange.getRequestURI().getPath();
          if (path.endsWith("/chat/completions")) {
            exchange.getRequestBody().readAllBytes();
            String v = exchange.getRequestHeaders().getFirst(header);
            values.add(v == null ? "" : v);
            answer(exchange, 200, REPLY);
          } else if (path.endsWith("/models")) {
            answer(
                exchange,
                200,
                "{\"object\":\"list\",\"data\":[{\"id\":\"m\",\"object\":\"model\"}]}");
          } else {
            answer(exchange, 404, "{\"error\":{\"message\":\"no\"}}");
          }
        });
    server.start();
    try {
      Path folder = Files.createDirectories(results.resolve(name));
      Path log = folder.resolve("gatling.log");
      List<String> all = new ArrayList<>(properties);
      all.add("-Dllm.baseUrl=http://127.0.0.1:" + server.getAddress().getPort() + "/v1");
      all.add("-Dllm.stream=false");
      all.add("-Dconvtest.conversations=3");
      Process process = GatlingJvm.start(ConversationTurnsSimulation.class, folder, all, log);
      assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish within 300 s");
      assertTrue(
          GatlingJvm.runFolders(ConversationTurnsSimulation.class, folder).size() == 1,
          GatlingJvm.read(log));
      return new ArrayList<>(values);
    } finally {
      server.stop(0);
    }
  }

  private static void answer(HttpExchange exchange, int status, String body) throws IOException {
    byte[] bytes = body.getBytes(StandardCharsets.UTF_8);
    exchange.getResponseHeaders().set("Content-Type", "application/json");
    exchange.sendResponseHeaders(status, bytes.length);
    exchange.getResponseBody().write(bytes);
    exchange.close();
  }

  private static Map<String, Integer> turnsBySession(List<String> values) {
    Map<String, Integer> by = new TreeMap<>();
    for (String v : values) {
      if (!v.isEmpty()) {
        by.merge(v, 1, Integer::sum);
      }
    }
    return by;
  }

  @Test
  void everyTurnOfAConversationCarriesItsSessionId() throws Exception {
    List<String> values = run("default", "X-Session-Affinity", List.of());
    Map<String, Integer> sessions = turnsBySession(values);
    // 2 warmup and 3 measured conversations of 3 to 4 turns, each its own id
    assertEquals(5, sessions.size(), values.toString());
    for (Map.Entry<String, Integer> e : sessions.entrySet()) {
      assertTrue(e.getKey().matches(".+-(warmup|measured)-[0-9]+"), e.getKey());
      assertTrue(e.getValue() >= 3 && e.getValue() <= 4, sessions.toString());
    }
    // every request but the pre-flight probe is a turn
    assertTrue(
        values.size() - sessions.values().stream().mapToInt(i -> i).sum() <= 1, values.toString());
  }

  @Test
  void aRenamedHeader() throws Exception {
    List<String> values = run("renamed", "X-Agent", List.of("-Dllm.sessionHeader=X-Agent"));
    assertEquals(5, turnsBySession(values).size(), values.toString());
  }

  @Test
  void anEmptyNameSendsNone() throws Exception {
    List<String> values = run("none", "X-Session-Affinity", List.of("-Dllm.sessionHeader="));
    assertEquals(Map.of(), turnsBySession(values));
    assertTrue(values.size() >= 15, values.toString());
  }
}
