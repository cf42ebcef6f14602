package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Levels of a closed profile and of an open one chained after it with {@code andThen}, through the
 * real Gatling engine against the embedded simulator: each steady step is a level with its
 * concurrency or rate, the chained scenario's levels start when its first user does, requests
 * started in ramps are left out and counted, and the counts add up.
 */
@Tag("forked")
class LevelsRunsTest {

  @TempDir Path results;

  @Test
  void closedLevelsThenOpenLevelsChainedWithAndThen() throws Exception {
    DslRun run = DslRun.run(SteppedLevelsSimulation.class, results).exits(0);
    JsonNode record = run.record();
    JsonNode levels = record.get("levels");
    List<String> shape = new ArrayList<>();
    long inLevels = 0;
    for (JsonNode level : levels) {
      shape.add(
          level.get("scenario").asText()
              + " "
              + level.get("kind").asText()
              + " "
              + (level.has("concurrency") ? level.get("concurrency") : level.get("rate")));
      inLevels += level.get("requests").asLong();
      assertTrue(level.get("requests").asLong() > 0, level.toString());
      assertEquals(3.0, level.get("duration_s").asDouble(), level.toString());
    }
    assertEquals(
        List.of("closed closed 2", "closed closed 4", "open open 4", "open open 8"), shape);
    // The open scenario starts after the closed one's last user ended.
    assertTrue(
        levels.get(2).get("start_ms").asLong() >= levels.get(1).get("end_ms").asLong(),
        levels.toString());
    // 4 then 8 arrivals a second for 3 s each: 12 and 24 requests, give or take one.
    assertTrue(Math.abs(levels.get(2).get("requests").asLong() - 12) <= 1, levels.toString());
    assertTrue(Math.abs(levels.get(3).get("requests").asLong() - 24) <= 1, levels.toString());

    JsonNode leftOut = record.get("levels_left_out");
    // The 1 s ramp from 4 to 8 users a second brings about 6 arrivals.
    assertTrue(leftOut.get("ramps").asLong() >= 4, leftOut.toString());
    assertEquals(
        record.get("metrics").get("overall").get("requests").asLong(),
        inLevels
            + leftOut.get("ramps").asLong()
            + leftOut.get("outside").asLong()
            + leftOut.get("unplaced").asLong());
    assertTrue(
        record.get("levels_note").asText().contains(leftOut.get("ramps").asLong() + " measured"),
        record.get("levels_note").asText());

    JsonNode injection = record.get("load").get("injection");
    assertEquals("closed", injection.get(1).get("after").get(0).asText());
    assertEquals(
        List.of(
            "closed (closed): constantConcurrentUsers(2).during(3s),"
                + " constantConcurrentUsers(4).during(3s)",
            "open (open, after closed): constantUsersPerSec(4).during(3s),"
                + " rampUsersPerSec(4).to(8).during(1s), constantUsersPerSec(8).during(3s)"),
        List.of(
            record.get("load").get("profiles").get(0).asText(),
            record.get("load").get("profiles").get(1).asText()));
    // Two scenarios of 2 levels each: the saturation is the first one's, saturations has both.
    assertEquals("closed", record.get("saturation").get("scenario").asText());
    assertEquals(2, record.get("saturations").size());
    assertEquals("open", record.get("saturations").get(1).get("scenario").asText());
    JsonNode open = record.get("saturations").get(1);
    // Its verdict names one of its own levels (run-wide index 2 or 3, 0 or 1 in the scenario)
    // when it saw saturation, and none when it did not (issue 29: no level is marked then).
    if (open.get("saturated").asBoolean()) {
      assertEquals(
          open.get("saturation_level").asInt() - 2, open.get("saturation_scenario_level").asInt());
    } else {
      assertTrue(open.get("saturation_level").isNull(), open.toString());
      assertTrue(open.get("saturation_scenario_level").isNull(), open.toString());
    }
    assertEquals(!open.get("saturated").asBoolean(), open.get("still_growing").asBoolean());
    assertTrue(open.get("max_level").asInt() >= 2, open.toString());
    // Each scenario counts its own levels from 0.
    assertEquals(
        List.of(0, 1, 0, 1),
        List.of(
            levels.get(0).get("scenario_index").asInt(),
            levels.get(1).get("scenario_index").asInt(),
            levels.get(2).get("scenario_index").asInt(),
            levels.get(3).get("scenario_index").asInt()));
    assertEquals(
        inLevels
            + leftOut.get("ramps").asLong()
            + leftOut.get("outside").asLong()
            + leftOut.get("unplaced").asLong(),
        leftOut.get("measured_total").asLong());
  }
}
