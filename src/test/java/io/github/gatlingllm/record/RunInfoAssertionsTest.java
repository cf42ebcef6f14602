package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.LinkedHashMap;
import java.util.Map;
import org.junit.jupiter.api.Test;

class RunInfoAssertionsTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static String json(RunInfo.Assertions a) throws Exception {
    return JSON.writeValueAsString(a);
  }

  @Test
  void everyAssertionSettingInForceIsRecorded() throws Exception {
    assertEquals(
        "{\"goodput_ratio\":0.9,\"cache_as_planned\":0.95,\"slo_load_at_least\":6.0,"
            + "\"failed_percent_below\":{\"chat\":1.0}}",
        json(RunInfo.Assertions.inForce(true, 0.9, 0.95, 6.0, Map.of("chat", 1.0))));
  }

  @Test
  void aCacheAssertionWithoutAnSloIsRecorded() throws Exception {
    assertEquals(
        "{\"goodput_ratio\":null,\"cache_as_planned\":0.8,\"slo_load_at_least\":null,"
            + "\"failed_percent_below\":null}",
        json(RunInfo.Assertions.inForce(false, null, 0.8, null, Map.of())));
  }

  @Test
  void anSloWithoutAssertionsKeepsItsNullGoodputRatio() throws Exception {
    assertEquals(
        "{\"goodput_ratio\":null,\"cache_as_planned\":null,\"slo_load_at_least\":null,"
            + "\"failed_percent_below\":null}",
        json(RunInfo.Assertions.inForce(true, null, null, null, null)));
  }

  @Test
  void noSloAndNoAssertionRecordsNone() {
    assertNull(RunInfo.Assertions.inForce(false, null, null, null, Map.of()));
  }

  @Test
  void aFailureBoundAloneIsRecorded() throws Exception {
    Map<String, Double> bounds = new LinkedHashMap<>();
    bounds.put("chat", 1.0);
    bounds.put("embed", 5.0);
    assertEquals(
        "{\"goodput_ratio\":null,\"cache_as_planned\":null,\"slo_load_at_least\":null,"
            + "\"failed_percent_below\":{\"chat\":1.0,\"embed\":5.0}}",
        json(RunInfo.Assertions.inForce(false, null, null, null, bounds)));
  }

  @Test
  void theRunRecordsMapHasThemUnderAssertions() {
    Map<String, Object> expected = new LinkedHashMap<>();
    expected.put("goodput_ratio", 0.9);
    expected.put("cache_as_planned", null);
    expected.put("slo_load_at_least", 4.0);
    expected.put("failed_percent_below", null);
    assertEquals(
        expected,
        JSON.convertValue(
            RunInfo.Assertions.inForce(true, 0.9, null, 4.0, null), LinkedHashMap.class));
  }
}
