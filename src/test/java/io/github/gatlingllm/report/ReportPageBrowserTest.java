package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;
import static org.junit.jupiter.api.Assumptions.assumeTrue;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.File;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Renders a report page in headless Chromium and checks, from the DOM after a probe script the test
 * adds to the page ran: every chart is a uPlot instance with its series and their data, each series
 * has pixels of its colour on the canvas, a mouse move over each chart shows values in its legend,
 * a drag across it zooms its x axis (but on categories), every numeric axis steps by 1, 2, 2.5 or 5
 * times a power of ten, and the page made no request (no resource loaded, no
 * Content-Security-Policy violation; a second page with one image to fetch proves that check
 * catches a request). Needs Debian's {@code chromium}: in CI ({@code CI=true}) its absence fails
 * the test; elsewhere the test is skipped with a message.
 */
class ReportPageBrowserTest {

  @TempDir Path dir;

  /** Registered first: counts every request the page's policy blocked. */
  private static final String EARLY_PROBE =
      "<script>window.__violations = [];"
          + "document.addEventListener('securitypolicyviolation', function (e) {"
          + " window.__violations.push(e.blockedURI + ' ' + e.violatedDirective); });</script>";

  /** Runs once the page has loaded; writes its findings as JSON into #probe. */
  private static final String PROBE =
      """
      <pre id="probe"></pre><script>
      window.addEventListener('load', function () { setTimeout(function () {
        var out = {charts: {}, errors: [], violations: window.__violations,
          resources: performance.getEntriesByType('resource').map(function (r) { return r.name; })};
        document.querySelectorAll('figure.chart[data-error]').forEach(function (f) {
          out.errors.push(f.getAttribute('data-chart') + ': ' + f.getAttribute('data-error')); });
        var nice = [1, 2, 2.5, 5];
        Object.keys(window.llmCharts || {}).forEach(function (id) {
          var u = window.llmCharts[id];
          var c = {series: u.series.length - 1, withData: 0, painted: 0, hover: [], ticks: 'round'};
          var img = u.ctx.getImageData(0, 0, u.ctx.canvas.width, u.ctx.canvas.height).data;
          var firstIdx = null;
          for (var s = 1; s < u.series.length; s++) {
            var ys = u.data[s], has = false;
            for (var i = 0; i < ys.length; i++) {
              if (ys[i] != null) { has = true; if (s === 1 && firstIdx == null) { firstIdx = i; } }
            }
            if (!has) { continue; }
            c.withData++;
            var st = u.series[s].stroke, col = typeof st === 'function' ? st(u, s) : st;
            var r = parseInt(col.substr(1, 2), 16), g = parseInt(col.substr(3, 2), 16),
                b = parseInt(col.substr(5, 2), 16), n = 0;
            for (var p = 0; p < img.length; p += 4) {
              if (img[p + 3] > 200 && Math.abs(img[p] - r) + Math.abs(img[p + 1] - g)
                  + Math.abs(img[p + 2] - b) < 40) { n++; }
            }
            if (n > 0) { c.painted++; }
          }
          var rect = u.over.getBoundingClientRect();
          var left = u.valToPos(u.data[0][firstIdx], 'x');
          u.over.dispatchEvent(new MouseEvent('mousemove', {bubbles: true,
            clientX: rect.left + left, clientY: rect.top + rect.height / 2}));
          u.root.querySelectorAll('.u-legend .u-series').forEach(function (row) {
            var v = row.querySelector('.u-value');
            c.hover.push(v ? v.textContent : '');
          });
          // Drag across the middle third of the plot: the x scale zooms to it.
          var x0 = u.scales.x.min, x1 = u.scales.x.max, y = rect.top + rect.height / 2;
          u.over.dispatchEvent(new MouseEvent('mousedown', {bubbles: true, button: 0,
            clientX: rect.left + rect.width / 3, clientY: y}));
          u.over.dispatchEvent(new MouseEvent('mousemove', {bubbles: true, buttons: 1, movementX: 50,
            clientX: rect.left + 2 * rect.width / 3, clientY: y}));
          document.dispatchEvent(new MouseEvent('mouseup', {bubbles: true, button: 0,
            clientX: rect.left + 2 * rect.width / 3, clientY: y}));
          c.x = [x0, x1];
          u.axes.forEach(function (a, i) {
            if (i === 0 && /^cache-by-|-by-cache$/.test(id)) { return; } // category names
            if (!a._found || !a._values) { return; }
            var incr = a._found[0];
            var m = incr / Math.pow(10, Math.floor(Math.log10(incr) + 1e-9));
            var ok = nice.some(function (x) { return Math.abs(x - m) < 1e-6; });
            a._values.forEach(function (t) { if (!/^-?[0-9,]*(\\.[0-9]{1,3})?$/.test(t)) { ok = false; } });
            if (!ok) { c.ticks = 'axis ' + i + ': step ' + incr + ', ticks ' + a._values.join(' '); }
          });
          out.charts[id] = c;
        });
        // uPlot applies a new scale on its next commit: read it a moment later.
        setTimeout(function () {
          Object.keys(out.charts).forEach(function (id) {
            var u = window.llmCharts[id], c = out.charts[id];
            c.zoomed = u.scales.x.min > c.x[0] && u.scales.x.max < c.x[1];
          });
          document.getElementById('probe').textContent = JSON.stringify(out);
        }, 50);
      }, 50); });
      </script>
      """;

  @Test
  void everyChartDrawsHoversAndNothingIsFetched() throws Exception {
    String chromium = requireChromium();
    SyntheticRun s = SyntheticRun.of(60);
    String html = ReportPage.render(s.run, s.requests);
    JsonNode probe = probe(chromium, "llm-report.html", html);

    assertEquals("[]", probe.get("errors").toString(), "charts that failed");
    assertEquals("[]", probe.get("violations").toString(), "requests blocked by the policy");
    assertEquals("[]", probe.get("resources").toString(), "resources loaded");
    Map<String, String> series = new TreeMap<>();
    JsonNode charts = probe.get("charts");
    charts
        .fields()
        .forEachRemaining(
            e -> {
              JsonNode c = e.getValue();
              String id = e.getKey();
              series.put(id, c.get("series") + "/" + c.get("withData") + "/" + c.get("painted"));
              assertEquals("round", c.get("ticks").asText(), id + " axis ticks");
              // Every chart but the categorical ones (the cache's) zooms on its x axis.
              assertEquals(
                  !id.matches("cache-by-.*|.*-by-cache"),
                  c.get("zoomed").asBoolean(),
                  id + " zoom");
              // The legend: the x value, then each series; every series with a value at the
              // hovered x shows it, and the x is always shown.
              JsonNode hover = c.get("hover");
              assertTrue(hover.size() == c.get("series").asInt() + 1, id + " legend " + hover);
              assertTrue(!hover.get(0).asText().equals("–"), id + " hover x: " + hover);
              assertTrue(
                  hover.get(1).asText().matches("-?[0-9.,]+"),
                  id + " hover first series: " + hover);
            });
    // series / series with data / series whose colour is on the canvas. Two request names; the
    // levels curves have one scenario; p50 and max (or p99) share their series' colour.
    Map<String, String> expected = new TreeMap<>();
    expected.put("levels-throughput-latency", "2/2/2");
    expected.put("levels-output-tokens", "1/1/1");
    expected.put("levels-ttft", "2/2/2");
    expected.put("levels-itl", "2/2/2");
    expected.put("levels-tpot", "2/2/2");
    expected.put("levels-e2e", "2/2/2");
    expected.put("tokens-over-time", "2/2/2");
    expected.put("in-flight", "3/3/3");
    expected.put("ttft-over-time", "4/4/4");
    expected.put("ttft-histogram", "2/2/2");
    expected.put("itl-histogram", "2/2/2");
    expected.put("tpot-histogram", "2/2/2");
    expected.put("e2e-histogram", "2/2/2");
    expected.put("prompt-tokens-histogram", "2/2/2");
    expected.put("completion-tokens-histogram", "2/2/2");
    expected.put("cache-by-series", "2/2/2");
    expected.put("cache-by-group", "4/4/4");
    expected.put("ttft-by-cache", "4/4/4");
    expected.put("e2e-by-cache", "4/4/4");
    expected.put("server-hit-rate", "2/2/2");
    expected.put("server-kv-cache", "1/1/1");
    expected.put("server-queue", "2/2/2");
    expected.put("sweep-ws-hit-ratio", "2/2/2");
    expected.put("sweep-ws-ttft", "2/2/2");
    assertEquals(expected, series);
  }

  @Test
  void oneRequestAndOneLevelStillDraw() throws Exception {
    String chromium = requireChromium();
    SyntheticRun s = SyntheticRun.of(5); // 4 warmup requests, 1 measured
    s.run.put("levels", ((List<?>) s.run.get("levels")).subList(0, 1));
    JsonNode probe = probe(chromium, "one.html", ReportPage.render(s.run, s.requests));
    assertEquals("[]", probe.get("errors").toString(), "charts that failed");
    // one level is a table without the six level charts (LevelsSection), so 24 - 6 charts
    assertEquals(18, probe.get("charts").size(), probe.toString());
    assertEquals(false, probe.get("charts").has("levels-throughput-latency"), probe.toString());
    probe
        .get("charts")
        .fields()
        .forEachRemaining(
            e -> {
              JsonNode c = e.getValue();
              String id = e.getKey();
              assertTrue(c.get("withData").asInt() > 0, id + " has data: " + c);
              assertEquals(c.get("withData"), c.get("painted"), id + " series drawn");
              assertTrue(!c.get("hover").get(0).asText().equals("–"), id + " hover: " + c);
            });
  }

  @Test
  void aRequestFromThePageIsCaught() throws Exception {
    String chromium = requireChromium();
    String html =
        ReportPage.render(Map.of(), List.of())
            .replace("</body>", "<img src=\"http://127.0.0.1:9/x.png\" alt=\"\"></body>");
    JsonNode probe = probe(chromium, "decoy.html", html);
    assertEquals(
        "[\"http://127.0.0.1:9/x.png img-src\"]",
        probe.get("violations").toString(),
        "the policy blocks and reports the image");
  }

  /** Runs once the page has loaded and its charts are drawn; writes the layout into #layout. */
  private static final String LAYOUT_PROBE =
      """
      <pre id="layout"></pre><script>
      window.addEventListener('load', function () { setTimeout(function () {
        var wrap = document.querySelector('.levels-wrap'), table = document.getElementById('levels-table');
        var what = document.getElementById('what-ran');
        var out = {viewport: window.innerWidth, scrollWidth: document.documentElement.scrollWidth,
          content: document.body.clientWidth,
          levelsTable: table ? table.offsetWidth : null, levelsWrap: wrap ? wrap.clientWidth : null,
          whatRan: what ? what.textContent : null, charts: [], rows: {}};
        document.querySelectorAll('figure.chart[data-chart]:not(.empty)').forEach(function (f) {
          var u = window.llmCharts[f.getAttribute('data-chart')];
          var top = Math.round(f.getBoundingClientRect().top);
          out.rows[top] = (out.rows[top] || 0) + 1;
          out.charts.push({id: f.getAttribute('data-chart'), figure: f.offsetWidth,
            plot: u ? u.width : null});
        });
        document.getElementById('layout').textContent = JSON.stringify(out);
      }, 50); });
      </script>
      """;

  /**
   * The widest levels table a run makes: two scenarios, open loop, failures, a cut level, long
   * latencies, SLO attainment, schedule lag and client CPU.
   */
  private static List<Map<String, Object>> widestLevels() {
    List<Map<String, Object>> levels = new java.util.ArrayList<>();
    for (int i = 0; i < 6; i++) {
      Map<String, Object> l = new java.util.LinkedHashMap<>();
      l.put("index", i);
      l.put("scenario", i % 2 == 0 ? "open steps long name" : "closed steps");
      l.put("kind", "open");
      l.put("rate", 12.5 * (i + 1));
      l.put("duration_s", 29.87);
      l.put("cut_short", i == 5);
      l.put("requests", 12345L);
      l.put("status", Map.of("ok", 10000L, "rejected", 2000L, "timeout", 345L));
      l.put("requests_per_s", 1234.56);
      l.put("input_tokens_per_s", 123456.7);
      l.put("output_tokens_per_s", 23456.7);
      for (String m : List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms")) {
        l.put(m, Map.of("count", 10000L, "p50", 12345.678, "p99", 23456.789));
      }
      l.put("cache_hit_ratio", 0.45);
      l.put("goodput", Map.of("attainment", 0.97));
      l.put("schedule_lag_ms", Map.of("p99", 1234.567));
      l.put("client_cpu", 0.12);
      levels.add(l);
    }
    return levels;
  }

  @Test
  void atA1280PixelWindowThePageFitsItsChartsFillTheRowAndItSaysWhatRan() throws Exception {
    String chromium = requireChromium();
    SyntheticRun s = SyntheticRun.of(60);
    s.run.put("levels", widestLevels());
    s.run.put(
        "target",
        Map.of(
            "base_url",
            "http://127.0.0.1:8000/v1",
            "embedded_simulator",
            false,
            "model",
            "qwen3-vocab-random",
            "endpoint",
            "chat"));
    s.run.put("decoding", Map.of("max_tokens", 32, "stream", true));
    String html = ReportPage.render(s.run, s.requests);
    Path file = dir.resolve("wide.html");
    Files.writeString(
        file, html.replace("</body>", LAYOUT_PROBE + "</body>"), StandardCharsets.UTF_8);
    String dom = dumpDom(chromium, file, 1280, 2000);
    Matcher m = Pattern.compile("<pre id=\"layout\">([^<]*)</pre>").matcher(dom);
    assertTrue(m.find(), "the layout probe did not run: " + head(dom));
    JsonNode layout =
        new ObjectMapper()
            .readTree(m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&"));

    assertEquals(1280, layout.get("viewport").asInt(), layout.toString());
    // nothing wider than the window: no horizontal scroll, the levels table whole
    assertTrue(layout.get("scrollWidth").asInt() <= 1280, layout.toString());
    assertTrue(
        layout.get("levelsTable").asInt() <= layout.get("levelsWrap").asInt(), layout.toString());
    assertEquals(
        "What ran: chat completions, streamed, to http://127.0.0.1:8000/v1, model"
            + " qwen3-vocab-random; up to 32 output tokens; scenario open steps long name: 12.5 to"
            + " 62.5 users/s in 3 levels, open loop, scenario closed steps: 25 to 75 users/s in 3"
            + " levels, open loop.",
        layout.get("whatRan").asText());
    // every chart at least 45% of the content's width, two a row: no half-empty rows
    int content = layout.get("content").asInt();
    JsonNode charts = layout.get("charts");
    assertTrue(charts.size() >= 20, layout.toString());
    for (JsonNode c : charts) {
      assertTrue(c.get("figure").asInt() >= 0.45 * content, c + " of " + content);
      assertTrue(c.get("figure").asInt() <= 0.5 * content, c + " of " + content);
    }
    layout
        .get("rows")
        .fields()
        .forEachRemaining(
            r -> assertTrue(r.getValue().asInt() <= 2, layout.get("rows").toString()));

    // and the screenshot a user would see, kept for a look: target/report-screenshots/
    Path png = screenshot(chromium, file, "synthetic-widest-1280.png");
    assertEquals(1280, pngWidth(png));
  }

  @Test
  void aOneLevelRunIsNotCutShortAndHasNoNote() throws Exception {
    String chromium = requireChromium();
    SyntheticRun s = SyntheticRun.of(60);
    Map<String, Object> one = new java.util.LinkedHashMap<>(widestLevels().get(0));
    one.put("cut_short", true); // ended by its budget: the run's end, nothing cut that mattered
    s.run.put("levels", List.of(one));
    s.run.put(
        "levels_note",
        "Each level holds the measured requests that started in it; none was left out.");
    s.run.put("levels_left_out", Map.of("ramps", 0, "outside", 0, "unplaced", 0));
    String html = ReportPage.render(s.run, s.requests);
    assertTrue(!html.contains("(cut short)"), "one level is not cut short");
    assertTrue(!html.contains("<p>Each level holds"), "no note when nothing was left out");
    Path file = dir.resolve("one-level.html");
    Files.writeString(file, html, StandardCharsets.UTF_8);
    assertEquals(1280, pngWidth(screenshot(chromium, file, "synthetic-one-level-1280.png")));
  }

  /** Takes a 1280 x 2000 screenshot into target/report-screenshots/, returns its path. */
  private Path screenshot(String chromium, Path page, String name) throws Exception {
    Path folder = Files.createDirectories(Path.of("target", "report-screenshots"));
    Path png = folder.resolve(name).toAbsolutePath();
    Files.deleteIfExists(png);
    Path profile = Files.createDirectories(dir.resolve("shot-" + name));
    Process p =
        new ProcessBuilder(
                chromium,
                "--headless",
                "--no-sandbox",
                "--disable-gpu",
                "--hide-scrollbars",
                "--no-first-run",
                "--disable-background-networking",
                "--disable-component-update",
                "--window-size=1280,2000",
                "--virtual-time-budget=1500",
                "--user-data-dir=" + profile,
                "--screenshot=" + png,
                page.toUri().toString())
            .redirectOutput(ProcessBuilder.Redirect.DISCARD)
            .redirectError(ProcessBuilder.Redirect.DISCARD)
            .start();
    assertTrue(p.waitFor(120, TimeUnit.SECONDS), "chromium did not finish within 120 s");
    assertTrue(Files.size(png) > 10_000, "screenshot " + png);
    return png;
  }

  /** A PNG's width, from its IHDR chunk. */
  private static int pngWidth(Path png) throws Exception {
    byte[] b = Files.readAllBytes(png);
    return ((b[16] & 0xff) << 24) | ((b[17] & 0xff) << 16) | ((b[18] & 0xff) << 8) | (b[19] & 0xff);
  }

  private JsonNode probe(String chromium, String name, String html) throws Exception {
    String page =
        html.replaceFirst("<head>", "<head>" + Matcher.quoteReplacement(EARLY_PROBE))
            .replace("</body>", PROBE + "</body>");
    Path file = dir.resolve(name);
    Files.writeString(file, page, StandardCharsets.UTF_8);
    String dom = dumpDom(chromium, file);
    Matcher m = Pattern.compile("<pre id=\"probe\">([^<]*)</pre>").matcher(dom);
    assertTrue(m.find(), "the probe did not run: " + head(dom));
    String json = m.group(1).replace("&lt;", "<").replace("&gt;", ">").replace("&amp;", "&");
    assertTrue(!json.isEmpty(), "the probe wrote nothing");
    return new ObjectMapper().readTree(json);
  }

  private String dumpDom(String chromium, Path page) throws Exception {
    return dumpDom(chromium, page, 1400, 1000);
  }

  private String dumpDom(String chromium, Path page, int width, int height) throws Exception {
    Path profile = Files.createDirectories(dir.resolve("profile-" + page.getFileName()));
    Path out = dir.resolve(page.getFileName() + ".dom");
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
                "--window-size=" + width + "," + height,
                "--virtual-time-budget=1500",
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

  private static String requireChromium() {
    String chromium = chromium();
    boolean ci = "true".equalsIgnoreCase(System.getenv("CI"));
    if (chromium == null) {
      if (ci) {
        throw new AssertionError("CI=true but chromium is not installed: apt-get install chromium");
      }
      assumeTrue(false, "chromium is not installed: skipped (apt-get install -y chromium)");
    }
    return chromium;
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
