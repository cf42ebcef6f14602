package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The run's own description in the run record (issue 41): the top-level scalars, {@code prompts},
 * {@code workloads}, {@code target}, {@code decoding}, {@code load}, {@code assertions}, {@code
 * shard}, {@code target_down} and {@code target_silent}, held to every saved run of
 * scripts/record-save-runs.sh and the saved records of src/test/resources/runrecord: each block is
 * read through its typed accessor and written back, and a record built from those blocks with the
 * writers' builder is the file's text for its keys, byte for byte.
 */
class RunDescriptionBlocksTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The keys of the run's description, in the order a run's end writes them. */
  private static final List<String> KEYS =
      List.of(
          "product",
          "version",
          "gatling_version",
          "simulation",
          "prompts",
          "workloads",
          "target",
          "decoding",
          "load",
          "slo",
          "assertions",
          "note",
          "shard",
          "end_reason",
          "requests_cut_by_run_end",
          "requests_cut_before_sent",
          "target_down",
          "target_silent",
          "prompts_handed_out",
          "requests_sent_by",
          "interrupted",
          "started_at",
          "ended_at",
          "requests_recorded");

  private static List<Path> savedRecords() throws IOException {
    List<Path> files = new ArrayList<>();
    try (Stream<Path> saved = Files.list(Path.of("src/test/resources/saved-runs"))) {
      saved.map(d -> d.resolve("llm-run.json")).filter(Files::isRegularFile).forEach(files::add);
    }
    try (Stream<Path> saved = Files.list(Path.of("src/test/resources/runrecord"))) {
      saved.filter(f -> f.toString().endsWith(".json")).forEach(files::add);
    }
    files.sort(null);
    return files;
  }

  /** The file's blocks of the run's description, in the file's order. */
  private static ObjectNode described(JsonNode file) {
    ObjectNode out = JSON.createObjectNode();
    for (Iterator<String> it = file.fieldNames(); it.hasNext(); ) {
      String key = it.next();
      if (KEYS.contains(key)) {
        out.set(key, file.get(key));
      }
    }
    return out;
  }

  private static Object accessor(RunRecord r, String key) {
    return switch (key) {
      case "product" -> r.product();
      case "version" -> r.version();
      case "gatling_version" -> r.gatlingVersion();
      case "simulation" -> r.simulation();
      case "prompts" -> r.prompts();
      case "workloads" -> r.workloads();
      case "target" -> r.target();
      case "decoding" -> r.decoding();
      case "load" -> r.load();
      case "slo" -> r.slo();
      case "assertions" -> r.assertionsInForce();
      case "note" -> r.note();
      case "shard" -> r.shard();
      case "end_reason" -> r.endReason();
      case "requests_cut_by_run_end" -> r.requestsCutByRunEnd();
      case "requests_cut_before_sent" -> r.requestsCutBeforeSent();
      case "target_down" -> r.targetDown();
      case "target_silent" -> r.targetSilent();
      case "prompts_handed_out" -> r.promptsHandedOut();
      case "requests_sent_by" -> r.requestsSentBy();
      case "interrupted" -> r.interrupted();
      case "started_at" -> r.startedAt();
      case "ended_at" -> r.endedAt();
      case "requests_recorded" -> r.requestsRecorded();
      default -> throw new IllegalArgumentException(key);
    };
  }

  @Test
  void everySavedRunsDescriptionReadsAsItsTypesAndIsWrittenBackAsTheFileHasIt() throws IOException {
    List<Path> files = savedRecords();
    assertFalse(files.size() < 22, "saved records found: " + files);
    for (Path file : files) {
      JsonNode tree = JSON.readTree(file.toFile());
      RunRecord record = RunRecord.load(file);
      ObjectNode expected = described(tree);
      ObjectNode written = JSON.createObjectNode();
      for (Iterator<String> it = expected.fieldNames(); it.hasNext(); ) {
        String key = it.next();
        Object block = accessor(record, key);
        if (expected.get(key).isNull()) {
          assertNull(block, file + ": " + key);
          written.putNull(key);
          continue;
        }
        assertTrue(block != null, file + ": " + key + " did not read as its type");
        written.set(key, JSON.valueToTree(block));
      }
      // As text: 1 and 1.0, 4 and 4L written alike only when the file has them alike.
      assertEquals(expected.toString(), JSON.writeValueAsString(written), file.toString());
    }
  }

  @Test
  void theWritersBuilderMakesEachSavedRunsDescriptionByteForByte() throws IOException {
    for (Path file : savedRecords()) {
      RunRecord r = RunRecord.load(file);
      if (r.product() == null) {
        continue;
      }
      RunInfo info =
          new RunInfo(
              r.product(),
              r.version(),
              r.gatlingVersion(),
              r.simulation(),
              r.prompts(),
              r.workloads(),
              r.target(),
              r.decoding(),
              r.load(),
              r.slo(),
              r.assertionsInForce(),
              r.note(),
              r.shard());
      RunRecord built = RunRecord.create().with(info);
      if (r.endReason() != null) {
        built.withEnd(r.endReason(), r.requestsCutByRunEnd(), r.requestsCutBeforeSent());
      }
      built.withTargetDown(r.targetDown()).withTargetSilent(r.targetSilent());
      if (r.requestsSentBy() != null) {
        built.withGatlingHttp(r.promptsHandedOut());
      }
      built.withRecorded(r.interrupted(), r.startedAt(), r.endedAt(), r.requestsRecorded());
      assertEquals(
          described(JSON.readTree(file.toFile())).toPrettyString(),
          built.toTree().toPrettyString(),
          file.toString());
    }
  }

  @Test
  void theTargetDownRunsBlockIsTyped() throws IOException {
    TargetDown down =
        RunRecord.load(Path.of("src/test/resources/saved-runs/target-down/llm-run.json"))
            .targetDown();
    assertEquals("2026-12-07T02:42:11.664Z", down.at());
    assertEquals("2026-12-07T02:42:11.163Z", down.since());
    assertEquals(0.6, down.afterRunStartS());
    assertEquals(25, down.connectErrors());
    assertEquals(true, down.stopped());
    assertNull(down.backAt());
    assertEquals(1, down.episodes());
    assertEquals(25L, down.failedRequests());
    assertTrue(down.message().startsWith("TARGET DOWN at 02:42:11 (0.6 s into the run): 25"));
    assertEquals(
        "target_down",
        RunRecord.load(Path.of("src/test/resources/saved-runs/target-down/llm-run.json"))
            .endReason());
  }

  @Test
  void theQuickstartsDescriptionIsTyped() throws IOException {
    RunRecord r = RunRecord.load(Path.of("src/test/resources/saved-runs/shard0/llm-run.json"));
    assertEquals("gatling-llm", r.product());
    assertEquals("shared-prefix", r.prompts().mode());
    assertEquals(256, r.prompts().inputTokens());
    assertEquals(0.5, r.prompts().plannedSharedShare());
    assertEquals(List.of("chat"), r.prompts().requestNames());
    Map<String, String> digests = new LinkedHashMap<>();
    digests.put("warmup", "99c440268c879332");
    digests.put("measured", "56090fc2bc96bc54");
    assertEquals(digests, r.prompts().digests());
    assertEquals(true, r.target().embeddedSimulator());
    assertEquals("chat", r.target().endpoint());
    assertEquals(32, r.decoding().maxTokens());
    assertNull(r.decoding().temperature());
    assertEquals(60_000L, r.load().timeoutMs());
    assertEquals("shared", r.load().connections());
    assertEquals(
        List.of("chat (closed): constantConcurrentUsers(4).during(600s)"), r.load().profiles());
    assertEquals(4L, r.load().peakConcurrency());
    assertEquals(1, r.load().injection().size());
    assertEquals(Map.of("chat", 1.0), r.assertionsInForce().failedPercentBelow());
    assertEquals(0, r.shard().index());
    assertEquals(2, r.shard().count());
    assertEquals("budget_spent", r.endReason());
    assertEquals(0L, r.requestsCutByRunEnd());
    assertEquals(false, r.interrupted());
  }

  @Test
  void keysOfNewerVersionsInsideTheBlocksAreKeptInPlace(@TempDir Path dir) throws IOException {
    String text =
        "{\n"
            + "  \"product\" : \"gatling-llm\",\n"
            + "  \"target\" : {\n"
            + "    \"base_url\" : \"http://127.0.0.1:8000/v1\",\n"
            + "    \"embedded_simulator\" : false,\n"
            + "    \"endpoint\" : \"chat\",\n"
            + "    \"replicas\" : 2\n"
            + "  },\n"
            + "  \"load\" : {\n"
            + "    \"concurrency\" : 4,\n"
            + "    \"requests\" : 20,\n"
            + "    \"connections\" : \"shared\",\n"
            + "    \"profiles\" : [ ],\n"
            + "    \"arrival\" : {\n"
            + "      \"kind\" : \"poisson\"\n"
            + "    }\n"
            + "  },\n"
            + "  \"target_down\" : {\n"
            + "    \"at\" : \"2026-12-07T02:42:11.664Z\",\n"
            + "    \"since\" : null,\n"
            + "    \"after_run_start_s\" : 1.0,\n"
            + "    \"connect_errors\" : 3,\n"
            + "    \"error\" : null,\n"
            + "    \"stopped\" : false,\n"
            + "    \"back_at\" : null,\n"
            + "    \"episodes\" : 1,\n"
            + "    \"failed_requests\" : 3,\n"
            + "    \"message\" : \"TARGET DOWN\",\n"
            + "    \"probe\" : \"tcp\"\n"
            + "  },\n"
            + "  \"interrupted\" : \"yes\",\n"
            + "  \"requests_recorded\" : 20.5\n"
            + "}\n";
    Path file = dir.resolve("llm-run.json");
    Files.writeString(file, text);
    RunRecord r = RunRecord.load(file);
    assertEquals(text, r.text());
    assertEquals(Map.of("replicas", 2), r.target().extra());
    assertEquals(new LinkedHashMap<>(Map.of("kind", "poisson")), r.load().extra().get("arrival"));
    assertNull(r.load().warmupRequests());
    assertEquals("tcp", r.targetDown().extra().get("probe"));
    // A scalar of another kind than its type is kept as the file has it, and reads as absent.
    assertNull(r.interrupted());
    assertFalse(r.wasInterrupted());
    assertNull(r.requestsRecorded());
  }
}
