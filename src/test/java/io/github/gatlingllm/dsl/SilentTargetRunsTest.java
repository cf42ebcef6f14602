package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A target that goes silent with requests in flight is said once, on the console, the page and in
 * {@code llm-run.json}, and stops the run as a dead target does, every request it held recorded
 * (issue 40, item 5); a target slow to its first token, but under the bound, is not silent. A
 * closed loop of 8 users over {@link TargetDownSimulation} against a {@link SilentServer} on
 * loopback.
 */
@Tag("forked")
class SilentTargetRunsTest {

  @TempDir Path results;

  private static Map<String, Integer> statuses(List<JsonNode> requests) {
    Map<String, Integer> counts = new TreeMap<>();
    for (JsonNode r : requests) {
      counts.merge(r.get("status").asText(), 1, Integer::sum);
    }
    return counts;
  }

  @Test
  void aTargetThatGoesSilentIsSaidOnceAndStopsTheRunWithNothingLost() throws Exception {
    // 40 answers, then every request gets its head and first token and nothing more
    try (SilentServer server = new SilentServer(40, 0, -1)) {
      DslRun run =
          DslRun.run(
                  TargetDownSimulation.class,
                  results,
                  "-Dllm.baseUrl=" + server.baseUrl(),
                  "-Dllm.model=x",
                  "-Dllm.preflight=false",
                  "-Dllm.silentSeconds=2",
                  // on the old code the held requests time out and the budget is spent
                  "-Dllm.requests=64",
                  "-Dllm.timeout=5s")
              .exits(0);

      assertEquals(1, run.count("\nTARGET SILENT at "), run.log);
      assertTrue(
          run.log.contains(
              " with 8 requests in flight - stopping the run (llm.stopWhenTargetDown=false keeps"
                  + " it going; llm.silentSeconds=2)"),
          run.log);
      assertEquals(0, run.count("TARGET DOWN"), run.log);
      JsonNode record = run.record();
      assertEquals("target_silent", record.get("end_reason").asText(), run.log);
      assertEquals(true, record.get("interrupted").asBoolean());
      assertEquals(8, record.get("requests_cut_by_run_end").asInt());
      JsonNode silent = record.get("target_silent");
      assertEquals(true, silent.get("stopped").asBoolean(), silent.toString());
      assertEquals(2, silent.get("silent_seconds").asInt(), silent.toString());
      assertEquals(1, silent.get("episode_count").asInt(), silent.toString());
      JsonNode episode = silent.get("episodes").get(0);
      assertEquals(8, episode.get("in_flight").asInt(), silent.toString());
      assertEquals("run_end", episode.get("ended").asText(), silent.toString());
      assertTrue(episode.get("silent_s").asDouble() >= 2.0, silent.toString());
      assertTrue(silent.get("message").asText().startsWith("TARGET SILENT at "));
      // nothing lost: every request the server received is a line, the held ones cut with what
      // they measured (their first token)
      List<JsonNode> requests = run.requests();
      assertEquals(Map.of("ok", 40, "cut_by_run_end", 8), statuses(requests));
      assertEquals(server.received(), requests.size());
      for (JsonNode r : requests) {
        if (r.get("status").asText().equals("cut_by_run_end")) {
          assertEquals(
              "still in flight when the run ended (target_silent)", r.get("error").asText());
          assertTrue(r.get("ttft_ms").isNumber(), r.toString());
        }
      }
      assertTrue(run.recordedDuration().toSeconds() < 30, run.recordedDuration().toString());
      String page = Files.readString(run.folder().resolve("llm-report.html"));
      assertTrue(
          page.contains("<p class=\"bad\" id=\"target-silent\"><strong>TARGET SILENT at "), page);
      assertTrue(
          run.log.contains(
              "The run stopped rather than wait on a silent target; its requests in flight were"
                  + " cut and recorded (cut_by_run_end)"),
          run.log);
    }
  }

  @Test
  void withTheStopOffTheRunGoesOnAndSaysWhenBytesCameAgain() throws Exception {
    // silent for 4 s from the 41st request on, then every held request is answered
    try (SilentServer server = new SilentServer(40, 0, 4_000)) {
      DslRun run =
          DslRun.run(
                  TargetDownSimulation.class,
                  results,
                  "-Dllm.baseUrl=" + server.baseUrl(),
                  "-Dllm.model=x",
                  "-Dllm.preflight=false",
                  "-Dllm.silentSeconds=2",
                  "-Dllm.requests=80",
                  "-Dllm.stopWhenTargetDown=false")
              .exits(0);

      assertEquals(1, run.count("\nTARGET SILENT at "), run.log);
      assertTrue(run.log.contains(" - the run goes on (llm.stopWhenTargetDown=false;"), run.log);
      assertEquals(1, run.count("\nTARGET SILENT ENDED at "), run.log);
      JsonNode record = run.record();
      assertEquals("budget_spent", record.get("end_reason").asText(), run.log);
      JsonNode silent = record.get("target_silent");
      assertEquals(false, silent.get("stopped").asBoolean(), silent.toString());
      assertEquals(1, silent.get("episode_count").asInt(), silent.toString());
      assertEquals("bytes", silent.get("episodes").get(0).get("ended").asText());
      assertEquals(Map.of("ok", 80), statuses(run.requests()));
      assertEquals(80, server.received());
    }
  }

  @Test
  void aServerSlowToItsFirstTokenButUnderTheBoundIsNotSilent() throws Exception {
    // every request waits 1.5 s for its head (a long prefill), under a 4 s bound
    try (SilentServer server = new SilentServer(Integer.MAX_VALUE, 1_500, -1)) {
      DslRun run =
          DslRun.run(
                  TargetDownSimulation.class,
                  results,
                  "-Dllm.baseUrl=" + server.baseUrl(),
                  "-Dllm.model=x",
                  "-Dllm.preflight=false",
                  "-Dllm.silentSeconds=4",
                  "-Dllm.requests=24")
              .exits(0);

      assertEquals(0, run.count("TARGET SILENT"), run.log);
      JsonNode record = run.record();
      assertEquals("budget_spent", record.get("end_reason").asText(), run.log);
      assertNull(record.get("target_silent"));
      assertEquals(Map.of("ok", 24), statuses(run.requests()));
      assertTrue(
          run.requests().stream().allMatch(r -> r.get("ttft_ms").asDouble() >= 1_500),
          "every request waited for its first token");
    }
  }
}
