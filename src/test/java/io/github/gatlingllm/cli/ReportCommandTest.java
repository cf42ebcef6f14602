package io.github.gatlingllm.cli;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.report.RequestRecordJson;
import java.io.PrintWriter;
import java.io.StringWriter;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

class ReportCommandTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @TempDir Path dir;

  private final StringWriter out = new StringWriter();
  private final StringWriter err = new StringWriter();

  private int run(String... args) {
    return GatlingLlm.run(args, new PrintWriter(out, true), new PrintWriter(err, true));
  }

  private static RequestRecord request(long index, long startMs, double ttft, double e2e) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(index)
        .startMs(startMs)
        .promptTokens(100)
        .promptTokensExact(true)
        .cachedTokens(50)
        .completionTokens(10)
        .completionTokensExact(true)
        .ttftMs(ttft)
        .timeToFirstEventMs(ttft)
        .itlMs(List.of(10.0, 12.0))
        .tpotMs((e2e - ttft) / 9)
        .e2eMs(e2e)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build();
  }

  /** A run folder with its requests and a run record naming its digest and SLO. */
  private Path folder(String name, String digest, RequestRecord... requests) throws Exception {
    Path f = Files.createDirectories(dir.resolve(name));
    StringBuilder lines = new StringBuilder();
    for (RequestRecord r : requests) {
      lines.append(RequestRecordJson.toJson(r, true)).append('\n');
    }
    Files.writeString(f.resolve("llm-requests.jsonl"), lines);
    Files.writeString(
        f.resolve("llm-run.json"),
        "{\"prompts\":{\"phases\":{\"measured\":{\"requests\":2,\"digest\":\""
            + digest
            + "\"}}},\"slo\":{\"ttft_ms\":100.0}}");
    return f;
  }

  @Test
  void rebuildsOneFolderInPlaceWithItsSlo() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140), request(1, 1000, 150, 1000));
    Files.writeString(a.resolve("index.html"), "<body></body>");

    assertEquals(0, run("report", a.toString(), "--csv"), err.toString());

    assertEquals(a.resolve("llm-report.html").toUri() + "\n", out.toString());
    JsonNode overall =
        JSON.readTree(a.resolve("llm-run.json").toFile()).get("metrics").get("overall");
    assertEquals(2, overall.get("requests").asInt());
    assertEquals(50.0, overall.get("ttft_ms").get("p50").asDouble());
    assertEquals(1, overall.get("goodput").get("met").asInt());
    assertEquals(0.5, overall.get("goodput").get("attainment").asDouble());
    assertEquals(3, Files.readAllLines(a.resolve("llm-requests.csv")).size());
    assertTrue(Files.readString(a.resolve("index.html")).contains("llm_report_link"));
  }

  @Test
  void mergesFoldersIntoOneReport() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Path b = folder("b", "00aa", request(0, 1500, 60, 150));
    Path merged = dir.resolve("merged");

    assertEquals(0, run("report", a.toString(), b.toString(), "--output", merged.toString()));

    JsonNode record = JSON.readTree(merged.resolve("llm-run.json").toFile());
    assertEquals(2, record.get("requests_recorded").asInt());
    assertEquals(2, record.get("merged_from").size());
    assertTrue(record.get("prompt_digests_equal").asBoolean());
    assertEquals(2, Files.readAllLines(merged.resolve("llm-requests.jsonl")).size());
    assertTrue(Files.readString(merged.resolve("llm-report.html")).contains("Merged from 2"));
  }

  /** Requests 100 ms apart, TTFT and E2E growing with the index, times {@code slower}. */
  private Path runFolder(String name, String digest, int requests, double slower) throws Exception {
    RequestRecord[] list = new RequestRecord[requests];
    for (int i = 0; i < requests; i++) {
      double ttft = Math.round((40 + i % 17) * slower * 1000) / 1000.0;
      double e2e = Math.round((40 + i % 17 + 90 + i % 13) * slower * 1000) / 1000.0;
      list[i] = request(i, 1_000 + i * 100L, ttft, e2e);
    }
    return folder(name, digest, list);
  }

  @Test
  void comparesTwoRunsOfTheSamePrompts() throws Exception {
    Path a = runFolder("a", "00aa", 60, 1);
    Path b = runFolder("b", "00aa", 60, 1.3);

    assertEquals(0, run("report", "--compare", a.toString(), b.toString()), err.toString());

    assertEquals("", err.toString());
    List<String> lines = out.toString().lines().toList();
    assertEquals("A: " + a + " (60 measured requests)", lines.get(0));
    assertEquals("prompts: same (workloads and phase digests)", lines.get(2));
    assertTrue(lines.get(3).startsWith("95% intervals: percentile bootstrap, 1000 resamples"));
    String ttft = lines.stream().filter(l -> l.startsWith("TTFT p50 ms")).findFirst().orElseThrow();
    // The noise column: the larger of the runs' spreads over thirds of their requests.
    assertTrue(ttft.matches("TTFT p50 ms +47 +61\\.1 +\\+30\\.0% +\\[.*\\] +2\\.2% +worse"), ttft);
    assertTrue(lines.get(4).startsWith("verdict: B worse (TTFT p50 +30.0%"), lines.get(4));
  }

  @Test
  void comparesTwoRunsOfOtherPromptsAndSaysWhichDiffer() throws Exception {
    Path a = runFolder("a", "00aa", 30, 1);
    Path b = runFolder("b", "00bb", 30, 1);

    assertEquals(3, run("report", "--compare", a.toString(), b.toString()), err.toString());

    assertEquals(
        "gatling-llm report: --compare: the runs' prompts differ (workload #1 phase measured:"
            + " digest A 00aa, B 00bb), exit 3\n",
        err.toString());
    assertEquals(
        "prompts DIFFER: workload #1 phase measured: digest A 00aa, B 00bb (compared anyway)",
        out.toString().lines().toList().get(2));
  }

  @Test
  void printsTheComparisonAsJson() throws Exception {
    Path a = runFolder("a", "00aa", 60, 1);
    Path b = runFolder("b", "00aa", 60, 1);

    assertEquals(
        0,
        run("report", "--compare", a.toString(), b.toString(), "--json", "--resamples", "200"),
        err.toString());

    JsonNode json = JSON.readTree(out.toString());
    assertTrue(json.get("same_prompts").asBoolean());
    JsonNode ttft = json.get("metrics").get("ttft_p50_ms");
    assertEquals(47.0, ttft.get("a").asDouble());
    assertEquals(47.0, ttft.get("b").asDouble());
    assertEquals(0.0, ttft.get("delta_pct").asDouble());
    assertEquals(2, ttft.get("ci95_pct").size());
    assertEquals(200, json.get("resamples").asInt());
    assertTrue(json.get("metrics").has("goodput_requests_per_s"));
  }

  @Test
  void anUnknownMetricIsRefused() throws Exception {
    Path a = runFolder("a", "00aa", 10, 1);

    assertEquals(
        2, run("report", "--compare", a.toString(), a.toString(), "--metric", "ttft_p95_ms"));

    assertTrue(
        err.toString()
            .startsWith(
                "gatling-llm report: --metric: unknown metric \"ttft_p95_ms\"; known metrics are ttft_p50_ms,"),
        err.toString());
  }

  @Test
  void aRunWithoutMeasuredRequestsIsRefused() throws Exception {
    Path a = runFolder("a", "00aa", 10, 1);
    Path empty = Files.createDirectories(dir.resolve("empty"));
    Files.writeString(empty.resolve("llm-requests.jsonl"), "");

    assertEquals(2, run("report", "--compare", a.toString(), empty.toString()));

    assertTrue(
        err.toString()
            .startsWith(
                "gatling-llm report: "
                    + empty
                    + " has no measured request (llm-requests.jsonl holds 0 warmup requests and"
                    + " nothing else): nothing to compare"),
        err.toString());
  }

  @Test
  void aLineThatIsNotUtf8IsRefusedWithItsFileAndLine() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Files.write(
        a.resolve("llm-requests.jsonl"),
        new byte[] {(byte) 0xff, (byte) 0xfe, '\n'},
        java.nio.file.StandardOpenOption.APPEND);

    assertEquals(1, run("report", a.toString()));

    // It was "failed: java.nio.charset.MalformedInputException: Input length = 1": no file, no
    // line.
    assertEquals(
        "gatling-llm report: "
            + a.resolve("llm-requests.jsonl")
            + " line 2: not UTF-8 text (Input length = 1)\n",
        err.toString());
  }

  @Test
  void aLineThatIsNotJsonIsRefusedWithoutJavasClassName() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Files.writeString(
        a.resolve("llm-requests.jsonl"),
        "{\"request\":\"chat\"\n",
        java.nio.file.StandardOpenOption.APPEND);

    assertEquals(1, run("report", a.toString()));

    // It was "gatling-llm report: failed: java.lang.IllegalArgumentException: ...".
    assertTrue(
        err.toString()
            .startsWith(
                "gatling-llm report: "
                    + a.resolve("llm-requests.jsonl")
                    + " line 2: request record is not valid JSON: "),
        err.toString());
  }

  @Test
  void severalFoldersNeedAnOutput() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    assertEquals(2, run("report", a.toString(), a.toString()));
    assertEquals(
        "gatling-llm report: --output DIR is required to merge 2 run folders\n", err.toString());
  }

  @Test
  void aFolderWithoutRequestsIsRefused() {
    assertEquals(2, run("report", dir.toString()));
    assertEquals(
        "gatling-llm report: "
            + dir
            + " has no llm-requests.jsonl, expected a gatling-llm run folder"
            + " (target/gatling/<simulation>-<time>/, holding llm-requests.jsonl, one line a"
            + " request, and llm-run.json, the run record)\n",
        err.toString());
  }

  @Test
  void comparingAFolderWithoutRequestsSaysWhichFileIsMissing() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Files.writeString(dir.resolve("llm-run.json"), "{}");
    assertEquals(2, run("report", "--compare", a.toString(), dir.toString()));
    assertEquals(
        "gatling-llm report: "
            + dir
            + " has no llm-requests.jsonl, expected a gatling-llm run folder"
            + " (target/gatling/<simulation>-<time>/, holding llm-requests.jsonl, one line a"
            + " request, and llm-run.json, the run record)\n",
        err.toString());
  }

  @Test
  void comparingAFolderThatDoesNotExistSaysSo() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Path missing = dir.resolve("no-such-run");
    assertEquals(2, run("report", "--compare", a.toString(), missing.toString()));
    assertEquals(
        "gatling-llm report: "
            + missing
            + " does not exist, expected a gatling-llm run folder"
            + " (target/gatling/<simulation>-<time>/, holding llm-requests.jsonl, one line a"
            + " request, and llm-run.json, the run record)\n",
        err.toString());
  }

  @Test
  void aCompareCommandPointsToReportCompare() {
    assertEquals(2, run("compare", "a", "b"));
    assertEquals(
        "gatling-llm: no command 'compare': compare two run folders with gatling-llm report"
            + " --compare A B\n",
        err.toString());
  }

  @Test
  void anSloGivenOnTheCommandLineReplacesTheRecordedOne() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140), request(1, 1000, 150, 1000));
    assertEquals(0, run("report", a.toString(), "--slo-e2e-ms", "500"), err.toString());
    JsonNode goodput =
        JSON.readTree(a.resolve("llm-run.json").toFile())
            .get("metrics")
            .get("overall")
            .get("goodput");
    assertEquals(
        "{\"ttft_ms\":null,\"itl_ms\":null,\"tpot_ms\":null,\"e2e_ms\":500.0}",
        goodput.get("slo").toString());
    assertEquals(1, goodput.get("missed").get("e2e").asInt());
  }

  @Test
  void aZeroSloBoundIsRefused() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    assertEquals(2, run("report", a.toString(), "--slo-ttft-ms", "0"));
    assertEquals(
        "gatling-llm report: --slo-ttft-ms must be a number > 0, got 0.0\n", err.toString());
  }

  private static final String SAVED = "src/test/resources/saved-runs/";

  @Test
  void comparesRunsAsReplicatesCommaSeparatedASide() throws Exception {
    String one = SAVED + "quick";
    String two = SAVED + "quick-baseline";

    assertEquals(
        0,
        run(
            "report",
            "--compare",
            one + "," + two,
            two + "," + one,
            "--json",
            "--resamples",
            "200"),
        err.toString());

    JsonNode json = JSON.readTree(out.toString());
    assertEquals(one + "," + two, json.get("a").get("folder").asText());
    assertEquals(80, json.get("a").get("requests").asInt());
    assertEquals(2, json.get("a").get("runs").size());
    assertEquals(two, json.get("b").get("runs").get(0).get("folder").asText());
    assertEquals(
        "verdict: same (every metric within +/-2%) over 2 run(s) of A and 2 of B",
        json.get("verdict").get("line").asText());
    JsonNode ttft = json.get("metrics").get("ttft_p50_ms");
    assertEquals("same", ttft.get("verdict").asText());
    double lo = ttft.get("between_runs_ci95_pct").get(0).asDouble();
    double hi = ttft.get("between_runs_ci95_pct").get(1).asDouble();
    assertEquals(-hi, lo, 1e-3);
    assertTrue(hi > 0, "the runs' spread gives the interval a width: " + ttft);
  }

  @Test
  void replicatesAcrossDifferentLoadsSayWhichInTheVerdictLine() throws Exception {
    assertEquals(
        3,
        run(
            "report",
            "--compare",
            SAVED + "quick," + SAVED + "quick-baseline",
            SAVED + "shard0," + SAVED + "shard1",
            "--resamples",
            "200"),
        err.toString());

    List<String> lines = out.toString().lines().toList();
    assertEquals("A1: " + SAVED + "quick (40 measured requests)", lines.get(0));
    assertEquals("A2: " + SAVED + "quick-baseline (40 measured requests)", lines.get(1));
    assertEquals("B1: " + SAVED + "shard0 (20 measured requests)", lines.get(2));
    assertTrue(
        lines.contains(
            "warning: A and B differ in users: A 8, B 4 (compared anyway: the change may be the"
                + " load's)"),
        out.toString());
    String verdict = lines.stream().filter(l -> l.startsWith("verdict: ")).findFirst().get();
    assertTrue(verdict.contains(" across different loads (users: A 8, B 4; "), verdict);
    assertTrue(verdict.endsWith(" over 2 run(s) of A and 2 of B"), verdict);
  }

  @Test
  void anEmptyFolderBetweenCommasIsRefused() throws Exception {
    assertEquals(2, run("report", "--compare", SAVED + "quick,", SAVED + "quick"));
    assertTrue(
        err.toString()
            .contains(
                "--compare: got \""
                    + SAVED
                    + "quick,\", which has an empty folder name; expected"
                    + " run folders separated by commas (A1,A2,A3)"),
        err.toString());
  }
}
