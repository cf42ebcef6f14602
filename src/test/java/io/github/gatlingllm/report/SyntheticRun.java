package io.github.gatlingllm.report;

import io.github.gatlingllm.cache.CacheAggregator;
import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.stats.JsonForm;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A synthetic run for the report's tests: two request names ("chat" and "summarize", alternating;
 * summarize 40 ms slower to its first token and 120 ms to its end), 4 warmup requests then measured
 * ones 50 ms apart, every tenth rejected (HTTP 503) and every 25th a timeout, 8 completion tokens
 * over 7 ITLs, cache hits after the first 8 requests; and a run record with its metrics, cache,
 * three closed-loop levels with a saturation point, a client warning, server metrics and a
 * working-set sweep, as the helpers of issue 13 record them.
 */
final class SyntheticRun {

  final List<RequestRecord> requests = new ArrayList<>();
  final Map<String, Object> run = new LinkedHashMap<>();

  private SyntheticRun() {}

  static RequestRecord request(long i) {
    List<Double> itl = new ArrayList<>();
    for (int k = 0; k < 7; k++) {
      itl.add((double) (18 + (i + k) % 5));
    }
    RequestStatus status =
        i % 25 == 24
            ? RequestStatus.TIMEOUT
            : i % 10 == 9 ? RequestStatus.REJECTED : RequestStatus.OK;
    boolean ok = status == RequestStatus.OK;
    boolean chat = i % 2 == 0;
    double slower = chat ? 0 : 40;
    return RequestRecord.builder()
        .request(chat ? "chat" : "summarize")
        .phase(i < 4 ? "warmup" : "measured")
        .index(i)
        .promptId("g" + (i % 4) + "-x")
        .digest("d" + i)
        .prefixGroup((int) (i % 4))
        .sharedPrefixTokens(64)
        .plannedTokens(128)
        .startMs(1_000_000 + i * 50)
        .promptTokens(130 + (int) (i % 3) * 10)
        .promptTokensExact(true)
        .cachedTokens(i < 8 ? 0 : 64)
        .completionTokens(8)
        .completionTokensExact(true)
        .ttftMs(ok ? 60.0 + slower + i % 13 : null)
        .timeToFirstEventMs(ok ? 60.0 + slower + i % 13 : null)
        .itlMs(ok ? itl : null)
        .tpotMs(ok ? 20.0 : null)
        .e2eMs(200.0 + 3 * slower + i % 17)
        .outputTokensPerS(ok ? 40.0 : null)
        .finishReason(ok ? "length" : null)
        .httpStatus(
            ok
                ? Integer.valueOf(200)
                : status == RequestStatus.REJECTED ? Integer.valueOf(503) : null)
        .status(status)
        .error(
            ok
                ? null
                : status == RequestStatus.REJECTED ? "HTTP 503: overloaded" : "no answer in 30 s")
        .workload("w")
        .plannedCachedTokens(i < 8 ? 0 : 64)
        .cachePlanned(i < 8 ? CacheOutcome.MISS : CacheOutcome.HIT)
        .cache(ok ? (i < 8 ? CacheOutcome.MISS : CacheOutcome.HIT) : CacheOutcome.UNKNOWN)
        .cacheWarmStart(false)
        .build();
  }

  /**
   * The run.
   *
   * @param n how many requests
   * @return the run
   */
  static SyntheticRun of(long n) {
    SyntheticRun s = new SyntheticRun();
    Slo slo = new Slo(70.0, null, null, 210.0);
    MetricsAggregator aggregator = new MetricsAggregator(slo);
    CacheAggregator cache = new CacheAggregator(0.05);
    for (long i = 0; i < n; i++) {
      RequestRecord r = request(i);
      s.requests.add(r);
      aggregator.add(r);
      cache.add(r);
    }
    s.run.put(
        "prompts", Map.of("phases", Map.of("measured", Map.of("digest", "0123456789abcdef"))));
    s.run.put("slo", JsonForm.of(slo));
    s.run.put("assertions", Map.of("goodput_ratio", 0.9));
    s.run.put("load", Map.of("concurrency", 4, "peak_concurrency", 4));
    s.run.put("metrics", JsonForm.of(aggregator.summary()));
    s.run.put(
        "cache", JsonForm.of(cache.summary(new CacheSummary.Parameters(16, null, null, null))));
    s.run.put(
        "levels",
        List.of(level(0, 1, 30.5, 40, 80), level(1, 2, 58.25, 45, 95), level(2, 4, 61.0, 90, 180)));
    s.run.put("levels_note", "3 requests started during ramps between levels are left out.");
    Map<String, Object> saturation = new LinkedHashMap<>();
    saturation.put("metric", "concurrency");
    saturation.put("saturation_level", 1);
    saturation.put("saturation_concurrency", 2);
    saturation.put("max_output_tokens_per_s", 61.0);
    saturation.put("stopped_early", false);
    saturation.put("slo_load", 2.5);
    s.run.put("saturation", saturation);
    s.run.put(
        "client",
        Map.of(
            "warnings",
            List.of("schedule lag p99 was 42 ms at level 2 (over 10 ms): the client fell behind")));
    s.run.put("server_metrics", serverMetrics());
    s.run.put("working_set_sweep", List.of(sweep()));
    return s;
  }

  private static Map<String, Object> level(
      int index, int concurrency, double outputPerS, double ttftP99, double e2eP99) {
    Map<String, Object> l = new LinkedHashMap<>();
    l.put("index", index);
    l.put("scenario", "chat");
    l.put("kind", "closed");
    l.put("concurrency", concurrency);
    l.put("start_ms", 1_000_000L + index * 1000L);
    l.put("end_ms", 1_001_000L + index * 1000L);
    l.put("duration_s", 1.0);
    l.put("requests", 20L);
    l.put("status", Map.of("ok", 20L));
    l.put("requests_per_s", outputPerS / 8);
    l.put("input_tokens_per_s", outputPerS * 16);
    l.put("output_tokens_per_s", outputPerS);
    l.put("ttft_ms", Map.of("count", 20L, "p50", ttftP99 / 2, "p99", ttftP99));
    l.put("itl_ms", Map.of("count", 140L, "p50", 18.0 + index, "p99", 22.0 + index));
    l.put("tpot_ms", Map.of("count", 20L, "p50", 19.0 + index, "p99", 21.0 + index));
    l.put("e2e_ms", Map.of("count", 20L, "p50", e2eP99 / 2, "p99", e2eP99));
    l.put("cache_hit_ratio", 0.45);
    l.put("client_cpu", 0.12);
    return l;
  }

  private static Map<String, Object> serverMetrics() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", "http://127.0.0.1:8000/metrics");
    m.put("interval_ms", 1000);
    m.put("engine", "vLLM");
    m.put("started_at_ms", 1_000_000L);
    m.put("scrapes", 4L);
    m.put("failed_scrapes", 0L);
    List<Map<String, Object>> samples = new ArrayList<>();
    for (int t = 0; t < 4; t++) {
      Map<String, Object> sample = new LinkedHashMap<>();
      sample.put("t_ms", t * 1000L);
      sample.put("kv_cache_usage", 0.1 * t);
      sample.put("requests_running", (double) t);
      sample.put("requests_waiting", 0.0);
      sample.put("hit_rate", 0.4 + 0.05 * t);
      samples.add(sample);
    }
    m.put("samples", samples);
    return m;
  }

  private static Map<String, Object> sweep() {
    List<Map<String, Object>> steps = new ArrayList<>();
    int[] groups = {1, 2, 4};
    for (int k = 0; k < groups.length; k++) {
      Map<String, Object> step = new LinkedHashMap<>();
      step.put("groups", groups[k]);
      step.put("workload", "ws g" + groups[k]);
      step.put("hit_ratio", 0.84 - 0.15 * k);
      step.put("expected_hit_ratio", 0.85);
      step.put("retained", 0.97 - 0.1 * k);
      step.put("ttft_p50_ms", 8.0 + 3 * k);
      step.put("ttft_p99_ms", 24.0 + 9 * k);
      steps.add(step);
    }
    Map<String, Object> sweep = new LinkedHashMap<>();
    sweep.put("name", "ws");
    sweep.put("steps", steps);
    sweep.put("drop_threshold", 0.9);
    sweep.put("summary", "the cache starts evicting between 2 and 4 groups");
    return sweep;
  }
}
