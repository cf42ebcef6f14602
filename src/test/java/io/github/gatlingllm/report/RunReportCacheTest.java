package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.CacheSummary;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code bin/gatling-llm report} recomputes {@code cache} from the requests. */
class RunReportCacheTest {

  @TempDir Path folder;

  private static RequestRecord record(int cached, int planned, CacheOutcome outcome) {
    return RequestRecord.builder()
        .request("chat")
        .phase("measured")
        .index(0L)
        .startMs(1000)
        .promptTokens(100)
        .promptTokensExact(true)
        .cachedTokens(cached)
        .completionTokens(4)
        .completionTokensExact(true)
        .ttftMs(2.0)
        .timeToFirstEventMs(2.0)
        .tpotMs(1.0)
        .e2eMs(5.0)
        .finishReason("length")
        .httpStatus(200)
        .status(RequestStatus.OK)
        .workload("repeat")
        .plannedCachedTokens(planned)
        .cachePlanned(CacheOutcome.HIT)
        .cache(outcome)
        .cacheWarmStart(false)
        .build();
  }

  @Test
  void theCacheIsRecomputedWithTheRecordedPlanParametersAndTolerance() throws Exception {
    Files.writeString(
        folder.resolve(RunRecorder.REQUESTS_FILE),
        RequestRecordJson.toJson(record(96, 96, CacheOutcome.HIT), true)
            + "\n"
            + RequestRecordJson.toJson(record(0, 96, CacheOutcome.MISS), true)
            + "\n");
    Files.writeString(
        folder.resolve(RunRecorder.RUN_FILE),
        "{\"cache\": {\"block_tokens\": 16, \"template_tokens\": 1, \"template_known\": true,"
            + " \"exact_counts\": true, \"tolerance\": 0.5, \"verdict\": \"stale\"}}");
    RunReport report = RunReport.read(List.of(folder), null);
    CacheSummary cache = (CacheSummary) report.record().get("cache");
    assertEquals(16, cache.parameters().blockTokens());
    assertEquals(1, cache.parameters().templateTokens());
    assertEquals(0.5, cache.tolerance());
    assertEquals(2L, cache.requests());
    assertEquals(0.96, cache.plannedHitRatio());
    assertEquals(0.48, cache.observedHitRatio());
    assertEquals("as planned", cache.verdict());
    assertEquals(1L, cache.asPlanned());
  }
}
