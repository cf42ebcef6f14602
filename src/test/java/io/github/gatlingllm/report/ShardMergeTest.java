package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.record.Merge;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ShardMergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private static PromptSource source() {
    return new PromptSource(
        PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 3, "c4_in64_out8", "measured", 64);
  }

  private static RequestRecord request(
      String name, long index, String digest, long startMs, double e2eMs) {
    return RequestRecord.builder()
        .request(name)
        .phase("measured")
        .index(index)
        .digest(digest)
        .startMs(startMs)
        .promptTokens(64)
        .promptTokensExact(true)
        .cachedTokens(0)
        .completionTokens(8)
        .completionTokensExact(true)
        .ttftMs(e2eMs / 2)
        .timeToFirstEventMs(e2eMs / 2)
        .itlMs(List.of(1.0))
        .tpotMs(1.0)
        .e2eMs(e2eMs)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  /**
   * Shard {@code index} of {@code count} of a 10-request test: a folder with its requests (indices
   * index, index + count, ...; one every 100 ms from {@code startMs}) and a run record as the run
   * writes it.
   */
  private Path shard(int index, int count, long startMs, long seed, List<Long> skip)
      throws Exception {
    PromptSource source = source();
    Path folder = Files.createDirectories(dir.resolve("shard-" + index));
    StringBuilder lines = new StringBuilder();
    long handedOut = 0;
    for (long i = index; i < 10; i += count) {
      handedOut++;
      String digest = source.prompt(i).digest();
      if (!skip.contains(i)) {
        lines
            .append(
                RequestRecordJson.toJson(request("chat", i, digest, startMs + i * 100, 50), true))
            .append('\n');
      }
    }
    Files.writeString(folder.resolve("llm-requests.jsonl"), lines);
    Map<String, Object> prompts = new LinkedHashMap<>();
    prompts.put("workload", "unique");
    prompts.put("spec", Map.of("mode", "unique"));
    prompts.put("seed", seed);
    prompts.put("case_id", "c4_in64_out8");
    prompts.put(
        "phases", Map.of("measured", Map.of("requests", handedOut, "digest", source.digest())));
    prompts.put("request_names", List.of("chat"));
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("product", "gatling-llm");
    run.put("prompts", prompts);
    run.put(
        "target",
        Map.of(
            "base_url",
            "http://127.0.0.1:" + (4000 + index) + "/v1",
            "embedded_simulator",
            true,
            "model",
            "sim"));
    run.put(
        "load",
        Map.of("concurrency", 2, "warmup_requests", 0, "requests", handedOut, "timeout_ms", 1000));
    run.put("shard", Map.of("index", index, "count", count, "start_at", "2026-12-01T00:00:00Z"));
    run.put("started_at", "2026-12-01T00:00:0" + index + "Z");
    run.put("ended_at", "2026-12-01T00:01:0" + index + "Z");
    Files.writeString(folder.resolve("llm-run.json"), JSON.writeValueAsString(run));
    return folder;
  }

  private static String oneMachineDigest() {
    PromptSource source = source();
    for (long i = 0; i < 10; i++) {
      source.prompt(i);
    }
    return source.digest();
  }

  @SuppressWarnings("unchecked")
  private static Map<String, Object> measured(RunReport report) {
    Map<String, Object> prompts = (Map<String, Object>) report.record().get("prompts");
    return (Map<String, Object>) ((Map<String, Object>) prompts.get("phases")).get("measured");
  }

  @Test
  void shardsMergeIntoTheOneMachineDigest() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 1000, 0, List.of())), null);

    assertEquals(List.of(), report.warnings());
    assertEquals(oneMachineDigest(), measured(report).get("digest"));
    assertEquals(10L, measured(report).get("requests"));
    assertEquals(10L, report.record().get("requests_recorded"));
    assertEquals(List.of(), report.record().get("merge_warnings"));
    assertEquals(null, report.record().get("prompt_digests_equal"));
    assertEquals(null, report.record().get("shard"));
  }

  @Test
  void mergedRequestsAreInStartOrder() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 1000, 0, List.of())), null);

    List<Long> indices = new ArrayList<>();
    report.requests().forEach(r -> indices.add(r.index()));
    assertEquals(List.of(0L, 1L, 2L, 3L, 4L, 5L, 6L, 7L, 8L, 9L), indices);
  }

  @Test
  @SuppressWarnings("unchecked")
  void perShardCountsAndWindows() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 1000, 0, List.of())), null);

    List<Merge.Folder> shards = (List<Merge.Folder>) report.record().get(Merge.SHARDS_KEY);
    assertEquals(2, shards.size());
    assertEquals("0/2", shards.get(0).shard());
    assertEquals(5L, shards.get(0).measured());
    assertEquals(5L, shards.get(1).ok());
    assertEquals("1970-01-01T00:00:01Z", shards.get(0).firstStart());
    assertEquals("1970-01-01T00:00:01.850Z", shards.get(0).lastEnd());
    assertEquals("1970-01-01T00:00:01.100Z", shards.get(1).firstStart());
    Map<String, Object> load = (Map<String, Object>) report.record().get("load");
    assertEquals(10L, load.get("requests"));
    assertEquals(4L, load.get("concurrency"));
    assertEquals(1000, load.get("timeout_ms"));
    assertEquals("2026-12-01T00:00:00Z", report.record().get("started_at"));
    assertEquals("2026-12-01T00:01:01Z", report.record().get("ended_at"));
  }

  @Test
  void windowsThatDoNotOverlapAreWarnedOf() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 900_000, 0, List.of())), null);

    assertEquals(
        List.of(
            "the folders' windows do not overlap (shard 0/2 1970-01-01T00:00:01Z to"
                + " 1970-01-01T00:00:01.850Z; shard 1/2 1970-01-01T00:15:00.100Z to"
                + " 1970-01-01T00:15:00.950Z): they did not run at the same time, so the merged"
                + " rates and concurrency are not those of one test"),
        report.warnings());
    assertEquals(oneMachineDigest(), measured(report).get("digest"));
  }

  @Test
  void theReportPageShowsTheShardsAndTheWarnings() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 900_000, 0, List.of())), null);

    String page = Files.readString(report.write(dir.resolve("merged"), false));
    assertTrue(page.contains("<h2>Shards</h2>"), page);
    assertTrue(page.contains("<td class=\"l\">1/2</td>"), page);
    assertTrue(
        page.contains("<strong>Merge warning:</strong> the folders&#39; windows do not overlap"),
        page);
  }

  @Test
  void settingsThatDifferAreWarnedOf() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 1000, 5, List.of())), null);

    assertEquals(
        List.of("settings differ between shard 0/2 and shard 1/2: prompts[unique].seed 0 vs 5"),
        report.warnings());
  }

  @Test
  void aMissingShardIsWarnedOf() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 3, 1000, 0, List.of()), shard(2, 3, 1000, 0, List.of())), null);

    assertEquals(
        List.of(
            "shards [1] of 3 are missing: their requests are not in the merge",
            "workload unique, measured: 3 of the indices 0 to 9 have no request: the digest is"
                + " not the one-machine run's"),
        report.warnings());
    assertEquals(7L, measured(report).get("requests"));
  }

  @Test
  void aShardGivenTwiceIsWarnedOf() throws Exception {
    Path a = shard(0, 2, 1000, 0, List.of());
    RunReport report = RunReport.read(List.of(a, a, shard(1, 2, 1000, 0, List.of())), null);

    assertEquals(
        List.of(
            "shard 0 is given twice (" + a + ", " + a + "): its requests are counted twice",
            "5 request indices were recorded more than once (e.g. unique measured 0): the same"
                + " shard given twice, or shards of different settings"),
        report.warnings());
  }

  @Test
  void promptsHandedOutButNotRecordedAreWarnedOf() throws Exception {
    RunReport report =
        RunReport.read(
            List.of(shard(0, 2, 1000, 0, List.of()), shard(1, 2, 1000, 0, List.of(9L))), null);

    assertEquals(
        List.of(
            "workload unique, measured: the shards handed out 10 prompts but recorded 9 (requests"
                + " in flight when a shard ended): the digest covers the recorded ones"),
        report.warnings());
  }
}
