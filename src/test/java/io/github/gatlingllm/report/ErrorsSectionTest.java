package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class ErrorsSectionTest {

  private static RequestRecord failed(String name, RequestStatus status, String error) {
    return RequestRecord.builder()
        .request(name)
        .phase("measured")
        .index(0L)
        .startMs(0)
        .status(status)
        .error(error)
        .build();
  }

  private static RequestRecord ok() {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(0)
        .promptTokens(10)
        .promptTokensExact(true)
        .completionTokens(2)
        .completionTokensExact(true)
        .ttftMs(1.0)
        .timeToFirstEventMs(1.0)
        .tpotMs(1.0)
        .e2eMs(2.0)
        .finishReason("stop")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  @Test
  void failuresAreCountedByMessageTheMostFrequentFirst() {
    List<RequestRecord> rs =
        List.of(
            ok(),
            failed("chat", RequestStatus.HTTP_ERROR, "HTTP 500: boom"),
            failed("rag", RequestStatus.REJECTED, "HTTP 503: overloaded"),
            failed("chat", RequestStatus.REJECTED, "HTTP 503: overloaded"),
            failed("chat", RequestStatus.TIMEOUT, null));
    assertEquals(
        List.of(
            new ErrorsSection.Row("HTTP 503: overloaded", "rejected", 2, List.of("chat", "rag")),
            new ErrorsSection.Row("HTTP 500: boom", "http_error", 1, List.of("chat")),
            new ErrorsSection.Row("timeout", "timeout", 1, List.of("chat"))),
        ErrorsSection.rows(rs));
  }

  @Test
  void theTableSaysHowManyFailedAndEscapes() {
    String html =
        ErrorsSection.render(
            List.of(failed("chat", RequestStatus.STREAM_ERROR, "bad <data>")), "requests");
    assertTrue(
        html.contains("<p class=\"bad\"><strong>1 failed request</strong>, by error message.</p>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>1</td><td class=\"l\">stream_error</td><td class=\"l\">bad &lt;data&gt;</td>"
                + "<td class=\"l\">chat</td></tr>"),
        html);
  }

  @Test
  void requestsCutByTheRunsEndAreNotFailuresAndAreCountedApart() {
    String reason = "still in flight when the run ended (saturation_stop)";
    List<RequestRecord> rs = new ArrayList<>();
    rs.add(ok());
    for (int i = 0; i < 12; i++) {
      rs.add(failed("chat", RequestStatus.CUT_BY_RUN_END, reason));
    }

    assertEquals(List.of(), ErrorsSection.rows(rs));
    assertEquals(
        "<h2 id=\"errors\">Errors</h2>\n<p>No request failed (requests outside warmup).</p>\n"
            + "<p id=\"cut-requests\">12 requests outside warmup were cut by the run&#39;s end,"
            + " not failed: still in flight when the run ended (saturation_stop), recorded with"
            + " what was measured until then.</p>\n",
        ErrorsSection.render(rs, "requests outside warmup"));
  }

  @Test
  void failuresAndCutRequestsAreCountedEachOnTheirOwn() {
    List<RequestRecord> rs =
        List.of(
            failed("chat", RequestStatus.TIMEOUT, "no [DONE] within 30 s"),
            failed("chat", RequestStatus.TIMEOUT, "no [DONE] within 30 s"),
            failed("chat", RequestStatus.CUT_BY_RUN_END, "still in flight when the run ended (x)"));

    String html = ErrorsSection.render(rs, "requests outside warmup");

    assertTrue(
        html.contains(
            "<p class=\"bad\"><strong>2 failed requests outside warmup</strong>, by error message.</p>"),
        html);
    assertEquals(
        "1 request outside warmup was cut by the run's end, not failed: still in flight when the"
            + " run ended (x), recorded with what was measured until then",
        ErrorsSection.cutLine(rs, "requests outside warmup"));
  }

  @Test
  void noFailureSaysSo() {
    assertEquals(
        "<h2 id=\"errors\">Errors</h2>\n<p>No request failed (requests outside warmup).</p>\n",
        ErrorsSection.render(List.of(ok()), "requests outside warmup"));
  }

  @Test
  void beyondFiftyMessagesTheRestIsOneLine() {
    List<RequestRecord> rs = new ArrayList<>();
    for (int i = 0; i < 53; i++) {
      rs.add(failed("chat", RequestStatus.HTTP_ERROR, "HTTP 500: error " + (100 + i)));
    }
    String html = ErrorsSection.render(rs, "requests");
    assertTrue(html.contains("error 149</td>"), html);
    assertTrue(!html.contains("error 150</td>"), html);
    assertTrue(
        html.contains("<tr><td>3</td><td class=\"l\" colspan=\"3\">3 other messages</td></tr>"),
        html);
  }
}
