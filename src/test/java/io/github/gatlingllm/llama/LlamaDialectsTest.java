package io.github.gatlingllm.llama;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assertions.fail;

import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.DialectClient;
import io.github.gatlingllm.api.DialectClient.Result;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.util.List;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * The Responses and Messages dialects against a real llama.cpp server, over plain HTTP (no
 * Gatling): each API's body is accepted, its stream is parsed to a complete request with the
 * server's own prompt tokens (the same count as chat completions gives the same prompt), a repeat
 * prompt reads all but its last token from the prefix cache (llama.cpp always evaluates the last
 * one again), and a history with tool calls is accepted in each API's shape.
 *
 * <p>Runs when {@code LLAMA_BASE_URL} (environment) or {@code -Dllm.it.llamaBaseUrl} names the
 * server's {@code /v1} URL; skipped otherwise, except with {@code CI=true}, where a missing server
 * fails. The server is shared: each test's prompt starts with a nonce, so no other request holds
 * its prefix.
 */
class LlamaDialectsTest {

  private static String baseUrl;

  @BeforeAll
  static void server() {
    String url = System.getProperty("llm.it.llamaBaseUrl", System.getenv("LLAMA_BASE_URL"));
    if (url == null || url.isBlank()) {
      if ("true".equals(System.getenv("CI"))) {
        fail(
            "CI=true but no llama.cpp server is named (LLAMA_BASE_URL or -Dllm.it.llamaBaseUrl):"
                + " .ci/run starts one with scripts/llama-server.sh start");
      }
      Assumptions.abort("no llama.cpp server: set LLAMA_BASE_URL to run these tests");
    }
    baseUrl = url.endsWith("/") ? url : url + "/";
  }

  private static RequestSettings settings(int maxTokens) {
    return new RequestSettings(
        WireApi.CHAT, "qwen3-vocab-random", maxTokens, "max_tokens", true, true, true, null, null);
  }

  private static Result send(WireApi api, String body) throws Exception {
    Result r = DialectClient.send(baseUrl, api, body, "test-key", true);
    if (r.status() != 200) {
      fail(api + " answered " + r.status() + ": " + api.dialect().describeError(r.body(), null));
    }
    return r;
  }

  private static String prompt(String nonce) {
    StringBuilder p = new StringBuilder(nonce);
    for (int i = 0; i < 60; i++) {
      p.append(" word").append(i % 17).append(" of the prompt");
    }
    return p.toString();
  }

  private static void complete(Result r, int outputTokens) {
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome(), r.timings().streamError());
    assertTrue(r.timings().promptTokensExact());
    assertEquals(outputTokens, r.timings().completionTokens());
    assertTrue(r.timings().ttftMs() != null && r.timings().ttftMs() > 0);
    // one gap a token-bearing event after the first; llama.cpp holds back a token whose text ends
    // inside a UTF-8 sequence and sends it with the next, so a random model's reply can have fewer
    int gaps = r.timings().itlMs().size();
    assertTrue(gaps >= 1 && gaps <= outputTokens - 1, "ITL values: " + gaps);
  }

  @Test
  void eachApiCountsThePromptAsChatDoes() throws Exception {
    String nonce = "n" + System.nanoTime();
    RequestSettings s = settings(8);
    Result chat = send(WireApi.CHAT, WireApi.CHAT.dialect().body(s, prompt(nonce + "c")));
    Result responses =
        send(WireApi.RESPONSES, WireApi.RESPONSES.dialect().body(s, prompt(nonce + "r")));
    Result messages =
        send(WireApi.MESSAGES, WireApi.MESSAGES.dialect().body(s, prompt(nonce + "m")));
    complete(chat, 8);
    complete(responses, 8);
    complete(messages, 8);
    assertEquals(chat.timings().promptTokens(), responses.timings().promptTokens());
    assertEquals(chat.timings().promptTokens(), messages.timings().promptTokens());
    assertTrue(responses.parser().responseId().startsWith("resp_"));
  }

  @Test
  void repeatPromptReadsAllButItsLastTokenFromTheCacheOnEachApi() throws Exception {
    for (WireApi api : List.of(WireApi.RESPONSES, WireApi.MESSAGES)) {
      String body = api.dialect().body(settings(4), prompt("r" + System.nanoTime() + api));
      Result first = send(api, body);
      Result again = send(api, body);
      complete(first, 4);
      complete(again, 4);
      assertEquals(first.timings().promptTokens(), again.timings().promptTokens());
      assertEquals(again.timings().promptTokens() - 1, again.timings().cachedTokens(), api.name());
    }
  }

  @Test
  void conversationOnEachApiReadsItsFirstTurnFromTheCache() throws Exception {
    for (WireApi api : List.of(WireApi.RESPONSES, WireApi.MESSAGES)) {
      Dialect d = api.dialect();
      Turn.Message user = new Turn.Message("user", prompt("c" + System.nanoTime() + api));
      Result first = send(api, d.body(settings(6), List.of(user)));
      complete(first, 6);
      Result second =
          send(
              api,
              d.body(
                  settings(6),
                  List.of(
                      user,
                      new Turn.Message("assistant", first.text()),
                      new Turn.Message("user", "And then?"))));
      complete(second, 6);
      assertTrue(
          second.timings().promptTokens() > first.timings().promptTokens() + 6,
          api + ": " + second.timings().promptTokens());
      // the first turn's prompt, up to the assistant's header, is the second's cached prefix
      assertTrue(
          second.timings().cachedTokens() >= first.timings().promptTokens() - 4,
          api + ": cached " + second.timings().cachedTokens() + " of " + first.timings());
    }
  }

  @Test
  void toolCallHistoryIsAcceptedOnEachApi() throws Exception {
    for (WireApi api : List.of(WireApi.CHAT, WireApi.RESPONSES, WireApi.MESSAGES)) {
      List<Turn> history =
          List.of(
              new Turn.Message("system", "You call tools."),
              new Turn.Message("user", "Weather in Paris? " + System.nanoTime()),
              new Turn.ToolCall("call_1", "get_weather", "{\"city\":\"Paris\"}"),
              new Turn.ToolResult("call_1", "{\"temp\":21}"),
              new Turn.Message("user", "Thanks"));
      Result r = send(api, api.dialect().body(settings(3), history));
      // accepted: answered, streamed to its end, 3 tokens. Not the prompt's usage: llama.cpp
      // (b11669) leaves out message_start, and with it the Messages API's only input_tokens, when
      // its first token ends inside a UTF-8 sequence (seen about 1 in 15 here); the run then counts
      // the prompt itself and marks the count not exact, as it should
      assertEquals(
          StreamOutcome.COMPLETE, r.timings().outcome(), api + ": " + r.timings().streamError());
      assertEquals(3, r.timings().completionTokens(), api.toString());
      assertTrue(r.timings().ttftMs() != null && r.timings().ttftMs() > 0, api.toString());
    }
  }
}
