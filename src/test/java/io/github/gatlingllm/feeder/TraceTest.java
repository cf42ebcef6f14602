package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertArrayEquals;
import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.io.IOException;
import java.io.OutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.HashSet;
import java.util.List;
import java.util.zip.GZIPOutputStream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceTest {

  @TempDir Path dir;

  private Path write(String... lines) throws IOException {
    Path p = dir.resolve("trace.jsonl");
    Files.write(p, List.of(lines));
    return p;
  }

  private String refused(int block, String... lines) throws IOException {
    Path p = write(lines);
    return assertThrows(IllegalArgumentException.class, () -> Trace.read(p, block)).getMessage();
  }

  @Test
  void readsMooncakeRows() throws IOException {
    Path p =
        write(
            "{\"timestamp\": 0, \"input_length\": 6955, \"output_length\": 52, \"hash_ids\":"
                + " [46, 47, 48, 49, 50, 51, 52, 53, 54, 55, 56, 57, 58, 59]}",
            "",
            "{\"timestamp\": 27482, \"input_length\": 600, \"output_length\": 1, \"hash_ids\":"
                + " [46, 60]}");
    Trace t = Trace.read(p, 512);

    assertEquals(2, t.rows());
    assertEquals(0, t.timestampMs(0));
    assertEquals(27482, t.timestampMs(1));
    assertEquals(27482, t.durationMs());
    assertEquals(6955, t.inputLength(0));
    assertEquals(52, t.outputLength(0));
    assertArrayEquals(new long[] {46, 60}, t.hashIds(1));
    assertEquals(3, t.line(1));
    assertEquals(64, t.sha256().length());
  }

  @Test
  void theInfiniteCacheHitRatioCountsLeadingIdsSentBefore() throws IOException {
    Path p =
        write(
            "{\"timestamp\": 0, \"input_length\": 1024, \"output_length\": 1, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 1, \"input_length\": 1000, \"output_length\": 1, \"hash_ids\": [1, 3]}",
            "{\"timestamp\": 2, \"input_length\": 1024, \"output_length\": 1, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 3, \"input_length\": 1000, \"output_length\": 1, \"hash_ids\": [4, 1]}");
    Trace t = Trace.read(p, 512);

    // row 1: 512 of 1000; row 2: all 1024; row 3: none (its first id is new)
    assertEquals((512 + 1024) / 4048.0, t.infiniteCacheHitRatio(), 1e-12);
    HashSet<Long> seen = new HashSet<>();
    assertEquals(0, t.cachedTokens(0, seen));
    assertEquals(512, t.cachedTokens(1, seen));
  }

  @Test
  void rowsWithoutTimestampsAreUntimed() throws IOException {
    Path p = write("{\"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}");
    Trace t = Trace.read(p, 512);

    assertFalse(t.timed());
    assertEquals(-1, t.timestampMs(0));
  }

  @Test
  void aGzipFileIsReadAsSuch() throws IOException {
    Path p = dir.resolve("trace.jsonl.gz");
    try (OutputStream out = new GZIPOutputStream(Files.newOutputStream(p))) {
      out.write(
          "{\"timestamp\": 5, \"input_length\": 513, \"output_length\": 2, \"hash_ids\": [1, 2]}\n"
              .getBytes(StandardCharsets.UTF_8));
    }
    Trace t = Trace.read(p, 512);

    assertEquals(1, t.rows());
    assertEquals(513, t.inputLength(0));
  }

  @Test
  void anEmptyTraceIsRefused() throws IOException {
    String m = refused(512, "", "  ");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " holds no row: expected one JSON object a line with timestamp, input_length,"
            + " output_length and hash_ids",
        m);
  }

  @Test
  void aLineThatIsNotJsonIsRefusedWithItsLine() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}",
            "timestamp=1");
    assertEquals(
        true,
        m.startsWith(
            "llm.trace: " + dir.resolve("trace.jsonl") + " line 2: row: got \"timestamp=1\""),
        m);
  }

  @Test
  void aMissingFieldIsRefused() throws IOException {
    String m = refused(512, "{\"timestamp\": 0, \"input_length\": 10, \"hash_ids\": [7]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: output_length: got none, expected tokens from 1 to 1048576",
        m);
  }

  @Test
  void aNegativeLengthIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": -3, \"output_length\": 5, \"hash_ids\": []}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: input_length: got -3, expected tokens from 1 to 4194304",
        m);
  }

  @Test
  void anAbsurdLengthIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 99999999, \"hash_ids\":"
                + " [1]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: output_length: got 99999999, expected tokens from 1 to 1048576",
        m);
  }

  @Test
  void aTimestampBeforeTheRowBeforeIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 100, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}",
            "{\"timestamp\": 99, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [8]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 2: timestamp: got 99, expected at least the row before's 100 (rows in the"
            + " order they are sent)",
        m);
  }

  @Test
  void equalTimestampsAreAllowed() throws IOException {
    Path p =
        write(
            "{\"timestamp\": 100, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}",
            "{\"timestamp\": 100, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [8]}");
    assertEquals(2, Trace.read(p, 512).rows());
  }

  @Test
  void hashIdsThatDoNotFitTheInputAreRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 2000, \"output_length\": 5, \"hash_ids\": [1, 2,"
                + " 3]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: hash_ids: got 3 ids, expected 4 for input_length 2000 at 512 tokens a"
            + " block (ceil(input_length / block tokens); is llm.trace.blockTokens the trace's?)",
        m);
  }

  @Test
  void aRowWithoutTimestampInATimedTraceIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}",
            "{\"input_length\": 10, \"output_length\": 5, \"hash_ids\": [8]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 2: timestamp: got none, expected a timestamp, as every row from line 1 has"
            + " (every row has one, or none)",
        m);
  }

  @Test
  void aFractionalLengthIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10.5, \"output_length\": 5, \"hash_ids\": [7]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: input_length: got 10.5, expected tokens from 1 to 4194304",
        m);
  }

  @Test
  void aSecondObjectOnALineIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}"
                + " {\"timestamp\": 1}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: row: got \"{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5,"
            + " \"ha...\" (not JSON: more after the row's object), expected one JSON object a line",
        m);
  }

  @Test
  void aFieldGivenTwiceIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7],"
                + " \"input_length\": 20}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: row: got \"{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5,"
            + " \"ha...\" (not JSON: Duplicate field 'input_length'), expected one JSON object a line",
        m);
  }

  @Test
  void aHashIdBeyondTheLongRangeIsRefused() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [1e30]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: hash_ids: got 1.0E30, expected whole numbers >= 0",
        m);
  }

  @Test
  void aByteOrderMarkIsReadPast() throws IOException {
    Path p = dir.resolve("bom.jsonl");
    Files.write(
        p,
        ("\uFEFF{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": [7]}\n")
            .getBytes(StandardCharsets.UTF_8));
    Trace t = Trace.read(p, 512);

    assertEquals(1, t.rows());
    assertEquals(10, t.inputLength(0));
  }

  @Test
  void aTimestampPastTheLargestIsRefusedSayingTheLargest() throws IOException {
    String m =
        refused(
            512,
            "{\"timestamp\": 9223372036854775807, \"input_length\": 10, \"output_length\": 5,"
                + " \"hash_ids\": [7]}");
    assertEquals(
        "llm.trace: "
            + dir.resolve("trace.jsonl")
            + " line 1: timestamp: got 9223372036854775807, expected milliseconds from 0 to"
            + " 2305843009213693951",
        m);
  }
}
