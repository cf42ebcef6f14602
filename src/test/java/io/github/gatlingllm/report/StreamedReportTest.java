package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.RunRecord;
import java.io.BufferedWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The page and the CSV streamed from {@code llm-requests.jsonl} are those of the requests in memory
 * ({@link SyntheticRun}: warmup, failures, two request names, cache outcomes, server metrics).
 */
class StreamedReportTest {

  @TempDir Path dir;

  private Path jsonl(List<RequestRecord> requests) throws Exception {
    Path file = dir.resolve(RunRecorder.REQUESTS_FILE);
    try (BufferedWriter out = Files.newBufferedWriter(file, StandardCharsets.UTF_8)) {
      for (RequestRecord r : requests) {
        out.write(RequestRecordJson.toJson(r, true));
        out.write('\n');
      }
    }
    return file;
  }

  @Test
  void thePageFromTheFileInTwoPassesIsThePageFromMemory() throws Exception {
    SyntheticRun s = SyntheticRun.of(500);
    Path file = jsonl(s.requests);
    String fromFile = ReportPage.render(s.run, RecordedRequests.read(List.of(file)));
    assertEquals(ReportPage.render(s.run, s.requests), fromFile);
  }

  @Test
  void aKnownShapeMakesItOnePass() throws Exception {
    SyntheticRun s = SyntheticRun.of(300);
    Path file = jsonl(s.requests);
    RequestsShape shape = new RequestsShape();
    s.requests.forEach(shape::add);
    AtomicInteger passes = new AtomicInteger();
    RecordedRequests file1 = RecordedRequests.read(List.of(file));
    RecordedRequests counted =
        each -> {
          passes.incrementAndGet();
          file1.forEach(each);
        };
    String html = ReportPage.render(s.run, counted.withShape(shape));
    assertEquals(1, passes.get());
    assertEquals(ReportPage.render(s.run, s.requests), html);
  }

  @Test
  void theRunRecorderWritesTheCsvAndThePageOfItsRequests() throws Exception {
    SyntheticRun s = SyntheticRun.of(200);
    Path results = dir.resolve("results");
    RunRecorder recorder = new RunRecorder(RunFolders.before(results, null));
    for (RequestRecord r : s.requests) {
      recorder.record(r);
    }
    AtomicReference<RunRecord> written = new AtomicReference<>();
    Path folder =
        recorder.finish(
            RunRecord.create(),
            null,
            false,
            (record, requests) -> {
              written.set(record);
              return ReportPage.render(record, requests);
            });
    java.io.StringWriter csv = new java.io.StringWriter();
    RequestsFile.writeCsv(s.requests, csv);
    assertEquals(
        csv.toString(),
        Files.readString(folder.resolve(RequestsFile.CSV_FILE), StandardCharsets.UTF_8));
    assertEquals(
        ReportPage.render(written.get(), RecordedRequests.of(s.requests)),
        Files.readString(folder.resolve(RunRecorder.REPORT_FILE), StandardCharsets.UTF_8));
    assertEquals(200L, written.get().requestsRecorded());
  }

  @Test
  void shardsAreReadInStartOrderTiesInFileOrder() throws Exception {
    List<RequestRecord> a = new ArrayList<>();
    List<RequestRecord> b = new ArrayList<>();
    for (long i : new long[] {5, 1, 3}) {
      a.add(SyntheticRun.request(i));
    }
    for (long i : new long[] {4, 2, 3}) {
      b.add(SyntheticRun.request(i).toBuilder().request("b").build());
    }
    Path fa = Files.createDirectories(dir.resolve("a")).resolve(RunRecorder.REQUESTS_FILE);
    Path fb = Files.createDirectories(dir.resolve("b")).resolve(RunRecorder.REQUESTS_FILE);
    Files.writeString(fa, lines(a) + "\n");
    Files.writeString(fb, lines(b));
    List<String> order = new ArrayList<>();
    RecordedRequests sorted = RequestsFile.byStart(List.of(fa, fb));
    sorted.forEach(r -> order.add(r.request() + r.index()));
    assertEquals(List.of("summarize1", "b2", "summarize3", "b3", "b4", "summarize5"), order);
    List<String> again = new ArrayList<>();
    sorted.forEach(r -> again.add(r.request() + r.index()));
    assertEquals(order, again);
  }

  private static String lines(List<RequestRecord> rs) {
    StringBuilder text = new StringBuilder();
    for (RequestRecord r : rs) {
      text.append(RequestRecordJson.toJson(r, true)).append('\n');
    }
    return text.toString();
  }
}
