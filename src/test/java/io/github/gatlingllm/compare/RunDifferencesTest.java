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
}
