package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The levels block: {@code levels}, their note, what they leave out, their anchor, warnings. */
class LevelsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The first level of the saved stepped open loop: 6 users/s, with its lag and CPU share. */
  private static ObjectNode stepped() throws IOException {
    return (ObjectNode)
        JSON.readTree(Path.of("src/test/resources/saved-runs/stepped/llm-run.json").toFile())
            .get("levels")
            .get(0);
  }

  @Test
  void anOpenLoopLevelKeepsItsScheduleLagThenItsCpuThenANewerKey() throws Exception {
    ObjectNode entry = stepped();
    entry.putArray("gpu_share").add(0.5);
    String json = JSON.writeValueAsString(entry);
    LevelEntry l = JSON.readValue(json, LevelEntry.class);
    assertEquals(6.0, l.load());
    assertEquals(967.235, l.client().scheduleLagMs().p99());
    assertEquals(0.1153, l.client().clientCpu());
    assertEquals(Map.of("gpu_share", List.of(0.5)), l.extra());
    assertEquals(json, JSON.writeValueAsString(l));
  }

  @Test
  void aLevelWhoseClientCpuIsNotKnownKeepsItsNullAndNoLag() throws Exception {
    ObjectNode entry = stepped();
    entry.remove("schedule_lag_ms");
    entry.putNull("client_cpu");
    String json = JSON.writeValueAsString(entry);
    LevelEntry l = JSON.readValue(json, LevelEntry.class);
    assertNull(l.client().clientCpu());
    assertNull(l.client().scheduleLagMs());
    assertEquals(json, JSON.writeValueAsString(l));
  }

  @Test
  void aLevelWithoutTheClientsFiguresGetsNone() throws Exception {
    ObjectNode entry = stepped();
    entry.remove(List.of("schedule_lag_ms", "client_cpu"));
    String json = JSON.writeValueAsString(entry);
    LevelEntry l = JSON.readValue(json, LevelEntry.class);
    assertNull(l.client());
    assertEquals(json, JSON.writeValueAsString(l));
  }

  @Test
  void theBlocksKeysAreWrittenInTheFilesOrderWithNewerKeysKept() throws Exception {
    String json =
        "{\"levels\":["
            + JSON.writeValueAsString(stepped())
            + "],\"levels_note\":\"none was left out.\",\"levels_left_out\":{\"ramps\":0,"
            + "\"outside\":0,\"unplaced\":0,\"not_sent\":1,\"measured_total\":5,\"zeta\":2,\"alpha\":3,"
            + "\"mid\":4},"
            + "\"levels_anchor\":{\"epoch_ms\":1000,\"source\":\"Gatling's injector start\","
            + "\"later\":true},\"levels_warnings\":[\"level 0 lasted 10.0 s\"]}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    Levels levels = record.levelsBlock();
    assertEquals(1, levels.entries().size());
    assertEquals(1L, levels.leftOut().notSent());
    assertEquals(List.of("zeta", "alpha", "mid"), List.copyOf(levels.leftOut().extra().keySet()));
    assertEquals(1000L, levels.anchor().epochMs());
    assertEquals(List.of("level 0 lasted 10.0 s"), levels.warnings());
    assertEquals(true, levels.leftOutAny());
    assertEquals(json, JSON.writeValueAsString(levels.fields()));
    assertEquals(json, JSON.writeValueAsString(record.toTree()));
  }

  @Test
  void anOlderLeftOutWithoutNotSentStaysWithout() throws Exception {
    String json = "{\"ramps\":0,\"outside\":0,\"unplaced\":0,\"measured_total\":282}";
    Levels.LeftOut left = JSON.readValue(json, Levels.LeftOut.class);
    assertNull(left.notSent());
    assertEquals(false, left.any());
    assertEquals(json, JSON.writeValueAsString(left));
  }

  @Test
  void noWarningsNoKey() {
    Levels levels = new Levels(List.of(), null, null, null, null).withWarnings(List.of());
    assertEquals(List.of("levels"), List.copyOf(levels.fields().keySet()));
    assertEquals(true, levels.leftOutAny()); // a record that does not say
  }

  @Test
  void levelsNeedTheirList() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Levels(null, "n", null, null, null));
    assertEquals("entries is null: a run with levels has a list of them", e.getMessage());
  }
}
