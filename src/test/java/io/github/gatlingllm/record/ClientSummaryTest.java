package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.stats.Distribution;
import java.util.Arrays;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The run record's {@code client} and its merge over several run folders, with literal values. */
class ClientSummaryTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final Distribution LAG =
      new Distribution(2, 6.5, 1.0, 1.0, 12.0, 12.0, 12.0, 12.0);

  private static ClientSummary client(
      long injector, double cpuMax, double maxLag, List<String> warnings) {
    return new ClientSummary(
        Distribution.EMPTY,
        new ClientSummary.InjectionStart(injector, 0),
        new ClientSummary.CpuShare(0.1, cpuMax, 2, 9, 1_000L, 8),
        maxLag,
        0.9,
        List.of(),
        warnings);
  }

  @Test
  void aMergeNamesEachFoldersWarningsAndHasNoCpuShare() {
    ClientSummary merged =
        ClientSummary.merge(
            List.of(
                client(1, 0.2, 10.0, List.of()),
                client(2, 0.95, 10.0, List.of("the client fell behind", "the CPU was busy"))),
            List.of("a", "b"),
            LAG);
    assertEquals(LAG, merged.scheduleLagMs());
    assertEquals(new ClientSummary.InjectionStart(3, 0), merged.injectionStart());
    assertNull(merged.cpuShare());
    assertEquals(List.of(ClientSummary.MERGED_NOTE), merged.notes());
    assertEquals(List.of("b: the client fell behind", "b: the CPU was busy"), merged.warnings());
  }

  @Test
  void aMergeTakesTheFirstClientsThresholdsAndSkipsFoldersWithout() {
    ClientSummary merged =
        ClientSummary.merge(
            Arrays.asList(null, client(4, 0.3, 25.0, List.of("late")), client(5, 0.3, 5.0, null)),
            List.of("x", "y", "z"),
            Distribution.EMPTY);
    assertEquals(25.0, merged.maxLagP99Ms());
    assertEquals(0.9, merged.maxCpuShare());
    assertEquals(new ClientSummary.InjectionStart(9, 0), merged.injectionStart());
    assertEquals(List.of("y: late"), merged.warnings());
  }

  @Test
  void aMergeOfFoldersWithoutAClientHasNone() {
    assertNull(ClientSummary.merge(Arrays.asList(null, null), List.of("a", "b"), LAG));
  }

  @Test
  void aMergeRefusesFoldersThatDoNotPairUp() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> ClientSummary.merge(List.of(client(1, 0.1, 10.0, List.of())), List.of(), LAG));
    assertEquals("clients and folders must pair up, got 1 and 0", e.getMessage());
  }

  @Test
  void injectionStartsAddUpOverTheRunsThatHaveThem() {
    ClientSummary.InjectionStart merged =
        ClientSummary.InjectionStart.merge(
            Arrays.asList(
                new ClientSummary.InjectionStart(3L, null, Map.of("later", 2)),
                null,
                new ClientSummary.InjectionStart(4L, 1L, Map.of("later", 5, "text", "x"))));
    assertEquals(7L, merged.gatlingInjector());
    assertEquals(1L, merged.estimated());
    assertEquals(Map.of("later", 7L), merged.extra());
  }

  @Test
  void injectionStartsOfNoRunAreWrittenEmpty() throws Exception {
    assertEquals(
        "{}",
        JSON.writeValueAsString(ClientSummary.InjectionStart.merge(Arrays.asList(null, null))));
  }

  @Test
  void aMergedClientIsWrittenAsTheMergeWroteItsMap() throws Exception {
    ClientSummary merged =
        ClientSummary.merge(
            List.of(client(1, 0.2, 10.0, List.of("w"))), List.of("a"), Distribution.EMPTY);
    assertEquals(
        "{\"schedule_lag_ms\":{\"count\":0,\"mean\":null,\"min\":null,\"p50\":null,"
            + "\"p90\":null,\"p95\":null,\"p99\":null,\"max\":null},"
            + "\"injection_start\":{\"gatling_injector\":1,\"estimated\":0},"
            + "\"cpu_share\":null,\"max_lag_p99_ms\":10.0,\"max_cpu_share\":0.9,"
            + "\"notes\":[\"merged: each folder's CPU share is in shards[].client\"],"
            + "\"warnings\":[\"a: w\"]}",
        JSON.writeValueAsString(merged));
  }

  @Test
  void aRunsClientWritesItsCpuShareWithNullSharesAndItsWindows() throws Exception {
    ClientSummary one =
        new ClientSummary(
            Distribution.EMPTY,
            new ClientSummary.InjectionStart(0, 0),
            new ClientSummary.CpuShare(null, null, 2, 1, 1_000L, 0),
            10.0,
            0.9,
            List.of(),
            List.of());
    assertEquals(
        "{\"schedule_lag_ms\":{\"count\":0,\"mean\":null,\"min\":null,\"p50\":null,"
            + "\"p90\":null,\"p95\":null,\"p99\":null,\"max\":null},"
            + "\"injection_start\":{\"gatling_injector\":0,\"estimated\":0},"
            + "\"cpu_share\":{\"mean\":null,\"max\":null,\"processors\":2,\"samples\":1,"
            + "\"min_window_ms\":1000,\"windows\":0},"
            + "\"max_lag_p99_ms\":10.0,\"max_cpu_share\":0.9,\"notes\":[],\"warnings\":[]}",
        JSON.writeValueAsString(one));
  }
}
