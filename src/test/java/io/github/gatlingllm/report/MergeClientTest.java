package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.levels.ScheduleLag;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.ClientSummary;
import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code client} of a merge of run folders: the merged one and each folder's own. */
class MergeClientTest {

  private static RequestRecord request(long startMs, Double sentMs, Double scheduledMs) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(startMs)
        .e2eMs(20.0)
        .httpStatus(200)
        .status(RequestStatus.OK)
        .build()
        .withSchedule(sentMs, scheduledMs);
  }

  private static Map<String, Object> run(String warning, double cpuMean) {
    Map<String, Object> client = new LinkedHashMap<>();
    client.put("schedule_lag_ms", Map.of("count", 1));
    client.put("injection_start", Map.of("gatling_injector", 1, "estimated", 0));
    client.put("cpu_share", Map.of("mean", cpuMean));
    client.put("max_lag_p99_ms", 10.0);
    client.put("max_cpu_share", 0.9);
    client.put("notes", List.of());
    client.put("warnings", warning == null ? List.of() : List.of(warning));
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("client", client);
    return run;
  }

  @Test
  void eachFolderKeepsItsOwnClientAndTheLagIsRecomputedOverAll() {
    RequestRecord a = request(1_000, 1_000.5, 999.5);
    RequestRecord b = request(1_010, 1_012.0, 1_000.0);
    RequestRecord later = request(1_050, 1_050.25, null);
    List<MergeSource> sources =
        List.of(
            MergeSource.of(Path.of("a"), run(null, 0.2), List.of(a, later)),
            MergeSource.of(Path.of("b"), run("the client fell behind", 0.95), List.of(b)));
    Map<String, Object> record = new LinkedHashMap<>(sources.get(0).run());

    RunReport.mergeClient(record, sources, ScheduleLag.of(List.of(a, later, b)));

    ClientSummary client = (ClientSummary) record.get(ClientSummary.KEY);
    assertEquals(2L, client.scheduleLagMs().count());
    assertEquals(1.0, client.scheduleLagMs().min());
    assertEquals(12.0, client.scheduleLagMs().max());
    assertNull(client.cpuShare());
    assertEquals(new ClientSummary.InjectionStart(2, 0), client.injectionStart());
    assertEquals(List.of("b: the client fell behind"), client.warnings());
    assertEquals(0.95, ShardMerge.folder(sources.get(1)).client().cpuShare().mean());
    assertEquals(0.2, ShardMerge.folder(sources.get(0)).client().cpuShare().mean());
  }

  @Test
  void foldersWithoutAClientLeaveNone() {
    Map<String, Object> record = new LinkedHashMap<>();
    record.put("client", Map.of());
    RunReport.mergeClient(
        record,
        List.of(MergeSource.of(Path.of("a"), Map.of(), List.of())),
        ScheduleLag.of(List.of()));
    assertFalse(record.containsKey("client"));
    assertNull(ShardMerge.folder(MergeSource.of(Path.of("a"), Map.of(), List.of())).client());
  }
}
