package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import org.junit.jupiter.api.Test;

class TraceRowJsonTest {

  @Test
  void aTraceRowIsWrittenLastAndReadBack() {
    RequestRecord r =
        RequestRecord.builder()
            .request("replay")
            .startMs(5)
            .status(RequestStatus.OK)
            .traceRow(41L)
            .build();
    String json = RequestRecordJson.toJson(r, false);

    assertEquals(true, json.endsWith(",\"trace_row\":41}"), json);
    assertEquals(41L, RequestRecordJson.fromJson(json).traceRow());
  }

  @Test
  void otherRequestsHaveNoTraceRow() {
    RequestRecord r =
        RequestRecord.builder().request("chat").startMs(5).status(RequestStatus.OK).build();
    String json = RequestRecordJson.toJson(r, false);

    assertFalse(json.contains("trace_row"), json);
    assertEquals(null, RequestRecordJson.fromJson(json).traceRow());
  }
}
