package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.api.FinishReason;
import io.github.gatlingllm.examples.ConversationSimulation;
import io.github.gatlingllm.examples.PromptFileSimulation;
import io.github.gatlingllm.examples.QuickstartSimulation;
import io.github.gatlingllm.examples.TraceReplaySimulation;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/**
 * Every workload on the Responses and Messages APIs, in the real Gatling engine against the
 * embedded simulator: the examples switched by {@code -Dllm.endpoint} (generated prompts with a
 * cache plan, a conversation workload, a trace, a prompts file). Each request is recorded {@code
 * ok} with the API's own finish reason (the simulator runs every reply to its limit: {@code
 * max_output_tokens} on Responses, {@code max_tokens} on Messages) and exact counts from the API's
 * usage; the cache plans hold.
 */
@Tag("forked")
@Tag("parallel")
class ApisRunsTest {

  @TempDir Path results;

  private static String finish(String api) {
    return api.equals("responses") ? "max_output_tokens" : "max_tokens";
  }

  private static void allOk(DslRun run, String api, int measured) {
    assertEquals(0, run.exitCode, run.log);
    List<JsonNode> requests = run.requests();
    long ok = requests.stream().filter(r -> r.path("phase").asText().equals("measured")).count();
    assertEquals(measured, ok, run.log);
    for (JsonNode r : requests) {
      assertEquals("ok", r.path("status").asText(), r.toString());
      assertEquals(finish(api), r.path("finish_reason").asText(), r.toString());
      assertEquals(
          FinishReason.LENGTH, FinishReason.of(r.path("finish_reason").asText()), r.toString());
      assertTrue(r.path("prompt_tokens_exact").asBoolean(), r.toString());
      assertTrue(r.path("completion_tokens_exact").asBoolean(), r.toString());
      assertTrue(r.path("ttft_ms").asDouble() > 0, r.toString());
    }
    assertEquals(api, run.record().path("target").path("endpoint").asText());
  }

  @ParameterizedTest
  @ValueSource(strings = {"responses", "messages"})
  void generatedPromptsWithTheirCachePlan(String api) throws Exception {
    DslRun run =
        DslRun.run(
            QuickstartSimulation.class,
            results,
            "-Dllm.endpoint=" + api,
            "-Dllm.requests=40",
            "-Dllm.concurrency=4");
    allOk(run, api, 40);
    assertTrue(run.log.contains("cache as planned"), run.log);
  }

  @ParameterizedTest
  @ValueSource(strings = {"responses", "messages"})
  void conversationsThreadTheirHistory(String api) throws Exception {
    DslRun run = DslRun.run(ConversationSimulation.class, results, "-Dllm.endpoint=" + api);
    assertEquals(0, run.exitCode, run.log);
    List<JsonNode> requests = run.requests();
    long laterTurns = requests.stream().filter(r -> r.path("turn").asInt() > 1).count();
    assertTrue(laterTurns > 24, "later turns: " + laterTurns);
    for (JsonNode r : requests) {
      assertEquals("ok", r.path("status").asText(), r.toString());
      assertEquals(finish(api), r.path("finish_reason").asText(), r.toString());
      if (r.path("turn").asInt() > 1) {
        // the previous prompt and reply come back: served from the cache as planned
        assertEquals(r.path("cache_planned").asText(), r.path("cache").asText(), r.toString());
        assertTrue(r.path("cached_tokens").asInt() > 0, r.toString());
      }
    }
    assertTrue(run.log.contains("cache as planned"), run.log);
  }

  @ParameterizedTest
  @ValueSource(strings = {"responses", "messages"})
  void traceRows(String api) throws Exception {
    DslRun run = DslRun.run(TraceReplaySimulation.class, results, "-Dllm.endpoint=" + api);
    allOk(run, api, 60);
  }

  @ParameterizedTest
  @ValueSource(strings = {"responses", "messages"})
  void promptFileRows(String api) throws Exception {
    DslRun run = DslRun.run(PromptFileSimulation.class, results, "-Dllm.endpoint=" + api);
    allOk(run, api, 12);
  }
}
