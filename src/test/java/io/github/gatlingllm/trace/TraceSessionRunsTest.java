package io.github.gatlingllm.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace of three sessions replayed against the embedded simulator, in a Gatling JVM of its own:
 * each session's rows go in file order, a later row never before its session's previous row ended
 * plus its delay, and at its own timestamp when that is later (issue 32).
 */
@Tag("forked")
class TraceSessionRunsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  private static String row(String session, String timing, int row) {
    return "{\"session_id\": \""
        + session
        + "\", "
        + timing
        + "\"input_length\": 64, \"output_length\": 100, \"hash_ids\": ["
        + (row + 1)
        + "]}";
  }

  /** Rows 3 and 7 wait for their previous rows, row 5's timestamp is later than its session's. */
  static final List<String> ROWS =
      List.of(
          row("a", "\"timestamp\": 1000, ", 0),
          row("b", "\"timestamp\": 1050, ", 1),
          row("c", "\"timestamp\": 1100, ", 2),
          row("a", "\"delay\": 200, ", 3),
          row("b", "\"timestamp\": 1100, \"delay\": 100, ", 4),
          row("c", "\"timestamp\": 3000, \"delay\": 0, ", 5),
          row("a", "\"delay\": 50, ", 6),
          row("b", "\"delay\": 300, ", 7));

  static final List<String> SESSIONS = List.of("a", "b", "c", "a", "b", "c", "a", "b");

  static final int[] PREVIOUS = {-1, -1, -1, 0, 1, 2, 3, 4};

  static final long[] DELAY = {0, 0, 0, 200, 100, 0, 50, 300};

  @Test
  void aSessionsRowIsSentAfterItsPreviousRowEndedPlusItsDelay() throws Exception {
    Path trace = results.resolve("trace.jsonl");
    Files.write(trace, ROWS);
    Path log = results.resolve("gatling.log");
    Process process =
        GatlingJvm.start(TraceRunSimulation.class, results, List.of("-Dllm.trace=" + trace), log);
    assertTrue(process.waitFor(300, TimeUnit.SECONDS), "Gatling did not finish");
    String console = GatlingJvm.read(log);
    assertEquals(0, process.exitValue(), console);
    List<Path> folders = GatlingJvm.runFolders(TraceRunSimulation.class, results);
    assertEquals(1, folders.size(), console);
    List<JsonNode> requests = new ArrayList<>();
    for (String line : Files.readAllLines(folders.get(0).resolve("llm-requests.jsonl"))) {
      requests.add(JSON.readTree(line));
    }
    assertEquals(8, requests.size(), console);
    requests.sort((x, y) -> Long.compare(x.get("index").asLong(), y.get("index").asLong()));
    double firstDue = requests.get(0).get("scheduled_ms").asDouble();
    StringBuilder sends = new StringBuilder();
    for (JsonNode r : requests) {
      sends.append(
          String.format(
              "row %d session %s due +%.1f sent +%.1f ended +%.1f%n",
              r.get("index").asLong(),
              r.get("session_id").asText(),
              r.get("scheduled_ms").asDouble() - firstDue,
              r.get("sent_ms").asDouble() - firstDue,
              r.get("start_ms").asLong() + r.get("e2e_ms").asDouble() - firstDue));
    }
    System.out.println(sends);
    for (int i = 0; i < 8; i++) {
      JsonNode r = requests.get(i);
      String row = r + "\n" + sends;
      assertEquals(i, r.get("index").asLong(), row);
      assertEquals(i, r.get("trace_row").asLong(), row);
      assertEquals(SESSIONS.get(i), r.get("session_id").asText(), row);
      assertEquals("ok", r.get("status").asText(), row);
      double sent = r.get("sent_ms").asDouble();
      double scheduled = r.get("scheduled_ms").asDouble();
      assertTrue(r.get("schedule_lag_ms").asDouble() >= 0, row);
      if (PREVIOUS[i] >= 0) {
        JsonNode p = requests.get(PREVIOUS[i]);
        // start_ms is whole milliseconds: the previous row ended at most 1 ms after this
        double previousEnded = p.get("start_ms").asLong() + p.get("e2e_ms").asDouble();
        assertTrue(
            sent >= previousEnded + DELAY[i] - 1, "sent before previous end + delay: " + row);
        assertTrue(scheduled >= previousEnded + DELAY[i] - 1, row);
      }
    }
    // Rows 3 and 7: their session's previous reply (100 tokens) ends after their timestamp's
    // due time, so their schedule is the session's.
    assertTrue(requests.get(3).get("scheduled_ms").asDouble() - firstDue > 200, sends.toString());
    assertTrue(requests.get(7).get("scheduled_ms").asDouble() - firstDue > 400, sends.toString());
    // Row 5: its own timestamp (2 s after the first) is later than its session's due time.
    assertEquals(
        2000.0, requests.get(5).get("scheduled_ms").asDouble() - firstDue, 0.01, sends.toString());
    // The first rows of the sessions go at their timestamps.
    assertEquals(
        50.0, requests.get(1).get("scheduled_ms").asDouble() - firstDue, 0.01, sends.toString());
    assertEquals(
        100.0, requests.get(2).get("scheduled_ms").asDouble() - firstDue, 0.01, sends.toString());
  }
}
