package io.github.gatlingllm.trace;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A trace replayed against the embedded simulator, in a Gatling JVM of its own: every row sent
 * once, at its timestamp, with a prompt of its {@code input_length} and the cached tokens its hash
 * ids plan.
 */
@Tag("forked")
class TraceRunsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path results;

  /**
   * 40 rows, 100 ms apart (10 rows/s), in 4 sessions of shared 2-block roots: the 4 roots first,
   * then a pause of 1.7 s (a cold JVM's first requests take a while), then the 36 rows that share
   * them.
   */
  static long timestamp(int i) {
    return i < 4 ? 1000 + i * 100 : 3000 + (i - 4) * 100;
  }

  static List<String> rows() {
    List<String> rows = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      int root = i % 4;
      int input = 64 * 2 + 40 + (i % 5) * 20; // 168 .. 248: 3 or 4 blocks
      int blocks = (input + 63) / 64;
      long[] ids = new long[blocks];
      ids[0] = root * 1000L;
      ids[1] = root * 1000L + 1;
      for (int b = 2; b < blocks; b++) {
        ids[b] = 100_000L + i * 10L + b;
      }
      rows.add(
          "{\"timestamp\": "
              + timestamp(i)
              + ", \"input_length\": "
              + input
              + ", \"output_length\": "
              + (2 + i % 3)
              + ", \"hash_ids\": "
              + Arrays.toString(ids)
              + "}");
    }
    return rows;
  }

  @Test
  void everyRowIsSentOnceAtItsTimestampWithItsPlannedCachedTokens() throws Exception {
    Path trace = results.resolve("trace.jsonl");
    Files.write(trace, rows());
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
    assertEquals(40, requests.size(), console);
    requests.sort((a, b) -> Long.compare(a.get("index").asLong(), b.get("index").asLong()));
    double firstDue = requests.get(0).get("scheduled_ms").asDouble();
    StringBuilder sends = new StringBuilder();
    for (JsonNode r : requests) {
      sends.append(
          String.format(
              "row %d due +%.1f sent +%.1f lag %s planned %d cached %d%n",
              r.get("index").asLong(),
              r.get("scheduled_ms").asDouble() - firstDue,
              r.get("sent_ms").asDouble() - firstDue,
              r.get("schedule_lag_ms"),
              r.get("planned_cached_tokens").asInt(),
              r.get("cached_tokens").asInt()));
    }
    System.out.println(sends);
    List<Double> lags = new ArrayList<>();
    for (int i = 0; i < 40; i++) {
      JsonNode r = requests.get(i);
      String row = r.toString();
      int input = 64 * 2 + 40 + (i % 5) * 20;
      assertEquals(i, r.get("index").asLong(), row);
      assertEquals(i, r.get("trace_row").asLong(), row);
      assertEquals("trace-" + i, r.get("prompt_id").asText(), row);
      assertEquals("ok", r.get("status").asText(), row);
      assertEquals(input, r.get("planned_tokens").asInt(), row);
      int lead = r.get("prompt_tokens").asInt() - input;
      assertTrue(lead >= 0 && lead <= 16, "prompt tokens beyond the template lead: " + row);
      assertEquals(2 + i % 3, r.get("completion_tokens").asInt(), row);
      // Due 100 ms apart, on the trace's clock; never sent before it.
      assertEquals(timestamp(i) - 1000.0, r.get("scheduled_ms").asDouble() - firstDue, 0.01, row);
      double lag = r.get("schedule_lag_ms").asDouble();
      assertTrue(lag >= 0, row);
      if (i >= 4) {
        lags.add(lag);
      }
      int planned = r.get("planned_cached_tokens").asInt();
      int cached = r.get("cached_tokens").asInt();
      assertTrue(Math.abs(cached - planned) <= 16, "cached " + cached + " vs plan: " + row);
      if (i < 4) {
        assertEquals("miss", r.get("cache").asText(), row);
      } else {
        // Its root's two blocks (128 tokens) and the template were sent by an earlier row.
        assertTrue(planned >= 128, row);
        assertEquals("hit", r.get("cache").asText(), row);
      }
    }
    lags.sort(Double::compare);
    // Printed, not asserted: wall time is the machine's (see scripts/trace-replay-bench.sh).
    System.out.println(
        "trace replay at 10 rows/s, 36 rows: schedule lag p50 "
            + lags.get(lags.size() / 2)
            + " ms, p99 "
            + lags.get((int) Math.ceil(0.99 * lags.size()) - 1)
            + " ms");
    JsonNode run = JSON.readTree(folders.get(0).resolve("llm-run.json").toFile());
    JsonNode t = run.get("prompts").get("trace");
    assertTrue(t != null, run.get("prompts").toString());
    assertEquals(40, t.get("rows").asInt());
    assertEquals(40, t.get("rows_sent").asInt());
    assertEquals(0, t.get("rows_skipped").asInt());
    assertEquals(64, t.get("block_tokens").asInt());
    assertEquals(64, t.get("sha256").asText().length());
  }
}
