package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;

import com.fasterxml.jackson.core.JsonFactory;
import io.github.gatlingllm.metrics.RequestRecord;
import org.junit.jupiter.api.Test;

/**
 * The streaming reader reads each line to the record the tree reading gives, and gives up (null) on
 * each line the tree reading refuses or reads another way, so {@link RequestRecordJson#fromJson}
 * keeps its records and its error messages.
 */
class RequestRecordReaderTest {

  private static final String FULL =
      "{\"request\":\"chat\",\"phase\":\"measured\",\"index\":3,\"prompt_id\":\"p-3\","
          + "\"digest\":\"0123456789abcdef\",\"prefix_group\":1,\"shared_prefix_tokens\":256,"
          + "\"planned_tokens\":512,\"start_ms\":1700000000000,\"prompt_tokens\":530,"
          + "\"prompt_tokens_exact\":true,\"cached_tokens\":256,\"completion_tokens\":3,"
          + "\"completion_tokens_exact\":true,\"ttft_ms\":50,\"time_to_first_event_ms\":5,"
          + "\"itl_ms\":[20,30.5,0.001],\"tpot_ms\":26.5,\"e2e_ms\":103,"
          + "\"output_tokens_per_s\":29.125,\"finish_reason\":\"length\",\"http_status\":200,"
          + "\"status\":\"ok\",\"error\":null,\"workload\":\"shared-prefix\","
          + "\"planned_cached_tokens\":256,\"cache_planned\":\"hit\",\"cache\":\"partial\","
          + "\"cache_warm_start\":false,\"conversation\":4,\"turn\":2,\"context_tokens\":673,"
          + "\"reply_digest\":\"00112233aabbccdd\",\"sent_ms\":1700000000000.125,"
          + "\"scheduled_ms\":1700000000000.002,\"schedule_lag_ms\":0.123,\"ttfo_ms\":61.25,"
          + "\"reasoning_tokens\":12,\"reasoning_tokens_source\":\"usage\",\"answer_tokens\":3,"
          + "\"reasoning_tpot_ms\":1.5,\"answer_tpot_ms\":2.25,\"answer_itl_from\":1,"
          + "\"cancel_after_ms\":900,\"trace_row\":17}";

  private static RequestRecord fast(String line) {
    return new RequestRecordReader(new JsonFactory()).read(line);
  }

  @Test
  void aFullLineReadsToTheTreesRecord() {
    RequestRecord r = fast(FULL);
    assertNotNull(r);
    assertEquals(RequestRecordJson.fromJson(FULL), r);
  }

  @Test
  void aWrittenLineReadsBackToItsRecord() {
    RequestRecord r = RequestRecordJson.fromJson(FULL);
    assertEquals(r, fast(RequestRecordJson.toJson(r, true)));
  }

  @Test
  void aMinimalLineReadsWithItsDefaults() {
    String line = "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals(RequestRecordJson.fromJson(line), fast(line));
  }

  @Test
  void unknownKeysOfAnyShapeAreSkipped() {
    String line =
        "{\"future\":{\"x\":[1,{\"y\":null}]},\"request\":\"r\",\"more\":[[]],\"start_ms\":1,"
            + "\"status\":\"ok\",\"e2e_ms\":12}";
    assertEquals(RequestRecordJson.fromJson(line), fast(line));
  }

  @Test
  void theLastOfDuplicateKeysWinsAsInATree() {
    String line = "{\"request\":\"a\",\"request\":\"b\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals("b", fast(line).request());
    assertEquals(RequestRecordJson.fromJson(line), fast(line));
  }

  @Test
  void nullFlagsReadAsFalseAndANullWarmStartAsNull() {
    String line =
        "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens_exact\":null,"
            + "\"cache_warm_start\":null}";
    assertEquals(RequestRecordJson.fromJson(line), fast(line));
  }

  @Test
  void aLongIndexAndAWholeNumberTimeReadAsInATree() {
    String line =
        "{\"request\":\"r\",\"index\":12345678901,\"start_ms\":1,\"status\":\"ok\","
            + "\"ttft_ms\":12345678901}";
    assertEquals(RequestRecordJson.fromJson(line), fast(line));
  }

  @Test
  void aStringWhereANumberGoesIsLeftToTheTree() {
    assertEquals(
        null,
        fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens\":\"12\"}"));
  }

  @Test
  void anIntFieldOutOfIntRangeIsLeftToTheTree() {
    assertEquals(
        null,
        fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens\":3000000000}"));
  }

  @Test
  void aFractionalStartIsLeftToTheTree() {
    assertEquals(null, fast("{\"request\":\"r\",\"start_ms\":1.5,\"status\":\"ok\"}"));
  }

  @Test
  void aMissingStatusIsLeftToTheTree() {
    assertEquals(null, fast("{\"request\":\"r\",\"start_ms\":1}"));
  }

  @Test
  void anUnknownStatusIsLeftToTheTree() {
    assertEquals(null, fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"fine\"}"));
  }

  @Test
  void anUnknownCacheOutcomeIsLeftToTheTree() {
    assertEquals(
        null, fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"cache\":\"warm\"}"));
  }

  @Test
  void aConversationWithoutItsTurnIsLeftToTheTree() {
    assertEquals(
        null, fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"conversation\":4}"));
  }

  @Test
  void aStringInTheItlsIsLeftToTheTree() {
    assertEquals(
        null, fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"itl_ms\":[1,\"2\"]}"));
  }

  @Test
  void brokenJsonIsLeftToTheTree() {
    assertEquals(null, fast("{\"request\":"));
  }

  @Test
  void anArrayLineIsLeftToTheTree() {
    assertEquals(null, fast("[1]"));
  }

  @Test
  void textAfterTheObjectIsLeftToTheTree() {
    assertEquals(null, fast("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"} 7"));
  }

  @Test
  void aReaderReadsLineAfterLineWithoutCarryingValuesOver() {
    RequestRecordReader reader = new RequestRecordReader(new JsonFactory());
    reader.read(FULL);
    String line = "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals(RequestRecordJson.fromJson(line), reader.read(line));
  }
}
