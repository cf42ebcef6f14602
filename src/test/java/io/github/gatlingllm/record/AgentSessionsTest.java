package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The typed merge of the run record's {@code sessions} ({@link AgentSessions#mergeRuns}), on two
 * shards' blocks as their files hold them. The expected merged block is the text the map merge it
 * replaces (report/SessionMerge at ff85119) wrote for the same two files, histograms included: a
 * pure refactor, so these pass on the old code's output by construction; the byte-identical rebuild
 * of the saved runs (scripts/record-compare.sh) is the proof over whole files.
 */
class AgentSessionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /**
   * Shard 0/2's run record: sessions of 2 and 3 requests, 100 and 200 ms from 1,000 and 1,100 ms,
   * 1,000 and 3,000 prompt tokens, planned cache hits 0.5 and 0.75, observed 0.25 and 0.5.
   */
  private static final String SHARD_0 = text("sessions-shard0-llm-run.json");

  /**
   * Shard 1/2's: a loop-limit session of 5 requests, 300 ms from 1,050 ms, 2,000 prompt tokens,
   * planned 0.5, no observed; an error session of 1 request, 1,900 ms from 2,000 ms, 4,000 prompt
   * tokens, planned and observed 0.
   */
  private static final String SHARD_1 = text("sessions-shard1-llm-run.json");

  private static String text(String name) {
    try {
      return Files.readString(Path.of("src/test/resources/record", name));
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    }
  }

  /** What report/SessionMerge wrote for SHARD_0 then SHARD_1 (ff85119). */
  private static final String MERGED =
      "[{\"workload\":\"agents\",\"sessions_budget\":4,\"warmup_sessions_b"
          + "udget\":0,\"tools\":4,\"tool_calls_limit\":4,\"tool_choice\":\"auto\""
          + ",\"turns_sent\":11,\"warmup_turns_sent\":0,\"measured\":{\"count\":4"
          + ",\"completed\":2,\"ended\":{\"completed\":2,\"loop_limit\":1,\"contex"
          + "t_limit\":0,\"error\":1},\"requests_per_session\":{\"count\":4,\"mea"
          + "n\":2.75,\"p50\":2,\"p90\":5,\"p99\":5,\"max\":5},\"duration_ms\":{\"cou"
          + "nt\":4,\"mean\":625.0,\"p50\":200,\"p90\":1900,\"p99\":1900,\"max\":190"
          + "0},\"tokens_per_session\":{\"count\":4,\"mean\":2520.0,\"p50\":2020,"
          + "\"p90\":4020,\"p99\":4020,\"max\":4020,\"prompt_mean\":2500.0,\"compl"
          + "etion_mean\":20.0},\"tool_calls\":7,\"malformed_tool_calls\":0,\"s"
          + "essions_per_hour\":3724.138,\"cache_hit_ratio\":{\"planned\":{\"se"
          + "ssions\":4,\"mean\":0.438,\"p50\":0.5,\"min\":0.0,\"prompt_tokens\":1"
          + "0000,\"cached_tokens\":3750,\"overall\":0.375},\"observed\":{\"sess"
          + "ions\":3,\"mean\":0.25,\"p50\":0.25,\"min\":0.0,\"prompt_tokens\":800"
          + "0,\"cached_tokens\":1750,\"overall\":0.219}},\"merge_state\":{\"fir"
          + "st_start_ms\":1000,\"last_end_ms\":3900,\"prompt_tokens\":10000,\""
          + "completion_tokens\":80,\"requests_per_session\":{\"sum\":11,\"max\""
          + ":5,\"histogram\":\"HISTFAAAACB4nJNpmSzMwMDAxgABzFCaEUoz2X+AsZiY"
          + "GJgAShcCig==\"},\"duration_ms\":{\"sum\":2500,\"max\":1900,\"histogr"
          + "am\":\"HISTFAAAACV4nJNpmSzMwMDAwwABzFCaEUoz2X+AMI4zMh0Fo78STAB"
          + "yYQX5\"},\"tokens_per_session\":{\"sum\":10080,\"max\":4020,\"histog"
          + "ram\":\"HISTFAAAACp4nJNpmSzMwMDAwwABzFCaEUJxn7X/AGF952c6y8/UyM"
          + "H0lJ0JAIWtBr0=\"},\"planned_cache_hit\":{\"ratio_sum\":1.75,\"hist"
          + "ogram_per_mille\":\"HISTFAAAACN4nJNpmSzMwMDAzgABzFCaEUoz2X+AMp"
          + "6ys3xkZgIAVSEEaw==\"},\"observed_cache_hit\":{\"ratio_sum\":0.75,"
          + "\"histogram_per_mille\":\"HISTFAAAACB4nJNpmSzMwMDAzgABzFCaEUoz2"
          + "X+AMj4ygxAAVU0EcQ==\"}}},\"phase_digest\":null}]";

  private static List<AgentSessions> sessions(String json) throws Exception {
    return RunRecord.of((ObjectNode) JSON.readTree(json)).sessions();
  }

  private static List<AgentSessions> merge(List<String> warnings, String... runs) throws Exception {
    List<List<AgentSessions>> blocks = new ArrayList<>();
    for (String run : runs) {
      blocks.add(sessions(run));
    }
    return AgentSessions.mergeRuns(blocks, warnings);
  }

  @Test
  void twoShardsMergeToTheTextTheMapMergeWrote() throws Exception {
    List<String> warnings = new ArrayList<>();

    assertEquals(MERGED, JSON.writeValueAsString(merge(warnings, SHARD_0, SHARD_1)));
    assertEquals(List.of(), warnings);
  }

  @Test
  void countsAndEndsAdd() throws Exception {
    SessionSummary m = merge(new ArrayList<>(), SHARD_0, SHARD_1).get(0).measured();

    assertEquals(4L, m.count());
    assertEquals(2L, m.completed());
    assertEquals(
        List.of("completed=2", "loop_limit=1", "context_limit=0", "error=1"),
        m.ended().entrySet().stream().map(Object::toString).toList());
    assertEquals(7L, m.toolCalls());
  }

  @Test
  void turnsAddAndTheSettingsAreTheFirstShards() throws Exception {
    AgentSessions w = merge(new ArrayList<>(), SHARD_0, SHARD_1).get(0);

    assertEquals("agents", w.workload());
    assertEquals(4L, w.sessionsBudget());
    assertEquals(11L, w.turnsSent());
    assertEquals(0L, w.warmupTurnsSent());
  }

  @Test
  void percentilesComeFromTheMergedHistograms() throws Exception {
    SessionSummary m = merge(new ArrayList<>(), SHARD_0, SHARD_1).get(0).measured();

    // durations 100, 200 | 300, 1900: the shards' p90s averaged would be 1050
    assertEquals(new SessionSummary.Spread(4L, 625.0, 200L, 1900L, 1900L, 1900L), m.durationMs());
    // requests 2, 3 | 5, 1: the shards' p50s averaged would be 1.5
    assertEquals(new SessionSummary.Spread(4L, 2.75, 2L, 5L, 5L, 5L), m.requestsPerSession());
    assertEquals(
        new SessionSummary.Tokens(4L, 2520.0, 2020L, 4020L, 4020L, 4020L, 2500.0, 20.0),
        m.tokensPerSession());
  }

  @Test
  void cacheRatiosAreRecomputedFromTheSummedTokens() throws Exception {
    SessionSummary.CacheHitRatio cache =
        merge(new ArrayList<>(), SHARD_0, SHARD_1).get(0).measured().cacheHitRatio();

    // (2750 + 1000) / (4000 + 6000); the shards' overall ratios averaged would be 0.428
    assertEquals(
        new SessionSummary.Ratios(4L, 0.438, 0.5, 0.0, 10_000L, 3_750L, 0.375), cache.planned());
    // (1750 + 0) / (4000 + 4000)
    assertEquals(
        new SessionSummary.Ratios(3L, 0.25, 0.25, 0.0, 8_000L, 1_750L, 0.219), cache.observed());
  }

  @Test
  void sessionsPerHourSpanBothShardsWindows() throws Exception {
    // 3 sessions not in error from 1,000 to 3,900 ms
    assertEquals(
        3724.138, merge(new ArrayList<>(), SHARD_0, SHARD_1).get(0).measured().sessionsPerHour());
  }

  @Test
  void shardsPhaseDigestsThatDifferMergeToNullAndTheSameOneIsKept() throws Exception {
    assertNull(merge(new ArrayList<>(), SHARD_0, SHARD_1).get(0).phaseDigest());
    assertEquals(
        "1111111111111111", merge(new ArrayList<>(), SHARD_0, SHARD_0).get(0).phaseDigest());
  }

  @Test
  void aFolderWithoutMergeStateKeepsTheFirstFoldersPhaseWithAWarning() throws Exception {
    ObjectNode old = (ObjectNode) JSON.readTree(SHARD_1);
    ((ObjectNode) old.get("sessions").get(0).get("measured")).remove("merge_state");
    List<String> warnings = new ArrayList<>();

    List<AgentSessions> merged = merge(warnings, SHARD_0, old.toString());

    assertEquals(2L, merged.get(0).measured().count());
    assertEquals(sessions(SHARD_0).get(0).measured(), merged.get(0).measured());
    assertEquals(
        List.of(
            "sessions of agents, measured: a folder's figures cannot be merged (sessions: expected"
                + " an object at merge_state, got null): they are the first folder's"),
        warnings);
  }

  @Test
  void workloadsAreMergedByNameInTheOrderTheFoldersFirstHaveThem() throws Exception {
    String other = SHARD_1.replace("\"workload\":\"agents\"", "\"workload\":\"tools\"");

    List<AgentSessions> merged = merge(new ArrayList<>(), other, SHARD_0, SHARD_1);

    assertEquals(
        Arrays.asList("tools", "agents"), merged.stream().map(AgentSessions::workload).toList());
    assertEquals(2L, merged.get(0).measured().count());
    assertEquals(4L, merged.get(1).measured().count());
  }

  @Test
  void runsWithoutSessionsMergeToNull() {
    assertNull(AgentSessions.mergeRuns(Arrays.asList(null, null), new ArrayList<>()));
  }
}
