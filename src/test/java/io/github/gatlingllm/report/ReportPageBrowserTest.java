package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import io.github.gatlingllm.metrics.CacheOutcome;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders a report page in headless Chromium and checks, from the DOM after the page's script ran,
 * that every chart drew its marks with a non-empty layout box. Needs Debian's {@code chromium}: in
 * CI ({@code CI=true}) its absence fails the test; elsewhere the test is skipped with a message.
 */
class ReportPageBrowserTest {

  @TempDir Path dir;

  static RequestRecord request(long i) {
    List<Double> itl = new ArrayList<>();
    for (int k = 0; k < 7; k++) {
      itl.add((double) (18 + (i + k) % 5));
    }
    boolean ok = i % 10 != 9;
    return new RequestRecord(
        "chat",
        i < 4 ? "warmup" : "measured",
        i,
        "g" + (i % 4) + "-x",
        "d" + i,
        (int) (i % 4),
        64,
        128,
        1_000_000 + i * 50,
        130,
        true,
        i < 8 ? 0 : 64,
        8,
        true,
        ok ? 60.0 + i % 13 : null,
        ok ? 60.0 + i % 13 : null,
        ok ? itl : null,
        ok ? 20.0 : null,
        200.0 + i % 17,
        ok ? 40.0 : null,
        ok ? "length" : null,
        ok ? 200 : 503,
        ok ? RequestStatus.OK : RequestStatus.REJECTED,
        ok ? null : "HTTP 503",
        "w",
        i < 8 ? 0 : 64,
        i < 8 ? CacheOutcome.MISS : CacheOutcome.HIT,
        ok ? (i < 8 ? CacheOutcome.MISS : CacheOutcome.HIT) : CacheOutcome.UNKNOWN,
        false);
  }

  @Test
  void everyChartDrawsInChromium() throws Exception {
    String chromium = chromium();
    boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
    if (chromium == null) {
      if (ci) {
        throw new AssertionError("CI=true but chromium is not installed: apt-get install chromium");
      }
      assumeTrue(false, "chromium is not installed: skipped (apt-get install -y chromium)");
    }
    Slo slo = new Slo(70.0, null, null, 210.0);
    MetricsAggregator aggregator = new MetricsAggregator(slo);
    List<RequestRecord> requests = new ArrayList<>();
    for (long i = 0; i < 60; i++) {
      RequestRecord r = request(i);
      requests.add(r);
      aggregator.add(r);
    }
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("prompts", Map.of("phases", Map.of("measured", Map.of("digest", "0123456789abcdef"))));
    run.put("slo", slo.toRecord());
    run.put("metrics", aggregator.summary().toRecord());
    Path page = dir.resolve("llm-report.html");
    Files.writeString(page, ReportPage.render(run, requests), StandardCharsets.UTF_8);

    String dom = dumpDom(chromium, page);

    Matcher body =
        Pattern.compile("<body[^>]*data-charts=\"(\\d+)\"[^>]*data-charts-drawn=\"(\\d+)\"")
            .matcher(dom);
    assertTrue(body.find(), "the page's script did not run: " + head(dom));
    assertEquals("9", body.group(1));
    assertEquals("9", body.group(2));
    Matcher chart =
        Pattern.compile(
                "data-chart=\"([a-z0-9-]+)\" data-marks=\"(\\d+)\"[^>]*data-drawn=\"(\\d+)\"")
            .matcher(dom);
    Map<String, String> drawn = new LinkedHashMap<>();
    while (chart.find()) {
      assertEquals(chart.group(2), chart.group(3), "marks drawn of " + chart.group(1));
      drawn.put(chart.group(1), chart.group(3));
    }
    // 56 measured requests, 50 of them ok (every tenth is rejected): TTFT takes 13 whole values
    // (60..72 ms), ITL 5 (18..22); one workload and request, 4 prefix groups, hits and misses.
    assertEquals(
        Map.of(
            "ttft-histogram", "13",
            "itl-histogram", "5",
            "ttft-over-time", "50",
            "tokens-over-time", "1",
            "in-flight", "1",
            "cache-by-series", "1",
            "cache-by-group", "4",
            "ttft-by-cache", "2",
            "e2e-by-cache", "2"),
        drawn);
  }

  private String dumpDom(String chromium, Path page) throws Exception {
    Path profile = Files.createDirectories(dir.resolve("profile"));
    Path out = dir.resolve("dom.html");
    Process p =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--disable-quic",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--disable-sync",
                "--user-data-dir=" + profile,
                "--dump-dom",
                page.toUri().toString())
            .redirectOutput(out.toFile())
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish within 120 s");
    assertEquals(0, p.exitValue(), "chromium failed");
    return Files.readString(out, StandardCharsets.UTF_8);
  }

  private static String head(String s) {
    return s.length() > 300 ? s.substring(0, 300) : s;
  }

  private static String chromium() {
    for (String name : List.of("chromium", "chromium-browser")) {
      for (String dir : System.getenv().getOrDefault("PATH", "").split(File.pathSeparator)) {
        Path p = Path.of(dir, name);
        if (Files.isExecutable(p)) {
          return p.toString();
        }
      }
    }
    return null;
  }
}
