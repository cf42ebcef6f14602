package io.github.gatlingllm.gatling;

import static io.github.gatlingllm.gatling.FaultCorpus.FINISH;
import static io.github.gatlingllm.gatling.FaultCorpus.ROLE;
import static io.github.gatlingllm.gatling.FaultCorpus.content;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Path;
import java.util.Comparator;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A reset or a close after the response head on a POOLED connection ends the request at once as a
 * stream error, as on a fresh one, and the request is not sent again: one virtual user sends nine
 * requests to a {@link ReplayServer}; every odd one (1st, 3rd, ...) is answered in full, so the
 * connection goes back to the pool and carries the next, which breaks: its head then a TCP reset
 * 100 ms later (2nd), its head then a clean close (4th), its head and one token then a reset (6th),
 * its head and a reset at once (8th). {@code llm.timeout} is 20 s: each break must be noticed when
 * it arrives, not when the timeout fires.
 */
@Tag("forked")
class PooledResetTest {

  private static final long TIMEOUT_MS = 20_000;

  @TempDir Path results;

  @Test
  void aBreakAfterTheHeadOnAPooledConnectionIsAStreamErrorAtOnce() throws Exception {
    AtomicInteger posts = new AtomicInteger();
    ReplayServer.Reply full =
        wire -> wire.sseHead().events(ROLE, content("a"), FINISH, "[DONE]").end();
    List<ReplayServer.Reply> replies =
        List.of(
            full,
            wire -> wire.sseHead().pause().reset(),
            full,
            wire -> wire.sseHead().pause().close(),
            full,
            wire -> wire.sseHead().events(ROLE, content("a")).pause().reset(),
            full,
            wire -> wire.sseHead().reset(),
            full);
    try (ReplayServer server =
        new ReplayServer(p -> replies.get(Math.min(posts.getAndIncrement(), replies.size() - 1)))) {
      Path run =
          GatlingJvm.run(
              OracleSimulation.class,
              results,
              List.of(
                  "-Dllm.baseUrl=http://127.0.0.1:" + server.port() + "/v1",
                  "-Dllm.model=m",
                  "-Dllm.requests=9",
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
      assertEquals(9, requests.size(), requests.toString());
      for (int i = 0; i < 9; i += 2) {
        assertEquals("ok", requests.get(i).get("status").asText(), requests.toString());
      }
      for (int i = 1; i < 9; i += 2) {
        JsonNode broken = requests.get(i);
        assertEquals("stream_error", broken.get("status").asText(), broken.toString());
        assertEquals(200, broken.get("http_status").asInt(), broken.toString());
        assertTrue(
            broken
                .get("error")
                .asText()
                .startsWith("connection closed by the server before [DONE]"),
            broken.toString());
        // Noticed when the break came (100 ms after the head), not at llm.timeout (20 s).
        double e2e = broken.get("e2e_ms").asDouble();
        assertTrue(e2e < TIMEOUT_MS / 4.0, "E2E " + e2e + " ms: " + broken);
      }
      // Each request reached the server once: nothing was sent again after a break.
      assertEquals(9, server.posts(), "POSTs");
      assertEquals(5, server.postConnections(), "connections that carried a POST");
    }
  }
}
