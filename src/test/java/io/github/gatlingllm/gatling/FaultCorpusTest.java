package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.gatling.ReplayServer.Reply;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.testing.GatlingJvm;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Every case of {@link FaultCorpus} through the real Gatling engine, in one run: {@link
 * OracleSimulation} against a keep-alive {@link ReplayServer}, 4 virtual users sharing the
 * connection pool, {@code llm.timeout=5s}, one measured request per case (the server picks the case
 * from the prompt's nonce). One test per case checks that case's line of {@code
 * llm-requests.jsonl}; one checks that every request reached the server exactly once.
 */
@Tag("forked")
class FaultCorpusTest {

  static final String API_KEY = "sk-gllm-corpus-5e1f0c9a7b3d";
  static final String URL_PASSWORD = "corpus-pw-8c4d2a";

  private static final List<String> NAMES = new ArrayList<>(FaultCorpus.cases().keySet());

  @TempDir static Path results;
  static Path run;
  static Map<String, JsonNode> byCase = new HashMap<>();
  static List<JsonNode> lines = new ArrayList<>();
  static ReplayServer server;
  static List<String> nonces = new ArrayList<>();
  static final long timeoutMs = FaultCorpus.TIMEOUT_MS;

  @BeforeAll
  static void runTheCorpusOnce() throws Exception {
    Map<String, Reply> cases = FaultCorpus.cases();
    PromptSource prompts =
        new PromptSource(
            PromptSpec.unique(),
            EstimatedTokenCounter.INSTANCE,
            0,
            "c4_in128_out8",
            "measured",
            128);
    Map<String, Reply> byNonce = new HashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      String text = prompts.take(i).text();
      nonces.add(nonce(text));
      byNonce.put(nonces.get(i), cases.get(NAMES.get(i)));
    }
    server = new ReplayServer(p -> byNonce.get(nonce(p)));
    run =
        GatlingJvm.run(
            OracleSimulation.class,
            results,
            List.of(
                "-Dllm.baseUrl=http://corpus:"
                    + URL_PASSWORD
                    + "@127.0.0.1:"
                    + server.port()
                    + "/v1",
                "-Dllm.apiKey=" + API_KEY,
                "-Dllm.model=m",
                "-Dllm.requests=" + NAMES.size(),
                "-Dllm.warmupRequests=0",
                "-Dllm.concurrency=4",
                "-Dllm.timeout=" + timeoutMs + "ms",
                // the replay server answers the corpus' prompts only
                "-Dllm.preflight=false"),
            0,
            240);
    for (JsonNode r : GatlingJvm.requests(run)) {
      lines.add(r);
      byCase.put(NAMES.get(r.get("index").asInt()), r);
    }
  }

  @AfterAll
  static void stopServer() throws Exception {
    if (server != null) {
      server.close();
    }
  }

  private static JsonNode r(String name) {
    JsonNode record = byCase.get(name);
    assertNotNull(record, () -> name + " has no record; the records: " + lines);
    return record;
  }

  private static void assertOk(String name, int completionTokens, boolean exact) {
    JsonNode r = r(name);
    assertEquals("ok", r.get("status").asText(), r.toString());
    assertEquals(200, r.get("http_status").asInt(), r.toString());
    assertTrue(r.get("error").isNull(), r.toString());
    assertEquals(completionTokens, r.get("completion_tokens").asInt(), r.toString());
    assertEquals(exact, r.get("completion_tokens_exact").asBoolean(), r.toString());
    assertFalse(r.get("ttft_ms").isNull(), r.toString());
    assertTrue(r.get("ttft_ms").asDouble() <= r.get("e2e_ms").asDouble(), r.toString());
  }

  private static void assertFailed(String name, String status, Integer httpStatus, String error) {
    JsonNode r = r(name);
    assertEquals(status, r.get("status").asText(), r.toString());
    if (httpStatus == null) {
      assertTrue(r.get("http_status").isNull(), r.toString());
    } else {
      assertEquals(httpStatus.intValue(), r.get("http_status").asInt(), r.toString());
    }
    assertEquals(error, r.get("error").asText(), r.toString());
  }

  private static void assertNoAnswer(String name) {
    JsonNode r = r(name);
    assertTrue(r.get("ttft_ms").isNull(), r.toString());
    assertTrue(r.get("time_to_first_event_ms").isNull(), r.toString());
    assertEquals(0, r.get("completion_tokens").asInt(), r.toString());
  }

  @Test
  void everyCaseHasOneRecordAndTheRunRecordIsComplete() throws Exception {
    assertEquals(NAMES.size(), lines.size());
    assertEquals(NAMES.size(), byCase.size());
    JsonNode record = GatlingJvm.runRecord(run);
    assertFalse(record.get("interrupted").asBoolean());
    assertEquals(NAMES.size(), record.get("requests_recorded").asInt());
    JsonNode status = record.get("metrics").get("overall").get("status");
    assertEquals(14, status.get("ok").asInt(), status.toString());
    assertEquals(8, status.get("http_error").asInt(), status.toString());
    assertEquals(4, status.get("rejected").asInt(), status.toString());
    assertEquals(1, status.get("timeout").asInt(), status.toString());
    assertEquals(9, status.get("stream_error").asInt(), status.toString());
  }

  /**
   * Every case's request reached the server exactly once: no error answer, closed or reset
   * connection, timeout or pooled connection that broke mid-response made it be sent again.
   */
  @Test
  void everyCaseWasSentExactlyOnce() {
    Map<String, Integer> served = new HashMap<>();
    server.served().forEach((prompt, n) -> served.put(nonce(prompt), n));
    Map<String, Integer> expected = new HashMap<>();
    for (int i = 0; i < NAMES.size(); i++) {
      expected.put(nonces.get(i), 1);
    }
    assertEquals(expected, served);
    assertEquals(NAMES.size(), server.posts());
  }

  private static String nonce(String prompt) {
    return prompt.substring(0, prompt.indexOf(']') + 1);
  }

  @Test
  void roleOnlyFirstEventIsNotTheFirstToken() {
    assertOk("roleOnlyFirstEvent", 3, true);
    JsonNode r = r("roleOnlyFirstEvent");
    assertTrue(r.get("ttft_ms").asDouble() >= r.get("time_to_first_event_ms").asDouble());
    assertEquals(10, r.get("prompt_tokens").asInt());
    assertEquals("stop", r.get("finish_reason").asText());
  }

  @Test
  void emptyContentEventsAreNotTokens() {
    assertOk("emptyContentEvents", 2, true);
  }

  @Test
  void reasoningOnlyStreamHasATtft() {
    assertOk("reasoningOnly", 2, true);
  }

  @Test
  void toolCallDeltasAreTokensCountedByEvent() {
    assertOk("toolCallDeltas", 2, false);
    JsonNode r = r("toolCallDeltas");
    assertEquals("tool_calls", r.get("finish_reason").asText());
    assertEquals(128, r.get("prompt_tokens").asInt());
    assertFalse(r.get("prompt_tokens_exact").asBoolean());
  }

  @Test
  void usageOnTheLastContentEventIsRead() {
    assertOk("usageOnLastContentEvent", 2, true);
    JsonNode r = r("usageOnLastContentEvent");
    assertEquals(12, r.get("prompt_tokens").asInt());
    assertEquals(8, r.get("cached_tokens").asInt());
    assertEquals("length", r.get("finish_reason").asText());
  }

  @Test
  void usageOnASeparateEventWithEmptyChoicesIsRead() {
    assertOk("usageOnSeparateEventWithEmptyChoices", 2, true);
    assertEquals(11, r("usageOnSeparateEventWithEmptyChoices").get("prompt_tokens").asInt());
  }

  @Test
  void missingUsageFallsBackToPlannedAndCountedTokens() {
    assertOk("usageMissing", 2, false);
    JsonNode r = r("usageMissing");
    assertEquals(128, r.get("prompt_tokens").asInt());
    assertFalse(r.get("prompt_tokens_exact").asBoolean());
  }

  @Test
  void missingDoneWithACleanCloseIsAStreamError() {
    assertFailed(
        "doneMissingCleanClose",
        "stream_error",
        200,
        "stream ended without [DONE] (2 tokens received)");
    JsonNode r = r("doneMissingCleanClose");
    assertEquals(2, r.get("completion_tokens").asInt());
    assertEquals("stop", r.get("finish_reason").asText());
  }

  @Test
  void missingDoneOnAConnectionKeptAliveIsAStreamError() {
    assertFailed(
        "doneMissingKeptAlive",
        "stream_error",
        200,
        "stream ended without [DONE] (2 tokens received)");
    assertEquals(2, r("doneMissingKeptAlive").get("completion_tokens").asInt());
  }

  @Test
  void connectionClosedMidStreamIsAStreamErrorThatKeepsWhatArrived() {
    assertFailed(
        "closedMidStream",
        "stream_error",
        200,
        "connection closed by the server before [DONE] (1 token received)");
    JsonNode r = r("closedMidStream");
    assertEquals(1, r.get("completion_tokens").asInt());
    assertTrue(r.get("e2e_ms").asDouble() < timeoutMs / 2, r.toString());
  }

  @Test
  void streamCutMidEventIsAStreamErrorThatKeepsWhatArrived() {
    assertFailed(
        "cutMidEvent",
        "stream_error",
        200,
        "connection closed by the server before [DONE] (1 token received)");
    JsonNode r = r("cutMidEvent");
    assertEquals(1, r.get("completion_tokens").asInt());
    // E2E ends at the last event that arrived, not when Gatling gave up.
    assertTrue(r.get("e2e_ms").asDouble() < timeoutMs / 2, r.toString());
  }

  @Test
  void invalidJsonIsAStreamErrorNamingTheData() {
    JsonNode r = r("invalidJson");
    assertEquals("stream_error", r.get("status").asText(), r.toString());
    assertEquals(200, r.get("http_status").asInt());
    assertTrue(
        r.get("error")
            .asText()
            .startsWith("invalid data (Unexpected end-of-input: expected close marker for Object)"),
        r.toString());
    assertEquals(1, r.get("completion_tokens").asInt());
  }

  @Test
  void dataSplitOverSeveralLinesIsJoined() {
    assertOk("dataSplitOverLines", 2, true);
  }

  @Test
  void commentLinesAreIgnored() {
    assertOk("commentLines", 2, true);
  }

  @Test
  void crlfLineEndsAreRead() {
    assertOk("crlfLineEnds", 2, true);
  }

  @Test
  void crLineEndsAreRead() {
    assertOk("crLineEnds", 2, true);
  }

  @Test
  void errorEventMidStreamIsAStreamErrorWithTheServersMessage() {
    assertFailed(
        "errorEventMidStream",
        "stream_error",
        200,
        "error event: server_error (500): the engine died");
    assertEquals(1, r("errorEventMidStream").get("completion_tokens").asInt());
  }

  @Test
  void http400WithJsonKeepsTheServersMessage() {
    assertFailed(
        "http400Json", "http_error", 400, "HTTP 400: test_error (400): max_tokens is too large");
    assertNoAnswer("http400Json");
  }

  @Test
  void http401WithJsonKeepsTheServersMessage() {
    assertFailed("http401Json", "http_error", 401, "HTTP 401: test_error (401): invalid api key");
    assertNoAnswer("http401Json");
  }

  @Test
  void http404WithJsonKeepsTheServersMessage() {
    assertFailed(
        "http404Json", "http_error", 404, "HTTP 404: test_error (404): model does not exist");
    assertNoAnswer("http404Json");
  }

  @Test
  void http429WithJsonIsRejectedWithTheServersMessage() {
    assertFailed("http429Json", "rejected", 429, "HTTP 429: test_error (429): rate limit reached");
    assertNoAnswer("http429Json");
  }

  @Test
  void http500WithJsonKeepsTheServersMessage() {
    assertFailed("http500Json", "http_error", 500, "HTTP 500: test_error (500): engine crashed");
    assertNoAnswer("http500Json");
  }

  @Test
  void http503WithJsonIsRejectedWithTheServersMessage() {
    assertFailed(
        "http503Json", "rejected", 503, "HTTP 503: test_error (503): server is overloaded");
    assertNoAnswer("http503Json");
  }

  @Test
  void http400WithHtmlKeepsThePageTitle() {
    assertFailed("http400Html", "http_error", 400, "HTTP 400: 400 Bad Request");
  }

  @Test
  void http401WithHtmlKeepsThePageTitle() {
    assertFailed("http401Html", "http_error", 401, "HTTP 401: 401 Unauthorized");
  }

  @Test
  void http404WithHtmlKeepsThePageTitle() {
    assertFailed("http404Html", "http_error", 404, "HTTP 404: 404 Not Found");
  }

  @Test
  void http429WithHtmlIsRejectedWithThePageTitle() {
    assertFailed("http429Html", "rejected", 429, "HTTP 429: 429 Too Many Requests");
  }

  @Test
  void http500WithHtmlKeepsThePageTitle() {
    assertFailed("http500Html", "http_error", 500, "HTTP 500: 500 Internal Server Error");
  }

  @Test
  void http503WithHtmlIsRejectedWithThePageTitle() {
    assertFailed("http503Html", "rejected", 503, "HTTP 503: 503 Service Unavailable");
  }

  @Test
  void textPlainReplyIsAStreamErrorWithItsText() {
    assertFailed(
        "textPlainReply",
        "stream_error",
        200,
        "content type text/plain; charset=utf-8, not text/event-stream: streaming is disabled here");
    assertNoAnswer("textPlainReply");
  }

  @Test
  void applicationJsonReplyIsAStreamErrorWithItsStart() {
    JsonNode r = r("applicationJsonReply");
    assertEquals("stream_error", r.get("status").asText(), r.toString());
    assertEquals(200, r.get("http_status").asInt());
    assertTrue(
        r.get("error")
            .asText()
            .startsWith(
                "content type application/json, not text/event-stream: {\"choices\":[{\"index\":0,"),
        r.toString());
  }

  @Test
  void resetAfterHeadersIsAStreamErrorNoticedBeforeTheTimeout() {
    assertFailed(
        "resetAfterHeaders",
        "stream_error",
        200,
        "connection closed by the server before [DONE] (0 tokens received)");
    assertNoAnswer("resetAfterHeaders");
    // Noticed when the reset arrives, not when llm.timeout (5 s here) fires.
    double e2e = r("resetAfterHeaders").get("e2e_ms").asDouble();
    assertTrue(e2e < timeoutMs / 2, "E2E " + e2e);
  }

  @Test
  void headersThenSilenceIsATimeout() {
    assertFailed("headersThenSilence", "timeout", 200, "no [DONE] within llm.timeout (5000 ms)");
    assertNoAnswer("headersThenSilence");
    double e2e = r("headersThenSilence").get("e2e_ms").asDouble();
    assertTrue(e2e >= timeoutMs && e2e < timeoutMs + 1000, "E2E " + e2e);
  }

  @Test
  void slowTrickleIsOkWithItsTimings() {
    assertOk("slowTrickle", 10, true);
    JsonNode r = r("slowTrickle");
    // 10 content events 100 ms apart, the first 100 ms after the head.
    assertTrue(r.get("ttft_ms").asDouble() >= 100, r.toString());
    assertTrue(r.get("e2e_ms").asDouble() >= 1000, r.toString());
    double tpot = r.get("tpot_ms").asDouble();
    assertTrue(tpot >= 90 && tpot <= 150, "TPOT " + tpot);
  }

  @Test
  void oneMegabyteEventIsRead() {
    assertOk("oneMegabyteEvent", 1, true);
  }

  @Test
  void nonUtf8BytesInContentAreReadAsReplacementChars() {
    assertOk("nonUtf8Bytes", 1, true);
  }

  @Test
  void theApiKeyAndUrlPasswordAreInNoOutputFile() throws Exception {
    List<Path> files;
    try (Stream<Path> walk = Files.walk(results)) {
      files = walk.filter(Files::isRegularFile).toList();
    }
    assertTrue(files.size() >= 5, files.toString());
    assertTrue(
        files.stream().anyMatch(f -> f.getFileName().toString().endsWith(".log")),
        files.toString());
    for (Path file : files) {
      String text = new String(Files.readAllBytes(file), StandardCharsets.ISO_8859_1);
      assertFalse(text.contains(API_KEY), () -> "the API key is in " + file);
      assertFalse(text.contains(URL_PASSWORD), () -> "the URL password is in " + file);
    }
    JsonNode record = GatlingJvm.runRecord(run);
    assertEquals(
        "http://127.0.0.1:" + server.port() + "/v1", record.get("target").get("base_url").asText());
  }

  @Test
  void connectionRefusedIsAConnectErrorAndTheUserGoesOn(@TempDir Path own) throws Exception {
    int port;
    try (java.net.ServerSocket probe =
        new java.net.ServerSocket(0, 1, java.net.InetAddress.getLoopbackAddress())) {
      port = probe.getLocalPort();
    }
    Path refusedRun =
        GatlingJvm.run(
            OracleSimulation.class,
            own,
            List.of(
                "-Dllm.baseUrl=http://127.0.0.1:" + port + "/v1",
                // The pre-flight would stop the run before any load: the refused requests are
                // what this test looks at.
                "-Dllm.preflight=false",
                "-Dllm.requests=3",
                "-Dllm.warmupRequests=0",
                "-Dllm.concurrency=1",
                "-Dllm.timeout=" + timeoutMs + "ms"),
            0,
            120);
    List<JsonNode> records = GatlingJvm.requests(refusedRun);
    assertEquals(3, records.size());
    for (JsonNode r : records) {
      assertEquals("connect_error", r.get("status").asText(), r.toString());
      assertTrue(r.get("http_status").isNull(), r.toString());
      // Netty's text, e.g. "AnnotatedConnectException: finishConnect(..) failed with error(-111):
      // Connection refused: /127.0.0.1:PORT" (epoll) or "ConnectException: Connection refused".
      String error = r.get("error").asText();
      assertTrue(error.contains("ConnectException: "), error);
      assertTrue(error.contains("Connection refused"), error);
      assertTrue(r.get("e2e_ms").asDouble() < timeoutMs / 2, r.toString());
    }
  }
}
