package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The saturation blocks, {@code saturation} and {@code saturations}, read and written again. */
class SaturationBlockTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** A closed loop's verdict as today's writer gives it, with an SLO and a shared server. */
  private static final String CLOSED =
      "{\"scenario\":\"chat\",\"metric\":\"concurrency\",\"levels\":3,\"saturation_level\":1,"
          + "\"saturation_scenario_level\":1,\"saturation_concurrency\":2,"
          + "\"saturation_requests_per_s\":2.9,\"saturation_output_tokens_per_s\":93.6,"
          + "\"max_output_tokens_per_s\":103.0,\"max_level\":2,\"max_concurrency\":4,"
          + "\"still_growing\":false,\"stopped_early\":false,\"stop_reason\":null,"
          + "\"slo_ratio\":0.95,\"slo_load\":null,\"slo_level_below\":null,\"slo_level_above\":0,"
          + "\"slo_met_at_every_level\":false,\"saturated\":true,\"over_capacity_level\":1,"
          + "\"over_capacity\":\"level 1 (2 users): why\",\"throughput_still_growing\":true,"
          + "\"verdict_text\":\"saturated at 2 users\",\"rule\":\"closed_loop_scaling\","
          + "\"ttft_growth\":1.5,\"throughput_gain\":0.05,\"min_scaling\":0.25,\"scaling\":[{"
          + "\"level\":1,\"level_below\":0,\"users_factor\":2.0,\"output_tokens_per_s_factor\":1.1,"
          + "\"scaling\":0.1,\"ttft_p50_factor\":4.4,\"e2e_p50_factor\":null,\"latency_grew\":true,"
          + "\"throughput_short\":true,\"over_capacity\":true}]";

  @Test
  void theRunsSaturationIsReadTypedAndWrittenAgainWithItsOverSaturationAndANewerKey()
      throws Exception {
    String json =
        "{\"saturation\":"
            + CLOSED
            + ",\"over_saturation\":null,\"shared_server\":\"2 scenarios shared the server\","
            + "\"newer\":{\"a\":1}},\"saturations\":["
            + CLOSED
            + ",\"shared_server\":\"2 scenarios shared the server\"}]}";
    RunRecord record = RunRecord.of((ObjectNode) JSON.readTree(json));
    SaturationBlock.Run run = record.saturation();
    assertNull(run.overSaturation());
    SaturationBlock v = run.verdict();
    assertEquals(2L, v.saturationLoad().longValue());
    assertEquals(4L, v.maxLoad().longValue());
    assertEquals(0, v.sloLevelAbove());
    assertEquals(0.25, v.minScaling());
    assertEquals(1.1, v.scaling().get(0).outputTokensPerSFactor());
    assertEquals("2 scenarios shared the server", v.sharedServer());
    assertEquals(Map.of("a", 1), v.extra().get("newer"));
    assertEquals(1, record.saturations().size());
    assertEquals(json, JSON.writeValueAsString(record.toTree()));
    assertEquals(json, JSON.writeValueAsString(SaturationBlock.fields(run, record.saturations())));
  }

  @Test
  void anOpenLoopWritesItsRatesAndNoClosedLoopScaling() throws Exception {
    // As the stepped open loop of e94b645 wrote it: no SLO, no rule yet.
    String json =
        "{\"scenario\":\"open steps\",\"metric\":\"rate\",\"levels\":3,\"saturation_level\":2,"
            + "\"saturation_scenario_level\":2,\"saturation_rate\":18,"
            + "\"saturation_requests_per_s\":16.4,\"saturation_output_tokens_per_s\":530.4,"
            + "\"max_output_tokens_per_s\":530.4,\"max_level\":2,\"max_rate\":18,"
            + "\"still_growing\":false,\"stopped_early\":true,\"stop_reason\":\"why\","
            + "\"saturated\":true,\"over_capacity_level\":2,\"over_capacity\":\"why\","
            + "\"throughput_still_growing\":true,\"verdict_text\":\"saturated at 18 users/s\","
            + "\"over_saturation\":\"why\"}";
    SaturationBlock.Run run = JSON.readValue(json, SaturationBlock.Run.class);
    assertEquals(true, run.verdict().open());
    assertEquals(18, run.verdict().saturationLoad().intValue());
    assertNull(run.verdict().sloRatio());
    assertNull(run.verdict().rule());
    assertEquals("why", run.overSaturation());
    assertEquals(Map.of(), run.verdict().extra());
    assertEquals(json, JSON.writeValueAsString(run));
  }

  @Test
  void aScenariosVerdictHasNoOverSaturation() throws Exception {
    String json = CLOSED + "}";
    SaturationBlock v = JSON.readValue(json, SaturationBlock.class);
    assertEquals(json, JSON.writeValueAsString(v));
    assertEquals(
        json.replace("}]}", "}],\"shared_server\":\"s\"}"),
        JSON.writeValueAsString(v.withSharedServer("s")));
  }

  @Test
  void theRunsSaturationNeedsAVerdict() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new SaturationBlock.Run(null, "x"));
    assertEquals("verdict is null: the run's saturation has one", e.getMessage());
  }
}
