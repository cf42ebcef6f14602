package io.github.gatlingllm.gatling;

import static io.github.gatlingllm.gatling.FaultCorpus.FINISH;
import static io.github.gatlingllm.gatling.FaultCorpus.ROLE;
import static io.github.gatlingllm.gatling.FaultCorpus.content;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reset, a close or a half-close after the response head ends the request at once as a stream
 * error naming what happened, on a POOLED connection as on a fresh one; the request is not sent
 * again and no connection is opened for nothing. One virtual user sends its requests to a {@link
 * ReplayServer} in threes for each way of breaking: a full answer (the connection goes back to the
 * pool), the break on that pooled connection (its second request), the same break on the fresh
 * connection that the next request opens. The breaks: a chunked event-stream head then a TCP reset
 * (100 ms later, or at once), a clean close (FIN) or a half-close (the server shuts its side and
 * keeps reading), with and without a first token before; a head with a {@code Content-Length} then
 * a reset or a close. {@code llm.timeout} is 20 s: each break must be noticed when it arrives.
 *
 * <p>Before the fix, Gatling 3.16.0's client sent a request whose pooled connection closed after
 * the head again on a new connection (closed at once by our listener, so the server saw a
 * connection that carried no request, and the retry dropped an idle pooled connection, open, on the
 * way).
 */
@Tag("forked")
class PooledResetTest {

  private static final long TIMEOUT_MS = 20_000;

  /**
   * Gatling's Netty transport (epoll) reports a TCP reset after the head as the channel going
   * inactive, without an exception: it reads as a close. (A transport that raises the reset, as
   * Java's NIO does, gives {@code connection reset by the server (TCP RST) before [DONE] ...}.)
   */
  private static final String RESET = "connection closed by the server before [DONE] (";

  private static final String CLOSED = "connection closed by the server before [DONE] (";

  /** One way of breaking a response, the error it must give and the tokens before the break. */
  private record Break(String name, ReplayServer.Reply reply, String error, int tokens) {}

  @TempDir Path results;

  @Test
  void aBreakAfterTheHeadIsAStreamErrorAtOnceOnPooledAndFreshConnections() throws Exception {
    List<Break> breaks =
        List.of(
            new Break("head, reset", w -> w.sseHead().pause().reset(), RESET, 0),
            new Break("head, reset at once", w -> w.sseHead().reset(), RESET, 0),
            new Break(
                "head, token, reset",
                w -> w.sseHead().events(ROLE, content("a")).pause().reset(),
                RESET,
                1),
            new Break("head, close", w -> w.sseHead().pause().close(), CLOSED, 0),
            new Break(
                "head, token, close",
                w -> w.sseHead().events(ROLE, content("a")).pause().close(),
                CLOSED,
                1),
            new Break("head, half-close", w -> w.sseHead().pause().halfClose(30_000), CLOSED, 0),
            new Break(
                "length head, reset", w -> w.sseHeadWithLength(1000).pause().reset(), RESET, 0),
            new Break(
                "length head, token, close",
                w ->
                    w.sseHeadWithLength(1000).rawEvent(ROLE).rawEvent(content("a")).pause().close(),
                CLOSED,
                1));
    ReplayServer.Reply full =
        wire -> wire.sseHead().events(ROLE, content("a"), FINISH, "[DONE]").end();
    List<ReplayServer.Reply> replies = new ArrayList<>();
    for (Break b : breaks) {
      replies.add(full);
      replies.add(b.reply());
      replies.add(b.reply());
    }
    replies.add(full);
    int n = replies.size();
    AtomicInteger posts = new AtomicInteger();
    try (ReplayServer server =
        new ReplayServer(p -> replies.get(Math.min(posts.getAndIncrement(), n - 1)))) {
      Path run =
          GatlingJvm.run(
              OracleSimulation.class,
              results,
              List.of(
                  "-Dllm.baseUrl=http://127.0.0.1:" + server.port() + "/v1",
                  "-Dllm.model=m",
                  "-Dllm.requests=" + n,
                  "-Dllm.warmupRequests=0",
                  "-Dllm.concurrency=1",
                  "-Dllm.timeout=" + TIMEOUT_MS + "ms",
                  // The replies are handed out in arrival order: no pre-flight request first.
                  "-Dllm.preflight=false"),
              0,
              300);
      List<JsonNode> requests =
          GatlingJvm.requests(run).stream()
              .sorted(Comparator.comparingLong(r -> r.get("start_ms").asLong()))
              .toList();
      assertEquals(n, requests.size(), requests.toString());
      for (int i = 0; i < breaks.size(); i++) {
        Break b = breaks.get(i);
        assertEquals("ok", requests.get(3 * i).get("status").asText(), b.name());
        for (String connection : List.of("pooled", "fresh")) {
          JsonNode broken = requests.get(3 * i + (connection.equals("pooled") ? 1 : 2));
          String what = b.name() + " on a " + connection + " connection: " + broken;
          assertEquals("stream_error", broken.get("status").asText(), what);
          assertEquals(200, broken.get("http_status").asInt(), what);
          String received = b.tokens() + (b.tokens() == 1 ? " token" : " tokens") + " received)";
          assertEquals(b.error() + received, broken.get("error").asText(), what);
          // Noticed when the break came, not at llm.timeout (20 s).
          double e2e = broken.get("e2e_ms").asDouble();
          assertTrue(e2e < TIMEOUT_MS / 4.0, "E2E " + e2e + " ms: " + what);
        }
      }
      assertEquals("ok", requests.get(n - 1).get("status").asText());
      // Each request reached the server once: nothing was sent again after a break.
      assertEquals(n, server.posts(), "POSTs");
      // The first connection, then one after each break.
      assertEquals(1 + 2 * breaks.size(), server.postConnections(), "connections with a POST");
      // No connection opened and dropped before a request (a retry closed before it was sent).
      assertEquals(0, server.idleConnections(), "connections that carried no request");
    }
  }
}
