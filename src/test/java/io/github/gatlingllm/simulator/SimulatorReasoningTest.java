package io.github.gatlingllm.simulator;

import static io.github.gatlingllm.simulator.SimulatorClient.chat;
import static io.github.gatlingllm.simulator.SimulatorClient.completion;
import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.simulator.SimulatorClient.Event;
import io.github.gatlingllm.simulator.SimulatorClient.Response;
import io.github.gatlingllm.simulator.SimulatorClient.SseResponse;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** The simulator's reasoning mode: reasoning tokens first, then the answer, counted in usage. */
class SimulatorReasoningTest {

  private static final String CHAT = "/v1/chat/completions";
  private static final String COMPLETIONS = "/v1/completions";

  private Simulator simulator;

  @AfterEach
  void stop() {
    if (simulator != null) {
      simulator.close();
    }
  }

  private SimulatorClient start(int reasoningTokens) {
    simulator =
        Simulator.start(SimulatorConfig.zeroDelay().withReasoningTokens(reasoningTokens), 0);
    return new SimulatorClient(simulator);
  }

  /** Each chunk event's delta (chat) or text (completions), as "field=value". */
  private static List<String> deltas(SseResponse stream) {
    List<String> out = new ArrayList<>();
    for (Event e : stream.events()) {
      if (e.done()) {
        continue;
      }
      JsonNode choices = e.json().path("choices");
      if (choices.isEmpty()) {
        out.add("usage=" + e.json().path("usage").path("completion_tokens_details"));
        continue;
      }
      JsonNode choice = choices.get(0);
      if (choice.has("delta")) {
        choice
            .path("delta")
            .fields()
            .forEachRemaining(f -> out.add(f.getKey() + "=" + f.getValue().asText()));
      } else {
        out.add("text=" + choice.path("text").asText());
      }
    }
    return out;
  }

  @Test
  void streamedChatSendsReasoningContentThenContent() {
    SseResponse stream =
        start(2).stream(
            CHAT,
            chat(
                "Hi",
                "max_tokens",
                4,
                "stream",
                true,
                "stream_options",
                Map.of("include_usage", true)));
    assertEquals(
        List.of(
            "role=assistant",
            "content=null",
            "reasoning_content=the",
            "reasoning_content= model",
            "content= is",
            "content= running",
            "usage={\"reasoning_tokens\":2}"),
        deltas(stream));
    assertEquals(2, simulator.stats().reasoningTokens());
    assertEquals(4, simulator.stats().generationTokens());
  }

  @Test
  void streamedCompletionPutsTheReasoningInsideThinkTags() {
    SseResponse stream =
        start(2).stream(COMPLETIONS, completion("Hi", "max_tokens", 3, "stream", true));
    assertEquals(
        List.of("text=<think>the", "text= model", "text=</think> is", "text="), deltas(stream));
  }

  @Test
  void aReplyNoLongerThanTheReasoningNeverAnswers() {
    SseResponse stream = start(5).stream(CHAT, chat("Hi", "max_tokens", 2, "stream", true));
    assertEquals(
        List.of(
            "role=assistant", "content=null", "reasoning_content=the", "reasoning_content= model"),
        deltas(stream));
  }

  @Test
  void nonStreamedChatHasReasoningContentAndUsageDetails() {
    Response response = start(2).post(CHAT, chat("Hi", "max_tokens", 3));
    JsonNode message = response.json().path("choices").get(0).path("message");
    assertEquals("the model", message.path("reasoning_content").asText());
    assertEquals(" is", message.path("content").asText());
    assertEquals(
        2,
        response
            .json()
            .path("usage")
            .path("completion_tokens_details")
            .path("reasoning_tokens")
            .asInt());
  }

  @Test
  void metricsCountReasoningTokens() {
    SimulatorClient client = start(3);
    client.post(CHAT, chat("Hi", "max_tokens", 4));
    String metrics = client.get("/metrics").body();
    assertEquals(
        true, metrics.contains("\ngatling_llm_simulator_reasoning_tokens_total 3\n"), metrics);
  }
}
