package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.gatling.javaapi.core.CoreDsl;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** What the run record says of assertions it could not check (issue 40, run-end words). */
class AssertionCheckTest {

  private static AssertionCheck oneAssertion() {
    return new AssertionCheck(
        null, List.of(CoreDsl.global().failedRequests().percent().lt(1.0).asScala()));
  }

  @Test
  void aRunStoppedBySigtermSaysGatlingChecksNothingEither() {
    Map<String, Object> record = oneAssertion().toRecord(null, RunEnd.Reason.INTERRUPTED);

    assertEquals("not_checked", record.get("assertions_verdict"));
    assertEquals(
        "the run was stopped by Ctrl+C or SIGTERM before Gatling closed its log, and Gatling"
            + " checks no assertion of a run so stopped",
        record.get("assertions_not_checked"));
  }

  @Test
  void aCrashedRunSaysGatlingChecksNothingEither() {
    assertEquals(
        "the run crashed, and Gatling checks no assertion of a crashed run",
        oneAssertion().toRecord(null, RunEnd.Reason.CRASHED).get("assertions_not_checked"));
  }

  @Test
  void aRunCutByMaxDurationPointsToGatlingsOwnLines() {
    assertEquals(
        "the run was cut (max_duration) before Gatling closed its log: see Gatling's own lines"
            + " after this run's",
        oneAssertion().toRecord(null, RunEnd.Reason.MAX_DURATION).get("assertions_not_checked"));
  }
}
