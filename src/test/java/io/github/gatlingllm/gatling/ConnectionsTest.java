package io.github.gatlingllm.gatling;

import static io.github.gatlingllm.gatling.FaultCorpus.FINISH;
import static io.github.gatlingllm.gatling.FaultCorpus.ROLE;
import static io.github.gatlingllm.gatling.FaultCorpus.content;
import static io.github.gatlingllm.gatling.FaultCorpus.usage;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.gatling.ReplayServer.Reply;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * What the LLM requests do to a real keep-alive HTTP/1.1 server on 127.0.0.1 ({@link ReplayServer},
 * which counts the TCP connections that carried a POST and the POSTs of each prompt), through the
 * real Gatling engine in a JVM of its own ({@link OracleSimulation}):
 *
 * <ul>
 *   <li>N streamed requests from C virtual users in a closed loop use at most C connections, and
 *       each request is one POST;
 *   <li>with {@code llm.connections=per-request}, one connection per request;
 *   <li>a pooled connection that the server closes or resets mid-response is one POST (Gatling
 *       3.16's client would send the request again on a new connection) and a {@code stream_error}
 *       with what arrived; one that the server closes before any answer is sent once more on a new
 *       connection (a stale keep-alive connection), counted in {@code
 *       load.stale_connection_resends};
 *   <li>a 400, 429 or 500 answer on a kept-alive connection is one POST, and its body is in the
 *       record's error.
 * </ul>
 */
@Tag("forked")
class ConnectionsTest {

  private static final int REQUESTS = 64;
  private static final int USERS = 4;

  @TempDir Path results;

  @Test
  void requestsFromFourUsersShareAtMostFourKeptAliveConnections() throws Exception {
    try (ReplayServer server = new ReplayServer(prompt -> stream(8))) {
      Path run = runAgainst(server, REQUESTS, USERS, List.of());
      List<JsonNode> requests = GatlingJvm.requests(run);
      assertEquals(REQUESTS, requests.size());
      for (JsonNode r : requests) {
        assertEquals("ok", r.get("status").asText(), r.toString());
      }
      assertEquals(REQUESTS, server.posts());
      assertEquals(REQUESTS, server.served().size());
      assertTrue(
          server.served().values().stream().allMatch(n -> n == 1), server.served().toString());
      assertTrue(
          server.postConnections() <= USERS,
          server.postConnections() + " connections for " + REQUESTS + " requests");
      assertEquals("shared", GatlingJvm.runRecord(run).get("load").get("connections").asText());
    }
  }

  @Test
  void perRequestConnectionsOpenOneConnectionPerRequest() throws Exception {
    try (ReplayServer server = new ReplayServer(prompt -> stream(8))) {
      Path run = runAgainst(server, REQUESTS, USERS, List.of("-Dllm.connections=per-request"));
      List<JsonNode> requests = GatlingJvm.requests(run);
      assertEquals(REQUESTS, requests.size());
      for (JsonNode r : requests) {
        assertEquals("ok", r.get("status").asText(), r.toString());
      }
      assertEquals(REQUESTS, server.posts());
      assertEquals(REQUESTS, server.postConnections());
      assertEquals(
          "per-request", GatlingJvm.runRecord(run).get("load").get("connections").asText());
    }
  }

  /**
   * One virtual user, so every case after a clean answer comes on the connection that answer left
   * in the pool; each case is followed by a clean answer.
   */
  @Test
  void brokenAndErrorAnswersOnPooledConnectionsAreSentOnce() throws Exception {
    Map<String, Reply> cases = new LinkedHashMap<>();
    cases.put("first", stream(2));
    cases.put("http429", json(429, "Too Many Requests", "rate limit reached"));
    cases.put("afterHttp429", stream(2));
    cases.put("http500", json(500, "Internal Server Error", "engine crashed"));
    cases.put("afterHttp500", stream(2));
    cases.put("http400", json(400, "Bad Request", "max_tokens is too large"));
    cases.put("afterHttp400", stream(2));
    cases.put(
        "closedMidResponse", wire -> wire.sseHead().events(ROLE, content("a")).pause().close());
    cases.put("afterClose", stream(2));
    cases.put("pooledAgain", stream(2));
    cases.put(
        "resetMidResponse",
        wire -> wire.sseHead().events(ROLE, content("a"), content(" b")).pause().reset());
    cases.put("afterReset", stream(2));
    cases.put("pooledOnceMore", stream(2));
    cases.put("closedBeforeTheHead", ReplayServer.Wire::close);
    cases.put("afterCloseBeforeTheHead", stream(2));
    List<String> names = new ArrayList<>(cases.keySet());
    List<String> nonces = nonces(names.size());
    Map<String, Reply> byNonce = new HashMap<>();
    for (int i = 0; i < names.size(); i++) {
      byNonce.put(nonces.get(i), cases.get(names.get(i)));
    }

    try (ReplayServer server = new ReplayServer(p -> byNonce.get(nonce(p)))) {
      Path run = runAgainst(server, names.size(), 1, List.of());
      Map<String, JsonNode> byCase = new HashMap<>();
      for (JsonNode r : GatlingJvm.requests(run)) {
        byCase.put(names.get(r.get("index").asInt()), r);
      }
      assertEquals(names.size(), byCase.size(), byCase.toString());

      Map<String, Integer> expectedPosts = new LinkedHashMap<>();
      Map<String, Integer> posts = new LinkedHashMap<>();
      Map<String, Integer> positions = new LinkedHashMap<>();
      Map<String, Integer> servedByNonce = new HashMap<>();
      server.served().forEach((prompt, n) -> servedByNonce.put(nonce(prompt), n));
      Map<String, Integer> positionByNonce = new HashMap<>();
      server.positions().forEach((prompt, n) -> positionByNonce.put(nonce(prompt), n));
      for (int i = 0; i < names.size(); i++) {
        // A pooled connection closed before any answer: Gatling's client sends the request once
        // more on a new connection (a stale keep-alive connection, as llama.cpp leaves after each
        // streamed answer), counted in the run record; here the server closes that one too.
        expectedPosts.put(names.get(i), names.get(i).equals("closedBeforeTheHead") ? 2 : 1);
        posts.put(names.get(i), servedByNonce.get(nonces.get(i)));
        positions.put(names.get(i), positionByNonce.get(nonces.get(i)));
      }
      assertEquals(names.size() + 1, server.posts());
      assertEquals(expectedPosts, posts);
      assertEquals(
          1,
          GatlingJvm.runRecord(run).get("load").get("stale_connection_resends").asInt(),
          "stale_connection_resends");
      // The faults came on connections kept alive from an earlier answer.
      for (String name :
          List.of("http429", "http500", "http400", "closedMidResponse", "resetMidResponse")) {
        assertTrue(positions.get(name) > 1, name + " on a new connection: " + positions);
      }

      assertFailed(
          byCase.get("http429"), "rejected", 429, "HTTP 429: test_error (429): rate limit reached");
      assertFailed(
          byCase.get("http500"), "http_error", 500, "HTTP 500: test_error (500): engine crashed");
      assertFailed(
          byCase.get("http400"),
          "http_error",
          400,
          "HTTP 400: test_error (400): max_tokens is too large");
      assertFailed(
          byCase.get("closedMidResponse"),
          "stream_error",
          200,
          "connection closed by the server before [DONE] (1 token received)");
      assertFailed(
          byCase.get("resetMidResponse"),
          "stream_error",
          200,
          "connection closed by the server before [DONE] (2 tokens received)");
      JsonNode beforeHead = byCase.get("closedBeforeTheHead");
      assertEquals("connect_error", beforeHead.get("status").asText(), beforeHead.toString());
      assertTrue(beforeHead.get("http_status").isNull(), beforeHead.toString());
      // Said in words, not as Gatling's PrematureCloseException (issue 30, point 6).
      assertEquals(
          "connection closed by the server before any answer",
          beforeHead.get("error").asText(),
          beforeHead.toString());
      for (String name : names) {
        if (name.startsWith("after") || name.startsWith("pooled") || name.equals("first")) {
          assertEquals("ok", byCase.get(name).get("status").asText(), name);
        }
      }
    }
  }

  private static void assertFailed(JsonNode r, String status, int httpStatus, String error) {
    assertEquals(status, r.get("status").asText(), r.toString());
    assertEquals(httpStatus, r.get("http_status").asInt(), r.toString());
    assertEquals(error, r.get("error").asText(), r.toString());
  }

  private Path runAgainst(ReplayServer server, int requests, int users, List<String> more)
      throws Exception {
    List<String> properties =
        new ArrayList<>(
            List.of(
                "-Dllm.baseUrl=http://127.0.0.1:" + server.port() + "/v1",
                "-Dllm.model=m",
                "-Dllm.requests=" + requests,
                "-Dllm.warmupRequests=0",
                "-Dllm.concurrency=" + users,
                "-Dllm.timeout=" + FaultCorpus.TIMEOUT_MS + "ms",
                // the server counts connections and posts: no request before the load
                "-Dllm.preflight=false"));
    properties.addAll(more);
    return GatlingJvm.run(OracleSimulation.class, results, properties, 0, 180);
  }

  /** A clean streamed answer of {@code tokens} content events, 2 ms apart, kept alive. */
  private static Reply stream(int tokens) {
    return wire -> {
      wire.sseHead().events(ROLE);
      for (int i = 0; i < tokens; i++) {
        Thread.sleep(2);
        wire.events(content("t" + i));
      }
      wire.events(FINISH, usage(128, tokens), "[DONE]").end();
    };
  }

  private static Reply json(int status, String reason, String message) {
    return wire ->
        wire.full(
            status,
            reason,
            "application/json",
            "{\"error\":{\"message\":\""
                + message
                + "\",\"type\":\"test_error\",\"code\":"
                + status
                + "}}");
  }

  /** The nonces of OracleSimulation's first measured prompts. */
  private static List<String> nonces(int n) {
    PromptSource prompts =
        new PromptSource(
            PromptSpec.unique(),
            EstimatedTokenCounter.INSTANCE,
            0,
            OracleSimulation.CASE_ID,
            "measured",
            128);
    List<String> nonces = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      nonces.add(nonce(prompts.take(i).text()));
    }
    return nonces;
  }

  private static String nonce(String prompt) {
    return prompt.substring(0, prompt.indexOf(']') + 1);
  }
}
