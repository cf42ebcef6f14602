package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Trace rows with {@code session_id} and {@code delay} (AIPerf's multi-turn mooncake traces). */
class TraceSessionsTest {

  @TempDir Path dir;

  private Trace read(String... lines) throws IOException {
    Path p = dir.resolve("trace.jsonl");
    Files.write(p, List.of(lines));
    return Trace.read(p, 4);
  }

  private String refused(String... lines) throws IOException {
    Path p = dir.resolve("trace.jsonl");
    Files.write(p, List.of(lines));
    return assertThrows(IllegalArgumentException.class, () -> Trace.read(p, 4)).getMessage();
  }

  private static String row(String extra) {
    return "{" + extra + "\"input_length\": 4, \"output_length\": 2, \"hash_ids\": [1]}";
  }

  @Test
  void rowsOfASessionAreItsTurnsInFileOrder() throws IOException {
    Trace t =
        read(
            row("\"session_id\": \"a\", \"timestamp\": 0, "),
            row("\"session_id\": \"b\", \"timestamp\": 100, "),
            row("\"session_id\": \"a\", \"delay\": 500, "),
            row("\"session_id\": \"a\", "));
    assertEquals(2, t.sessions());
    assertEquals(
        List.of(0, 1, 0, 0), List.of(t.session(0), t.session(1), t.session(2), t.session(3)));
    assertEquals("a", t.sessionId(2));
    assertEquals(
        List.of(-1, -1, 0, 2),
        List.of(
            t.previousRowOfSession(0),
            t.previousRowOfSession(1),
            t.previousRowOfSession(2),
            t.previousRowOfSession(3)));
  }

  @Test
  void aLaterRowWithoutTimestampIsDueAtThePreviousRowsPlusItsDelay() throws IOException {
    Trace t =
        read(
            row("\"session_id\": \"a\", \"timestamp\": 1000, "),
            row("\"session_id\": \"b\", \"timestamp\": 1200, "),
            row("\"session_id\": \"a\", \"delay\": 500, "),
            row("\"session_id\": \"a\", "));
    assertTrue(t.timed());
    assertEquals(
        List.of(1000L, 1200L, 1500L, 1500L),
        List.of(t.timestampMs(0), t.timestampMs(1), t.timestampMs(2), t.timestampMs(3)));
    assertEquals(500, t.delayMs(2));
    assertEquals(-1, t.delayMs(3));
    assertTrue(t.timestampStated(1));
    assertFalse(t.timestampStated(2));
    assertEquals(1500, t.durationMs());
  }

  @Test
  void aLaterRowMayStateItsOwnTimestampOutOfFileOrder() throws IOException {
    Trace t =
        read(
            row("\"session_id\": \"a\", \"timestamp\": 0, "),
            row("\"session_id\": \"b\", \"timestamp\": 5000, "),
            row("\"session_id\": \"a\", \"timestamp\": 3000, \"delay\": 100, "));
    assertEquals(3000, t.timestampMs(2));
    assertTrue(t.timestampStated(2));
    assertEquals(100, t.delayMs(2));
  }

  @Test
  void aNumericSessionIdIsReadAsText() throws IOException {
    Trace t = read(row("\"session_id\": 17, "), row("\"session_id\": 17, \"delay\": 0, "));
    assertEquals("17", t.sessionId(1));
    assertEquals(1, t.sessions());
    assertFalse(t.timed());
  }

  @Test
  void rowsWithoutSessionBehaveAsBefore() throws IOException {
    Trace t = read(row("\"timestamp\": 0, \"delay\": 300, "), row("\"timestamp\": 10, "));
    assertEquals(0, t.sessions());
    assertEquals(-1, t.session(0));
    assertNull(t.sessionId(0));
    assertEquals(-1, t.delayMs(0));
    assertEquals(-1, t.previousRowOfSession(1));
    assertEquals(10, t.durationMs());
  }

  @Test
  void sessionlessRowsMixWithSessions() throws IOException {
    Trace t =
        read(
            row("\"timestamp\": 0, "),
            row("\"session_id\": \"a\", \"timestamp\": 10, "),
            row("\"timestamp\": 20, "),
            row("\"session_id\": \"a\", \"delay\": 5, "));
    assertEquals(-1, t.session(2));
    assertEquals(1, t.previousRowOfSession(3));
    assertEquals(15, t.timestampMs(3));
  }

  @Test
  void aDelayOnASessionsFirstRowIsRefused() throws IOException {
    assertTrue(
        refused(row("\"session_id\": \"a\", \"timestamp\": 0, \"delay\": 5, "))
            .endsWith(
                "line 1: delay: got 5, expected none on session a's first row (a delay counts"
                    + " from the session's previous row; the first row starts at its timestamp)"));
  }

  @Test
  void aNegativeDelayIsRefused() throws IOException {
    assertTrue(
        refused(
                row("\"session_id\": \"a\", \"timestamp\": 0, "),
                row("\"session_id\": \"a\", \"delay\": -1, "))
            .endsWith(
                "line 2: delay: got -1, expected milliseconds from 0 to 2305843009213693951"));
  }

  @Test
  void anEmptySessionIdIsRefused() throws IOException {
    assertTrue(
        refused(row("\"session_id\": \"\", "))
            .endsWith(
                "line 1: session_id: got \"\", expected a non-empty string or a whole number"));
  }

  @Test
  void aSessionsFirstRowWithoutTimestampInATimedTraceIsRefused() throws IOException {
    assertTrue(
        refused(row("\"session_id\": \"a\", \"timestamp\": 0, "), row("\"session_id\": \"b\", "))
            .contains("line 2: timestamp: got none, expected a timestamp"));
  }

  @Test
  void anchorRowsStillInTimestampOrder() throws IOException {
    assertTrue(
        refused(
                row("\"session_id\": \"a\", \"timestamp\": 100, "),
                row("\"session_id\": \"a\", \"delay\": 5000, "),
                row("\"session_id\": \"b\", \"timestamp\": 50, "))
            .contains("line 3: timestamp: got 50, expected at least the row before's 100"));
  }

  @Test
  void aLaterRowWithTimestampInAnUntimedTraceIsRefused() throws IOException {
    assertTrue(
        refused(row("\"session_id\": \"a\", "), row("\"session_id\": \"a\", \"timestamp\": 5, "))
            .contains("line 2: timestamp: got 5, expected none, as the row of line 1 has none"));
  }
}
