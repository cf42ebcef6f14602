package io.github.gatlingllm.gatling;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import io.github.gatlingllm.testing.GatlingJvm;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Tag;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A run stopped by Gatling's {@code maxDuration} with every request in flight still records each of
 * them: status {@code cut_by_run_end}, the TTFT and tokens measured until the cut, one summary
 * warning with the count, and {@code end_reason} {@code max_duration}.
 */
@Tag("forked")
class MaxDurationRunTest {

  @TempDir Path results;

  @Test
  void requestsInFlightAtMaxDurationAreRecordedAsCut() throws Exception {
    Path run = GatlingJvm.run(MaxDurationSimulation.class, results, List.of(), 0, 120);
    String log;
    try (Stream<Path> files = Files.list(results)) {
      Path file =
          files.filter(p -> p.getFileName().toString().startsWith("gatling-")).findFirst().get();
      log = Files.readString(file);
    }
    JsonNode record = GatlingJvm.runRecord(run);
    assertEquals("max_duration", record.get("end_reason").asText());
    assertEquals(true, record.get("interrupted").asBoolean());
    assertEquals(3, record.get("requests_cut_by_run_end").asInt());
    assertEquals(6, record.get("requests_recorded").asInt());
    JsonNode status = record.get("metrics").get("overall").get("status");
    assertEquals(3, status.get("cut_by_run_end").asInt());
    assertEquals(3, status.get("ok").asInt());

    List<JsonNode> requests = GatlingJvm.requests(run);
    assertEquals(6, requests.size());
    List<JsonNode> cut =
        requests.stream().filter(r -> r.get("status").asText().equals("cut_by_run_end")).toList();
    assertEquals(3, cut.size());
    for (JsonNode r : cut) {
      assertEquals(
          "still in flight when the run ended (max_duration)",
          r.get("error").asText(),
          r.toString());
      assertEquals(200, r.get("http_status").asInt(), r.toString());
      // sent at about 1.8 s, cut at 3 s: its TTFT (60 ms) came, not its 8 tokens
      assertTrue(r.get("ttft_ms").asDouble() > 0, r.toString());
      assertTrue(r.get("completion_tokens").asInt() < 8, r.toString());
    }
    assertEquals(0, count(log, "a request finished after the run record was written"), log);
    assertEquals(
        1,
        count(
            log,
            "warning: the run was interrupted (max_duration): 3 LLM requests were still in flight,"
                + " recorded with status cut_by_run_end"),
        log);
  }

  private static int count(String text, String part) {
    int n = 0;
    for (int i = text.indexOf(part); i >= 0; i = text.indexOf(part, i + 1)) {
      n++;
    }
    return n;
  }
}
