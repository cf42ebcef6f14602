package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class KeepsNewerKeysTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  @Test
  void aBaselineKeepsANewerKeyAfterItsOwn() throws Exception {
    String json = "{\"folder\":\"runs/a\",\"added_later\":{\"x\":1}}";

    Baseline b = JSON.readValue(json, Baseline.class);

    assertEquals(Map.of("added_later", Map.of("x", 1)), b.extra());
    String written = JSON.writeValueAsString(b);
    assertEquals(true, written.endsWith(",\"added_later\":{\"x\":1}}"), written);
    assertEquals(false, written.contains("\"extra\""), written);
  }

  @Test
  void aSweepStepKeepsANewerKeyAfterItsOwn() throws Exception {
    String json = "{\"groups\":4,\"added_later\":[1,2]}";

    WorkingSetSweep.Step step = JSON.readValue(json, WorkingSetSweep.Step.class);

    assertEquals(Map.of("added_later", List.of(1, 2)), step.extra());
    String written = JSON.writeValueAsString(step);
    assertEquals(true, written.startsWith("{\"groups\":4,"), written);
    assertEquals(true, written.endsWith(",\"e2e_p50_ms\":null,\"added_later\":[1,2]}"), written);
  }

  @Test
  void aBlockOfThisVersionHasNoNewerKeys() throws Exception {
    WorkingSetSweep.Step step = JSON.readValue("{\"groups\":4}", WorkingSetSweep.Step.class);

    assertEquals(Map.of(), step.extra());
  }
}
