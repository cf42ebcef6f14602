package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class RequestsFileTest {

  @TempDir Path dir;

  static final String HEADER =
      "request,phase,index,prompt_id,digest,prefix_group,shared_prefix_tokens,planned_tokens,"
          + "start_ms,prompt_tokens,prompt_tokens_exact,cached_tokens,completion_tokens,"
          + "completion_tokens_exact,ttft_ms,time_to_first_event_ms,itl_ms,tpot_ms,e2e_ms,"
          + "output_tokens_per_s,finish_reason,http_status,status,error,workload,"
          + "planned_cached_tokens,cache_planned,cache,cache_warm_start,conversation,turn,"
          + "context_tokens,reply_digest,sent_ms,scheduled_ms,schedule_lag_ms,ttfo_ms,"
          + "reasoning_tokens,reasoning_tokens_source,answer_tokens,reasoning_tpot_ms,"
          + "answer_tpot_ms,answer_itl_from,cancel_after_ms\n";

  @Test
  void csvQuotesWhatNeedsItAndJoinsItls() throws Exception {
    RequestRecord ok =
        RequestRecord.builder()
            .request("chat")
            .phase("measured")
            .index(3L)
            .promptId("g1-ab")
            .digest("0123456789abcdef")
            .prefixGroup(1)
            .sharedPrefixTokens(64)
            .plannedTokens(128)
            .startMs(1000)
            .promptTokens(130)
            .promptTokensExact(true)
            .cachedTokens(64)
            .completionTokens(3)
            .completionTokensExact(true)
            .ttftMs(60.0)
            .timeToFirstEventMs(58.0)
            .itlMs(List.of(20.0, 21.5))
            .tpotMs(20.75)
            .e2eMs(101.5)
            .outputTokensPerS(29.5)
            .finishReason("length")
            .httpStatus(200)
            .status(RequestStatus.OK)
            .build();
    RequestRecord failed =
        RequestRecord.builder()
            .request("chat, \"b\"")
            .startMs(2000)
            .e2eMs(5.0)
            .httpStatus(503)
            .status(RequestStatus.REJECTED)
            .error("HTTP 503: \"busy\"")
            .build();
    StringWriter out = new StringWriter();
    RequestsFile.writeCsv(List.of(ok, failed), out);
    assertEquals(
        HEADER
            + "chat,measured,3,g1-ab,0123456789abcdef,1,64,128,1000,130,true,64,3,true,60,58,"
            + "20;21.5,20.75,101.5,29.5,length,200,ok,,,,,,,,,,,,,,,,,,,,,\n"
            + "\"chat, \"\"b\"\"\",,,,,,,,2000,,false,,,false,,,,,5,,,503,rejected,"
            + "\"HTTP 503: \"\"busy\"\"\",,,,,,,,,,,,,,,,,,,,\n",
        out.toString());
  }

  @Test
  void csvWritesMicrosecondTimesAsTheJsonLinesDo() throws Exception {
    RequestRecord r =
        RequestRecord.builder()
            .request("chat")
            .startMs(1000)
            .completionTokens(3)
            .ttftMs(2.517)
            .timeToFirstEventMs(0.25)
            .itlMs(List.of(0.001, 34.0, 1.5))
            .tpotMs(16.328)
            .e2eMs(12_345_678.901)
            .outputTokensPerS(0.0001)
            .httpStatus(200)
            .status(RequestStatus.OK)
            .build();
    StringWriter out = new StringWriter();
    RequestsFile.writeCsv(List.of(r), out);
    assertEquals(
        HEADER
            + "chat,,,,,,,,1000,,false,,3,false,2.517,0.25,0.001;34;1.5,16.328,12345678.901,0.0001,"
            + ",200,ok,,,,,,,,,,,,,,,,,,,,,\n",
        out.toString());
  }

  @Test
  void readsJsonLinesAndNamesABadLine() throws Exception {
    Path jsonl = dir.resolve("llm-requests.jsonl");
    Files.writeString(
        jsonl, "{\"request\":\"chat\",\"start_ms\":5,\"status\":\"ok\"}\n\n{\"request\":1}\n");
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> RequestsFile.read(jsonl));
    assertEquals(
        jsonl + " line 3: request record field \"request\" must be a string, got 1",
        e.getMessage());
  }

  private List<String> requestsOf(byte[] content) throws Exception {
    Path f = dir.resolve("lines.jsonl");
    Files.write(f, content);
    List<String> seen = new java.util.ArrayList<>();
    RequestsFile.forEach(f, r -> seen.add(r.request()));
    return seen;
  }

  private static String line(String request) {
    return "{\"request\":\"" + request + "\",\"start_ms\":1,\"status\":\"ok\"}";
  }

  @Test
  void linesEndWithLfCrOrCrLfAndTheLastNeedsNoBreak() throws Exception {
    byte[] content =
        (line("a") + "\n" + line("b") + "\r\n" + line("c") + "\r" + line("d"))
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(List.of("a", "b", "c", "d"), requestsOf(content));
  }

  @Test
  void blankLinesAreSkippedAndCountedInLineNumbers() throws Exception {
    Path f = dir.resolve("blank.jsonl");
    Files.writeString(f, line("a") + "\n\n  \t\r\n" + line("b") + "\n{\"request\":\n");
    List<String> seen = new java.util.ArrayList<>();
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> RequestsFile.forEach(f, r -> seen.add(r.request())));
    assertEquals(List.of("a", "b"), seen);
    assertEquals(
        true,
        e.getMessage().startsWith(f + " line 5: request record is not valid JSON"),
        e.getMessage());
  }

  @Test
  void aNonAsciiLineReadsAsUtf8() throws Exception {
    byte[] content =
        (line("caf\u00e9 \u65e5\u672c") + "\r" + line("\u00e9") + "\r\n\n" + line("b") + "\n")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    assertEquals(List.of("caf\u00e9 \u65e5\u672c", "\u00e9", "b"), requestsOf(content));
  }

  @Test
  void malformedUtf8IsAnError() throws Exception {
    byte[] good = (line("a") + "\n").getBytes(java.nio.charset.StandardCharsets.UTF_8);
    byte[] content = java.util.Arrays.copyOf(good, good.length + 3);
    content[good.length] = (byte) 0xC3;
    content[good.length + 1] = (byte) 0x28;
    content[good.length + 2] = '\n';
    // The line that is not UTF-8 is named, with its file (the report CLI prints this one line).
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> requestsOf(content));
    assertTrue(
        e.getMessage().endsWith("lines.jsonl line 2: not UTF-8 text (Input length = 1)"),
        e.getMessage());
    assertTrue(e.getCause() instanceof java.nio.charset.CharacterCodingException, e.toString());
  }

  @Test
  void linesLongerThanTheBufferAndAcrossItsEndRead() throws Exception {
    StringBuilder text = new StringBuilder();
    List<String> expected = new java.util.ArrayList<>();
    for (int i = 0; i < 300; i++) {
      String name = "r" + i + "x".repeat(i * 37 % 700);
      expected.add(name);
      text.append(line(name)).append(i % 3 == 0 ? "\r\n" : "\n");
    }
    String huge = "h".repeat(200_000);
    expected.add(huge);
    text.append(line(huge));
    assertEquals(
        expected, requestsOf(text.toString().getBytes(java.nio.charset.StandardCharsets.UTF_8)));
  }
}
