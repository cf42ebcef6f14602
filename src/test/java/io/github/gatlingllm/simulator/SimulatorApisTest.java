package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.api.DialectClient;
import io.github.gatlingllm.api.DialectClient.Result;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.StreamEvent;
import io.github.gatlingllm.api.Turn;
import io.github.gatlingllm.api.Usage;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.metrics.AnswerTimings;
import io.github.gatlingllm.metrics.RequestTimings.StreamOutcome;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * The simulator's Responses and Messages APIs, read back through the client's own dialects: every
 * count the client takes from a stream equals what the simulator served ({@link ServedRequest}).
 * Prompts are counted with the estimate (one token a word; the chat template adds 2 to a user
 * message: {@code <|im_start|>user} and {@code <|im_start|>assistant}).
 */
class SimulatorApisTest {

  private final List<Simulator> started = new ArrayList<>();

  @AfterEach
  void close() {
    started.forEach(Simulator::close);
  }

  private Simulator start(SimulatorConfig config) {
    Simulator simulator = Simulator.start(config, 0);
    started.add(simulator);
    return simulator;
  }

  private static SimulatorConfig fast() {
    return SimulatorConfig.zeroDelay();
  }

  private static RequestSettings settings(boolean stream, int maxTokens) {
    return new RequestSettings(
        WireApi.CHAT, "m", maxTokens, "max_tokens", stream, true, null, null, null);
  }

  private static String words(int n) {
    StringBuilder s = new StringBuilder();
    for (int i = 0; i < n; i++) {
      s.append(i == 0 ? "" : " ").append("w").append(i);
    }
    return s.toString();
  }

  private static String raw(Simulator s, String path, String body, Map<String, String> headers)
      throws Exception {
    HttpRequest.Builder r =
        HttpRequest.newBuilder(URI.create(s.baseUrl() + "/" + path))
            .header("Content-Type", "application/json")
            .POST(HttpRequest.BodyPublishers.ofString(body));
    headers.forEach(r::header);
    return HttpClient.newHttpClient().send(r.build(), HttpResponse.BodyHandlers.ofString()).body();
  }

  @Test
  void responsesStreamIsReadAsServed() throws Exception {
    Simulator s = start(fast());
    Result r =
        DialectClient.send(
            s.baseUrl(),
            WireApi.RESPONSES,
            WireApi.RESPONSES.dialect().body(settings(true, 8), words(100)),
            null,
            true);
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome(), r.timings().streamError());
    assertEquals(102, r.timings().promptTokens());
    assertEquals(0, r.timings().cachedTokens());
    assertEquals(8, r.timings().completionTokens());
    assertEquals(7, r.timings().itlMs().size());
    assertEquals("max_output_tokens", r.timings().finishReason());
    assertEquals("resp_1", r.parser().responseId());
    ServedRequest served = s.requests().get(0);
    assertEquals(ServedEndpoint.RESPONSES, served.endpoint());
    assertEquals(102, served.promptTokens());
    assertEquals(8, served.completionTokens());
  }

  @Test
  void messagesStreamIsReadAsServedAndARepeatIsCachedByBlocks() throws Exception {
    Simulator s = start(fast());
    String body = WireApi.MESSAGES.dialect().body(settings(true, 5), words(100));
    Result first = DialectClient.send(s.baseUrl(), WireApi.MESSAGES, body, "k", true);
    Result again = DialectClient.send(s.baseUrl(), WireApi.MESSAGES, body, "k", true);
    assertEquals(StreamOutcome.COMPLETE, first.timings().outcome(), first.timings().streamError());
    assertEquals(102, first.timings().promptTokens());
    assertEquals(0, first.timings().cachedTokens());
    assertEquals(5, first.timings().completionTokens());
    assertEquals("max_tokens", first.timings().finishReason());
    assertEquals(102, again.timings().promptTokens());
    assertEquals(96, again.timings().cachedTokens());
    assertEquals(96, s.requests().get(1).cachedTokens());
  }

  @Test
  void responsesReasoningStreamsAsVllmWithoutASummaryRequest() throws Exception {
    Simulator s = start(fast().withReasoningTokens(3));
    String body = WireApi.RESPONSES.dialect().body(settings(true, 8), "Think.");
    String stream = raw(s, "responses", body, Map.of());
    assertTrue(stream.contains("event: response.reasoning_text.delta\n"), stream);
    assertFalse(stream.contains("reasoning_summary"), stream);
    Result r = DialectClient.send(s.baseUrl(), WireApi.RESPONSES, body, null, true);
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
    assertEquals(3, r.answer().reasoningTokens());
    assertEquals(AnswerTimings.SOURCE_USAGE, r.answer().reasoningTokensSource());
    assertEquals(5, r.answer().answerTokens());
    assertTrue(r.answer().ttfoMs() >= r.timings().ttftMs());
  }

  @Test
  void responsesReasoningStreamsAsOpenAiWithASummaryRequest() throws Exception {
    Simulator s = start(fast().withReasoningTokens(3));
    RequestSettings summary =
        new RequestSettings(
            WireApi.CHAT,
            "m",
            8,
            "max_tokens",
            true,
            true,
            null,
            null,
            Map.of("reasoning", Map.of("summary", "auto")));
    String body = WireApi.RESPONSES.dialect().body(summary, "Think.");
    String stream = raw(s, "responses", body, Map.of());
    assertTrue(stream.contains("event: response.reasoning_summary_text.delta\n"), stream);
    assertFalse(stream.contains("response.reasoning_text.delta"), stream);
    Result r = DialectClient.send(s.baseUrl(), WireApi.RESPONSES, body, null, true);
    assertEquals(3, r.answer().reasoningTokens());
    assertEquals(5, r.answer().answerTokens());
  }

  @Test
  void messagesThinkingEndsWithASignatureAndPingsAreNotTokens() throws Exception {
    Simulator s = start(fast().withReasoningTokens(2));
    String body = WireApi.MESSAGES.dialect().body(settings(true, 6), "Think.");
    String stream = raw(s, "messages", body, Map.of("anthropic-version", "2023-06-01"));
    assertTrue(stream.contains("event: ping\n"), stream);
    assertTrue(stream.contains("\"type\":\"signature_delta\""), stream);
    assertTrue(stream.contains("\"type\":\"thinking_delta\""), stream);
    Result r = DialectClient.send(s.baseUrl(), WireApi.MESSAGES, body, null, true);
    assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
    assertEquals(6, r.timings().completionTokens());
    assertEquals(5, r.timings().itlMs().size());
    assertEquals(2, r.answer().reasoningTokens());
    assertEquals(AnswerTimings.SOURCE_CHUNKS, r.answer().reasoningTokensSource());
  }

  @Test
  void nonStreamedBodiesOfBothApis() throws Exception {
    Simulator s = start(fast());
    Result responses =
        DialectClient.send(
            s.baseUrl(),
            WireApi.RESPONSES,
            WireApi.RESPONSES.dialect().body(settings(false, 4), words(10)),
            null,
            false);
    assertEquals(200, responses.status());
    assertEquals(new Usage(12, 4, 0, 0), responses.response().usage());
    assertEquals("the model is running", responses.response().content());
    assertEquals("max_output_tokens", responses.response().finishReason());
    Result messages =
        DialectClient.send(
            s.baseUrl(),
            WireApi.MESSAGES,
            WireApi.MESSAGES.dialect().body(settings(false, 4), words(10)),
            null,
            false);
    assertEquals(200, messages.status());
    assertEquals(new Usage(12, 4, 0, null), messages.response().usage());
    assertEquals("the model is running", messages.response().content());
    assertEquals("max_tokens", messages.response().finishReason());
  }

  @Test
  void previousResponseIdThreadsTheConversationOnTheServer() throws Exception {
    Simulator s = start(fast());
    Result first =
        DialectClient.send(
            s.baseUrl(),
            WireApi.RESPONSES,
            WireApi.RESPONSES.dialect().body(settings(true, 4), words(60)),
            null,
            true);
    String id = first.parser().responseId();
    Result second =
        DialectClient.send(
            s.baseUrl(),
            WireApi.RESPONSES,
            WireApi.RESPONSES
                .dialect()
                .body(settings(true, 4), List.of(new Turn.Message("user", "more please")), id),
            null,
            true);
    // 62 (the first prompt) + 4 (the reply: "the model is running<|im_end|>") + 4 (the new
    // message: "<|im_start|>user", "more", "please<|im_end|>", "<|im_start|>assistant")
    assertEquals(StreamOutcome.COMPLETE, second.timings().outcome());
    assertEquals(70, second.timings().promptTokens());
    // the first prompt and the reply but its last token, in whole 16-token blocks: 64
    assertEquals(64, second.timings().cachedTokens());
  }

  @Test
  void unknownPreviousResponseIsRefused() throws Exception {
    Simulator s = start(fast());
    Result r =
        DialectClient.send(
            s.baseUrl(),
            WireApi.RESPONSES,
            WireApi.RESPONSES
                .dialect()
                .body(settings(true, 4), List.of(new Turn.Message("user", "x")), "resp_404"),
            null,
            true);
    assertEquals(400, r.status());
    assertEquals(
        "invalid_request_error (400): Previous response with id 'resp_404' not found.",
        WireApi.RESPONSES.dialect().describeError(r.body(), "application/json"));
  }

  @Test
  void messagesErrorsAreInAnthropicsShape() throws Exception {
    Simulator s = start(fast());
    String body = "{\"model\":\"m\",\"messages\":[{\"role\":\"user\",\"content\":\"x\"}]}";
    assertEquals(
        "{\"type\":\"error\",\"error\":{\"type\":\"invalid_request_error\","
            + "\"message\":\"max_tokens: Field required\"}}",
        raw(s, "messages", body, Map.of()));
    StreamEvent parsed =
        WireApi.MESSAGES.dialect().parseResponse(raw(s, "messages", body, Map.of()));
    assertEquals("invalid_request_error: max_tokens: Field required", parsed.error().describe());
  }

  @Test
  void toolHistoriesAreAcceptedOnBothApis() throws Exception {
    Simulator s = start(fast());
    List<Turn> history =
        List.of(
            new Turn.Message("system", "Use tools."),
            new Turn.Message("user", "Weather?"),
            new Turn.ToolCall("c1", "weather", "{\"city\":\"Paris\"}"),
            new Turn.ToolResult("c1", "21 C"),
            new Turn.Message("user", "Thanks"));
    for (WireApi api : List.of(WireApi.RESPONSES, WireApi.MESSAGES)) {
      Result r =
          DialectClient.send(
              s.baseUrl(), api, api.dialect().body(settings(true, 3), history), null, true);
      assertEquals(200, r.status(), api + ": " + r.body());
      assertEquals(StreamOutcome.COMPLETE, r.timings().outcome());
    }
  }
}
