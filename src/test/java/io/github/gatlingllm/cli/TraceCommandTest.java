package io.github.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.feeder.Trace;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class TraceCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private record Result(int code, String out, String err) {}

  private static Result run(String... args) {
    StringWriter out = new StringWriter();
    StringWriter err = new StringWriter();
    int code = GatlingLlm.run(args, new PrintWriter(out), new PrintWriter(err));
    return new Result(code, out.toString(), err.toString());
  }

  @Test
  void statsSaysWhatATraceHolds() throws Exception {
    Path p = dir.resolve("t.jsonl");
    Files.write(
        p,
        List.of(
            "{\"timestamp\": 0, \"input_length\": 1024, \"output_length\": 10, \"hash_ids\": [1, 2]}",
            "{\"timestamp\": 500, \"input_length\": 1000, \"output_length\": 30, \"hash_ids\": [1,"
                + " 3]}",
            "{\"timestamp\": 2000, \"input_length\": 1024, \"output_length\": 20, \"hash_ids\": [1,"
                + " 2]}"));
    Result r = run("trace", "stats", p.toString(), "--windows", "2");

    assertEquals(0, r.code(), r.err());
    JsonNode s = JSON.readTree(r.out());
    assertEquals(3, s.get("rows").asInt());
    assertEquals(2000, s.get("duration_ms").asLong());
    assertEquals(1.5, s.get("rows_per_s").asDouble());
    assertEquals(2, s.get("arrivals").get(0).get("rows").asInt());
    assertEquals(1, s.get("arrivals").get(1).get("rows").asInt());
    assertEquals(1000, s.get("input_tokens").get("min").asInt());
    assertEquals(1024, s.get("input_tokens").get("p50").asInt());
    assertEquals(20, s.get("output_tokens").get("p50").asInt());
    assertEquals(3, s.get("unique_hash_ids").asInt());
    assertEquals(0.503937, s.get("infinite_cache_hit_ratio").asDouble());
    JsonNode longest = s.get("longest_shared_prefixes");
    assertEquals(2, longest.size());
    assertEquals(3, longest.get(0).get("line").asInt());
    assertEquals(1024, longest.get(0).get("shared_tokens").asInt());
    assertEquals(512, longest.get(1).get("shared_tokens").asInt());
  }

  @Test
  void statsRefusesABadRowInOneLine() throws Exception {
    Path p = dir.resolve("t.jsonl");
    Files.write(
        p,
        List.of(
            "{\"timestamp\": 0, \"input_length\": 10, \"output_length\": 5, \"hash_ids\": []}"));
    Result r = run("trace", "stats", p.toString());

    assertEquals(2, r.code());
    assertEquals(
        "gatling-llm trace stats: llm.trace: "
            + p
            + " line 1: hash_ids: got 0 ids, expected 1 for input_length 10 at 512 tokens a block"
            + " (ceil(input_length / block tokens); is llm.trace.blockTokens the trace's?)\n",
        r.err());
  }

  @Test
  void synthesizeWritesATraceThatReadsBackAndIsReproducible() throws Exception {
    Path a = dir.resolve("a.jsonl");
    Path b = dir.resolve("b.jsonl.gz");
    String[] options = {
      "--rows",
      "200",
      "--rate",
      "5",
      "--sessions",
      "4",
      "--turns",
      "5",
      "--roots",
      "2",
      "--root-tokens",
      "1024",
      "--seed",
      "3"
    };
    assertEquals(
        0, run(concat(new String[] {"trace", "synthesize", "-o", a.toString()}, options)).code());
    assertEquals(
        0, run(concat(new String[] {"trace", "synthesize", "-o", b.toString()}, options)).code());

    Trace ta = Trace.read(a, 512);
    Trace tb = Trace.read(b, 512);
    assertEquals(200, ta.rows());
    assertEquals(200, tb.rows());
    for (int r = 0; r < 200; r++) {
      assertEquals(ta.inputLength(r), tb.inputLength(r));
      assertEquals(ta.timestampMs(r), tb.timestampMs(r));
    }
    // Sessions over 2 shared roots of 2 blocks: most of the prompt tokens are shared prefixes.
    assertTrue(ta.infiniteCacheHitRatio() > 0.5, "ratio " + ta.infiniteCacheHitRatio());
    // About 5 rows a second: 200 rows in roughly 40 s.
    assertTrue(ta.durationMs() > 20_000 && ta.durationMs() < 80_000, "span " + ta.durationMs());
  }

  @Test
  void synthesizeRefusesABadRate() {
    Result r = run("trace", "synthesize", "--rate", "0");

    assertEquals(2, r.code());
    assertEquals(
        "gatling-llm trace synthesize: --rate: got 0.0, expected a number above 0\n", r.err());
  }

  @Test
  void synthesizeRefusesARateTooSlowForAReplay() {
    Result r = run("trace", "synthesize", "--rows", "10", "--rate", "1e-300");

    assertEquals(2, r.code());
    assertEquals(
        "gatling-llm trace synthesize: --rate: got 1.0E-300, expected a number above 0 at which the"
            + " 10 rows arrive within 30 days (a replay's longest)\n",
        r.err());
  }

  @Test
  void synthesizeWritesOneJsonObjectALineWithNothingBeforeIt() throws Exception {
    Result r = run("trace", "synthesize", "--rows", "5", "--seed", "1");

    assertEquals(0, r.code(), r.err());
    String[] lines = r.out().split("\n", -1);
    assertEquals(6, lines.length);
    assertEquals("", lines[5]);
    for (int i = 0; i < 5; i++) {
      JsonNode row = JSON.readTree(lines[i]);
      assertTrue(row.isObject(), lines[i]);
      assertEquals(JSON.writeValueAsString(row), lines[i]);
    }
  }

  @Test
  void synthesizeRefusesARootUnderABlock() {
    Result r = run("trace", "synthesize", "--root-tokens", "100");

    assertEquals(2, r.code());
    assertEquals(
        "gatling-llm trace synthesize: --root-tokens: got 100, expected 0 (no root prompt) or at"
            + " least --block-tokens 512 (a root is shared in whole blocks of hash ids; it is"
            + " rounded down to them)\n",
        r.err());
  }

  @Test
  void synthesizeTakesARootOfNoTokensAsNoRoot() throws Exception {
    Path a = dir.resolve("a.jsonl");
    Result r =
        run(
            "trace",
            "synthesize",
            "--rows",
            "20",
            "--root-tokens",
            "0",
            "--user-tokens",
            "64",
            "-o",
            a.toString());

    assertEquals(0, r.code(), r.err());
    Trace t = Trace.read(a, 512);
    assertEquals(64, t.inputLength(0));
  }

  @Test
  void synthesizeRefusesARootThatLeavesNoRoomForAUserMessage() {
    Result r =
        run(
            "trace",
            "synthesize",
            "--root-tokens",
            "2048",
            "--max-input-tokens",
            "2048",
            "--user-tokens",
            "64-512");

    assertEquals(2, r.code());
    assertEquals(
        "gatling-llm trace synthesize: --root-tokens: got 2048, expected a root that leaves room"
            + " under --max-input-tokens 2048 for the smallest user message (--user-tokens 64): a"
            + " session's first prompt is its root (2048 tokens in whole blocks) plus a user"
            + " message\n",
        r.err());
  }

  @Test
  void synthesizeWithSessionIdsReadsBackAsSessionsThatGrowTheirContext() throws Exception {
    Path a = dir.resolve("a.jsonl");
    Result r =
        run(
            "trace",
            "synthesize",
            "--rows",
            "60",
            "--sessions",
            "3",
            "--turns",
            "4",
            "--roots",
            "1",
            "--root-tokens",
            "512",
            "--user-tokens",
            "100",
            "--output-tokens",
            "20",
            "--session-ids",
            "--seed",
            "2",
            "-o",
            a.toString());

    assertEquals(0, r.code(), r.err());
    Trace t = Trace.read(a, 512);
    assertEquals(60, t.rows());
    assertEquals("s0", t.sessionId(0));
    int later = 0;
    for (int row = 0; row < t.rows(); row++) {
      assertTrue(t.timestampStated(row), "row " + row);
      assertEquals(-1, t.delayMs(row));
      int previous = t.previousRowOfSession(row);
      if (previous < 0) {
        assertEquals(612, t.inputLength(row), "a session's first turn: root + user message");
        continue;
      }
      later++;
      // The previous prompt, its reply and a new user message.
      assertEquals(t.inputLength(previous) + 20 + 100, t.inputLength(row), "row " + row);
      long[] before = t.hashIds(previous);
      long[] now = t.hashIds(row);
      int full = t.inputLength(previous) / 512;
      for (int b = 0; b < full; b++) {
        assertEquals(before[b], now[b], "row " + row + " block " + b);
      }
    }
    // 3 open at once, at most 4 turns each (the last ones still open): 17 sessions, 43 later turns.
    assertEquals(17, t.sessions());
    assertEquals(43, later);
    int[] turns = new int[t.sessions()];
    for (int row = 0; row < t.rows(); row++) {
      turns[t.session(row)]++;
    }
    assertEquals(4, java.util.Arrays.stream(turns).max().getAsInt());
  }

  @Test
  void synthesizeWithDelaysWritesAIPerfsMultiTurnForm() throws Exception {
    Path a = dir.resolve("a.jsonl");
    Result r =
        run(
            "trace",
            "synthesize",
            "--rows",
            "40",
            "--sessions",
            "2",
            "--turns",
            "4",
            "--delay-ms",
            "500-1500",
            "--seed",
            "4",
            "-o",
            a.toString());

    assertEquals(0, r.code(), r.err());
    List<String> lines = Files.readAllLines(a);
    JsonNode first = JSON.readTree(lines.get(0));
    assertEquals("s0", first.get("session_id").asText());
    assertEquals(0, first.get("timestamp").asLong());
    assertTrue(first.get("delay") == null, lines.get(0));
    Trace t = Trace.read(a, 512);
    assertEquals(11, t.sessions());
    for (int row = 0; row < t.rows(); row++) {
      int previous = t.previousRowOfSession(row);
      JsonNode line = JSON.readTree(lines.get(row));
      if (previous < 0) {
        assertTrue(t.timestampStated(row), "row " + row);
        assertEquals(-1, t.delayMs(row));
      } else {
        assertTrue(line.get("timestamp") == null, lines.get(row));
        assertTrue(!t.timestampStated(row), "row " + row);
        long delay = t.delayMs(row);
        assertTrue(delay >= 500 && delay <= 1500, "row " + row + " delay " + delay);
        assertEquals(t.timestampMs(previous) + delay, t.timestampMs(row));
      }
    }
  }

  @Test
  void synthesizeRefusesABadDelay() {
    Result r = run("trace", "synthesize", "--delay-ms", "900-100");

    assertEquals(2, r.code());
    assertEquals(
        "gatling-llm trace synthesize: --delay-ms: got 900-100, expected N or MIN-MAX ms, 0 <= MIN"
            + " <= MAX\n",
        r.err());
  }

  private static String[] concat(String[] a, String[] b) {
    String[] all = java.util.Arrays.copyOf(a, a.length + b.length);
    System.arraycopy(b, 0, all, a.length, b.length);
    return all;
  }
}
