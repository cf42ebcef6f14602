package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Several workloads in one simulation, and several LLM requests on one fed record, through the real
 * Gatling engine against the embedded simulator.
 */
@Tag("forked")
class WorkloadRunsTest {

  @TempDir Path results;

  /**
   * The digest of the first {@code n} prompts of a spec, as {@code gatling-llm prompts} gives it.
   */
  private static String digest(PromptSpec spec, String caseId, int inputTokens, int n) {
    PromptSource source =
        new PromptSource(spec, EstimatedTokenCounter.INSTANCE, 0, caseId, "measured", inputTokens);
    for (long i = 0; i < n; i++) {
      source.take(i);
    }
    return source.digest();
  }

  @Test
  void twoWorkloadsSideBySideAreRecordedApartAndRunTogether() throws Exception {
    DslRun run = DslRun.run(TwoWorkloadsSimulation.class, results).exits(0);
    JsonNode record = run.record();
    List<JsonNode> requests = run.requests();

    Map<String, JsonNode> workloads = new HashMap<>();
    record.get("workloads").forEach(w -> workloads.put(w.get("workload").asText(), w));
    assertEquals(2, workloads.size(), record.get("workloads").toString());
    JsonNode chat = workloads.get("chat");
    assertEquals("chat_case", chat.get("case_id").asText());
    assertEquals("unique", chat.get("spec").get("mode").asText());
    assertEquals(30, chat.get("phases").get("measured").get("requests").asLong());
    assertEquals(
        digest(PromptSpec.unique(), "chat_case", 32, 30),
        chat.get("phases").get("measured").get("digest").asText());
    JsonNode summary = workloads.get("summary");
    assertEquals("summary_case", summary.get("case_id").asText());
    assertEquals("shared-prefix", summary.get("spec").get("mode").asText());
    assertEquals(20, summary.get("phases").get("measured").get("requests").asLong());
    assertEquals(
        digest(PromptSpec.sharedPrefix(0.5, 2), "summary_case", 64, 20),
        summary.get("phases").get("measured").get("digest").asText());

    List<JsonNode> chats =
        requests.stream().filter(r -> r.get("request").asText().equals("chat")).toList();
    List<JsonNode> summaries =
        requests.stream().filter(r -> r.get("request").asText().equals("summary")).toList();
    assertEquals(30, chats.size());
    assertEquals(20, summaries.size());
    assertEquals(50, requests.stream().filter(r -> r.get("status").asText().equals("ok")).count());
    for (JsonNode r : summaries) {
      assertTrue(r.get("prefix_group").isInt(), r.toString());
    }
    for (JsonNode r : chats) {
      assertTrue(r.get("prefix_group").isNull(), r.toString());
    }
    // Side by side: some chat request was in flight while a summary request was.
    assertTrue(overlap(chats, summaries), "the two workloads never ran at the same time");
    assertEquals(50, record.get("load").get("requests").asLong());

    Map<String, Long> groups = new HashMap<>();
    record
        .get("metrics")
        .get("groups")
        .forEach(
            g ->
                groups.put(
                    g.get("request").asText() + "/" + g.get("phase").asText(),
                    g.get("requests").asLong()));
    assertEquals(Map.of("chat/measured", 30L, "summary/measured", 20L), groups);
  }

  private static boolean overlap(List<JsonNode> a, List<JsonNode> b) {
    for (JsonNode x : a) {
      for (JsonNode y : b) {
        double xs = x.get("start_ms").asDouble();
        double ys = y.get("start_ms").asDouble();
        if (xs < ys + y.get("e2e_ms").asDouble() && ys < xs + x.get("e2e_ms").asDouble()) {
          return true;
        }
      }
    }
    return false;
  }

  @Test
  void twoRequestsOnOneFedRecordSendTheSamePromptAndTheRunStillEndsAtItsBudget() throws Exception {
    DslRun run = DslRun.run(TwoCallsOneRecordSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    assertEquals(20, requests.size());
    Map<Long, Map<String, String>> digests = new HashMap<>();
    for (JsonNode r : requests) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      digests
          .computeIfAbsent(r.get("index").asLong(), i -> new HashMap<>())
          .put(r.get("request").asText(), r.get("digest").asText());
    }
    assertEquals(10, digests.size());
    digests.forEach(
        (index, byName) -> {
          assertEquals(2, byName.size(), "index " + index + ": " + byName);
          assertEquals(byName.get("a"), byName.get("b"), "index " + index);
        });
    // The injection lasts 60 s; the 10 records are spent in about a second.
    assertEquals(1, run.count("every request has ended: stopping the injection"), run.log);
    assertTrue(run.recordedDuration().toSeconds() < 30, run.recordedDuration().toString());
  }
}
