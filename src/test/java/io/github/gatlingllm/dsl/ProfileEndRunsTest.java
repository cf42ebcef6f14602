package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import java.time.Duration;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Users looping {@code forever()} end with their scenario's injection profile. */
@Tag("forked")
class ProfileEndRunsTest {

  @TempDir Path results;

  @Test
  void aSteppedClosedProfileOfForeverLoopsEndsAtItsLastLevel() throws Exception {
    DslRun run = DslRun.run(SteppedClosedForeverSimulation.class, results).exits(0);

    assertEquals(
        1,
        run.count(
            "the injection profile of scenario chat is over (closed, 9.0 s): its virtual users"
                + " still looping end as their requests in flight end, instead of running on"),
        run.log);
    JsonNode record = run.record();
    // Before: the run went on at 6 users until killed. Now it ends as the profile does, but for
    // the requests in flight (tens of ms each) and a loaded machine's slack.
    Duration recorded = run.recordedDuration();
    assertTrue(
        recorded.toMillis() >= 8_500 && recorded.toMillis() < 15_000, recorded + "\n" + run.log);
    JsonNode levels = record.get("levels");
    assertEquals(3, levels.size(), levels + "\n" + run.log);
    long outside = 0;
    for (JsonNode r : run.requests()) {
      if (r.get("status").asText().equals("cut_by_run_end")) {
        // a looping user's prompt fed at the profile's end, never sent: still one line (40.1)
        assertEquals(
            "not sent: the injection profile of scenario chat was over",
            r.get("error").asText(),
            r.toString());
      } else {
        assertEquals("ok", r.get("status").asText(), r.toString());
      }
    }
    assertTrue(record.get("requests_cut_before_sent").asLong() <= 6, record.toString());
    JsonNode leftOut = record.get("levels_left_out");
    if (leftOut != null && leftOut.has("outside")) {
      outside = leftOut.get("outside").asLong();
    }
    // at most one request in flight per user at the end, started before it
    assertTrue(outside <= 6, record.toString());
  }
}
