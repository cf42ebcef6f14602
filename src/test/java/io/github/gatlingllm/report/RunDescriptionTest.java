package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.record.RunRecord;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What ran, in the sentence the page and the console lead with (issue 30 point 7). */
class RunDescriptionTest {

  private static Map<String, Object> quickstart() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "prompts",
        Map.of(
            "workload",
            "shared-prefix",
            "spec",
            Map.of("mode", "shared-prefix", "shared_prefix_ratio", 0.5, "prefix_groups", 4),
            "input_tokens",
            256));
    run.put(
        "target",
        Map.of(
            "base_url",
            "http://127.0.0.1:44343/v1",
            "embedded_simulator",
            true,
            "model",
            "gatling-llm-simulator",
            "endpoint",
            "chat"));
    run.put("decoding", Map.of("max_tokens", 32, "stream", true));
    run.put(
        "load",
        Map.of(
            "requests",
            200,
            "warmup_requests",
            8,
            "profiles",
            List.of("chat (closed): constantConcurrentUsers(8).during(600s)")));
    run.put("levels", List.of(Map.of("scenario", "chat", "concurrency", 8)));
    return run;
  }

  @Test
  void aRunStoppedBeforeItsBudgetCountsTheRequestsItSentAndSaysWhy() {
    // 127 measured prompts drawn, 119 sent: the stop ended 8 users that had drawn one
    Map<String, Object> run = quickstart();
    run.put("load", Map.of("requests", 127, "warmup_requests", 8));
    run.put("interrupted", true);
    run.put("end_reason", "target_down");
    run.put("metrics", Map.of("overall", Map.of("requests", 119)));
    String text = RunDescription.of(RunRecord.of(run));
    assertEquals(
        "8 users, closed loop; 119 measured requests after 8 warmup, then stopped (target_down)",
        text.substring(text.indexOf("8 users")));
  }

  @Test
  void promptsWithImagesSayThem() {
    Map<String, Object> run = quickstart();
    run.put(
        "prompts",
        Map.of(
            "workload",
            "shared-prefix",
            "spec",
            Map.of(
                "mode",
                "shared-prefix",
                "shared_prefix_ratio",
                0.5,
                "prefix_groups",
                4,
                "images",
                Map.of(
                    "count", 2, "shared", 1, "width", 448, "height", "256-512", "format", "jpeg")),
            "input_tokens",
            256));
    assertEquals(
        "chat completions, streamed, to http://127.0.0.1:44343/v1 (the embedded simulator), model"
            + " gatling-llm-simulator; shared-prefix prompts of 256 tokens (0.5 of each shared"
            + " within 4 groups) with 2 images (1 its group's) 448x256-512 jpeg, up to 32 output"
            + " tokens; 8 users, closed loop; 200 measured requests after 8 warmup",
        RunDescription.of(RunRecord.of(run)));
  }

  @Test
  void theQuickstart() {
    assertEquals(
        "chat completions, streamed, to http://127.0.0.1:44343/v1 (the embedded simulator), model"
            + " gatling-llm-simulator; shared-prefix prompts of 256 tokens (0.5 of each shared"
            + " within 4 groups), up to 32 output tokens; 8 users, closed loop; 200 measured"
            + " requests after 8 warmup",
        RunDescription.of(RunRecord.of(quickstart())));
  }

  @Test
  void aSteppedOpenLoopGivesItsRatesAndLevels() {
    Map<String, Object> run = quickstart();
    run.put(
        "levels",
        List.of(
            Map.of("scenario", "open", "rate", 6),
            Map.of("scenario", "open", "rate", 12),
            Map.of("scenario", "open", "rate", 30)));
    run.put("load", Map.of("requests", 450, "warmup_requests", 0));
    run.put("target", Map.of("base_url", "http://127.0.0.1:8000/v1", "endpoint", "completions"));
    run.put("decoding", Map.of("max_tokens", 64, "stream", false));
    assertEquals(
        "completions, not streamed, to http://127.0.0.1:8000/v1; shared-prefix prompts of 256"
            + " tokens (0.5 of each shared within 4 groups), up to 64 output tokens; 6 to 30 users/s"
            + " in 3 levels, open loop; 450 measured requests",
        RunDescription.of(RunRecord.of(run)));
  }

  @Test
  void withoutLevelsTheInjectionProfileIsSaid() {
    Map<String, Object> run = quickstart();
    run.remove("levels");
    run.put("load", Map.of("profiles", List.of("chat (open): atOnceUsers(10)")));
    run.remove("target");
    run.remove("decoding");
    assertEquals(
        "shared-prefix prompts of 256 tokens (0.5 of each shared within 4 groups); chat (open):"
            + " atOnceUsers(10)",
        RunDescription.of(RunRecord.of(run)));
  }

  @Test
  void aTraceAndAPromptsFileAreNamedByTheirFile() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "workloads",
        List.of(
            Map.of(
                "workload",
                "trace",
                "spec",
                Map.of("mode", "trace"),
                "trace",
                Map.of("path", "/data/mooncake.jsonl", "rows", 1000)),
            Map.of(
                "workload",
                "file",
                "spec",
                Map.of("mode", "file", "file", "/home/u/prompts.csv", "rows", 12))));
    assertEquals(
        "trace replay of mooncake.jsonl (1000 rows) and prompts from prompts.csv (12 rows)",
        RunDescription.of(RunRecord.of(run)));
  }

  /** A replay of 30 rows that each ask 8 output tokens, under a protocol of 128 max tokens. */
  private static Map<String, Object> traceOf(int outputMin, int outputMax) {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "prompts",
        Map.of(
            "workload",
            "trace",
            "spec",
            Map.of("mode", "trace"),
            "trace",
            Map.of(
                "path",
                "/tmp/words-trace8.jsonl",
                "rows",
                30,
                "output_length_min",
                outputMin,
                "output_length_max",
                outputMax)));
    run.put("decoding", Map.of("max_tokens", 128, "stream", true));
    return run;
  }

  @Test
  void aTraceSaysTheOutputTokensItsRowsAskNotTheProtocolsMaxTokens() {
    assertEquals(
        "trace replay of words-trace8.jsonl (30 rows, each asking 8 output tokens)",
        RunDescription.of(RunRecord.of(traceOf(8, 8))));
  }

  @Test
  void aTraceOfManyOutputLengthsSaysTheirRange() {
    assertEquals(
        "trace replay of words-trace8.jsonl (30 rows, asking 4 to 16 output tokens)",
        RunDescription.of(RunRecord.of(traceOf(4, 16))));
  }

  @Test
  void aTraceRecordedWithoutItsLengthsSaysNoOutputTokens() {
    Map<String, Object> run = traceOf(8, 8);
    run.put(
        "prompts",
        Map.of("trace", Map.of("path", "/tmp/words-trace8.jsonl", "rows", 30), "spec", Map.of()));
    assertEquals(
        "trace replay of words-trace8.jsonl (30 rows)", RunDescription.of(RunRecord.of(run)));
  }

  @Test
  void generatedPromptsBesideATraceKeepTheProtocolsMaxTokens() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "workloads",
        List.of(
            map(traceOf(8, 8).get("prompts")),
            Map.of("workload", "unique", "spec", Map.of("mode", "unique"), "input_tokens", 64)));
    run.put("decoding", Map.of("max_tokens", 128));
    assertEquals(
        "trace replay of words-trace8.jsonl (30 rows, each asking 8 output tokens) and unique"
            + " prompts of 64 tokens, up to 128 output tokens",
        RunDescription.of(RunRecord.of(run)));
  }

  @Test
  void aSeedFromTheClockIsSaid() {
    Map<String, Object> run = quickstart();
    Map<String, Object> prompts = new LinkedHashMap<>(map(run.get("prompts")));
    prompts.put("seed", 1796611462722L);
    prompts.put("seed_auto", true);
    run.put("prompts", prompts);
    assertEquals(
        "chat completions, streamed, to http://127.0.0.1:44343/v1 (the embedded simulator), model"
            + " gatling-llm-simulator; shared-prefix prompts of 256 tokens (0.5 of each shared"
            + " within 4 groups), seed 1796611462722 (llm.seed=auto), up to 32 output tokens; 8"
            + " users, closed loop; 200 measured requests after 8 warmup",
        RunDescription.of(RunRecord.of(run)));
  }

  @Test
  void aSeedGivenIsNotSaid() {
    Map<String, Object> run = quickstart();
    Map<String, Object> prompts = new LinkedHashMap<>(map(run.get("prompts")));
    prompts.put("seed", 42L);
    run.put("prompts", prompts);
    assertEquals(
        RunDescription.of(RunRecord.of(quickstart())), RunDescription.of(RunRecord.of(run)));
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> map(Object o) {
    return (Map<String, Object>) o;
  }

  @Test
  void anEmptyRecordSaysNothing() {
    assertNull(RunDescription.of(RunRecord.of(Map.of())));
  }
}
