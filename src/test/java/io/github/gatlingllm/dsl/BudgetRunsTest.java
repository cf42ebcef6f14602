package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.List;
import java.util.TreeSet;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A prompt budget under Gatling's own injection profiles, closed and open, constant and ramped,
 * with and without warmup, through the real Gatling engine against the embedded simulator: exactly
 * the budget is sent and recorded, users fed past it end without a request, the run says so once
 * and stops, and the record's load figures are those of the requests.
 */
@Tag("forked")
@Tag("parallel")
class BudgetRunsTest {

  private static final String SPENT = "its 40 measured requests are handed out";
  private static final String STOPPING = "every request has ended: stopping the injection";

  @TempDir Path results;

  @Test
  void aRawClosedLoopEndsAfterItsBudgetWellBeforeItsInjection() throws Exception {
    DslRun run = DslRun.run(ClosedLoopBudgetSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    assertEquals(40, requests.size());
    TreeSet<Long> indices = new TreeSet<>();
    for (JsonNode r : requests) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals("measured", r.get("phase").asText(), r.toString());
      assertEquals(16, r.get("digest").asText().length(), r.toString());
      indices.add(r.get("index").asLong());
    }
    assertEquals(List.of(40L, 40L, 0L), run.row("chat"));
    // Global counts the requests only (the TTFT, TPOT and E2E figures are groups): issue 30.
    assertEquals(List.of(40L, 40L, 0L), run.row("Global"));
    assertEquals(40, indices.size());
    assertEquals(0L, indices.first());
    assertEquals(39L, indices.last());
    assertEquals(1, run.count(SPENT), run.log);
    assertEquals(1, run.count(STOPPING), run.log);
    // The injection lasts 60 s; the budget is spent in about 1 s.
    assertTrue(run.recordedDuration().toSeconds() < 30, run.recordedDuration().toString());

    JsonNode load = run.record().get("load");
    assertEquals(40, load.get("requests").asLong());
    assertEquals(4, load.get("concurrency").asLong());
    assertEquals(4, DslRun.peakInFlight(requests));
    assertEquals(4, load.get("users_ended_by_budget").asLong());
    assertEquals(40, run.record().get("requests_recorded").asLong());
  }

  @Test
  void openArrivalsPastTheBudgetEndCleanlyAndAreAnnouncedOnce() throws Exception {
    DslRun run = DslRun.run(OpenBudgetSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    assertEquals(40, requests.size());
    for (JsonNode r : requests) {
      assertEquals("ok", r.get("status").asText(), r.toString());
      assertEquals(16, r.get("digest").asText().length(), r.toString());
    }
    assertEquals(List.of(40L, 40L, 0L), run.row("chat"));
    // Global counts the requests only (the TTFT, TPOT and E2E figures are groups): issue 30.
    assertEquals(List.of(40L, 40L, 0L), run.row("Global"));
    assertEquals(1, run.count(SPENT), run.log);
    assertEquals(1, run.count(STOPPING), run.log);
    assertEquals(0, run.count("[ERROR]"), run.log);
    JsonNode load = run.record().get("load");
    assertEquals(40, load.get("requests").asLong());
    // The action counts a request in flight from when it is handed to the client until it is
    // recorded, a little longer than its record's [start, start + e2e]: on a loaded machine the
    // action's peak may exceed the records' by a few.
    long fromRecords = DslRun.peakInFlight(requests);
    long peak = load.get("concurrency").asLong();
    assertTrue(fromRecords <= peak && peak <= fromRecords + 4, peak + " vs " + fromRecords);
    assertTrue(load.get("users_ended_by_budget").asLong() >= 1, load.toString());
  }

  @Test
  void aRampOfConcurrencyIsRecordedAtItsPeak() throws Exception {
    DslRun run = DslRun.run(RampSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    assertEquals(300, requests.size());
    assertEquals(300, requests.stream().filter(r -> r.get("status").asText().equals("ok")).count());
    JsonNode load = run.record().get("load");
    assertEquals(300, load.get("requests").asLong());
    assertEquals(8, load.get("concurrency").asLong());
    assertEquals(8, DslRun.peakInFlight(requests));
  }

  @Test
  void inAnOpenLoopNoMeasuredRequestStartsBeforeTheLastWarmupOneEnded() throws Exception {
    DslRun run = DslRun.run(OpenWarmupSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    List<JsonNode> warmup =
        requests.stream().filter(r -> r.get("phase").asText().equals("warmup")).toList();
    List<JsonNode> measured =
        requests.stream().filter(r -> r.get("phase").asText().equals("measured")).toList();
    assertEquals(5, warmup.size());
    assertEquals(30, measured.size());
    long warmupEnd =
        warmup.stream()
            .mapToLong(
                r -> (long) Math.floor(r.get("start_ms").asLong() + r.get("e2e_ms").asDouble()))
            .max()
            .getAsLong();
    long measuredStart =
        measured.stream().mapToLong(r -> r.get("start_ms").asLong()).min().getAsLong();
    assertTrue(
        measuredStart >= warmupEnd,
        "first measured start " + measuredStart + " ms, last warmup end " + warmupEnd + " ms");
    JsonNode load = run.record().get("load");
    assertEquals(5, load.get("warmup_requests").asLong());
    assertEquals(30, load.get("requests").asLong());
  }

  @Test
  void aSpentBudgetLeavesAScenarioWithoutOneToRunItsInjection() throws Exception {
    DslRun run = DslRun.run(BudgetBesideOwnPromptSimulation.class, results).exits(0);
    List<JsonNode> requests = run.requests();

    long chat = requests.stream().filter(r -> r.get("request").asText().equals("chat")).count();
    long own = requests.stream().filter(r -> r.get("request").asText().equals("own")).count();
    assertEquals(10, chat);
    assertEquals(20, own);
    assertEquals(List.of(20L, 20L, 0L), run.row("own"));
    assertEquals(0, run.count(STOPPING), run.log);
    assertEquals(
        1,
        run.count(
            "the budgeted scenarios (budgeted) send no more requests, their virtual users end"
                + " without one until their injection ends; the run goes on for the scenarios with"
                + " no budget of their own (own prompt) until their injection ends"),
        run.log);
    assertEquals("injection_over", run.record().get("end_reason").asText());
  }
}
