package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;

import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacityTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  private static final String BLOCK =
      "{\"kind\":\"open\",\"scenario\":\"search\",\"max_rate\":21,\"edge\":null,"
          + "\"interval\":{\"last_met\":21,\"first_missed\":22},"
          + "\"hold\":{\"load\":21,\"start_ms\":1000,\"end_ms\":16000,\"requests\":315,"
          + "\"attainment\":0.99,\"attainment_low\":0.97,\"attainment_high\":0.997,\"held\":true,"
          + "\"first_half_attainment\":1.0,\"second_half_attainment\":0.98,\"drift\":null},"
          + "\"finished\":true,\"stopped_by\":null,\"answer\":\"CAPACITY: 21 users/s\","
          + "\"settings\":{\"max\":32,\"coarse_levels\":4,\"precision\":0.05,\"hold_s\":15,\"warmup_s\":10,"
          + "\"min_requests\":20,\"min_s\":5,\"max_s\":60,\"margin\":0.1,\"level_attainment\":0.95,"
          + "\"interval\":\"wilson_95\",\"capacity_at_least\":null},"
          + "\"levels\":[{\"step\":0,\"stage\":\"coarse\",\"load\":8,\"ended_by\":\"attainment_above\","
          + "\"met\":true,\"attainment\":1.0,\"attainment_low\":0.95,\"attainment_high\":1.0,"
          + "\"drain_ms\":300,\"level\":null}],"
          + "\"newer\":[1,2]}";

  @Test
  void aCapacityBlockReadsAsItsTypeAndWritesBackKeyForKey() throws Exception {
    ObjectNode tree = (ObjectNode) JSON.readTree("{\"capacity\":" + BLOCK + "}");
    RunRecord record = RunRecord.of(tree);
    Capacity c = record.capacity();
    assertEquals(21, c.maxRate().intValue());
    assertEquals(21.0, c.load());
    assertEquals("attainment_above", c.levels().get(0).endedBy());
    assertEquals(List.of(1, 2), c.extra().get("newer"));
    assertEquals(JSON.readTree(BLOCK), JSON.readTree(JSON.writeValueAsString(c)));
  }

  @Test
  void aRecordWithoutASearchHasNoCapacity() {
    assertEquals(null, RunRecord.create().capacity());
  }
}
