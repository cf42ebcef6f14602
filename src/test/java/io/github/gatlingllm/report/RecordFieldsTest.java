package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.dataformat.csv.CsvGenerator;
import com.fasterxml.jackson.dataformat.csv.CsvMapper;
import com.fasterxml.jackson.dataformat.csv.CsvSchema;
import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.io.IOException;
import java.io.StringWriter;
import java.lang.reflect.RecordComponent;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The record's fields are listed once ({@link RecordFields}); the writer, the reader and the CSV
 * iterate that list. A field added to {@link RequestRecord} and forgotten in the list fails here
 * (it does not survive a line), and each path is held to Jackson's oracle ({@link
 * JacksonRecordJson}, the code that wrote and read lines before the list).
 */
class RecordFieldsTest {

  private static final RequestRecord EVERY = EveryField.record("x", List.of(1.5, 0.25));

  private static final RequestRecord REQUIRED_ONLY =
      RequestRecord.builder().request("chat").startMs(5L).status(RequestStatus.OK).build();

  @Test
  void theFixtureSetsEveryFieldOfTheRecord() throws ReflectiveOperationException {
    for (RecordComponent c : RequestRecord.class.getRecordComponents()) {
      assertNotNull(
          c.getAccessor().invoke(EVERY),
          c.getName()
              + " is not set in EveryField.record: set it there, then check the writer and"
              + " readers");
    }
  }

  @Test
  void everyFieldSurvivesALineWrittenAndReadThroughTheList() {
    assertEquals(EVERY, RequestRecordReader.create().read(RequestRecordJson.toJson(EVERY, true)));
  }

  @Test
  void theLineWriterWritesEveryFieldAsJacksonDoes() {
    assertEquals(
        JacksonRecordJson.toJsonWithJackson(EVERY, true), RequestRecordJson.toJson(EVERY, true));
  }

  @Test
  void theTreeOracleReadsEveryFieldBack() {
    assertEquals(EVERY, JacksonRecordJson.fromJson(RequestRecordJson.toJson(EVERY, true)));
  }

  @Test
  void theStreamingReaderReadsEveryFieldAsTheTreeDoes() {
    String line = RequestRecordJson.toJson(EVERY, true);
    assertEquals(JacksonRecordJson.fromJson(line), RequestRecordReader.create().read(line));
  }

  @Test
  void theKeysAreTheLinesKeysInOrder() {
    assertEquals(
        List.of(
            "request",
            "phase",
            "index",
            "prompt_id",
            "digest",
            "prefix_group",
            "shared_prefix_tokens",
            "planned_tokens",
            "start_ms",
            "prompt_tokens",
            "prompt_tokens_exact",
            "cached_tokens",
            "completion_tokens",
            "completion_tokens_exact",
            "ttft_ms",
            "time_to_first_event_ms",
            "itl_ms",
            "tpot_ms",
            "e2e_ms",
            "output_tokens_per_s",
            "finish_reason",
            "http_status",
            "status",
            "error",
            "workload",
            "planned_cached_tokens",
            "cache_planned",
            "cache",
            "cache_warm_start",
            "conversation",
            "turn",
            "context_tokens",
            "reply_digest",
            "sent_ms",
            "scheduled_ms",
            "schedule_lag_ms",
            "ttfo_ms",
            "reasoning_tokens",
            "reasoning_tokens_source",
            "answer_tokens",
            "reasoning_tpot_ms",
            "answer_tpot_ms",
            "answer_itl_from",
            "cancel_after_ms",
            "trace_row",
            "session_id",
            "tool_calls",
            "images",
            "image_bytes",
            "request_bytes",
            "upload_ms"),
        RecordFields.ALL.stream().map(f -> f.name).toList());
  }

  @Test
  void theCsvWritesEveryFieldAsJacksonsCsvGeneratorDid() throws IOException {
    List<RequestRecord> records =
        List.of(
            EVERY,
            REQUIRED_ONLY,
            EveryField.record("a, \"quoted\"\nline", List.of()),
            EveryField.record("n", null)
                .withConversationTurn(new ConversationTurn(0, 1, null, null)));
    StringWriter out = new StringWriter();
    RequestsFile.writeCsv(records, out);
    assertEquals(oracleCsv(records), out.toString());
  }

  @Test
  void theCsvHasAColumnForEveryKeyButTraceRowAndTheSessionKeys() {
    List<String> keys = new ArrayList<>();
    for (RecordFields.Field f : RecordFields.ALL) {
      keys.add(f.name);
    }
    keys.remove("trace_row");
    keys.remove("session_id");
    keys.remove("tool_calls");
    keys.remove("images");
    keys.remove("image_bytes");
    keys.remove("request_bytes");
    keys.remove("upload_ms");
    assertEquals(keys, RequestsFile.columns());
  }

  /** The CSV as it was written before the list: Jackson's generator driven by the oracle. */
  private static String oracleCsv(List<RequestRecord> records) throws IOException {
    RequestRecord any =
        RequestRecord.builder().request("x").startMs(0).status(RequestStatus.OK).build();
    CsvSchema.Builder schema = CsvSchema.builder().setUseHeader(true).setArrayElementSeparator(";");
    for (String c :
        new com.fasterxml.jackson.databind.ObjectMapper()
            .readTree(JacksonRecordJson.toJsonWithJackson(any, true)).properties().stream()
                .map(java.util.Map.Entry::getKey)
                .toList()) {
      schema.addColumn(c);
    }
    StringWriter out = new StringWriter();
    try (CsvGenerator g = new CsvMapper().getFactory().createGenerator(out)) {
      g.setSchema(schema.build());
      g.enable(com.fasterxml.jackson.core.JsonGenerator.Feature.IGNORE_UNKNOWN);
      for (RequestRecord r : records) {
        JacksonRecordJson.write(g, r, true);
      }
    }
    return out.toString();
  }
}
