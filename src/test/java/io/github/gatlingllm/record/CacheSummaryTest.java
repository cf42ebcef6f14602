package io.github.gatlingllm.record;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The {@code cache} block: the plan's parameters typed, newer keys kept. */
class CacheSummaryTest {

  private static final ObjectMapper JSON = new ObjectMapper();

  /** The block's keys after the parameters, as today's writer gives them for no request. */
  private static final String REST =
      "\"tolerance\":0.05,\"requests\":0,\"planned_hit_ratio\":null,\"observed_hit_ratio\":null,"
          + "\"outcomes\":{},\"as_planned\":0,\"warm_start\":false,\"warm_start_requests\":0,"
          + "\"verdict\":\"unknown\",\"planned_requests\":0,\"verdict_reason\":\"none\","
          + "\"latency_by_outcome\":{},\"workloads\":[]";

  @Test
  void theParametersAreTypedAndAnUnknownTemplateIsWrittenNull() throws Exception {
    String json =
        "{\"block_tokens\":16,\"template_tokens\":null,\"template_known\":false,"
            + "\"exact_counts\":true,"
            + REST
            + "}";
    CacheSummary cache = JSON.readValue(json, CacheSummary.class);
    assertEquals(new CacheSummary.Parameters(16, null, false, true), cache.parameters());
    assertEquals(json, JSON.writeValueAsString(cache));
  }

  @Test
  void anOlderBlockWithoutParametersGetsNone() throws Exception {
    String json = "{" + REST + "}";
    CacheSummary cache = JSON.readValue(json, CacheSummary.class);
    assertNull(cache.parameters());
    assertEquals(json, JSON.writeValueAsString(cache));
  }

  @Test
  void aNewerKeyIsKeptAfterTheBlocksOwn() throws Exception {
    String json =
        "{\"block_tokens\":1,\"template_tokens\":3,\"template_known\":true,"
            + "\"exact_counts\":false,"
            + REST
            + ",\"eviction\":{\"seen\":2}}";
    CacheSummary cache = JSON.readValue(json, CacheSummary.class);
    assertEquals(3, cache.parameters().templateTokens());
    assertEquals(Map.of("eviction", Map.of("seen", 2)), cache.extra());
    assertEquals(json, JSON.writeValueAsString(cache));
  }
}
