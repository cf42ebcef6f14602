package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.examples.CapacitySearchSimulation;
import java.nio.file.Path;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The README's {@code CapacitySearchSimulation} through the real Gatling engine against the
 * embedded simulator set up as a server of known capacity: 4 sequences at once (more wait in line),
 * 20 ms base TTFT, 50 us a prompt token, 5 ms a generated token, 32 tokens an answer: a request
 * holds a slot 20 + 0.05 x prompt tokens + 31 x 5 ms, so the knee is 4 slots / that. The SLO: TTFT
 * at most 100 ms for 95% of requests, which holds while nothing waits for a slot.
 */
@Tag("forked")
class CapacitySearchRunsTest {

  @TempDir Path results;

  /** The knee of the simulator's 4 slots for the run's prompts, requests/s. */
  static double knee(JsonNode record) {
    JsonNode overall = record.get("metrics").get("overall");
    double promptTokens =
        overall.get("prompt_tokens").asDouble() / overall.get("status").get("ok").asDouble();
    return 4 / ((20 + 0.05 * promptTokens + 31 * 5) / 1000);
  }

  @Test
  void theRateSearchFindsTheKneeWithin10PercentAndHoldsIt() throws Exception {
    DslRun run =
        DslRun.run(
                CapacitySearchSimulation.class,
                results,
                "-Dllm.search.holdSeconds=15",
                "-Dllm.assert.capacityAtLeast=12")
            .exits(0);
    JsonNode record = run.record();
    assertEquals("search_over", record.get("end_reason").asText());
    assertFalse(record.get("interrupted").asBoolean(), record.toString());
    JsonNode capacity = record.get("capacity");
    assertEquals("open", capacity.get("kind").asText());
    assertTrue(capacity.get("finished").asBoolean(), capacity.toString());
    assertTrue(capacity.get("edge").isNull(), capacity.toString());
    double found = capacity.get("max_rate").asDouble();
    double knee = knee(record);
    assertTrue(
        Math.abs(found - knee) <= 0.10 * knee,
        "found " + found + " users/s against the knee " + knee + ": " + capacity);
    double missed = capacity.get("interval").get("first_missed").asDouble();
    assertTrue(missed > found, capacity.toString());
    JsonNode hold = capacity.get("hold");
    assertEquals(found, hold.get("load").asDouble(), 1e-9);
    assertTrue(hold.get("held").asBoolean(), hold.toString());
    // every level has its figures and why it ended; the search's levels are not Gatling's steps
    JsonNode levels = capacity.get("levels");
    assertTrue(levels.size() >= 4, levels.toString());
    for (JsonNode level : levels) {
      assertTrue(level.get("ended_by").isTextual(), level.toString());
      JsonNode figures = level.get("level");
      assertEquals("open", figures.get("kind").asText());
      assertEquals(level.get("load").asDouble(), figures.get("rate").asDouble(), 1e-9);
      assertTrue(figures.get("requests").asLong() > 0, level.toString());
      assertTrue(figures.get("goodput").get("attainment").isNumber(), level.toString());
      assertEquals(
          level.get("load").asDouble(),
          figures.get("offered_requests_per_s").asDouble(),
          0.15 * level.get("load").asDouble(),
          level.toString());
    }
    assertTrue(record.path("levels").isMissingNode(), record.path("levels").toString());
    assertEquals(
        1,
        run.count(
            "\nCAPACITY: "
                + io.github.gatlingllm.levels.LoadLevel.describeNumber(found)
                + " users/s meets the SLO"),
        run.log);
    assertTrue(
        run.log.contains(
            "CAPACITY: percentage of successful events is greater than or equal to 100.0 : true"),
        run.log);
    // nothing cut: the search waited for its requests before it stopped the run
    assertEquals(0, record.get("requests_cut_by_run_end").asLong(), record.toString());
  }

  @Test
  void theConcurrencySearchFindsTheSlots() throws Exception {
    DslRun run =
        DslRun.run(
                CapacitySearchSimulation.class,
                results,
                "-Dllm.search.maxUsers=8",
                "-Dllm.search.holdSeconds=10")
            .exits(0);
    JsonNode capacity = run.record().get("capacity");
    assertEquals("closed", capacity.get("kind").asText());
    // 4 users never wait for a slot (TTFT about 33 ms), 5 make one wait about 188 ms
    assertEquals(4, capacity.get("max_users").asLong(), capacity.toString());
    assertEquals(5, capacity.get("interval").get("first_missed").asLong(), capacity.toString());
    assertTrue(capacity.get("hold").get("held").asBoolean(), capacity.toString());
    for (JsonNode level : capacity.get("levels")) {
      assertEquals("closed", level.get("level").get("kind").asText());
    }
  }

  @Test
  void aBadSearchSettingStopsTheRunWithOneLine() throws Exception {
    DslRun.run(CapacitySearchSimulation.class, results, "-Dllm.search.precision=0")
        .stopsWithOneLine(
            "llm.search.precision: got 0, expected a share in [0.005, 1], e.g. 0.05 for 5%");
  }

  @Test
  void bothARateAndUsersAreRefused() throws Exception {
    DslRun.run(
            CapacitySearchSimulation.class,
            results,
            "-Dllm.search.maxRate=10",
            "-Dllm.search.maxUsers=4")
        .stopsWithOneLine(
            "llm.search.maxUsers: got 4, expected unset beside llm.search.maxRate=10 (one search a"
                + " run: an arrival-rate search, or a concurrency search)");
  }

  @Test
  void aCapacityBoundWithoutItsAssertionIsRefusedBeforeAnyLoad() throws Exception {
    DslRun.run(CapacityUnassertedSimulation.class, results)
        .stopsWithOneLine(
            "llm.assert.capacityAtLeast: got 4, but setUp(...) has no assertion on the CAPACITY row,"
                + " so the run would pass whatever capacity it finds: add llm.assertions(...) to"
                + " setUp (with -Dllm.assert.capacityAtLeast), or LlmDsl.capacityMet() to its"
                + " assertions");
  }
}
