package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run record against the files today's and older versions wrote: the saved runs of
 * scripts/record-save-runs.sh (src/test/resources/saved-runs: every example, a baseline run, a
 * target-down run, the stepped open loop with its saturation stop, two shards, llama.cpp), the five
 * records of src/test/resources/runrecord written at 782ee89, and two merged records there
 * (merged-*: {@code report --output M shard0 shard1} and {@code conversation agent} of the saved
 * runs, written at ff85119). Each loads with its blocks typed and is written again byte for byte.
 */
class RunRecordTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static List<Path> savedRecords() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> saved = Files.list(Path.of("src/test/resources/saved-runs"))) {
      saved.map(d -> d.resolve("llm-run.json")).filter(Files::isRegularFile).forEach(files::add);
    }
    try (Stream<Path> old = Files.list(Path.of("src/test/resources/runrecord"))) {
      old.filter(f -> f.toString().endsWith("-llm-run.json")).forEach(files::add);
    }
    files.sort(null);
    return files;
  }

  @Test
  void severalNewerKeysInTypedBlocksAreWrittenBackInTheFilesOrder() throws Exception {
    String file =
        "{\"target\":{\"base_url\":\"http://127.0.0.1:8080\",\"model\":\"m\","
            + "\"zeta_later\":1,\"alpha_later\":\"a\",\"mid_later\":[2]},"
            + "\"machine\":{\"cpus\":2,\"zeta_later\":1,\"alpha_later\":2,\"mid_later\":3}}";

    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(file));

    assertEquals("m", record.target().model());
    assertEquals(3, record.target().extra().size());
    assertEquals(JSON.readTree(file).toString(), record.toTree().toString());
    assertEquals(
        "{\"base_url\":\"http://127.0.0.1:8080\",\"model\":\"m\",\"zeta_later\":1,"
            + "\"alpha_later\":\"a\",\"mid_later\":[2]}",
        record.tree("target").toString());
  }

  @Test
  void aBlockReplacedAfterLoadingIsWrittenByItsType() throws Exception {
    RunRecord record =
        RunRecord.of(
            (ObjectNode)
                JSON.readTree("{\"target\":{\"model\":\"m\",\"zeta_later\":1,\"alpha_later\":2}}"));

    record.withTarget(new RunInfo.Target(null, null, "other", null, null, null, null));

    assertEquals("{\"target\":{\"model\":\"other\"}}", record.toTree().toString());
  }

  @Test
  void everySavedRecordIsWrittenAgainByteForByte() throws IOException {
    List<Path> files = savedRecords();
    assertFalse(files.size() < 20, "saved records found: " + files);
    for (Path file : files) {
      assertEquals(Files.readString(file), RunRecord.load(file).text(), file.toString());
    }
  }

  @Test
  void everySavedRecordKeepsEveryKeyPathAndValue() throws IOException {
    for (Path file : savedRecords()) {
      JsonNode before = JSON.readTree(file.toFile());
      JsonNode after = JSON.readTree(RunRecord.load(file).text());
      assertTrue(before.equals(after), file + ": a key path or value changed");
    }
  }

  @Test
  void serverMetricsAreTypedInEverySavedRunThatScraped() throws IOException {
    for (Path file : savedRecords()) {
      JsonNode before = JSON.readTree(file.toFile()).get("server_metrics");
      RunRecord record = RunRecord.load(file);
      if (before == null) {
        assertNull(record.serverMetrics(), file.toString());
        continue;
      }
      ServerMetrics m = record.serverMetrics();
      assertNotNull(m, file.toString());
      assertEquals(before.get("url").asText(), m.url(), file.toString());
      assertTrue(
          before.equals(JSON.readTree(JSON.writeValueAsString(m))),
          file + ": server_metrics typed and written again differs");
    }
  }

  /**
   * Each typed block of every saved record: null where the file has none, typed where it has one,
   * and the type written again is the file's block, key for key and value for value.
   */
  @Test
  void everyTypedBlockIsTypedAndWrittenAgainAsTheFileHasIt() throws IOException {
    for (Path file : savedRecords()) {
      JsonNode tree = JSON.readTree(file.toFile());
      ObjectNode typed = RunRecord.load(file).typedTree();
      for (String key : RunRecord.BLOCKS.keySet()) {
        JsonNode before = tree.get(key);
        if (before == null || before.isNull()) {
          assertFalse(typed.has(key), file + ": " + key);
          continue;
        }
        assertTrue(typed.has(key), file + ": " + key + " did not read as its type");
        // Through text, as a file holds it (a tree keeps Java's int and long apart).
        assertEquals(
            before,
            JSON.readTree(JSON.writeValueAsString(typed.get(key))),
            file + ": " + key + " typed and written again");
      }
    }
  }

  /**
   * The levels, saturation and cache blocks of every saved record, read as their types and written
   * again from the typed values alone (no JSON tree of the file): the file's keys, in its order,
   * with its values.
   */
  @Test
  void theLevelsSaturationAndCacheOfEverySavedRunAreWrittenAgainFromTheirTypes()
      throws IOException {
    int levels = 0;
    int saturations = 0;
    for (Path file : savedRecords()) {
      ObjectNode tree = (ObjectNode) JSON.readTree(file.toFile());
      RunRecord record = RunRecord.load(file);
      ObjectNode expected = JSON.createObjectNode();
      ObjectNode actual = JSON.createObjectNode();
      if (tree.has("levels")) {
        levels++;
        for (String key :
            List.of(
                "levels", "levels_note", "levels_left_out", "levels_anchor", "levels_warnings")) {
          if (tree.has(key)) {
            expected.set(key, tree.get(key));
          }
        }
        actual.setAll((ObjectNode) JSON.valueToTree(record.levelsBlock().fields()));
      } else {
        assertNull(record.levelsBlock(), file.toString());
      }
      if (tree.has("saturation")) {
        saturations++;
        expected.set("saturation", tree.get("saturation"));
        expected.set("saturations", tree.get("saturations"));
        actual.setAll(
            (ObjectNode)
                JSON.valueToTree(
                    SaturationBlock.fields(record.saturation(), record.saturations())));
      } else {
        assertNull(record.saturation(), file.toString());
      }
      expected.set("cache", tree.get("cache"));
      actual.set("cache", JSON.valueToTree(record.cache()));
      // Through text, as a file holds it (a tree keeps Java's int and long apart).
      assertEquals(
          JSON.writeValueAsString(expected),
          JSON.writeValueAsString(JSON.readTree(JSON.writeValueAsString(actual))),
          file.toString());
    }
    // 16 saved runs, and the two merged records of runrecord/merged-*
    assertEquals(18, levels);
    assertEquals(3, saturations);
  }

  @Test
  void theSteppedOpenLoopsLevelsAndSaturationAreTyped() throws IOException {
    RunRecord record =
        RunRecord.load(Path.of("src/test/resources/saved-runs/stepped/llm-run.json"));
    Levels levels = record.levelsBlock();
    assertEquals(4, levels.entries().size());
    LevelEntry first = levels.entries().get(0);
    assertEquals(6, first.rate().intValue());
    assertEquals(967.235, first.client().scheduleLagMs().p99());
    assertEquals(0.1153, first.client().clientCpu());
    assertEquals(29L, first.completedRequests());
    assertEquals(new Levels.LeftOut(0, 0, 0, null, 282, null), levels.leftOut());
    assertEquals(1796612249611L, levels.anchor().epochMs());
    assertEquals(3, levels.warnings().size());
    assertEquals(false, levels.leftOutAny());
    SaturationBlock.Run run = record.saturation();
    assertEquals(true, run.verdict().open());
    assertEquals(18, run.verdict().saturationLoad().intValue());
    assertEquals(16.4, run.verdict().saturationRequestsPerS());
    assertEquals(0.95, run.verdict().sloRatio());
    assertNull(run.verdict().sloLoad());
    assertEquals(true, run.overSaturation().startsWith("level 2 (18 users/s): served 16.40"));
    assertEquals(1, record.saturations().size());
    assertEquals(new CacheSummary.Parameters(16, 1, true, true), record.cache().parameters());
  }

  @Test
  void theBaselineRunsBaselineIsTyped() throws IOException {
    Baseline b =
        RunRecord.load(Path.of("src/test/resources/saved-runs/quick-baseline/llm-run.json"))
            .baseline();
    assertEquals(50.0, b.noRegressionPct());
    assertEquals(true, b.rowsLogged());
    assertEquals(List.of(), b.failed());
    assertEquals(1000, b.resamples());
    assertEquals(40, b.a().requests());
    assertEquals("unclear", b.verdict().overall());
    Baseline.Row ttft = b.metrics().get("ttft_p50_ms");
    assertEquals(35.225, ttft.a());
    assertEquals(List.of(-22.692, 36.011), ttft.ci95Pct());
    assertEquals("same", ttft.verdict());
    assertEquals(102, b.percentiles().size());
    assertEquals(List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms"), b.curveNames());
    assertEquals(102, b.curves("itl_ms").b().size());
    assertNull(
        RunRecord.load(Path.of("src/test/resources/saved-runs/quick/llm-run.json")).baseline());
  }

  /**
   * The saved runs with agent sessions or conversations (saved-runs/agent, saved-runs/conversation,
   * runrecord/conv of 782ee89, and their merge runrecord/merged-conversation-agent): each block
   * reads as its type and the type writes the file's block again, key for key in the file's order
   * and value for value.
   */
  @Test
  void sessionsAndConversationsAreTypedAndWrittenBackAsTheFileHasThem() throws IOException {
    List<String> typed = new ArrayList<>();
    for (Path file : savedRecords()) {
      JsonNode tree = JSON.readTree(file.toFile());
      RunRecord record = RunRecord.load(file);
      for (String key : List.of(AgentSessions.KEY, Conversations.KEY)) {
        List<?> block = key.equals(AgentSessions.KEY) ? record.sessions() : record.conversations();
        if (tree.get(key) == null) {
          assertNull(block, file + ": " + key);
          continue;
        }
        assertNotNull(block, file + ": " + key + " did not read as its type");
        assertEquals(
            JSON.writeValueAsString(tree.get(key)),
            JSON.writeValueAsString(block),
            file + ": " + key + " typed and written again");
        typed.add(file.getParent().getFileName() + "/" + file.getFileName() + " " + key);
      }
    }
    assertEquals(
        List.of(
            "runrecord/conv-llm-run.json conversations",
            "runrecord/merged-conversation-agent-llm-run.json sessions",
            "runrecord/merged-conversation-agent-llm-run.json conversations",
            "agent/llm-run.json sessions",
            "conversation/llm-run.json conversations"),
        typed);
  }

  @Test
  void theAgentRunsSessionsAreTyped() throws IOException {
    AgentSessions a =
        RunRecord.load(Path.of("src/test/resources/saved-runs/agent/llm-run.json"))
            .sessions()
            .get(0);
    assertEquals("agents", a.workload());
    assertEquals(18L, a.turnsSent());
    assertEquals("97e578d40e9e5d99", a.phaseDigest());
    SessionSummary m = a.measured();
    assertEquals(6L, m.count());
    assertEquals(6L, m.ended().get(SessionSummary.COMPLETED));
    assertEquals(
        new SessionSummary.Spread(6L, 1240.833, 1223L, 1369L, 1369L, 1369L), m.durationMs());
    assertEquals(2565.0, m.tokensPerSession().promptMean());
    assertEquals(8713.191, m.sessionsPerHour());
    assertEquals(0.601, m.cacheHitRatio().observed().overall());
    assertEquals(1796611402671L, m.mergeState().firstStartMs());
    assertEquals(7445L, m.mergeState().durationMs().sum());
    assertEquals(2L, a.warmup().count());
  }

  @Test
  void theConversationRunsConversationsAreTyped() throws IOException {
    Conversations c =
        RunRecord.load(Path.of("src/test/resources/saved-runs/conversation/llm-run.json"))
            .conversations()
            .get(0);
    assertEquals("conversations", c.workload());
    assertNull(c.seedAuto());
    assertEquals(8192, c.spec().maxContextTokens());
    assertEquals(8L, c.budget().conversations());
    assertEquals(33L, c.measured().turns());
    assertEquals(4.125, c.measured().turnsPerConversation());
    assertEquals(
        new Conversations.Durations(8L, 4682.625, 4364L, 6137L, 6137L), c.measured().durationMs());
    assertEquals("440cb75608d81122", c.phases().warmup().digest());
    assertEquals(0L, c.unfinished());
  }

  @Test
  void keysOfANewerVersionInSessionsAndConversationsAreKept() throws IOException {
    String json =
        "{\"conversations\":[{\"workload\":\"c\",\"phases\":{\"measured\":{\"conversations\":1,"
            + "\"digest\":null,\"turns_per_conversation\":null,\"later\":[1]}},\"added\":true}],"
            + "\"sessions\":[{\"workload\":\"a\",\"measured\":{\"count\":0,"
            + "\"sessions_per_hour\":null,\"new_figure\":2},\"phase_digest\":null,\"x\":\"y\"}]}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    assertEquals(true, record.conversations().get(0).extra().get("added"));
    assertEquals(2, record.sessions().get(0).measured().extra().get("new_figure"));
    assertEquals(json, JSON.writeValueAsString(record.toTree()));
  }

  @Test
  void theTargetDownRunsFailedAssertionIsTyped() throws IOException {
    Assertions a =
        RunRecord.load(Path.of("src/test/resources/saved-runs/target-down/llm-run.json"))
            .assertions();
    assertEquals(Assertions.FAILED, a.verdict());
    assertNull(a.notChecked());
    assertEquals(
        List.of(
            new Assertions.Result(
                "chat E2E: percentage of failed events is less than 1.0", false, 100.0, null)),
        a.results());
    assertEquals(1, a.failed());
  }

  @Test
  void assertionsNotCheckedAreWrittenAsTodaysKeysAndReadBack() throws IOException {
    Assertions a = Assertions.notChecked("Gatling's run folder was not found");
    String json = JSON.writeValueAsString(a.fields());
    assertEquals(
        "{\"assertions_verdict\":\"not_checked\","
            + "\"assertions_not_checked\":\"Gatling's run folder was not found\"}",
        json);
    assertEquals(a, RunRecord.of((ObjectNode) JSON.readTree(json)).assertions());
  }

  @Test
  void checkedAssertionsWriteEveryResultFieldNullOrNot() throws IOException {
    Assertions a =
        Assertions.checked(
            List.of(
                new Assertions.Result("a", true, 0.0, null),
                new Assertions.Result("b", false, null, "no request named chat")));
    assertEquals(Assertions.FAILED, a.verdict());
    assertEquals(
        "{\"assertions_verdict\":\"failed\",\"assertion_results\":["
            + "{\"assertion\":\"a\",\"passed\":true,\"actual\":0.0,\"error\":null},"
            + "{\"assertion\":\"b\",\"passed\":false,\"actual\":null,"
            + "\"error\":\"no request named chat\"}]}",
        JSON.writeValueAsString(a.fields()));
    assertNull(RunRecord.of((ObjectNode) JSON.readTree("{\"x\":1}")).assertions());
  }

  @Test
  void theWorkingSetSweepIsTyped() throws IOException {
    List<WorkingSetSweep> sweeps =
        RunRecord.load(Path.of("src/test/resources/saved-runs/working-set/llm-run.json"))
            .workingSetSweeps();
    assertEquals(1, sweeps.size());
    WorkingSetSweep w = sweeps.get(0);
    assertEquals("working-set", w.name());
    assertEquals(5, w.steps().size());
    WorkingSetSweep.Step first = w.steps().get(0);
    assertEquals(1, first.groups());
    assertEquals("c1_in1024_out128_g1", first.caseId());
    assertEquals(922L, first.workingSetTokens());
    assertEquals(0.6667, first.hitRatio());
    assertEquals(211.464, first.ttftP50Ms());
    assertEquals(0.9, w.dropThreshold());
    assertEquals(8, w.cliff().groups());
    assertNull(
        RunRecord.load(Path.of("src/test/resources/saved-runs/quick/llm-run.json"))
            .workingSetSweeps());
  }

  @Test
  void aSweepWithoutCapacityOrCliffWritesTheCliffNullAndNoCapacity() throws IOException {
    String json =
        "{\"working_set_sweep\":[{\"name\":\"s\",\"steps\":[],\"first_step_threshold\":0.5,"
            + "\"drop_threshold\":0.9,\"cliff\":null,\"summary\":\"no step\",\"later\":1}]}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    assertNull(record.workingSetSweeps().get(0).cliff());
    assertEquals(json, JSON.writeValueAsString(record.toTree()));
  }

  @Test
  void typedBlocksOfTheQuickstart() throws IOException {
    RunRecord record = RunRecord.load(Path.of("src/test/resources/runrecord/quick-llm-run.json"));
    ServerMetrics m = record.serverMetrics();
    assertEquals("gatling-llm simulator", m.engine());
    assertEquals(5000L, m.intervalMs());
    assertEquals(0.4675, m.prefixCacheHitRate());
    assertEquals(0.4675, m.runHitRate());
    assertEquals(16, m.cacheConfig().get("block_size_tokens").intValue());
    assertEquals("cached_prompt_tokens / prompt_tokens", m.hitRateFormula());
    assertNotNull(record.metrics());
    assertNotNull(record.cache());
    assertNotNull(record.levels());
  }

  @Test
  void aServerThatNeverAnsweredKeepsItsNullEngineAndRunHitRate() throws IOException {
    String json =
        "{\"server_metrics\":{\"url\":\"http://h/metrics\",\"interval_ms\":5000,\"engine\":null,"
            + "\"started_at_ms\":1,\"scrapes\":0,\"failed_scrapes\":2,\"errors\":[{\"t_ms\":0,"
            + "\"error\":\"HTTP 500\"},{\"t_ms\":5000,\"error\":\"HTTP 500\"}],"
            + "\"run_hit_rate\":null}}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    assertNull(record.serverMetrics().engine());
    assertEquals(2, record.serverMetrics().errors().size());
    assertEquals(JSON.readTree(json), JSON.readTree(record.text()));
  }

  @Test
  void keysOfANewerVersionAreKeptInPlace(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("llm-run.json");
    String text =
        "{\n  \"product\" : \"gatling-llm\",\n  \"added_later\" : {\n    \"x\" : 1\n  },\n"
            + "  \"server_metrics\" : {\n    \"url\" : \"u\",\n    \"engine\" : null,\n"
            + "    \"run_hit_rate\" : null,\n    \"new_field\" : [ 1, 2 ]\n  }\n}\n";
    Files.writeString(file, text);
    RunRecord record = RunRecord.load(file);
    assertEquals(List.of(1, 2), record.serverMetrics().extra().get("new_field"));
    assertEquals(text, record.text());
  }

  @Test
  void aBlockThatDoesNotReadIsKeptAndAnswersNull() throws IOException {
    String json = "{\"server_metrics\":{\"scrapes\":\"many\"},\"metrics\":[1]}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    assertNull(record.serverMetrics());
    assertNull(record.metrics());
    assertEquals(JSON.readTree(json), JSON.readTree(record.text()));
  }

  @Test
  void aFileThatIsNotJsonIsRefusedNamingIt(@TempDir Path dir) throws IOException {
    Path file = dir.resolve("llm-run.json");
    Files.writeString(file, "not json");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RunRecord.load(file));
    assertEquals(true, e.getMessage().startsWith(file + " is not a run record: "));
  }

  @Test
  void aMissingFileIsAnEmptyRecord(@TempDir Path dir) throws IOException {
    assertEquals("{ }\n", RunRecord.load(dir.resolve("llm-run.json")).text());
  }

  @Test
  void everySavedRunsClientIsTypedAndWrittenAgainAsTheFileHasIt() throws IOException {
    int typed = 0;
    for (Path file : savedRecords()) {
      JsonNode before = JSON.readTree(file.toFile()).get("client");
      ClientSummary client = RunRecord.load(file).client();
      if (before == null) {
        assertNull(client, file.toString());
        continue;
      }
      typed++;
      assertEquals(before, JSON.readTree(JSON.writeValueAsString(client)), file.toString());
    }
    assertTrue(typed >= 22, "records with a client: " + typed);
  }

  @Test
  void theSteppedRunsClientIsTyped() throws IOException {
    ClientSummary c =
        RunRecord.load(Path.of("src/test/resources/saved-runs/stepped/llm-run.json")).client();
    assertEquals(270, c.scheduleLagMs().count());
    assertEquals(53.162, c.scheduleLagMs().p50());
    assertEquals(841.259, c.scheduleLagMs().p99());
    assertEquals(new ClientSummary.InjectionStart(277, 0), c.injectionStart());
    assertEquals(0.112, c.cpuShare().mean());
    assertEquals(0.2383, c.cpuShare().max());
    assertEquals(2, c.cpuShare().processors());
    assertEquals(27, c.cpuShare().samples());
    // written before issue 40: no min_window_ms nor windows, and none added
    assertNull(c.cpuShare().minWindowMs());
    assertNull(c.cpuShare().windows());
    assertEquals(10.0, c.maxLagP99Ms());
    assertEquals(0.9, c.maxCpuShare());
    assertEquals(List.of(), c.notes());
    assertEquals(1, c.warnings().size());
    assertTrue(
        c.warnings().get(0).startsWith("the client fell behind its injection profile"),
        c.warnings().get(0));
  }

  @Test
  void aShardsShardIsTypedAndAMachinesRunHasNone() throws IOException {
    Shard shard =
        RunRecord.load(Path.of("src/test/resources/saved-runs/shard1/llm-run.json")).shard();
    assertEquals(1, shard.index());
    assertEquals(2, shard.count());
    assertNull(shard.startAt());
    assertNull(shard.lateMs());
    assertTrue(shard.ofSeveral());
    assertEquals("1/2", shard.label());
    assertNull(RunRecord.load(Path.of("src/test/resources/saved-runs/quick/llm-run.json")).shard());
  }

  @Test
  void theMergedShardsRecordIsTyped() throws IOException {
    RunRecord record =
        RunRecord.load(Path.of("src/test/resources/runrecord/merged-shards-llm-run.json"));
    Merge merge = record.merge();
    assertEquals(List.of("shard0", "shard1"), merge.mergedFrom());
    assertEquals(1, merge.warnings().size());
    assertTrue(
        merge.warnings().get(0).startsWith("the folders' windows do not overlap (shard 0/2 "),
        merge.warnings().get(0));
    Merge.Folder first = merge.shards().get(0);
    assertEquals("shard0", first.folder());
    assertEquals("0/2", first.shard());
    assertEquals(24, first.requestsRecorded());
    assertEquals(20, first.measured());
    assertEquals(4, first.warmup());
    assertEquals(24, first.ok());
    assertEquals("2026-12-07T02:48:39.359Z", first.firstStart());
    assertEquals("2026-12-07T02:48:42.387Z", first.lastEnd());
    assertNull(first.lateMs());
    assertFalse(first.interrupted());
    assertEquals(0.1748, first.client().cpuShare().max());
    assertEquals(0.4871, merge.shards().get(1).client().cpuShare().max());
    // the merged client: no one machine, so no CPU share
    ClientSummary client = record.client();
    assertNull(client.cpuShare());
    assertEquals(List.of(ClientSummary.MERGED_NOTE), client.notes());
    assertEquals(new ClientSummary.InjectionStart(0, 0), client.injectionStart());
    // the shards' own shard is gone from the merge
    assertNull(record.shard());
  }

  @Test
  void aRecordThatIsNoMergeHasNone() throws IOException {
    assertNull(RunRecord.load(Path.of("src/test/resources/saved-runs/quick/llm-run.json")).merge());
  }

  @Test
  void theHttpPromptsRunsHandedOutPromptsAreTyped() throws IOException {
    RunRecord record =
        RunRecord.load(Path.of("src/test/resources/saved-runs/http-prompts/llm-run.json"));
    assertEquals(new PromptsHandedOut(0, 20), record.promptsHandedOut());
    assertNull(record.client());
    assertNull(
        RunRecord.load(Path.of("src/test/resources/saved-runs/quick/llm-run.json"))
            .promptsHandedOut());
  }

  @Test
  void keysOfANewerVersionInTheClientAndShardsAreKept() throws IOException {
    String json =
        "{\"client\":{\"schedule_lag_ms\":{\"count\":0,\"mean\":null,\"min\":null,"
            + "\"p50\":null,\"p90\":null,\"p95\":null,\"p99\":null,\"max\":null},"
            + "\"injection_start\":{\"gatling_injector\":1,\"estimated\":2,\"later\":3},"
            + "\"cpu_share\":{\"mean\":null,\"max\":null,\"processors\":4,\"samples\":1,"
            + "\"min_window_ms\":1000,\"windows\":0,\"gc\":0.1},\"max_lag_p99_ms\":10.0,"
            + "\"max_cpu_share\":0.9,\"notes\":[],\"warnings\":[],\"threads\":12},"
            + "\"shard\":{\"index\":0,\"count\":3,\"start_at\":\"2026-12-07T00:00:00Z\","
            + "\"late_ms\":0,\"zone\":\"b\"},"
            + "\"merged_from\":[\"a\",\"b\"],\"shards\":[{\"folder\":\"a\",\"shard\":null,"
            + "\"requests_recorded\":1,\"measured\":1,\"warmup\":0,\"ok\":1,"
            + "\"first_start\":null,\"last_end\":null,\"interrupted\":false,\"host\":\"h\"}],"
            + "\"merge_warnings\":[],\"prompts_handed_out\":{\"warmup\":1,\"measured\":2,"
            + "\"cooldown\":3}}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    assertEquals(12, record.client().extra().get("threads"));
    assertEquals(3, record.client().injectionStart().extra().get("later"));
    assertEquals(0.1, record.client().cpuShare().extra().get("gc"));
    assertEquals("b", record.shard().extra().get("zone"));
    assertEquals("h", record.merge().shards().get(0).extra().get("host"));
    assertEquals(3, record.promptsHandedOut().extra().get("cooldown"));
    assertEquals(json, JSON.writeValueAsString(record.toTree()));
    assertEquals(json, JSON.writeValueAsString(record.typedTree()));
  }
}
