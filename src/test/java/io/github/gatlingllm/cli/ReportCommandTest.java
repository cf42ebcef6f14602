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

  @Test
  void comparesTwoRuns() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Path b = folder("b", "00bb", request(0, 1000, 75, 140));

    assertEquals(3, run("report", "--compare", a.toString(), b.toString()), err.toString());
    assertEquals(
        "gatling-llm report: --compare: the runs' prompt digests differ (not the same prompts),"
            + " exit 3\n",
        err.toString());

    List<String> lines = out.toString().lines().toList();
    assertEquals(
        "prompt digests: DIFFER: A [{\"measured\":\"00aa\"}], B [{\"measured\":\"00bb\"}]",
        lines.get(2));
    assertTrue(
        lines.contains(
            "ttft ms p50                              50             75             25    +50.0%"),
        String.join("\n", lines));
  }

  @Test
  void comparesTwoRunsOfTheSamePrompts() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 50, 140));
    Path b = folder("b", "00aa", request(0, 1000, 75, 140));

    assertEquals(0, run("report", "--compare", a.toString(), b.toString()), err.toString());

    assertEquals("", err.toString());
    assertEquals(
        "prompt digests: same [{\"measured\":\"00aa\"}]", out.toString().lines().toList().get(2));
  }

  @Test
  void comparesTimesToTheMicrosecond() throws Exception {
    Path a = folder("a", "00aa", request(0, 1000, 2.517, 140));
    Path b = folder("b", "00aa", request(0, 1000, 2.6, 140));

    assertEquals(0, run("report", "--compare", a.toString(), b.toString()), err.toString());

    List<String> lines = out.toString().lines().toList();
    assertTrue(
        lines.contains(
            "ttft ms p50                           2.517            2.6          0.083     +3.3%"),
        String.join("\n", lines));
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
        "gatling-llm report: " + dir + " has no llm-requests.jsonl: not a gatling-llm run folder\n",
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
}
