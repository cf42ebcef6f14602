package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.AnswerSummary;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.MetricsSummary;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.stats.Distribution;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The run record's typed blocks against files the hand-built maps wrote before them: the
 * llm-run.json files under src/test/resources/runrecord were written by gatling-llm at 782ee89 (the
 * quickstart with llm.seed=7, SweepSimulation, ConversationSimulation, TraceReplaySimulation, and
 * 40 requests to llama.cpp with a TTFT SLO). Each block read into its class and written again must
 * give the file byte for byte.
 */
class RunRecordJsonTest {

  private static final ObjectMapper JSON = new ObjectMapper();
  private static final Path RUNS = Path.of("src/test/resources/runrecord");

  @SuppressWarnings("unchecked")
  private static String typedAgain(String name) throws IOException {
    Map<String, Object> record =
        JSON.readValue(RUNS.resolve(name + "-llm-run.json").toFile(), LinkedHashMap.class);
    record.replaceAll((key, value) -> typed(key, value));
    return RunRecordJson.text(record);
  }

  private static Object typed(String key, Object value) {
    if ("levels".equals(key)) {
      // A list of entries, each its class.
      return ((java.util.List<?>) value).stream().map(l -> typed("level", l)).toList();
    }
    if ("conversations".equals(key) || "sessions".equals(key)) {
      // A list of workloads, each its class, as RunFinish puts them.
      return ((java.util.List<?>) value).stream().map(w -> typed(key + "[]", w)).toList();
    }
    Class<?> type =
        switch (key) {
          case "metrics" -> MetricsSummary.class;
          case "slo" -> Slo.class;
          case "cache" -> CacheSummary.class;
          case "level" -> LevelEntry.class;
          case "capacity" -> io.github.gatlingllm.record.Capacity.class;
          case "conversations[]" -> io.github.gatlingllm.record.Conversations.class;
          case "sessions[]" -> io.github.gatlingllm.record.AgentSessions.class;
          default -> null;
        };
    if (type == null) {
      return value;
    }
    Object block = RunRecordJson.read(value, type);
    assertEquals(type, block.getClass(), key);
    return block;
  }

  private static String file(String name) throws IOException {
    return Files.readString(RUNS.resolve(name + "-llm-run.json"));
  }

  @Test
  void aCapacitySearchsRecordIsWrittenAgainByteForByte() throws IOException {
    // CapacitySearchSimulation with llm.search.holdSeconds=15 (issue 44), written at a8c17bd
    assertEquals(file("capacity"), typedAgain("capacity"));
  }

  @Test
  void theQuickstartsRecordIsWrittenAgainByteForByte() throws IOException {
    assertEquals(file("quick"), typedAgain("quick"));
  }

  @Test
  void aSweepsRecordIsWrittenAgainByteForByte() throws IOException {
    assertEquals(file("sweep"), typedAgain("sweep"));
  }

  @Test
  void aConversationsRecordIsWrittenAgainByteForByte() throws IOException {
    assertEquals(file("conv"), typedAgain("conv"));
  }

  @Test
  void aTraceReplaysRecordIsWrittenAgainByteForByte() throws IOException {
    assertEquals(file("trace"), typedAgain("trace"));
  }

  @Test
  void aLlamaCppRunWithAnSloIsWrittenAgainByteForByte() throws IOException {
    assertEquals(file("llama"), typedAgain("llama"));
  }

  @Test
  void aGroupWithoutAPhaseWritesItsPhaseAsNullAndTheOverallHasNeither() throws IOException {
    GroupSummary overall = group(null, null, null, AnswerSummary.EMPTY);
    GroupSummary chat = group("chat", null, null, AnswerSummary.EMPTY);
    String text = RunRecordJson.text(Map.of("metrics", new MetricsSummary(overall, List.of(chat))));
    assertEquals(
        "{\"metrics\":{\"overall\":{\"requests\":2,\"status\":{"
            + STATUSES
            + "},"
            + REST
            + "},\"groups\":[{\"request\":\"chat\",\"phase\":null,\"requests\":2,\"status\":{"
            + STATUSES
            + "},"
            + REST
            + "}]}}",
        text.replaceAll("\\s+", ""));
  }

  @Test
  void goodputAndCancellationAreWrittenInTheirOrder() throws IOException {
    Goodput goodput =
        new Goodput(
            new Slo(500.0, null, null, null, 900.0), 2, 1, 0, Map.of("ttft", 1L), 0.5, 0.25, null);
    AnswerSummary answer =
        new AnswerSummary(
            Distribution.EMPTY,
            Distribution.EMPTY,
            Distribution.EMPTY,
            Distribution.EMPTY,
            0,
            0,
            0,
            0,
            3,
            2,
            1);
    String text = RunRecordJson.text(Map.of("g", group("chat", "measured", goodput, answer)));
    assertEquals(
        "{\"g\":{\"request\":\"chat\",\"phase\":\"measured\",\"requests\":2,\"status\":{"
            + STATUSES
            + "},"
            + REST.replace(
                "\"ttfo_ms\"",
                "\"goodput\":{\"slo\":{\"ttft_ms\":500.0,\"itl_ms\":null,\"tpot_ms\":null,"
                    + "\"e2e_ms\":null,\"ttfo_ms\":900.0},\"offered\":2,\"met\":1,\"failed\":0,"
                    + "\"missed\":{\"ttft\":1},\"attainment\":0.5,\"goodput_requests_per_s\":0.25,"
                    + "\"goodput_output_tokens_per_s\":null},\"ttfo_ms\"")
            + ",\"cancellation\":{\"chosen\":3,\"cancelled\":2,\"completed_first\":1,"
            + "\"cancelled_after_first_token\":1}}}",
        text.replaceAll("\\s+", ""));
    assertEquals(
        group("chat", "measured", goodput, answer),
        RunRecordJson.read(JSON.readValue(text, Map.class).get("g"), GroupSummary.class));
  }

  @Test
  void aGroupOfAnOlderVersionLoadsWithEmptyFigures() {
    Map<String, Object> old = new LinkedHashMap<>();
    old.put("request", "chat");
    old.put("phase", "measured");
    old.put("requests", 3);
    old.put("status", Map.of("ok", 3, "some_future_status", 1));
    old.put("ttft_ms", Map.of("count", 3, "p50", 12.5, "some_future_figure", 1));
    old.put("an_unknown_key", "kept out");
    GroupSummary g = RunRecordJson.read(old, GroupSummary.class);
    assertEquals(3, g.requests());
    assertEquals(3L, g.count(RequestStatus.OK));
    assertEquals(0L, g.count(RequestStatus.TIMEOUT));
    assertEquals(new Distribution(3, null, null, 12.5, null, null, null, null), g.ttftMs());
    assertEquals(Distribution.EMPTY, g.e2eMs());
    assertEquals(AnswerSummary.EMPTY, g.answer());
    assertNull(g.goodput());
  }

  @Test
  void aBlockThatDoesNotReadIsNull() {
    assertNull(RunRecordJson.read(List.of(1, 2), MetricsSummary.class));
    assertNull(RunRecordJson.read(null, MetricsSummary.class));
  }

  private static final String STATUSES =
      "\"ok\":2,\"http_error\":0,\"rejected\":0,\"timeout\":0,\"stream_error\":0,"
          + "\"connect_error\":0,\"cut_by_run_end\":0,\"cancelled\":0";

  private static final String EMPTY =
      "{\"count\":0,\"mean\":null,\"min\":null,\"p50\":null,\"p90\":null,\"p95\":null,"
          + "\"p99\":null,\"max\":null}";

  private static final String REST =
      "\"prompt_tokens\":20,\"cached_tokens\":0,\"cache_hit_ratio\":null,"
          + "\"completion_tokens\":8,\"window_start_ms\":1000,\"window_end_ms\":3000,"
          + "\"requests_per_s\":1.0,\"output_tokens_per_s\":4.0,\"ttft_ms\":"
          + "{\"count\":2,\"mean\":1.5,\"min\":1.0,\"p50\":1.0,\"p90\":2.0,\"p95\":2.0,\"p99\":2.0,"
          + "\"max\":2.0},\"itl_ms\":"
          + EMPTY
          + ",\"tpot_ms\":"
          + EMPTY
          + ",\"e2e_ms\":"
          + EMPTY
          + ",\"output_tokens_per_s_per_request\":"
          + EMPTY
          + ",\"ttfo_ms\":"
          + EMPTY
          + ",\"reasoning\":{\"requests_reasoning\":0,\"never_answered\":0,\"reasoning_tokens\":0,"
          + "\"answer_tokens\":0,\"reasoning_share\":null,\"reasoning_tokens_per_request\":"
          + EMPTY
          + ",\"reasoning_tpot_ms\":"
          + EMPTY
          + ",\"answer_tpot_ms\":"
          + EMPTY
          + "}";

  private static GroupSummary group(
      String request, String phase, Goodput goodput, AnswerSummary answer) {
    return new GroupSummary(
        request,
        phase,
        2,
        Map.of(RequestStatus.OK, 2L),
        20,
        0,
        null,
        8,
        1000L,
        3000L,
        1.0,
        4.0,
        new Distribution(2, 1.5, 1.0, 1.0, 2.0, 2.0, 2.0, 2.0),
        Distribution.EMPTY,
        Distribution.EMPTY,
        Distribution.EMPTY,
        Distribution.EMPTY,
        goodput,
        answer);
  }
}
