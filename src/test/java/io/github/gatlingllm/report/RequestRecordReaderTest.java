package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNotNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.core.JsonFactory;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.RequestRecord;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The one reader reads each line to the record Jackson's tree oracle ({@link JacksonRecordJson},
 * the reading of lines before {@link RecordFields}) gives, and refuses each line the oracle refuses
 * with the same message. (Before the field list it gave up on those lines and left them to the
 * tree; the tests of those cases now check the message.)
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

  private static String refused(String line) {
    return assertThrows(IllegalArgumentException.class, () -> fast(line)).getMessage();
  }

  /** Reads a line as text and as bytes, and holds both to the oracle: same record or message. */
  private static void assertReadsAsTheOracle(String line) {
    RequestRecord expected = null;
    String expectedError = null;
    try {
      expected = JacksonRecordJson.fromJson(line);
    } catch (IllegalArgumentException e) {
      expectedError = e.getMessage();
    }
    RequestRecordReader reader = RequestRecordReader.create();
    byte[] bytes = ("x" + line + "y").getBytes(StandardCharsets.UTF_8);
    if (expectedError == null) {
      assertEquals(expected, reader.read(line), line);
      assertEquals(expected, reader.read(bytes, 1, bytes.length - 2), line);
    } else {
      assertEquals(
          expectedError,
          assertThrows(IllegalArgumentException.class, () -> reader.read(line), line).getMessage(),
          line);
      assertEquals(
          expectedError,
          assertThrows(
                  IllegalArgumentException.class,
                  () -> reader.read(bytes, 1, bytes.length - 2),
                  line)
              .getMessage(),
          line);
    }
  }

  @Test
  void aFullLineReadsToTheTreesRecord() {
    RequestRecord r = fast(FULL);
    assertNotNull(r);
    assertEquals(JacksonRecordJson.fromJson(FULL), r);
  }

  @Test
  void aWrittenLineReadsBackToItsRecord() {
    RequestRecord r = JacksonRecordJson.fromJson(FULL);
    assertEquals(r, fast(RequestRecordJson.toJson(r, true)));
  }

  @Test
  void aMinimalLineReadsWithItsDefaults() {
    String line = "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals(JacksonRecordJson.fromJson(line), fast(line));
  }

  @Test
  void unknownKeysOfAnyShapeAreSkipped() {
    String line =
        "{\"future\":{\"x\":[1,{\"y\":null}]},\"request\":\"r\",\"more\":[[]],\"start_ms\":1,"
            + "\"status\":\"ok\",\"e2e_ms\":12}";
    assertEquals(JacksonRecordJson.fromJson(line), fast(line));
  }

  @Test
  void theLastOfDuplicateKeysWinsAsInATree() {
    String line = "{\"request\":\"a\",\"request\":\"b\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals("b", fast(line).request());
    assertEquals(JacksonRecordJson.fromJson(line), fast(line));
  }

  @Test
  void aWrongValueOverwrittenByALaterDuplicateIsNoFault() {
    String line =
        "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens\":\"x\","
            + "\"prompt_tokens\":12}";
    assertEquals(12, fast(line).promptTokens());
  }

  @Test
  void nullFlagsReadAsFalseAndANullWarmStartAsNull() {
    String line =
        "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens_exact\":null,"
            + "\"cache_warm_start\":null}";
    assertEquals(JacksonRecordJson.fromJson(line), fast(line));
  }

  @Test
  void aLongIndexAndAWholeNumberTimeReadAsInATree() {
    String line =
        "{\"request\":\"r\",\"index\":12345678901,\"start_ms\":1,\"status\":\"ok\","
            + "\"ttft_ms\":12345678901}";
    assertEquals(JacksonRecordJson.fromJson(line), fast(line));
  }

  @Test
  void aStringWhereANumberGoesIsRefusedNamingTheKey() {
    assertEquals(
        "request record field \"prompt_tokens\" must be a whole number (int), got \"12\"",
        refused("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens\":\"12\"}"));
  }

  @Test
  void anIntFieldOutOfIntRangeIsRefused() {
    assertEquals(
        "request record field \"prompt_tokens\" must be a whole number (int), got 3000000000",
        refused(
            "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"prompt_tokens\":3000000000}"));
  }

  @Test
  void aFractionalStartIsRefused() {
    assertEquals(
        "request record needs \"start_ms\" (epoch milliseconds), got 1.5",
        refused("{\"request\":\"r\",\"start_ms\":1.5,\"status\":\"ok\"}"));
  }

  @Test
  void aMissingStatusIsRefused() {
    assertEquals("request record needs \"status\"", refused("{\"request\":\"r\",\"start_ms\":1}"));
  }

  @Test
  void anUnknownStatusIsRefused() {
    assertEquals(
        "request status must be one of ok, http_error, rejected, timeout, stream_error,"
            + " connect_error, cut_by_run_end, cancelled, got \"fine\"",
        refused("{\"request\":\"r\",\"start_ms\":1,\"status\":\"fine\"}"));
  }

  @Test
  void anUnknownCacheOutcomeIsRefused() {
    assertEquals(
        "request record field \"cache\": cache outcome: got \"warm\", expected one of hit,"
            + " partial, miss, unplanned_hit, unknown",
        refused("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"cache\":\"warm\"}"));
  }

  @Test
  void aConversationWithoutItsTurnIsRefused() {
    assertEquals(
        "request record: \"conversation\" and \"turn\" go together, got conversation 4 and"
            + " turn null",
        refused("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"conversation\":4}"));
  }

  @Test
  void aStringInTheItlsIsRefusedShowingTheArray() {
    assertEquals(
        "request record field \"itl_ms\" must be an array of numbers, got [1,\"2\"]",
        refused("{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"itl_ms\":[1, \"2\"]}"));
  }

  @Test
  void aLongValueIsShownCutTo60Characters() {
    assertEquals(
        "request record field \"phase\" must be a string, got"
            + " [1111111111,2222222222,3333333333,4444444444,5555555555,6...",
        refused(
            "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"phase\":[1111111111,"
                + "2222222222,3333333333,4444444444,5555555555,6666666666]}"));
  }

  @Test
  void brokenJsonIsRefusedAsNotJson() {
    assertEquals(
        "request record is not valid JSON: Unexpected end-of-input within/between Object entries",
        refused("{\"request\":"));
  }

  @Test
  void anArrayLineIsRefused() {
    assertEquals("request record must be a JSON object", refused("[1]"));
  }

  @Test
  void textAfterTheObjectIsNotReadAsInATree() {
    String line = "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"} 7";
    assertEquals(JacksonRecordJson.fromJson(line), fast(line));
  }

  @Test
  void aReaderReadsLineAfterLineWithoutCarryingValuesOver() {
    RequestRecordReader reader = new RequestRecordReader(new JsonFactory());
    reader.read(FULL);
    String line = "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals(JacksonRecordJson.fromJson(line), reader.read(line));
  }

  @Test
  void aReaderReadsOnAfterARefusedLine() {
    RequestRecordReader reader = RequestRecordReader.create();
    assertThrows(IllegalArgumentException.class, () -> reader.read("{\"request\":1}"));
    String line = "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\"}";
    assertEquals(JacksonRecordJson.fromJson(line), reader.read(line));
  }

  @Test
  void everyPrefixOfALineIsReadOrRefusedAsTheOracleDoes() {
    for (int i = 0; i <= FULL.length(); i++) {
      assertReadsAsTheOracle(FULL.substring(0, i));
    }
  }

  @Test
  void everyCharacterInsertedAnywhereIsReadOrRefusedAsTheOracleDoes() {
    for (int i = 0; i <= FULL.length(); i++) {
      for (String c : List.of("x", "\"", "{", "]", ",", "-", "\\", " ")) {
        assertReadsAsTheOracle(FULL.substring(0, i) + c + FULL.substring(i));
      }
    }
  }

  @Test
  void everyKeyWithEveryKindOfValueIsReadOrRefusedAsTheOracleDoes() throws Exception {
    Map<String, String> raw = new LinkedHashMap<>();
    JsonNode full = new ObjectMapper().readTree(FULL);
    full.fieldNames().forEachRemaining(k -> raw.put(k, full.get(k).toString()));
    List<String> keys = new ArrayList<>(raw.keySet());
    keys.add("unknown");
    List<String> values =
        List.of(
            "\"12\"",
            "12",
            "0",
            "-1",
            "3000000000",
            "99999999999999999999",
            "1.5",
            "1e400",
            "-0.0",
            "true",
            "false",
            "null",
            "{\"a\":[1]}",
            "[]",
            "[1,2.5]",
            "[1,\"2\"]",
            "[1,{\"x\":\"" + "y".repeat(80) + "\"}]",
            "\"ok\"",
            "\"hit\"",
            "\"miss\"",
            "\"" + "z".repeat(70) + "\"");
    for (String key : keys) {
      for (String value : values) {
        Map<String, String> replaced = new LinkedHashMap<>(raw);
        replaced.put(key, value);
        assertReadsAsTheOracle(line(replaced));
        Map<String, String> removed = new LinkedHashMap<>(raw);
        removed.remove(key);
        assertReadsAsTheOracle(line(removed));
        assertReadsAsTheOracle(line(removed).replace("{", "{\"" + key + "\":" + value + ","));
      }
    }
  }

  private static String line(Map<String, String> raw) {
    StringBuilder out = new StringBuilder("{");
    raw.forEach(
        (k, v) ->
            out.append(out.length() > 1 ? "," : "").append('"').append(k).append("\":").append(v));
    return out.append('}').toString();
  }
}
