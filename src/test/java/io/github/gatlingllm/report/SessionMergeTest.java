package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class SessionMergeTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  /**
   * Shard 0/2's run record: sessions of 2 and 3 requests, 100 and 200 ms from 1,000 and 1,100 ms,
   * 1,000 and 3,000 prompt tokens, planned cache hits 0.5 and 0.75, observed 0.25 and 0.5.
   */
  private static final String SHARD_0 =
      "{\"sessions\":[{\"workload\":\"agents\",\"sessions_budget\":4,\"warmup_sessi"
          + "ons_budget\":0,\"tools\":4,\"tool_calls_limit\":4,\"tool_choice\":\"auto\",\""
          + "turns_sent\":5,\"warmup_turns_sent\":0,\"measured\":{\"count\":2,\"completed"
          + "\":2,\"ended\":{\"completed\":2,\"loop_limit\":0,\"context_limit\":0,\"error"
          + "\":0},\"requests_per_session\":{\"count\":2,\"mean\":2.5,\"p50\":2,\"p90\":3"
          + ",\"p99\":3,\"max\":3},\"duration_ms\":{\"count\":2,\"mean\":150.0,\"p50\":10"
          + "0,\"p90\":200,\"p99\":200,\"max\":200},\"tokens_per_session\":{\"count\":2,\""
          + "mean\":2020.0,\"p50\":1020,\"p90\":3020,\"p99\":3020,\"max\":3020,\"prompt_m"
          + "ean\":2000.0,\"completion_mean\":20.0},\"tool_calls\":3,\"malformed_tool_cal"
          + "ls\":0,\"sessions_per_hour\":24000.0,\"cache_hit_ratio\":{\"planned\":{\"ses"
          + "sions\":2,\"mean\":0.625,\"p50\":0.5,\"min\":0.5,\"prompt_tokens\":4000,\"ca"
          + "ched_tokens\":2750,\"overall\":0.688},\"observed\":{\"sessions\":2,\"mean\":"
          + "0.375,\"p50\":0.25,\"min\":0.25,\"prompt_tokens\":4000,\"cached_tokens\":175"
          + "0,\"overall\":0.438}},\"merge_state\":{\"first_start_ms\":1000,\"last_end_ms"
          + "\":1300,\"prompt_tokens\":4000,\"completion_tokens\":40,\"requests_per_sessi"
          + "on\":{\"sum\":5,\"max\":3,\"histogram\":\"HISTFAAAAB54nJNpmSzMwMDAzAABMJoRSj"
          + "PZf4BKMDEBAEIaAoY=\"},\"duration_ms\":{\"sum\":300,\"max\":200,\"histogram\""
          + ":\"HISTFAAAACN4nJNpmSzMwMDAxgABzFCaEUoz2X+AMI4zMh1lZAIAUQcEFA==\"},\"tokens_"
          + "per_session\":{\"sum\":4040,\"max\":3020,\"histogram\":\"HISTFAAAACR4nJNpmSz"
          + "MwMDAxgABzFCaEULx/7f/AGF952e6KM4EAGKABYA=\"},\"planned_cache_hit\":{\"ratio_"
          + "sum\":1.25,\"histogram_per_mille\":\"HISTFAAAACN4nJNpmSzMwMDAxgABzFCaEUoz2X+"
          + "AMJ6zM31kZgIAUm0EaA==\"},\"observed_cache_hit\":{\"ratio_sum\":0.75,\"histog"
          + "ram_per_mille\":\"HISTFAAAACN4nJNpmSzMwMDAxgABzFCaEUoz2X+AMD4zM31kZgIAUqEEcA"
          + "==\"}}},\"phase_digest\":\"1111111111111111\"}]}";

  /**
   * Shard 1/2's: a loop-limit session of 5 requests, 300 ms from 1,050 ms, 2,000 prompt tokens,
   * planned 0.5, no observed; an error session of 1 request, 1,900 ms from 2,000 ms, 4,000 prompt
   * tokens, planned and observed 0.
   */
  private static final String SHARD_1 =
      "{\"sessions\":[{\"workload\":\"agents\",\"sessions_budget\":4,\"warmup_sessi"
          + "ons_budget\":0,\"tools\":4,\"tool_calls_limit\":4,\"tool_choice\":\"auto\",\""
          + "turns_sent\":6,\"warmup_turns_sent\":0,\"measured\":{\"count\":2,\"completed"
          + "\":0,\"ended\":{\"completed\":0,\"loop_limit\":1,\"context_limit\":0,\"error"
          + "\":1},\"requests_per_session\":{\"count\":2,\"mean\":3.0,\"p50\":1,\"p90\":5"
          + ",\"p99\":5,\"max\":5},\"duration_ms\":{\"count\":2,\"mean\":1100.0,\"p50\":3"
          + "00,\"p90\":1900,\"p99\":1900,\"max\":1900},\"tokens_per_session\":{\"count\""
          + ":2,\"mean\":3020.0,\"p50\":2020,\"p90\":4020,\"p99\":4020,\"max\":4020,\"pro"
          + "mpt_mean\":3000.0,\"completion_mean\":20.0},\"tool_calls\":4,\"malformed_too"
          + "l_calls\":0,\"sessions_per_hour\":1263.158,\"cache_hit_ratio\":{\"planned\":"
          + "{\"sessions\":2,\"mean\":0.25,\"p50\":0.0,\"min\":0.0,\"prompt_tokens\":6000"
          + ",\"cached_tokens\":1000,\"overall\":0.167},\"observed\":{\"sessions\":1,\"me"
          + "an\":0.0,\"p50\":0.0,\"min\":0.0,\"prompt_tokens\":4000,\"cached_tokens\":0,"
          + "\"overall\":0.0}},\"merge_state\":{\"first_start_ms\":1050,\"last_end_ms\":3"
          + "900,\"prompt_tokens\":6000,\"completion_tokens\":40,\"requests_per_session\""
          + ":{\"sum\":6,\"max\":5,\"histogram\":\"HISTFAAAAB54nJNpmSzMwMDAwgABzFCaEUoz2X"
          + "+AsViZAETBAok=\"},\"duration_ms\":{\"sum\":2200,\"max\":1900,\"histogram\":\""
          + "HISTFAAAACN4nJNpmSzMwMDAxgABzFCaEUoz2X+AMK6zMP2VYAIAUkwEdg==\"},\"tokens_per"
          + "_session\":{\"sum\":6040,\"max\":4020,\"histogram\":\"HISTFAAAACR4nJNpmSzMwM"
          + "DAxgABzFCaEULx/7f/AGEdl2d6yc8EAGHoBXA=\"},\"planned_cache_hit\":{\"ratio_sum"
          + "\":0.5,\"histogram_per_mille\":\"HISTFAAAACB4nJNpmSzMwMDAwgABzFCaEUoz2X+AMp6"
          + "yMwEAR3YDcA==\"},\"observed_cache_hit\":{\"ratio_sum\":0.0,\"histogram_per_m"
          + "ille\":\"HISTFAAAABx4nJNpmSzMwMDAyAABzFAaxmey/wBlAAA8ywJ/\"}}},\"phase_diges"
          + "t\":\"2222222222222222\"}]}";

  @SuppressWarnings("unchecked")
  private static Map<String, Object> run(String json) throws Exception {
    return JSON.readValue(json, LinkedHashMap.class);
  }

  private static Map<?, ?> measured(List<String> warnings) throws Exception {
    List<Map<String, Object>> merged =
        SessionMerge.merge(List.of(run(SHARD_0), run(SHARD_1)), warnings);
    assertEquals(1, merged.size());
    return (Map<?, ?>) merged.get(0).get("measured");
  }

  @Test
  void countsAndEndsAdd() throws Exception {
    Map<?, ?> m = measured(new ArrayList<>());

    assertEquals(4L, m.get("count"));
    assertEquals(2L, m.get("completed"));
    assertEquals(
        Map.of("completed", 2L, "loop_limit", 1L, "context_limit", 0L, "error", 1L),
        m.get("ended"));
    assertEquals(7L, m.get("tool_calls"));
  }

  @Test
  void turnsAddAndTheSettingsAreTheFirstShards() throws Exception {
    Map<String, Object> w =
        SessionMerge.merge(List.of(run(SHARD_0), run(SHARD_1)), new ArrayList<>()).get(0);

    assertEquals("agents", w.get("workload"));
    assertEquals(4, w.get("sessions_budget"));
    assertEquals(11L, w.get("turns_sent"));
  }

  @Test
  void durationPercentilesComeFromTheMergedHistograms() throws Exception {
    Map<?, ?> d = (Map<?, ?>) measured(new ArrayList<>()).get("duration_ms");

    // 100, 200 | 300, 1900: the shards' p90s averaged would be 1050
    assertEquals(4L, d.get("count"));
    assertEquals(625.0, d.get("mean"));
    assertEquals(200L, d.get("p50"));
    assertEquals(1900L, d.get("p90"));
    assertEquals(1900L, d.get("p99"));
    assertEquals(1900L, d.get("max"));
  }

  @Test
  void requestsPercentilesComeFromTheMergedHistograms() throws Exception {
    Map<?, ?> r = (Map<?, ?>) measured(new ArrayList<>()).get("requests_per_session");

    // 2, 3 | 5, 1: the shards' p50s averaged would be 1.5
    assertEquals(2.75, r.get("mean"));
    assertEquals(2L, r.get("p50"));
    assertEquals(5L, r.get("p90"));
  }

  @Test
  void tokensPercentilesComeFromTheMergedHistograms() throws Exception {
    Map<?, ?> t = (Map<?, ?>) measured(new ArrayList<>()).get("tokens_per_session");

    assertEquals(2520.0, t.get("mean"));
    assertEquals(2020L, t.get("p50"));
    assertEquals(4020L, t.get("p90"));
    assertEquals(2500.0, t.get("prompt_mean"));
  }

  @Test
  void cacheRatiosAreRecomputedFromTheSummedTokens() throws Exception {
    Map<?, ?> cache = (Map<?, ?>) measured(new ArrayList<>()).get("cache_hit_ratio");
    Map<?, ?> planned = (Map<?, ?>) cache.get("planned");
    Map<?, ?> observed = (Map<?, ?>) cache.get("observed");

    // (2750 + 1000) / (4000 + 6000); the shards' overall ratios averaged would be 0.428
    assertEquals(10_000L, planned.get("prompt_tokens"));
    assertEquals(3_750L, planned.get("cached_tokens"));
    assertEquals(0.375, planned.get("overall"));
    assertEquals(4L, planned.get("sessions"));
    assertEquals(0.5, planned.get("p50"));
    assertEquals(0.0, planned.get("min"));
    // (1750 + 0) / (4000 + 4000)
    assertEquals(0.219, observed.get("overall"));
    assertEquals(3L, observed.get("sessions"));
  }

  @Test
  void sessionsPerHourSpanBothShardsWindows() throws Exception {
    // 3 sessions not in error from 1,000 to 3,900 ms
    assertEquals(3724.138, measured(new ArrayList<>()).get("sessions_per_hour"));
  }

  @Test
  void shardsPhaseDigestsThatDifferMergeToNull() throws Exception {
    Map<String, Object> w =
        SessionMerge.merge(List.of(run(SHARD_0), run(SHARD_1)), new ArrayList<>()).get(0);

    assertNull(w.get("phase_digest"));
  }

  @Test
  void aFolderWithoutMergeStateKeepsTheFirstFoldersPhaseWithAWarning() throws Exception {
    Map<String, Object> old = run(SHARD_1);
    Map<?, ?> entry = (Map<?, ?>) ((List<?>) old.get("sessions")).get(0);
    ((Map<?, ?>) entry.get("measured")).remove("merge_state");
    List<String> warnings = new ArrayList<>();

    List<Map<String, Object>> merged = SessionMerge.merge(List.of(run(SHARD_0), old), warnings);

    assertEquals(2, ((Map<?, ?>) merged.get(0).get("measured")).get("count"));
    assertEquals(
        List.of(
            "sessions of agents, measured: a folder's figures cannot be merged (sessions: expected"
                + " an object at merge_state, got null): they are the first folder's"),
        warnings);
  }

  @Test
  void aReportOverTwoShardFoldersMergesTheirSessions() throws Exception {
    Path a = Files.createDirectories(dir.resolve("shard-0"));
    Path b = Files.createDirectories(dir.resolve("shard-1"));
    Files.writeString(a.resolve("llm-run.json"), SHARD_0);
    Files.writeString(b.resolve("llm-run.json"), SHARD_1);
    Files.writeString(a.resolve("llm-requests.jsonl"), "");
    Files.writeString(b.resolve("llm-requests.jsonl"), "");

    RunReport report = RunReport.read(List.of(a, b), null);

    Map<?, ?> w = (Map<?, ?>) ((List<?>) report.record().get("sessions")).get(0);
    assertEquals(4L, ((Map<?, ?>) w.get("measured")).get("count"));
    assertEquals(
        1900L, ((Map<?, ?>) ((Map<?, ?>) w.get("measured")).get("duration_ms")).get("p90"));
  }

  @Test
  void runsWithoutSessionsMergeToNull() throws Exception {
    assertNull(SessionMerge.merge(List.of(run("{}"), run("{}")), new ArrayList<>()));
  }
}
