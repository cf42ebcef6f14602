package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.ServerMetrics;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The report's server metrics and working-set sweep sections, and the multi-series line chart they
 * draw with.
 */
class ServerSectionsTest {

  private static Map<String, Object> sample(long t, double usage, double running, Double rate) {
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("t_ms", t);
    s.put("kv_cache_usage", usage);
    s.put("requests_running", running);
    s.put("requests_waiting", 0.0);
    if (rate != null) {
      s.put("hit_rate", rate);
    }
    return s;
  }

  /** The block as a file holding it reads. */
  private static ServerMetrics typed(Map<String, Object> m) {
    return RunRecord.of(Map.of("server_metrics", m)).serverMetrics();
  }

  @Test
  void noSectionsWithoutTheirRecords() {
    assertEquals("", ServerMetricsSection.render(null, List.of()));
    assertEquals("", SweepSection.render(null));
  }

  @Test
  void serverMetricsShowTheServersHitRateBesideTheRuns() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", "http://127.0.0.1:8000/metrics");
    m.put("interval_ms", 5000);
    m.put("engine", "vLLM");
    m.put("started_at_ms", 1_000_000L);
    m.put("scrapes", 3L);
    m.put("failed_scrapes", 0L);
    m.put(
        "samples",
        List.of(sample(0, 0.0, 0, null), sample(5000, 0.4, 8, 0.75), sample(10_000, 0.1, 0, 0.5)));
    m.put("prefix_cache_hit_rate", 0.6);
    m.put("hit_rate_formula", "prefix_cache_hits / prefix_cache_queries (tokens)");
    m.put("cache_config", Map.of("block_size_tokens", 16, "capacity_tokens", 32768));
    m.put("run_hit_rate", 0.59);
    String html = ServerMetricsSection.render(typed(m), List.of());
    assertTrue(html.contains("<strong>0.6</strong> (prefix_cache_hits / prefix_cache_queries"));
    assertTrue(html.contains("<strong>0.59</strong> (cached / prompt tokens"));
    assertTrue(html.contains("32768 tokens, blocks of 16 tokens"));
    assertTrue(html.contains("data-chart=\"server-kv-cache\" data-series=\"1\""), html);
    assertTrue(html.contains("data-chart=\"server-queue\" data-series=\"2\""), html);
    // No request recorded: only the server's own hit rate has values.
    assertTrue(html.contains("data-chart=\"server-hit-rate\" data-series=\"1\""), html);
    assertTrue(
        html.contains("{\"label\":\"KV cache usage\",\"color\":\"#d0704a\",\"y\":[0.0,0.4,0.1]}"),
        html);
  }

  @Test
  void unknownServerListsItsSeries() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", "http://h/metrics");
    m.put("interval_ms", 5000);
    m.put("engine", "unknown");
    m.put("scrapes", 2L);
    m.put("failed_scrapes", 0L);
    m.put("series_found", List.of("tgi_queue_size", "up"));
    String html = ServerMetricsSection.render(typed(m), List.of());
    assertTrue(html.contains("<code>tgi_queue_size up</code>"), html);
    assertTrue(!html.contains("data-chart"), html);
  }

  @Test
  void sweepTableMarksTheCliff() {
    List<Map<String, Object>> steps =
        List.of(step(1, 0.84, 0.97, 8.3), step(2, 0.83, 0.97, 8.2), step(4, 0.52, 0.74, 15.2));
    Map<String, Object> sweep = new LinkedHashMap<>();
    sweep.put("name", "working-set");
    sweep.put("steps", steps);
    sweep.put("drop_threshold", 0.9);
    sweep.put("cliff", Map.of("groups", 4, "after_groups", 2));
    sweep.put("summary", "the cache starts evicting between 2 and 4 groups");
    String html =
        SweepSection.render(
            RunRecord.of(Map.of("working_set_sweep", List.of(sweep))).workingSetSweeps());
    assertTrue(html.contains("<h2>Working-set sweep: working-set</h2>"), html);
    assertTrue(html.contains("<tr class=\"bad\" title=\"the cliff\"><td>4 (cliff)</td>"), html);
    assertTrue(html.contains("data-chart=\"sweep-working-set-hit-ratio\" data-series=\"2\""), html);
    assertTrue(html.contains("data-chart=\"sweep-working-set-ttft\" data-series=\"2\""), html);
    assertTrue(html.contains("\"x\":[1.0,2.0,4.0]"), html);
  }

  private static Map<String, Object> step(int groups, double hit, double retained, double p50) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("groups", groups);
    m.put("workload", "working-set g" + groups);
    m.put("case_id", "c_g" + groups);
    m.put("working_set_tokens", 230L * groups);
    m.put("requests", 48L);
    m.put("hit_ratio", hit);
    m.put("expected_hit_ratio", 0.85);
    m.put("retained", retained);
    m.put("ttft_p50_ms", p50);
    m.put("ttft_p99_ms", p50 * 3);
    return m;
  }

  @Test
  void serverSamplesBeyondTheLimitAreThinnedKeepingTheLast() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("url", "http://h/metrics");
    m.put("interval_ms", 1000);
    m.put("engine", "vLLM");
    m.put("started_at_ms", 0L);
    m.put("scrapes", 4001L);
    m.put("failed_scrapes", 0L);
    List<Map<String, Object>> samples = new java.util.ArrayList<>();
    for (int t = 0; t <= 4000; t++) {
      samples.add(sample(t * 1000L, 0.5, 1, 0.5));
    }
    m.put("samples", samples);
    String html = ServerMetricsSection.render(typed(m), List.of());
    // 4,001 scrapes, every 3rd: 0, 3, ... 3999 (1,334 samples), then the last, 4000.
    assertTrue(html.contains("Every 3th of 4001 scrapes (and the last)."), html);
    assertTrue(html.contains(",3996.0,3999.0,4000.0]"), html);
  }
}
