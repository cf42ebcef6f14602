package io.github.gatlingllm.compare;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.record.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunDifferencesTest {

  @Test
  void differentPromptDigestsAreNamed() {
    Map<String, Object> a =
        Map.of(
            "prompts",
            Map.of(
                "workload",
                "unique",
                "phases",
                Map.of("measured", Map.of("requests", 40, "digest", "aaaa"))));
    Map<String, Object> b =
        Map.of(
            "prompts",
            Map.of(
                "workload",
                "unique",
                "phases",
                Map.of("measured", Map.of("requests", 40, "digest", "bbbb"))));

    assertEquals(
        List.of("workload unique phase measured: digest A aaaa, B bbbb"),
        RunDifferences.promptDifferences(RunRecord.of(a), RunRecord.of(b)));
    assertEquals(List.of(), RunDifferences.promptDifferences(RunRecord.of(a), RunRecord.of(a)));
  }

  @Test
  void eitherRunsWarningsAreRepeated() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("interrupted", true);
    run.put("end_reason", "max_duration");
    run.put("cache", Map.of("warm_start", true, "warm_start_message", "3 requests hit"));
    run.put("client", Map.of("warnings", List.of("schedule lag p99 40 ms")));
    List<String> out = new ArrayList<>();

    RunDifferences.runWarnings(out, "B", RunRecord.of(run));

    assertEquals(
        List.of(
            "B was interrupted (max_duration): its figures cover the requests that finished",
            "B warm start: 3 requests hit",
            "B client: schedule lag p99 40 ms"),
        out);
  }

  @Test
  void everyDifferenceInWhatWasRunIsNamed() {
    Map<String, Object> a =
        Map.of(
            "load",
            Map.of(
                "concurrency", 4,
                "warmup_requests", 8,
                "requests", 60,
                "connections", "shared",
                "profiles", List.of("chat (closed): constantConcurrentUsers(4).during(600s)")),
            "prompts",
            Map.of("seed", 7, "input_tokens", 128, "spec", Map.of("mode", "repeat")),
            "decoding",
            Map.of("max_tokens", 16, "stream", true, "ignore_eos", false),
            "target",
            Map.of(
                "embedded_simulator",
                true,
                "simulator",
                Map.of("decode_ms_per_token", 10.0, "base_ttft_ms", 20.0)));
    Map<String, Object> b =
        Map.of(
            "load",
            Map.of(
                "concurrency", 1,
                "warmup_requests", 8,
                "requests", 40,
                "connections", "shared",
                "profiles", List.of("chat (closed): constantConcurrentUsers(1).during(600s)")),
            "prompts",
            Map.of("seed", 8, "input_tokens", 256, "spec", Map.of("mode", "unique")),
            "decoding",
            Map.of("max_tokens", 32, "stream", false, "ignore_eos", false),
            "target",
            Map.of(
                "embedded_simulator",
                true,
                "simulator",
                Map.of("decode_ms_per_token", 12.0, "base_ttft_ms", 20.0)));

    assertEquals(
        List.of(
            "users: A 4, B 1",
            "injection profile: A chat (closed): constantConcurrentUsers(4).during(600s), B chat"
                + " (closed): constantConcurrentUsers(1).during(600s)",
            "budget (measured requests): A 60, B 40",
            "input tokens: A 128, B 256",
            "prompt shape: A {mode=repeat}, B {mode=unique}",
            "prompt seed: A 7, B 8",
            "output tokens (max_tokens): A 16, B 32",
            "streaming: A true, B false",
            "simulator decode_ms_per_token: A 10.0, B 12.0"),
        RunDifferences.loadDifferences(RunRecord.of(a), RunRecord.of(b)));
    assertEquals(List.of(), RunDifferences.loadDifferences(RunRecord.of(a), RunRecord.of(a)));
  }

  @Test
  void aRunWithoutTheFiguresIsNotComparedOnThem() {
    assertEquals(
        List.of(),
        RunDifferences.loadDifferences(
            RunRecord.of(Map.of("load", Map.of("concurrency", 4))), RunRecord.of(Map.of())));
  }
}
