package io.github.gatlingllm.simulator;

import static io.github.gatlingllm.simulator.SimulatorClient.body;
import static io.github.gatlingllm.simulator.SimulatorClient.chat;
import static io.github.gatlingllm.simulator.SimulatorClient.completion;
import static io.github.gatlingllm.simulator.SimulatorClient.words;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.github.gatlingllm.simulator.SimulatorClient.Event;
import io.github.gatlingllm.simulator.SimulatorClient.Response;
import io.github.gatlingllm.simulator.SimulatorClient.SseResponse;
import io.github.gatlingllm.testing.TestTokenizers;
import java.io.UncheckedIOException;
import java.net.ConnectException;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulator's HTTP surface, over loopback, with the zero-delay configuration. */
class SimulatorHttpTest {

  private static final String CHAT = "/v1/chat/completions";
  private static final String COMPLETIONS = "/v1/completions";

  private final List<Simulator> started = new ArrayList<>();

  @AfterEach
  void stop() {
    started.forEach(Simulator::close);
  }

  private SimulatorClient client(SimulatorConfig config) {
    Simulator simulator = Simulator.start(config, 0);
    started.add(simulator);
    return new SimulatorClient(simulator);
  }

  private SimulatorClient client() {
    return client(SimulatorConfig.zeroDelay());
  }

  private Simulator simulator() {
    return started.get(started.size() - 1);
  }

  /** Literal expected JSON. */
  private static JsonNode json(String text) {
    try {
      return SimulatorClient.JSON.readTree(text);
    } catch (JsonProcessingException e) {
      throw new AssertionError(e);
    }
  }

  /** A response or chunk without its wall-clock {@code created}. */
  private static JsonNode withoutCreated(JsonNode node) {
    ObjectNode copy = node.deepCopy();
    copy.remove("created");
    return copy;
  }

  private static void assertError(String expected, Response response) {
    assertEquals(json(expected).at("/error/code").asInt(), response.status());
    assertEquals("application/json", response.contentType());
    assertEquals(json(expected), response.json());
  }

  @Test
  void baseUrlNamesTheLoopbackPort() {
    client();
    assertEquals("http://127.0.0.1:" + simulator().port() + "/v1", simulator().baseUrl());
  }

  @Test
  void healthIsOk() {
    Response response = client().get("/health");
    assertEquals(200, response.status());
    assertEquals("application/json", response.contentType());
    assertEquals(json("{\"status\": \"ok\"}"), response.json());
  }

  @Test
  void modelsListsTheConfiguredModel() {
    Response response = client(SimulatorConfig.zeroDelay().withModel("tiny")).get("/v1/models");
    assertEquals(200, response.status());
    assertEquals(
        json(
            """
            {"object": "list", "data": [{"id": "tiny", "object": "model",
             "owned_by": "gatling-llm", "max_model_len": 32768}]}"""),
        stripModelCreated(response.json()));
  }

  private static JsonNode stripModelCreated(JsonNode list) {
    ObjectNode copy = list.deepCopy();
    ((ObjectNode) copy.get("data").get(0)).remove("created");
    return copy;
  }

  @Test
  void nonStreamedChatHasTheWholeAnswerAndUsage() {
    Response response = client().post(CHAT, chat("Hello world", "max_tokens", 5));
    assertEquals(200, response.status());
    assertEquals("application/json", response.contentType());
    assertEquals(
        json(
            """
            {"id": "chatcmpl-1", "object": "chat.completion", "model": "gatling-llm-simulator",
             "choices": [{"index": 0,
                          "message": {"role": "assistant", "content": "the model is running in"},
                          "logprobs": null, "finish_reason": "length"}],
             "usage": {"prompt_tokens": 4, "completion_tokens": 5, "total_tokens": 9,
                       "prompt_tokens_details": {"cached_tokens": 0}}}"""),
        withoutCreated(response.json()));
  }

  @Test
  void chatPromptTokensCoverEveryMessageAndTheTemplate() {
    Map<String, Object> request =
        body(
            "messages",
            List.of(
                Map.of("role", "system", "content", "Be brief."),
                Map.of(
                    "role", "user", "content", List.of(Map.of("type", "text", "text", "a b c")))),
            "max_tokens",
            1);
    // <|im_start|>system / Be / brief.<|im_end|> / <|im_start|>user / a / b / c<|im_end|> /
    // <|im_start|>assistant
    assertEquals(8, client().post(CHAT, request).json().at("/usage/prompt_tokens").asInt());
  }

  @Test
  void chatPromptTokensWithQwen3AreTheTemplatedTokenIds() {
    SimulatorConfig config = SimulatorConfig.zeroDelay().withTokenCounter(TestTokenizers.qwen3());
    Response response = client(config).post(CHAT, chat("Hello world", "max_tokens", 1));
    assertEquals(10, response.json().at("/usage/prompt_tokens").asInt());
  }

  @Test
  void nonStreamedCompletionHasTextAndUsage() {
    Response response = client().post(COMPLETIONS, completion("a b c d e", "max_tokens", 3));
    assertEquals(200, response.status());
    assertEquals(
        json(
            """
            {"id": "cmpl-1", "object": "text_completion", "model": "gatling-llm-simulator",
             "choices": [{"index": 0, "text": "the model is", "logprobs": null,
                          "finish_reason": "length"}],
             "usage": {"prompt_tokens": 5, "completion_tokens": 3, "total_tokens": 8,
                       "prompt_tokens_details": {"cached_tokens": 0}}}"""),
        withoutCreated(response.json()));
  }

  @Test
  void completionPromptOfTokenIdsCountsTheIds() {
    Response response =
        client().post(COMPLETIONS, body("prompt", List.of(1, 2, 3, 4, 5, 6), "max_tokens", 1));
    assertEquals(6, response.json().at("/usage/prompt_tokens").asInt());
  }

  @Test
  void completionPromptOfOneStringInAnArrayIsThatString() {
    Response response =
        client().post(COMPLETIONS, body("prompt", List.of("a b c"), "max_tokens", 1));
    assertEquals(3, response.json().at("/usage/prompt_tokens").asInt());
  }

  @Test
  void defaultMaxTokensIsSixteen() {
    Response response = client().post(COMPLETIONS, completion("a"));
    assertEquals(16, response.json().at("/usage/completion_tokens").asInt());
  }

  @Test
  void maxCompletionTokensWinsOverMaxTokens() {
    Response response =
        client().post(CHAT, chat("Hello world", "max_tokens", 10, "max_completion_tokens", 2));
    assertEquals(2, response.json().at("/usage/completion_tokens").asInt());
    assertEquals("the model", response.json().at("/choices/0/message/content").asText());
  }

  @Test
  void ignoreEosIsAccepted() {
    Response response =
        client().post(COMPLETIONS, completion("a", "max_tokens", 4, "ignore_eos", true));
    assertEquals(4, response.json().at("/usage/completion_tokens").asInt());
  }

  @Test
  void streamedChatSendsRoleContentFinishUsageAndDone() {
    SseResponse stream =
        client().stream(
            CHAT,
            chat(
                "Hello world",
                "max_tokens",
                3,
                "stream",
                true,
                "stream_options",
                Map.of("include_usage", true)));
    assertEquals(200, stream.status());
    assertEquals("text/event-stream", stream.contentType());
    String head =
        "\"id\": \"chatcmpl-1\", \"object\": \"chat.completion.chunk\","
            + " \"model\": \"gatling-llm-simulator\"";
    List<JsonNode> expected =
        List.of(
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"delta\": {\"role\": \"assistant\","
                    + " \"content\": null}, \"logprobs\": null, \"finish_reason\": null}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \"the\"},"
                    + " \"logprobs\": null, \"finish_reason\": null}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \" model\"},"
                    + " \"logprobs\": null, \"finish_reason\": null}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"delta\": {\"content\": \" is\"},"
                    + " \"logprobs\": null, \"finish_reason\": null}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"delta\": {},"
                    + " \"logprobs\": null, \"finish_reason\": \"length\"}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [], \"usage\": {\"prompt_tokens\": 4,"
                    + " \"completion_tokens\": 3, \"total_tokens\": 7,"
                    + " \"prompt_tokens_details\": {\"cached_tokens\": 0}}}"));
    List<Event> events = stream.events();
    assertEquals(expected.size() + 1, events.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), withoutCreated(events.get(i).json()), "event " + i);
    }
    assertEquals("[DONE]", events.get(expected.size()).data());
  }

  @Test
  void streamedChatWithoutIncludeUsageHasNoUsageChunk() {
    SseResponse stream =
        client().stream(CHAT, chat("Hello world", "max_tokens", 2, "stream", true));
    // role, 2 contents, finish, [DONE]
    assertEquals(5, stream.events().size());
    JsonNode finish = stream.events().get(3).json();
    assertEquals("length", finish.at("/choices/0/finish_reason").asText());
    assertFalse(finish.has("usage"));
    assertEquals("[DONE]", stream.events().get(4).data());
  }

  @Test
  void streamedCompletionSendsTextChunksThenFinishWithUsage() {
    SseResponse stream =
        client().stream(
            COMPLETIONS,
            completion(
                "a b c",
                "max_tokens",
                2,
                "stream",
                true,
                "stream_options",
                Map.of("include_usage", true)));
    assertEquals(200, stream.status());
    assertEquals("text/event-stream", stream.contentType());
    String head =
        "\"id\": \"cmpl-1\", \"object\": \"text_completion\","
            + " \"model\": \"gatling-llm-simulator\"";
    List<JsonNode> expected =
        List.of(
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"text\": \"the\","
                    + " \"logprobs\": null, \"finish_reason\": null}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"text\": \" model\","
                    + " \"logprobs\": null, \"finish_reason\": null}]}"),
            json(
                "{"
                    + head
                    + ", \"choices\": [{\"index\": 0, \"text\": \"\","
                    + " \"logprobs\": null, \"finish_reason\": \"length\"}],"
                    + " \"usage\": {\"prompt_tokens\": 3, \"completion_tokens\": 2,"
                    + " \"total_tokens\": 5, \"prompt_tokens_details\": {\"cached_tokens\": 0}}}"));
    List<Event> events = stream.events();
    assertEquals(expected.size() + 1, events.size());
    for (int i = 0; i < expected.size(); i++) {
      assertEquals(expected.get(i), withoutCreated(events.get(i).json()), "event " + i);
    }
    assertEquals("[DONE]", events.get(expected.size()).data());
  }

  @Test
  void tokensPerChunkGroupsTokensAfterTheFirst() {
    SseResponse stream =
        client(SimulatorConfig.zeroDelay().withTokensPerChunk(3)).stream(
            COMPLETIONS, completion("a", "max_tokens", 7, "stream", true));
    List<String> texts = new ArrayList<>();
    for (Event event : stream.contentEvents()) {
      texts.add(event.json().at("/choices/0/text").asText());
    }
    assertEquals(List.of("the", " model is running", " in a load"), texts);
  }

  @Test
  void repeatedHundredWordPromptGets96CachedTokens() {
    SimulatorClient client = client();
    Map<String, Object> request = completion(words("w", 100), "max_tokens", 1);
    assertEquals(
        0,
        client
            .post(COMPLETIONS, request)
            .json()
            .at("/usage/prompt_tokens_details/cached_tokens")
            .asInt());
    assertEquals(
        96,
        client
            .post(COMPLETIONS, request)
            .json()
            .at("/usage/prompt_tokens_details/cached_tokens")
            .asInt());
  }

  @Test
  void repeated96WordPromptGets80CachedTokensAsTheLastTokenIsRecomputed() {
    SimulatorClient client = client();
    Map<String, Object> request = completion(words("w", 96), "max_tokens", 1);
    client.post(COMPLETIONS, request);
    assertEquals(
        80,
        client
            .post(COMPLETIONS, request)
            .json()
            .at("/usage/prompt_tokens_details/cached_tokens")
            .asInt());
  }

  @Test
  void promptsSharingA64WordPrefixShare64CachedTokens() {
    SimulatorClient client = client();
    String prefix = words("p", 64);
    client.post(COMPLETIONS, completion(prefix + " " + words("a", 36), "max_tokens", 1));
    Response second =
        client.post(COMPLETIONS, completion(prefix + " " + words("b", 36), "max_tokens", 1));
    assertEquals(
        json(
            """
            {"prompt_tokens": 100, "completion_tokens": 1, "total_tokens": 101,
             "prompt_tokens_details": {"cached_tokens": 64}}"""),
        second.json().get("usage"));
  }

  @Test
  void streamedUsageReportsCachedTokens() {
    SimulatorClient client = client();
    Map<String, Object> request =
        completion(
            words("w", 100),
            "max_tokens",
            1,
            "stream",
            true,
            "stream_options",
            Map.of("include_usage", true));
    client.stream(COMPLETIONS, request);
    List<Event> events = client.stream(COMPLETIONS, request).events();
    assertEquals(
        96,
        events
            .get(events.size() - 2)
            .json()
            .at("/usage/prompt_tokens_details/cached_tokens")
            .asInt());
  }

  @Test
  void leastRecentlyUsedPromptIsEvictedAtCapacity() {
    SimulatorClient client = client(SimulatorConfig.zeroDelay().withCacheBlocks(8));
    Map<String, Object> a = completion(words("a", 65), "max_tokens", 1);
    Map<String, Object> b = completion(words("b", 65), "max_tokens", 1);
    Map<String, Object> c = completion(words("c", 65), "max_tokens", 1);
    String cached = "/usage/prompt_tokens_details/cached_tokens";
    client.post(COMPLETIONS, a);
    client.post(COMPLETIONS, b);
    assertEquals(64, client.post(COMPLETIONS, a).json().at(cached).asInt());
    client.post(COMPLETIONS, c); // 4 more blocks: b's 4, the least recently used, go
    assertEquals(64, client.post(COMPLETIONS, a).json().at(cached).asInt());
    assertEquals(0, client.post(COMPLETIONS, b).json().at(cached).asInt());
  }

  @Test
  void cachedTokensWithQwen3FollowTheRealTokenIds() {
    SimulatorConfig config = SimulatorConfig.zeroDelay().withTokenCounter(TestTokenizers.qwen3());
    SimulatorClient client = client(config);
    // "profile" then 99 times " profile": 100 Qwen3 tokens.
    Map<String, Object> request = completion("profile" + " profile".repeat(99), "max_tokens", 1);
    client.post(COMPLETIONS, request);
    assertEquals(
        json(
            """
            {"prompt_tokens": 100, "completion_tokens": 1, "total_tokens": 101,
             "prompt_tokens_details": {"cached_tokens": 96}}"""),
        client.post(COMPLETIONS, request).json().get("usage"));
  }

  @Test
  void requestRecordsHoldTheUsageAndTheSchedule() {
    SimulatorClient client = client();
    client.post(COMPLETIONS, completion(words("w", 100), "max_tokens", 3));
    client.stream(COMPLETIONS, completion(words("w", 100), "max_tokens", 2, "stream", true));
    assertEquals(
        List.of(
            new ServedRequest(
                1, ServedEndpoint.COMPLETIONS, false, 100, 0, 3, 0, 0, 0, true, null, List.of()),
            new ServedRequest(
                2, ServedEndpoint.COMPLETIONS, true, 100, 96, 2, 0, 0, 0, true, null, List.of())),
        simulator().requests());
  }

  @Test
  void requestRecordsKeepTheClientsRequestId() {
    client().post(COMPLETIONS, completion("a", "max_tokens", 1), "X-Request-Id", "run-7");
    assertEquals("run-7", simulator().requests().get(0).clientRequestId());
  }

  @Test
  void streamedRequestRecordsKeepWhenEachTokenChunkWasSentWhenAsked() {
    SimulatorClient client =
        client(SimulatorConfig.zeroDelay().withDecodeMsPerToken(2).withRecordSendTimes(true));
    client.stream(CHAT, chat("a", "max_tokens", 3, "stream", true));
    client.post(CHAT, chat("a", "max_tokens", 3));
    ServedRequest streamed = simulator().requests().get(0);
    List<Long> sent = streamed.sentNanos();
    // One time per content chunk (not the role, finishing or usage chunk), none before its
    // schedule: token k is due (k - 1) * 2 ms after the first.
    assertEquals(3, sent.size());
    for (int k = 0; k < 3; k++) {
      assertTrue(sent.get(k) >= streamed.firstTokenNanos() + k * 2_000_000L, sent::toString);
    }
    assertEquals(List.of(), simulator().requests().get(1).sentNanos());
  }

  @Test
  void recordsKeepOnlyTheNewest() {
    SimulatorClient client = client(SimulatorConfig.zeroDelay().withRecordCapacity(2));
    for (int i = 0; i < 3; i++) {
      client.post(COMPLETIONS, completion("a", "max_tokens", 1));
    }
    assertEquals(List.of(2L, 3L), simulator().requests().stream().map(ServedRequest::id).toList());
  }

  @Test
  void metricsAreExposedInPrometheusText() {
    SimulatorClient client = client();
    client.post(COMPLETIONS, completion(words("w", 100), "max_tokens", 3));
    client.post(COMPLETIONS, completion(words("w", 100), "max_tokens", 2));
    client.postRaw(COMPLETIONS, "{");
    Response metrics = client.get("/metrics");
    assertEquals(200, metrics.status());
    assertEquals("text/plain; version=0.0.4; charset=utf-8", metrics.contentType());
    assertEquals(
        """
        # HELP gatling_llm_simulator_requests_total Requests to /v1/chat/completions, \
        /v1/completions, /v1/responses and /v1/messages, by HTTP status.
        # TYPE gatling_llm_simulator_requests_total counter
        gatling_llm_simulator_requests_total{status="200"} 2
        gatling_llm_simulator_requests_total{status="400"} 1
        # HELP gatling_llm_simulator_prompt_tokens_total Prompt tokens of admitted requests.
        # TYPE gatling_llm_simulator_prompt_tokens_total counter
        gatling_llm_simulator_prompt_tokens_total 200
        # HELP gatling_llm_simulator_cached_prompt_tokens_total Prompt tokens served from the \
        prefix cache.
        # TYPE gatling_llm_simulator_cached_prompt_tokens_total counter
        gatling_llm_simulator_cached_prompt_tokens_total 96
        # HELP gatling_llm_simulator_generation_tokens_total Output tokens produced.
        # TYPE gatling_llm_simulator_generation_tokens_total counter
        gatling_llm_simulator_generation_tokens_total 5
        # HELP gatling_llm_simulator_connections_total TCP connections accepted.
        # TYPE gatling_llm_simulator_connections_total counter
        gatling_llm_simulator_connections_total 1
        # HELP gatling_llm_simulator_cancelled_requests_total Requests whose client went away \
        before their end: generation stopped, slot freed.
        # TYPE gatling_llm_simulator_cancelled_requests_total counter
        gatling_llm_simulator_cancelled_requests_total 0
        # HELP gatling_llm_simulator_reasoning_tokens_total Output tokens produced as reasoning \
        (reasoning mode).
        # TYPE gatling_llm_simulator_reasoning_tokens_total counter
        gatling_llm_simulator_reasoning_tokens_total 0
        # HELP gatling_llm_simulator_running_sequences Sequences generating now.
        # TYPE gatling_llm_simulator_running_sequences gauge
        gatling_llm_simulator_running_sequences 0
        # HELP gatling_llm_simulator_waiting_sequences Sequences waiting for a free slot.
        # TYPE gatling_llm_simulator_waiting_sequences gauge
        gatling_llm_simulator_waiting_sequences 0
        # HELP gatling_llm_simulator_cache_blocks Prefix-cache blocks held now.
        # TYPE gatling_llm_simulator_cache_blocks gauge
        gatling_llm_simulator_cache_blocks 6
        # HELP gatling_llm_simulator_cache_capacity_blocks Prefix-cache capacity, in blocks (0: no \
        cache).
        # TYPE gatling_llm_simulator_cache_capacity_blocks gauge
        gatling_llm_simulator_cache_capacity_blocks 65536
        # HELP gatling_llm_simulator_cache_block_size_tokens Prefix-cache block size, in tokens.
        # TYPE gatling_llm_simulator_cache_block_size_tokens gauge
        gatling_llm_simulator_cache_block_size_tokens 16
        # HELP gatling_llm_simulator_cache_usage_ratio Prefix-cache blocks held / capacity (0 to 1; \
        0 without a cache).
        # TYPE gatling_llm_simulator_cache_usage_ratio gauge
        gatling_llm_simulator_cache_usage_ratio 0.000091552734375
        """,
        metrics.body());
  }

  @Test
  void invalidJsonIsABadRequest() {
    Response response = client().postRaw(CHAT, "{\"messages\": [");
    assertEquals(400, response.status());
    JsonNode error = response.json().get("error");
    assertEquals("invalid_request_error", error.get("type").asText());
    assertEquals(400, error.get("code").asInt());
    assertTrue(error.get("message").asText().startsWith("Invalid JSON body: "), error.toString());
  }

  @Test
  void bodyThatIsNotAnObjectIsABadRequest() {
    assertError(
        """
        {"error": {"message": "The request body must be a JSON object, got an array",
                   "type": "invalid_request_error", "param": null, "code": 400}}""",
        client().postRaw(CHAT, "[]"));
  }

  @Test
  void missingMessagesIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'messages' is required", "type": "invalid_request_error",
                   "param": "messages", "code": 400}}""",
        client().post(CHAT, body("model", "m")));
  }

  @Test
  void messagesThatAreNotAnArrayAreABadRequest() {
    assertError(
        """
        {"error": {"message": "'messages' must be a non-empty array of messages, got a string",
                   "type": "invalid_request_error", "param": "messages", "code": 400}}""",
        client().post(CHAT, body("messages", "hi")));
  }

  @Test
  void emptyMessagesAreABadRequest() {
    assertError(
        """
        {"error": {"message": "'messages' must be a non-empty array of messages, got an empty array",
                   "type": "invalid_request_error", "param": "messages", "code": 400}}""",
        client().post(CHAT, body("messages", List.of())));
  }

  @Test
  void messageWithoutRoleIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'messages[0].role' must be a string, got nothing",
                   "type": "invalid_request_error", "param": "messages[0].role", "code": 400}}""",
        client().post(CHAT, body("messages", List.of(Map.of("content", "hi")))));
  }

  @Test
  void numericContentIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'messages[0].content' must be a string or an array of text parts, got a number",
                   "type": "invalid_request_error", "param": "messages[0].content", "code": 400}}""",
        client().post(CHAT, body("messages", List.of(Map.of("role", "user", "content", 5)))));
  }

  @Test
  void missingPromptIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'prompt' is required", "type": "invalid_request_error",
                   "param": "prompt", "code": 400}}""",
        client().post(COMPLETIONS, body("model", "m")));
  }

  @Test
  void promptThatIsANumberIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'prompt' must be a string, an array of one string, or a non-empty array of token ids (the simulator takes one prompt per request), got a number",
                   "type": "invalid_request_error", "param": "prompt", "code": 400}}""",
        client().post(COMPLETIONS, body("prompt", 7)));
  }

  @Test
  void maxTokensThatIsAStringIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'max_tokens' must be an integer, got a string",
                   "type": "invalid_request_error", "param": "max_tokens", "code": 400}}""",
        client().post(COMPLETIONS, completion("a", "max_tokens", "5")));
  }

  @Test
  void zeroMaxCompletionTokensIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'max_completion_tokens' must be between 1 and the context length (32768), got 0",
                   "type": "invalid_request_error", "param": "max_completion_tokens", "code": 400}}""",
        client().post(CHAT, chat("hi", "max_completion_tokens", 0)));
  }

  @Test
  void streamThatIsAStringIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'stream' must be a boolean, got a string",
                   "type": "invalid_request_error", "param": "stream", "code": 400}}""",
        client().post(CHAT, chat("hi", "stream", "yes")));
  }

  @Test
  void moreThanOneChoiceIsABadRequest() {
    assertError(
        """
        {"error": {"message": "'n' must be 1 (the simulator makes one choice), got 2",
                   "type": "invalid_request_error", "param": "n", "code": 400}}""",
        client().post(CHAT, chat("hi", "n", 2)));
  }

  @Test
  void promptLongerThanTheContextIsRejectedAsLlamaCppDoes() {
    SimulatorClient client = client(SimulatorConfig.zeroDelay().withContextLength(16));
    assertError(
        """
        {"error": {"code": 400,
                   "message": "request (17 tokens) exceeds the available context size (16 tokens), try increasing it",
                   "type": "exceed_context_size_error", "n_prompt_tokens": 17, "n_ctx": 16}}""",
        client.post(COMPLETIONS, completion(words("w", 17), "max_tokens", 1)));
  }

  @Test
  void promptAsLongAsTheContextIsAccepted() {
    SimulatorClient client = client(SimulatorConfig.zeroDelay().withContextLength(16));
    assertEquals(
        200, client.post(COMPLETIONS, completion(words("w", 16), "max_tokens", 1)).status());
  }

  @Test
  void unknownPathIsNotFound() {
    assertError(
        """
        {"error": {"message": "Invalid URL (GET /v1/nothing)", "type": "invalid_request_error",
                   "param": null, "code": 404}}""",
        client().get("/v1/nothing"));
  }

  @Test
  void wrongMethodIsNotAllowed() {
    assertError(
        """
        {"error": {"message": "Method GET is not allowed on /v1/chat/completions (use POST)",
                   "type": "invalid_request_error", "param": null, "code": 405}}""",
        client().get(CHAT));
  }

  @Test
  void queryStringIsIgnoredInRouting() {
    assertEquals(200, client().get("/health?probe=1").status());
  }

  @Test
  void fiftyConcurrentStreamsAllComplete() throws Exception {
    SimulatorConfig config =
        SimulatorConfig.defaults()
            .withBaseTtftMs(5)
            .withPrefillUsPerToken(10)
            .withDecodeMsPerToken(2)
            .withMaxConcurrent(16);
    SimulatorClient client = client(config);
    ExecutorService pool = Executors.newFixedThreadPool(50);
    try {
      List<Future<SseResponse>> futures = new ArrayList<>();
      for (int i = 0; i < 50; i++) {
        Map<String, Object> request =
            chat(words("u" + i + "_", 20), "max_tokens", 8, "stream", true);
        futures.add(pool.submit(() -> client.stream(CHAT, request)));
      }
      for (Future<SseResponse> future : futures) {
        SseResponse stream = future.get(30, TimeUnit.SECONDS);
        assertEquals(200, stream.status());
        assertEquals(8, stream.contentEvents().size());
        assertEquals("[DONE]", stream.events().get(stream.events().size() - 1).data());
      }
    } finally {
      pool.shutdownNow();
    }
    SimulatorStats stats = simulator().stats();
    assertEquals(50, stats.requests(200));
    assertEquals(400, stats.generationTokens());
    assertEquals(0, stats.runningSequences());
    assertEquals(0, stats.waitingSequences());
    assertEquals(50, simulator().requests().size());
  }

  @Test
  void keepAliveConnectionServesManyRequests() {
    SimulatorClient client = client();
    for (int i = 0; i < 20; i++) {
      assertEquals(200, client.post(COMPLETIONS, completion("a", "max_tokens", 2)).status());
      // "the", " model", the finishing chunk, [DONE]
      assertEquals(
          4,
          client.stream(COMPLETIONS, completion("a", "max_tokens", 2, "stream", true))
              .events()
              .size());
    }
    assertEquals(1, simulator().stats().connectionsAccepted());
  }

  @Test
  void closeStopsListening() {
    SimulatorClient client = client();
    simulator().close();
    UncheckedIOException refused =
        assertThrows(UncheckedIOException.class, () -> client.get("/health"));
    assertTrue(refused.getCause() instanceof ConnectException, refused.toString());
  }
}
