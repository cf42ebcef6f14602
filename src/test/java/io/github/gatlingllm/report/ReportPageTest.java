package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.stats.JsonForm;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ReportPageTest {

  @Test
  void escapesHtml() {
    assertEquals("&lt;script&gt;&amp;&quot;&#39;", ReportPage.esc("<script>&\"'"));
  }

  @Test
  void statusesListOnlyThoseThatOccurred() {
    Map<String, Object> byStatus = new LinkedHashMap<>();
    byStatus.put("ok", 200L);
    byStatus.put("http_error", 0L);
    byStatus.put("rejected", 3L);
    assertEquals("ok 200, rejected 3", ReportPage.statuses(byStatus));
  }

  @Test
  void requestsCutByTheRunsEndComeLastApartFromFailures() {
    Map<String, Object> byStatus = new LinkedHashMap<>();
    byStatus.put("ok", 188L);
    byStatus.put("timeout", 2L);
    byStatus.put("cut_by_run_end", 12L);
    assertEquals("ok 188, timeout 2; 12 cut by the run's end", ReportPage.statuses(byStatus));
  }

  @Test
  void onlyCutRequestsAreSaidAsCut() {
    Map<String, Object> byStatus = new LinkedHashMap<>();
    byStatus.put("ok", 0L);
    byStatus.put("cut_by_run_end", 2L);
    assertEquals("2 cut by the run's end", ReportPage.statuses(byStatus));
  }

  @Test
  void noRequestsIsNone() {
    assertEquals("none", ReportPage.statuses(Map.of("ok", 0L)));
  }

  @Test
  void showsDigestsAndMetrics() {
    Map<String, Object> prompts = new LinkedHashMap<>();
    prompts.put("phases", Map.of("measured", Map.of("requests", 3, "digest", "0123456789abcdef")));
    Map<String, Object> group = new LinkedHashMap<>();
    group.put("request", "chat");
    group.put("phase", "measured");
    group.put("requests", 3);
    group.put("status", Map.of("ok", 3));
    group.put("ttft_ms", Map.of("count", 3, "p50", 12.5));
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("prompts", prompts);
    run.put("metrics", Map.of("groups", List.of(group)));
    String html = ReportPage.render(run);
    assertTrue(html.contains("0123456789abcdef"));
    assertTrue(html.contains("<td>12.5</td>"));
    assertFalse(html.contains("src="), "nothing is fetched");
  }

  @Test
  void timesShowToTheMicrosecond() {
    Map<String, Object> ttft = new LinkedHashMap<>();
    ttft.put("count", 3L);
    ttft.put("mean", 2.5173333333333336);
    ttft.put("p50", 2.517);
    ttft.put("p90", 0.25);
    ttft.put("max", 34.0);
    Map<String, Object> group = new LinkedHashMap<>();
    group.put("request", "chat");
    group.put("phase", "measured");
    group.put("requests", 3);
    group.put("status", Map.of("ok", 3));
    group.put("ttft_ms", ttft);
    String html = ReportPage.render(Map.of("metrics", Map.of("groups", List.of(group))), List.of());
    assertTrue(
        html.contains(
            "<tr><td class=\"l\">TTFT</td><td>3</td><td>2.517</td><td>2.517</td><td>0.25</td>"
                + "<td>–</td><td>–</td><td>34</td></tr>"),
        html);
  }

  @Test
  void aWarmStartIsSaidAtTheTopAndTheCacheHasItsSection() {
    Map<String, Object> series = new LinkedHashMap<>();
    series.put("workload", "unique");
    series.put("request", "chat");
    series.put("requests", 12L);
    series.put("planned_hit_ratio", 0.0);
    series.put("observed_hit_ratio", 0.98);
    series.put("verdict", "above plan");
    series.put("outcomes", Map.of("unplanned_hit", 12L));
    Map<String, Object> cache = new LinkedHashMap<>();
    cache.put("block_tokens", 16);
    cache.put("verdict", "above plan");
    cache.put("warm_start", true);
    cache.put("warm_start_message", "the server's cache already held 12 of this run's prompts");
    cache.put("workloads", List.of(series));
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("cache", cache);
    String html = ReportPage.render(run);
    int banner =
        html.indexOf("<p class=\"bad\" id=\"warm-start\"><strong>Warm start: the server&#39;s");
    assertTrue(banner > 0, html);
    assertTrue(banner < html.indexOf("<h2>"), "the warning comes before every section");
    assertTrue(html.contains("<h2 id=\"cache\">Prefix cache</h2>"), html);
    assertTrue(
        html.contains(
            "<tr><td class=\"l\">unique</td><td class=\"l\">chat</td><td>12</td><td>0</td>"
                + "<td>0.98</td><td class=\"l\"><span class=\"bad\">above plan</span></td>"),
        html);
  }

  @Test
  void noWarmStartNoBanner() {
    Map<String, Object> cache = new LinkedHashMap<>();
    cache.put("warm_start", false);
    cache.put("workloads", List.of());
    assertFalse(ReportPage.render(Map.of("cache", cache)).contains("warm-start"));
  }

  @Test
  void theSummaryComesFirstThenLevelsChartsAndSettingsLast() {
    SyntheticRun s = SyntheticRun.of(40);
    String html = ReportPage.render(s.run, s.requests);
    int summary = html.indexOf("<h2>Summary</h2>");
    int levels = html.indexOf("<h2 id=\"levels\">Levels</h2>");
    int errors = html.indexOf("<h2 id=\"errors\">Errors</h2>");
    int charts = html.indexOf("<h2 id=\"charts\">Charts</h2>");
    int settings = html.indexOf("<h2 id=\"settings\">Settings</h2>");
    assertTrue(summary > 0 && summary < levels, "summary before levels");
    assertTrue(levels < errors && errors < charts && charts < settings, "then errors, charts");
    assertTrue(html.indexOf("<h2>") == summary, "the summary is the first section");
    assertTrue(
        html.indexOf("<p class=\"bad client-warning\"><strong>Client warning: schedule lag")
            < summary,
        "the client's warning is above the summary");
    assertTrue(
        html.contains("<tr><th class=\"l\">peak concurrency</th><td class=\"l\">4</td></tr>"),
        html.substring(summary, levels));
  }

  @Test
  void thePageForbidsItselfEveryFetch() {
    String html = ReportPage.render(Map.of());
    assertTrue(
        html.startsWith(
            "<!DOCTYPE html>\n<html lang=\"en\"><head><meta charset=\"utf-8\">"
                + "<meta http-equiv=\"Content-Security-Policy\" content=\"default-src 'none';"
                + " script-src 'unsafe-inline'; style-src 'unsafe-inline'\">"),
        html.substring(0, 300));
    assertTrue(html.contains("<p>No request was recorded: nothing to chart.</p>"));
  }

  @Test
  void aDeadTargetIsARedLineAboveEverySection() {
    Map<String, Object> down = new LinkedHashMap<>();
    down.put("stopped", true);
    down.put("failed_requests", 12L);
    down.put("message", "TARGET DOWN at 02:06:42 (2.0 s into the run): 12 requests failed");
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("target_down", down);
    String html = ReportPage.render(run);
    int line =
        html.indexOf(
            "<p class=\"bad\" id=\"target-down\"><strong>TARGET DOWN at 02:06:42 (2.0 s into the"
                + " run): 12 requests failed. 12 requests failed to connect or got a"
                + " server error while it was down");
    assertTrue(line > 0, html);
    assertTrue(line < html.indexOf("<h2>"), "the line comes before every section");
  }

  @Test
  void aSilentTargetIsARedLineAboveEverySection() {
    Map<String, Object> silent = new LinkedHashMap<>();
    silent.put("stopped", true);
    silent.put("episode_count", 1);
    silent.put("episodes", List.of(Map.of("silent_s", 10.3, "ended", "run_end")));
    silent.put("message", "TARGET SILENT at 02:06:42 (12.0 s into the run): no byte for 10.0 s");
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("target_silent", silent);
    String html = ReportPage.render(run);
    int line =
        html.indexOf(
            "<p class=\"bad\" id=\"target-silent\"><strong>TARGET SILENT at 02:06:42 (12.0 s into"
                + " the run): no byte for 10.0 s. The run stopped rather than wait on a silent"
                + " target");
    assertTrue(line > 0, html);
    assertTrue(line < html.indexOf("<h2>"), "the line comes before every section");
  }

  @Test
  void aRunWhoseTargetStayedUpHasNoTargetLine() {
    String html = ReportPage.render(new LinkedHashMap<>());
    assertTrue(!html.contains("target-down"), html);
    assertTrue(!html.contains("target-silent"), html);
  }

  @Test
  void aRunWhoseRequestsMostlyFailedIsInRedAndAsPlannedNowhere() {
    io.github.gatlingllm.cache.CacheAggregator cache =
        new io.github.gatlingllm.cache.CacheAggregator(0.05);
    io.github.gatlingllm.metrics.MetricsAggregator metrics =
        new io.github.gatlingllm.metrics.MetricsAggregator(io.github.gatlingllm.metrics.Slo.NONE);
    SyntheticRun s = SyntheticRun.of(10);
    for (long i = 4; i < 10; i++) {
      io.github.gatlingllm.metrics.RequestRecord r = SyntheticRun.request(i);
      if (i > 5) {
        // 4 of the 6 measured requests time out
        r =
            io.github.gatlingllm.metrics.RequestRecord.builder()
                .request("chat")
                .phase("measured")
                .index(i)
                .startMs(1_000_000 + i * 50)
                .e2eMs(30_000.0)
                .status(io.github.gatlingllm.metrics.RequestStatus.TIMEOUT)
                .error("no answer in 30 s")
                .workload("w")
                .plannedCachedTokens(64)
                .cachePlanned(io.github.gatlingllm.cache.CacheOutcome.HIT)
                .cache(io.github.gatlingllm.cache.CacheOutcome.UNKNOWN)
                .cacheWarmStart(false)
                .build();
      }
      cache.add(r);
      metrics.add(r);
    }
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("metrics", JsonForm.of(metrics.summary()));
    run.put("cache", JsonForm.of(cache.summary(null)));
    String html = ReportPage.render(run);
    assertTrue(
        html.contains(
            "<p class=\"bad\" id=\"most-failed\"><strong>Most requests failed: 4 of 6 measured"
                + " (timeout 4); the latency and token figures are those of the 2 that"
                + " succeeded.</strong></p>"),
        html);
    assertTrue(
        html.contains("<td class=\"l\">6 (ok 2, <span class=\"bad\">timeout 4</span>)</td>"), html);
    assertTrue(html.contains("<span class=\"bad\">unknown: most measured requests"), html);
    assertFalse(html.contains("as planned ("), html);
  }
}
