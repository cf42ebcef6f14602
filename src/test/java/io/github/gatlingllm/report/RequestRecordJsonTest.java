package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.List;
import org.junit.jupiter.api.Test;

class RequestRecordJsonTest {

  /** The reasoning and cancellation keys of a record without them. */
  static final String NO_REASONING =
      "\"ttfo_ms\":null,\"reasoning_tokens\":null,\"reasoning_tokens_source\":null,"
          + "\"answer_tokens\":null,\"reasoning_tpot_ms\":null,\"answer_tpot_ms\":null,"
          + "\"answer_itl_from\":null,\"cancel_after_ms\":null}";

  private static final RequestRecord FULL =
      RequestRecord.builder()
          .request("chat")
          .phase("measured")
          .index(3L)
          .promptId("p-3")
          .digest("0123456789abcdef")
          .prefixGroup(1)
          .sharedPrefixTokens(256)
          .plannedTokens(512)
          .startMs(1_700_000_000_000L)
          .promptTokens(530)
          .promptTokensExact(true)
          .cachedTokens(256)
          .completionTokens(3)
          .completionTokensExact(true)
          .ttftMs(50.0)
          .timeToFirstEventMs(5.0)
          .itlMs(List.of(20.0, 30.5))
          .tpotMs(26.5)
          .e2eMs(103.0)
          .outputTokensPerS(29.125)
          .finishReason("length")
          .httpStatus(200)
          .status(RequestStatus.OK)
          .build();

  private static final String FULL_JSON =
      "{\"request\":\"chat\",\"phase\":\"measured\",\"index\":3,\"prompt_id\":\"p-3\","
          + "\"digest\":\"0123456789abcdef\",\"prefix_group\":1,\"shared_prefix_tokens\":256,"
          + "\"planned_tokens\":512,\"start_ms\":1700000000000,\"prompt_tokens\":530,"
          + "\"prompt_tokens_exact\":true,\"cached_tokens\":256,\"completion_tokens\":3,"
          + "\"completion_tokens_exact\":true,\"ttft_ms\":50,\"time_to_first_event_ms\":5,"
          + "\"itl_ms\":[20,30.5],\"tpot_ms\":26.5,\"e2e_ms\":103,"
          + "\"output_tokens_per_s\":29.125,\"finish_reason\":\"length\",\"http_status\":200,"
          + "\"status\":\"ok\",\"error\":null,"
          + "\"workload\":null,\"planned_cached_tokens\":null,\"cache_planned\":null,\"cache\":null,\"cache_warm_start\":null,"
          + "\"conversation\":null,\"turn\":null,\"context_tokens\":null,\"reply_digest\":null,"
          + "\"sent_ms\":null,\"scheduled_ms\":null,\"schedule_lag_ms\":null,"
          + NO_REASONING;

  private static final RequestRecord FAILED =
      RequestRecord.builder()
          .request("chat")
          .startMs(5L)
          .e2eMs(12.0)
          .httpStatus(429)
          .status(RequestStatus.REJECTED)
          .error("Too Many Requests")
          .build();

  private static final RequestRecord MICROS =
      RequestRecord.builder()
          .request("chat")
          .phase("measured")
          .index(0L)
          .startMs(1_700_000_000_000L)
          .promptTokens(12)
          .promptTokensExact(true)
          .completionTokens(3)
          .completionTokensExact(true)
          .ttftMs(12.346)
          .timeToFirstEventMs(0.345)
          .itlMs(List.of(0.25, 0.001, 34.0))
          .tpotMs(16.328)
          .e2eMs(45.001)
          .outputTokensPerS(66.66518521810626)
          .finishReason("length")
          .httpStatus(200)
          .status(RequestStatus.OK)
          .build();

  @Test
  void microsecondTimesAreWrittenAsTheShortestDecimal() {
    assertEquals(
        "{\"request\":\"chat\",\"phase\":\"measured\",\"index\":0,\"prompt_id\":null,\"digest\":null,"
            + "\"prefix_group\":null,\"shared_prefix_tokens\":null,\"planned_tokens\":null,"
            + "\"start_ms\":1700000000000,\"prompt_tokens\":12,\"prompt_tokens_exact\":true,"
            + "\"cached_tokens\":null,\"completion_tokens\":3,\"completion_tokens_exact\":true,"
            + "\"ttft_ms\":12.346,\"time_to_first_event_ms\":0.345,\"itl_ms\":[0.25,0.001,34],"
            + "\"tpot_ms\":16.328,\"e2e_ms\":45.001,\"output_tokens_per_s\":66.66518521810626,"
            + "\"finish_reason\":\"length\",\"http_status\":200,\"status\":\"ok\",\"error\":null,"
            + "\"workload\":null,\"planned_cached_tokens\":null,\"cache_planned\":null,\"cache\":null,\"cache_warm_start\":null,"
            + "\"conversation\":null,\"turn\":null,\"context_tokens\":null,\"reply_digest\":null,"
            + "\"sent_ms\":null,\"scheduled_ms\":null,\"schedule_lag_ms\":null,"
            + NO_REASONING,
        RequestRecordJson.toJson(MICROS, true));
  }

  @Test
  void roundTripOfMicrosecondTimes() {
    assertEquals(MICROS, RequestRecordJson.fromJson(RequestRecordJson.toJson(MICROS, true)));
  }

  @Test
  void aTimeWithFloatingPointErrorIsWrittenAsItsValue() {
    RequestRecord r =
        RequestRecordJson.fromJson(
            "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\",\"e2e_ms\":2.5170000000000003}");
    assertEquals(2.5170000000000003, r.e2eMs());
    assertTrue(RequestRecordJson.toJson(r, false).contains("\"e2e_ms\":2.5170000000000003,"));
  }

  @Test
  void readsOlderLinesWithWholeMillisecondTimes() {
    RequestRecord r =
        RequestRecordJson.fromJson(
            "{\"request\":\"chat\",\"start_ms\":5,\"ttft_ms\":50,\"time_to_first_event_ms\":5.0,"
                + "\"itl_ms\":[20,30.0],\"tpot_ms\":26.5,\"e2e_ms\":103,\"status\":\"ok\"}");
    assertEquals(50.0, r.ttftMs());
    assertEquals(5.0, r.timeToFirstEventMs());
    assertEquals(List.of(20.0, 30.0), r.itlMs());
    assertEquals(26.5, r.tpotMs());
    assertEquals(103.0, r.e2eMs());
  }

  @Test
  void jsonWithItl() {
    assertEquals(FULL_JSON, RequestRecordJson.toJson(FULL, true));
  }

  @Test
  void jsonWithoutItl() {
    assertEquals(
        FULL_JSON.replace("\"itl_ms\":[20,30.5],", ""), RequestRecordJson.toJson(FULL, false));
  }

  @Test
  void nullsAreWrittenAsNull() {
    assertEquals(
        "{\"request\":\"chat\",\"phase\":null,\"index\":null,\"prompt_id\":null,\"digest\":null,"
            + "\"prefix_group\":null,\"shared_prefix_tokens\":null,\"planned_tokens\":null,"
            + "\"start_ms\":5,\"prompt_tokens\":null,\"prompt_tokens_exact\":false,"
            + "\"cached_tokens\":null,\"completion_tokens\":null,\"completion_tokens_exact\":false,"
            + "\"ttft_ms\":null,\"time_to_first_event_ms\":null,\"itl_ms\":null,\"tpot_ms\":null,"
            + "\"e2e_ms\":12,\"output_tokens_per_s\":null,\"finish_reason\":null,"
            + "\"http_status\":429,\"status\":\"rejected\",\"error\":\"Too Many Requests\","
            + "\"workload\":null,\"planned_cached_tokens\":null,\"cache_planned\":null,\"cache\":null,\"cache_warm_start\":null,"
            + "\"conversation\":null,\"turn\":null,\"context_tokens\":null,\"reply_digest\":null,"
            + "\"sent_ms\":null,\"scheduled_ms\":null,\"schedule_lag_ms\":null,"
            + NO_REASONING,
        RequestRecordJson.toJson(FAILED, true));
  }

  @Test
  void roundTripWithItl() {
    assertEquals(FULL, RequestRecordJson.fromJson(RequestRecordJson.toJson(FULL, true)));
  }

  @Test
  void roundTripOfNulls() {
    assertEquals(FAILED, RequestRecordJson.fromJson(RequestRecordJson.toJson(FAILED, true)));
  }

  @Test
  void readingWithoutItlGivesNullItl() {
    assertEquals(null, RequestRecordJson.fromJson(RequestRecordJson.toJson(FULL, false)).itlMs());
  }

  @Test
  void unknownKeysAreIgnored() {
    assertEquals(
        FAILED,
        RequestRecordJson.fromJson(
            RequestRecordJson.toJson(FAILED, false).replace("{", "{\"future\":{\"x\":1},")));
  }

  @Test
  void missingStatusIsRejected() {
    assertEquals(
        "request record needs \"status\"",
        assertThrows(
                IllegalArgumentException.class,
                () -> RequestRecordJson.fromJson("{\"request\":\"r\",\"start_ms\":1}"))
            .getMessage());
  }

  @Test
  void wrongTypeIsRejectedWithTheKey() {
    assertEquals(
        "request record field \"prompt_tokens\" must be a whole number (int), got \"12\"",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RequestRecordJson.fromJson(
                        "{\"request\":\"r\",\"start_ms\":1,\"status\":\"ok\","
                            + "\"prompt_tokens\":\"12\"}"))
            .getMessage());
  }

  @Test
  void invalidJsonIsRejected() {
    assertThrows(IllegalArgumentException.class, () -> RequestRecordJson.fromJson("{\"request\":"));
  }

  @Test
  void theCachePlanAndOutcomeReadBack() {
    RequestRecord r =
        RequestRecord.builder()
            .request("chat")
            .phase("measured")
            .index(3L)
            .promptId("g1-ab")
            .digest("0123456789abcdef")
            .prefixGroup(1)
            .sharedPrefixTokens(256)
            .plannedTokens(512)
            .startMs(1_700_000_000_000L)
            .promptTokens(514)
            .promptTokensExact(true)
            .cachedTokens(272)
            .completionTokens(3)
            .completionTokensExact(true)
            .ttftMs(50.0)
            .timeToFirstEventMs(5.0)
            .tpotMs(26.5)
            .e2eMs(103.0)
            .outputTokensPerS(29.125)
            .finishReason("length")
            .httpStatus(200)
            .status(RequestStatus.OK)
            .workload("shared-prefix")
            .plannedCachedTokens(256)
            .cachePlanned(CacheOutcome.HIT)
            .cache(CacheOutcome.HIT)
            .cacheWarmStart(false)
            .build();
    String json = RequestRecordJson.toJson(r, false);
    assertTrue(
        json.endsWith(
            "\"workload\":\"shared-prefix\",\"planned_cached_tokens\":256,"
                + "\"cache_planned\":\"hit\",\"cache\":\"hit\",\"cache_warm_start\":false,"
                + "\"conversation\":null,\"turn\":null,\"context_tokens\":null,\"reply_digest\":null,"
                + "\"sent_ms\":null,\"scheduled_ms\":null,\"schedule_lag_ms\":null,"
                + NO_REASONING),
        json);
    assertEquals(r, RequestRecordJson.fromJson(json));
  }

  @Test
  void anUnknownCacheOutcomeIsRefusedNamingTheField() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                RequestRecordJson.fromJson(
                    "{\"request\":\"chat\",\"start_ms\":1,\"status\":\"ok\","
                        + "\"cache\":\"warm\"}"));
    assertEquals(
        "request record field \"cache\": cache outcome: got \"warm\", expected one of hit,"
            + " partial, miss, unplanned_hit, unknown",
        e.getMessage());
  }

  @Test
  void aConversationTurnWritesAndReadsItsConversationTurnContextAndReplyDigest() {
    RequestRecord r =
        RequestRecordJson.fromJson(
                "{\"request\":\"chat\",\"start_ms\":5,\"status\":\"ok\",\"e2e_ms\":12}")
            .withConversationTurn(
                new io.github.gatlingllm.metrics.ConversationTurn(4, 2, 673, "00112233aabbccdd"));
    String json = RequestRecordJson.toJson(r, false);
    assertTrue(
        json.endsWith(
            "\"conversation\":4,\"turn\":2,\"context_tokens\":673,"
                + "\"reply_digest\":\"00112233aabbccdd\","
                + "\"sent_ms\":null,\"scheduled_ms\":null,\"schedule_lag_ms\":null,"
                + NO_REASONING),
        json);
    assertEquals(r, RequestRecordJson.fromJson(json));
    assertEquals(
        null,
        RequestRecordJson.fromJson("{\"request\":\"chat\",\"start_ms\":5,\"status\":\"ok\"}")
            .conversationTurn());
    assertEquals(
        "request record: \"conversation\" and \"turn\" go together, got conversation 4 and"
            + " turn null",
        assertThrows(
                IllegalArgumentException.class,
                () ->
                    RequestRecordJson.fromJson(
                        "{\"request\":\"chat\",\"start_ms\":5,\"status\":\"ok\","
                            + "\"conversation\":4}"))
            .getMessage());
  }

  @Test
  void theReasoningAndCancellationFieldsAreWrittenAndReadBack() {
    RequestRecord r =
        RequestRecord.builder()
            .request("chat")
            .startMs(5)
            .ttftMs(10.0)
            .e2eMs(120.0)
            .status(RequestStatus.CANCELLED)
            .error("cancelled by the client 100 ms after the request was written (llm.cancelRate)")
            .ttfoMs(47.5)
            .reasoningTokens(30)
            .reasoningTokensSource("usage")
            .answerTokens(4)
            .reasoningTpotMs(1.25)
            .answerTpotMs(12.5)
            .answerItlFrom(29)
            .cancelAfterMs(100.0)
            .build();
    String json = RequestRecordJson.toJson(r, false);
    assertTrue(
        json.endsWith(
            "\"ttfo_ms\":47.5,\"reasoning_tokens\":30,\"reasoning_tokens_source\":\"usage\","
                + "\"answer_tokens\":4,\"reasoning_tpot_ms\":1.25,\"answer_tpot_ms\":12.5,"
                + "\"answer_itl_from\":29,\"cancel_after_ms\":100}"),
        json);
    assertTrue(json.contains("\"status\":\"cancelled\""), json);
    assertEquals(r, RequestRecordJson.fromJson(json));
  }
}
