package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.ConversationTurn;
import io.github.gatlingllm.metrics.ItlList;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** The line writer of {@code llm-requests.jsonl} writes exactly what Jackson's generator writes. */
class RequestLineWriterTest {

  private static void assertSameAsJackson(RequestRecord r) {
    assertEquals(JacksonRecordJson.toJsonWithJackson(r, true), RequestRecordJson.toJson(r, true));
    assertEquals(JacksonRecordJson.toJsonWithJackson(r, false), RequestRecordJson.toJson(r, false));
  }

  @Test
  void aRecordWithEveryFieldSetIsWrittenAsJacksonWritesIt() {
    assertSameAsJackson(EveryField.record("plain", List.of(0.25, 0.001, 34.0, 1e9, 1234.5678)));
  }

  @Test
  void aRecordWithOnlyTheRequiredFieldsIsWrittenAsJacksonWritesIt() {
    assertSameAsJackson(
        RequestRecord.builder()
            .request("chat")
            .startMs(5L)
            .status(RequestStatus.STREAM_ERROR)
            .build());
  }

  @Test
  void aRecordWithFalseFlagsAndAnEmptyItlIsWrittenAsJacksonWritesIt() {
    assertSameAsJackson(
        RequestRecord.builder()
            .request("chat")
            .startMs(-3L)
            .promptTokens(0)
            .completionTokens(0)
            .itlMs(List.of())
            .e2eMs(0.0)
            .cacheWarmStart(false)
            .conversationTurn(new ConversationTurn(0L, 1, null, null))
            .status(RequestStatus.CUT_BY_RUN_END)
            .build());
  }

  @Test
  void anItlListHeldAsDoublesIsWrittenAsJacksonWritesIt() {
    double[] gaps = {0.0, 0.001, 0.01, 0.1, 1.0, 999.999, 2.5170000000000003, 123456.789};
    assertSameAsJackson(EveryField.record("x", ItlList.of(gaps, gaps.length)));
  }

  @Test
  void everyCharacterOfTheBasicPlaneIsEscapedAsJacksonEscapesIt() {
    StringBuilder all = new StringBuilder();
    for (char c = 0; c < 0xD800; c++) {
      all.append(c);
    }
    for (int c = 0xE000; c <= 0xFFFF; c++) {
      all.append((char) c);
    }
    assertSameAsJackson(EveryField.record(all.toString(), null));
  }

  @Test
  void escapesQuotesBackslashesControlsUnicodeAndSurrogatePairsAsJacksonDoes() {
    String text =
        "quote \" back \\ slash / nl \n cr \r tab \t nul \u0000 del \u007f é 日本 😀 \u2028";
    assertSameAsJackson(EveryField.record(text, List.of(1.0)));
    String json = RequestRecordJson.toJson(EveryField.record(text, null), false);
    String error =
        "\"error\":\"error: quote \\\" back \\\\ slash / nl \\n cr \\r tab \\t nul \\u0000 del"
            + " \u007f é 日本 😀 \u2028\",";
    assertTrue(json.contains(error), json);
  }

  @Test
  void randomTimesAreWrittenAsJacksonWritesThem() {
    SplittableRandom random = new SplittableRandom(7);
    for (int i = 0; i < 2_000; i++) {
      double micros = Math.round(random.nextDouble() * 1e7) / 1000.0;
      double any = random.nextDouble() * Math.pow(10, random.nextInt(-4, 12));
      RequestRecord r =
          RequestRecord.builder()
              .request("r")
              .startMs(random.nextLong(0, Long.MAX_VALUE))
              .ttftMs(micros)
              .tpotMs(any)
              .e2eMs(micros + any)
              .itlMs(List.of(micros, any))
              .status(RequestStatus.OK)
              .build();
      assertSameAsJackson(r);
    }
  }
}
