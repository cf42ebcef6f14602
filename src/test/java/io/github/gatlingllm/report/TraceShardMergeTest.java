package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The shards of a replayed trace merge into one trace object: every shard's rows, one digest. */
class TraceShardMergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final String[] DIGESTS = {
    "0000000000000001", "0000000000000002", "0000000000000003", "0000000000000004"
  };

  @TempDir Path dir;

  /** Shard {@code index} of 2 of a 4-row trace: rows index, index + 2; row 3 never sent. */
  private Path shard(int index) throws Exception {
    Path folder = Files.createDirectories(dir.resolve("shard-" + index));
    StringBuilder lines = new StringBuilder();
    long sent = 0;
    for (int row = index; row < 4; row += 2) {
      if (row == 3) {
        continue;
      }
      sent++;
      RequestRecord r =
          RequestRecord.builder()
              .request("replay")
              .phase("measured")
              .index((long) row)
              .digest(DIGESTS[row])
              .startMs(1000 + row * 100L)
              .e2eMs(50.0)
              .status(RequestStatus.OK)
              .workload("trace")
              .traceRow((long) row)
              .build();
      lines.append(RequestRecordJson.toJson(r, false)).append('\n');
    }
    Files.writeString(folder.resolve("llm-requests.jsonl"), lines);
    Map<String, Object> trace = new LinkedHashMap<>();
    trace.put("path", "t.jsonl");
    trace.put("rows", 4);
    trace.put("rows_sent", sent);
    trace.put("rows_skipped", 2 - sent);
    trace.put("digest", "ffffffffffffffff");
    Map<String, Object> prompts = new LinkedHashMap<>();
    prompts.put("workload", "trace");
    prompts.put("spec", Map.of("mode", "trace"));
    prompts.put("seed", 0);
    prompts.put("case_id", "trace_t.jsonl");
    prompts.put("phases", Map.of("measured", Map.of("requests", sent, "digest", "x")));
    prompts.put("request_names", List.of("replay"));
    prompts.put("trace", trace);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("product", "gatling-llm");
    run.put("prompts", prompts);
    run.put(
        "target",
        Map.of("base_url", "http://127.0.0.1:4000/v1", "embedded_simulator", true, "model", "s"));
    run.put("load", Map.of("concurrency", 1, "warmup_requests", 0, "requests", sent));
    run.put("shard", Map.of("index", index, "count", 2));
    run.put("started_at", "2026-12-01T00:00:0" + index + "Z");
    run.put("ended_at", "2026-12-01T00:01:0" + index + "Z");
    Files.writeString(folder.resolve("llm-run.json"), JSON.writeValueAsString(run));
    return folder;
  }

  @Test
  @SuppressWarnings("unchecked")
  void theShardsRowsAreSummedAndTheDigestIsTheMergedOne() throws Exception {
    RunReport report = RunReport.read(List.of(shard(0), shard(1)), null);

    Map<String, Object> prompts = (Map<String, Object>) report.record().get("prompts");
    Map<String, Object> trace = (Map<String, Object>) prompts.get("trace");
    Map<String, Object> measured =
        (Map<String, Object>) ((Map<String, Object>) prompts.get("phases")).get("measured");
    assertEquals(3L, trace.get("rows_sent"));
    assertEquals(1L, trace.get("rows_skipped"));
    assertEquals(measured.get("digest"), trace.get("digest"));
    assertEquals(3L, measured.get("requests"));
  }
}
