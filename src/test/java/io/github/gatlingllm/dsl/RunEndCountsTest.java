package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.ServerSocket;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 40.1, "nothing lost": whatever ends the run, every prompt handed out is one line of {@code
 * llm-requests.jsonl} (indices {@code 0..N-1} of each phase once each), and the counts agree: the
 * {@code LLM run:} line, the summary, {@code llm-run.json} and Gatling's own OK/KO (OK = ok +
 * cancelled, KO = the failures; a request cut by the run's end has no row of Gatling's).
 */
@Tag("forked")
class RunEndCountsTest {

  @TempDir Path results;

  @Test
  void aSaturationStopLosesNoPromptAndAgreesWithGatling() throws Exception {
    DslRun run = DslRun.run(SaturationStopSimulation.class, results).exits(0);

    assertEquals("saturation_stop", run.record().get("end_reason").asText(), run.log);
    Map<String, Long> statuses = countsAgree(run);
    // the stopping user's own prompt, fed and never sent, is one of the cut lines
    assertTrue(statuses.getOrDefault("cut_by_run_end", 0L) >= 1, statuses.toString());
  }

  @Test
  void aSpentBudgetLosesNoPromptAndAgreesWithGatling() throws Exception {
    DslRun run = DslRun.run(ClosedLoopBudgetSimulation.class, results).exits(0);

    assertEquals("budget_spent", run.record().get("end_reason").asText(), run.log);
    assertEquals(Map.of("ok", 40L), countsAgree(run));
  }

  @Test
  void aTargetDownLosesNoPromptAndAgreesWithGatling() throws Exception {
    int port;
    try (ServerSocket socket = new ServerSocket(0)) {
      port = socket.getLocalPort();
    }
    DslRun run =
        DslRun.run(
                TargetDownSimulation.class,
                results,
                "-Dllm.baseUrl=http://127.0.0.1:" + port + "/v1",
                "-Dllm.model=x",
                "-Dllm.preflight=false")
            .exits(0);

    assertEquals("target_down", run.record().get("end_reason").asText(), run.log);
    Map<String, Long> statuses = countsAgree(run);
    assertTrue(statuses.get("connect_error") >= 10, statuses.toString());
  }

  @Test
  void aProfileEndLosesNoPromptAndAgreesWithGatling() throws Exception {
    DslRun run = DslRun.run(SteppedClosedForeverSimulation.class, results).exits(0);

    assertEquals("injection_over", run.record().get("end_reason").asText(), run.log);
    Map<String, Long> statuses = countsAgree(run);
    // each looping user was fed once more at the profile's end and ended without sending it
    JsonNode record = run.record();
    assertEquals(
        statuses.getOrDefault("cut_by_run_end", 0L).longValue(),
        record.get("requests_cut_before_sent").asLong(),
        record.toString());
  }

  @Test
  void aMaxDurationLosesNoPromptAndAgreesWithGatling() throws Exception {
    DslRun run =
        DslRun.run(io.github.gatlingllm.gatling.MaxDurationSimulation.class, results).exits(0);

    assertEquals("max_duration", run.record().get("end_reason").asText(), run.log);
    Map<String, Long> statuses = countsAgree(run);
    assertTrue(statuses.getOrDefault("cut_by_run_end", 0L) >= 3, statuses.toString());
  }

  /**
   * Asserts that every count of the run agrees, literally, and returns the lines' statuses.
   *
   * @return status to lines
   */
  static Map<String, Long> countsAgree(DslRun run) {
    assertEquals(0, run.count("a request finished after the run record was written"), run.log);
    JsonNode record = run.record();
    List<JsonNode> lines = run.requests();
    Map<String, Long> statuses = new TreeMap<>();
    for (JsonNode r : lines) {
      statuses.merge(r.get("status").asText(), 1L, Long::sum);
    }
    // every index handed out, once: 0..N-1 of each phase, N as llm-run.json says
    JsonNode phases = record.get("prompts").get("phases");
    long handedOut = 0;
    for (String phase : List.of("warmup", "measured")) {
      long n = phases.get(phase).get("requests").asLong();
      handedOut += n;
      List<Long> indices = new ArrayList<>();
      for (JsonNode r : lines) {
        if (r.get("phase").asText().equals(phase)) {
          indices.add(r.get("index").asLong());
        }
      }
      indices.sort(null);
      List<Long> expected = new ArrayList<>();
      for (long i = 0; i < n; i++) {
        expected.add(i);
      }
      assertEquals(expected, indices, phase + " indices\n" + statuses);
    }
    assertEquals(handedOut, lines.size(), statuses.toString());
    assertEquals(lines.size(), record.get("requests_recorded").asLong());
    assertEquals(
        record.get("load").get("requests").asLong(),
        phases.get("measured").get("requests").asLong());
    assertEquals(
        statuses.getOrDefault("cut_by_run_end", 0L).longValue(),
        record.get("requests_cut_by_run_end").asLong(),
        statuses.toString());
    // the console's LLM run and LLM summary lines
    Matcher measured = Pattern.compile("; (\\d+) measured requests[,\\n]").matcher(run.log);
    assertTrue(measured.find(), run.log);
    assertEquals(
        phases.get("measured").get("requests").asLong(), Long.parseLong(measured.group(1)));
    Matcher summary =
        Pattern.compile("LLM summary: (\\d+) requests \\(([^)]*)\\)").matcher(run.log);
    assertTrue(summary.find(), run.log);
    assertEquals(lines.size(), Long.parseLong(summary.group(1)), summary.group());
    long ok = statuses.getOrDefault("ok", 0L);
    long cancelled = statuses.getOrDefault("cancelled", 0L);
    long cut = statuses.getOrDefault("cut_by_run_end", 0L);
    if (ok > 0) {
      assertTrue(summary.group(2).contains("ok " + ok), summary.group());
    }
    // Gatling's own last count: a row per request that ended while it took rows
    assertEquals(
        List.of(lines.size() - cut, ok + cancelled, lines.size() - cut - ok - cancelled),
        run.row("Global"),
        statuses.toString());
    return statuses;
  }
}
