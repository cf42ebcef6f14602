package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.RunRecord;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class LevelsSectionTest {

  /** The section of a record given as the file's JSON form. */
  private static String render(Map<String, ?> run) {
    Map<String, Object> m = new LinkedHashMap<>(run);
    return LevelsSection.render(RunRecord.of(m), m);
  }

  private static Map<String, Object> level(
      int index, String scenario, String loadKey, double load, double outputPerS, double ttftP99) {
    Map<String, Object> l = new LinkedHashMap<>();
    l.put("index", index);
    l.put("scenario", scenario);
    l.put("kind", "rate".equals(loadKey) ? "open" : "closed");
    l.put(loadKey, load);
    l.put("duration_s", 30.0);
    l.put("requests", 100L);
    l.put("status", Map.of("ok", 100L));
    l.put("output_tokens_per_s", outputPerS);
    l.put("ttft_ms", Map.of("p50", ttftP99 / 2, "p99", ttftP99));
    l.put("itl_ms", Map.of("p50", 10.0, "p99", 20.0 + index));
    return l;
  }

  @Test
  void noLevelNoSection() {
    assertEquals("", render(Map.of()));
    assertEquals("", render(Map.of("levels", List.of())));
  }

  @Test
  void theTableMarksTheSaturationLevelAndSaysWhatWasLeftOut() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "levels",
        List.of(
            level(0, "chat", "concurrency", 1, 100, 50),
            level(1, "chat", "concurrency", 2, 190, 60)));
    run.put("levels_note", "4 requests started during ramps are left out.");
    run.put(
        "saturation",
        Map.of(
            "metric",
            "concurrency",
            "saturation_level",
            1,
            "saturation_concurrency",
            2,
            "max_output_tokens_per_s",
            190.0,
            "stopped_early",
            false));
    String html = render(run);
    assertTrue(
        html.contains(
            "<p id=\"saturation\"><strong>The server saturates at concurrency 2 (level 1); peak"
                + " 190 output tokens/s.</strong></p>"),
        html);
    assertTrue(html.contains("<p>4 requests started during ramps are left out.</p>"), html);
    assertTrue(
        html.contains(
            "<tr class=\"saturation\" title=\"saturation\"><td>1</td>"
                + "<td>2 users (saturation)</td><td>30</td><td>100</td><td>"),
        html);
    assertTrue(html.contains("<td>1 user</td>"), html);
    assertTrue(html.contains("<div class=\"charts\">"), html);
    assertTrue(!html.contains("schedule lag"), "no lag column without lag figures");
  }

  @Test
  void theVerdictIsOneSentenceAndTheOverCapacityLevelIsMarked() {
    // Issue 29: "The server no saturation seen: ..." on the page; the level marked (saturation)
    // while the sentence said no saturation was seen.
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "levels",
        List.of(
            level(0, "chat", "rate", 1, 100, 50),
            level(1, "chat", "rate", 2, 190, 60),
            level(2, "chat", "rate", 3, 240, 2560)));
    Map<String, Object> seen = new LinkedHashMap<>();
    seen.put("metric", "rate");
    seen.put("saturation_level", 2);
    seen.put("over_capacity_level", 2);
    seen.put("saturated", true);
    seen.put("verdict_text", "saturated at 3 users/s (level 2, ...): over capacity: ...");
    seen.put("stopped_early", false);
    run.put("saturation", seen);
    String html = render(run);
    assertTrue(
        html.contains(
            "<p id=\"saturation\"><strong>Saturation: saturated at 3 users/s (level 2, ...): over"
                + " capacity: ....</strong></p>"),
        html);
    assertTrue(html.contains("<td>3 users/s (saturation)</td>"), html);
    Map<String, Object> none = new LinkedHashMap<>();
    none.put("metric", "rate");
    none.put("saturation_level", null);
    none.put("over_capacity_level", null);
    none.put("saturated", false);
    none.put("verdict_text", "no saturation seen over 3 levels: every level served what it was");
    none.put("stopped_early", false);
    run.put("saturation", none);
    html = render(run);
    assertTrue(
        html.contains(
            "<p id=\"saturation\"><strong>Saturation: no saturation seen over 3 levels: every"
                + " level served what it was.</strong></p>"),
        html);
    assertFalse(html.contains("(saturation)"), html);
    assertFalse(html.contains("The server no"), html);
  }

  @Test
  void aLevelOverCapacityBeyondAClosedLoopsSaturationPointIsMarkedApart() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "levels",
        List.of(
            level(0, "chat", "concurrency", 1, 100, 50),
            level(1, "chat", "concurrency", 2, 190, 60),
            level(2, "chat", "concurrency", 4, 195, 240)));
    Map<String, Object> s = new LinkedHashMap<>();
    s.put("metric", "concurrency");
    s.put("saturation_level", 1);
    s.put("over_capacity_level", 2);
    s.put("verdict_text", "saturated at 2 users");
    s.put("stopped_early", false);
    run.put("saturation", s);
    String html = render(run);
    assertTrue(html.contains("<td>2 users (saturation)</td>"), html);
    assertTrue(html.contains("<td>4 users (over capacity)</td>"), html);
  }

  @Test
  void theThroughputLatencyCurveIsSortedByThroughputWithAPointPerLevelPerScenario() {
    List<Map<?, ?>> levels =
        List.of(
            level(0, "chat", "rate", 1, 100, 50),
            level(1, "chat", "rate", 2, 190, 60),
            level(2, "rag", "rate", 1, 150, 70));
    List<Charts.Chart> charts =
        LevelsSection.charts(
            levels.stream().map(l -> RunRecordJson.read(l, LevelEntry.class)).toList());
    assertEquals(
        List.of(
            "levels-throughput-latency",
            "levels-output-tokens",
            "levels-ttft",
            "levels-itl",
            "levels-tpot",
            "levels-e2e"),
        charts.stream().map(Charts.Chart::id).toList());
    Charts.Chart curve = charts.get(0);
    assertEquals(List.of(100.0, 150.0, 190.0), curve.x());
    assertEquals("chat TTFT p99", curve.series().get(0).label());
    assertEquals(Arrays.asList(50.0, null, 60.0), curve.series().get(0).y());
    assertEquals("chat ITL p99", curve.series().get(1).label());
    assertTrue(curve.series().get(1).rightAxis());
    assertEquals(Arrays.asList(null, 22.0, null), curve.series().get(3).y());
    Charts.Chart ttft = charts.get(2);
    assertEquals("users/s", ttft.xLabel());
    assertEquals(List.of(1.0, 1.0, 2.0), ttft.x());
    assertEquals(Arrays.asList(50.0, null, 60.0), ttft.series().get(1).y());
  }

  @Test
  void oneLevelIsATableWithoutChartsAndItsRunsEndIsNotACut() {
    // One steady step that ended with its budget: the run's end, not a cut that matters.
    Map<String, Object> cut = level(0, "chat", "concurrency", 4, 100, 50);
    cut.put("cut_short", true);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("levels", List.of(cut));
    run.put("levels_warnings", List.of("level 0 of chat (4 users) lasted 3.0 s"));
    run.put(
        "levels_note",
        "Each level holds the measured requests that started in it; none was left out.");
    run.put("levels_left_out", Map.of("ramps", 0L, "outside", 0L, "unplaced", 0L));
    String html = render(run);
    assertTrue(html.contains("<tr><td>0</td><td>4 users</td><td>30</td>"), html);
    assertFalse(html.contains("cut short"), html);
    assertFalse(html.contains("Each level holds"), html);
    assertTrue(html.contains("<p class=\"warning\">level 0 of chat (4 users) lasted 3.0 s</p>"));
    assertTrue(html.contains("<th>TTFT, ms p50 / p99</th>"), html);
    assertFalse(html.contains("charts"), html);
  }

  @Test
  void aCutLevelOfASteppedProfileIsFlagged() {
    Map<String, Object> cut = level(0, "chat", "concurrency", 4, 100, 50);
    cut.put("cut_short", true);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("levels", List.of(cut));
    // the profile had 2 levels; the run's budget ran out in the first
    run.put(
        "load",
        Map.of(
            "injection",
            List.of(
                Map.of(
                    "scenario",
                    "chat",
                    "steps",
                    List.of(
                        Map.of("level", true), Map.of("level", false), Map.of("level", true))))));
    String html = render(run);
    assertTrue(
        html.contains(
            "<tr class=\"cut-short\" title=\"cut short: the run stopped in it\"><td>0</td>"
                + "<td>4 users</td><td>30 (cut short)</td>"),
        html);
  }

  @Test
  void failuresShowBesideTheCountInRedAndScenariosGetAColumnWhenSeveral() {
    Map<String, Object> a = level(0, "chat", "rate", 2, 100, 50);
    Map<String, Object> status = new LinkedHashMap<>();
    status.put("ok", 90L);
    status.put("timeout", 10L);
    a.put("status", status);
    Map<String, Object> b = level(1, "rag", "rate", 2, 100, 50);
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("levels", List.of(a, b));
    String html = render(run);
    assertTrue(
        html.contains(
            "<td>0</td><td class=\"l\">chat</td><td>2 users/s</td><td>30</td>"
                + "<td>100 (ok 90, <span class=\"bad\">timeout 10</span>)</td>"),
        html);
    assertTrue(
        html.contains("<td class=\"l\">rag</td><td>2 users/s</td><td>30</td><td>100</td>"), html);
  }

  @Test
  void aClosedLoopsScalingIsATableWithTheRuleAndItsThresholds() {
    // Issue 40: the 1-slot llama.cpp sweep at 1/2/4 users, 84.0/93.6/103.0 output tokens/s.
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "levels",
        List.of(
            level(0, "chat", "concurrency", 1, 84.0, 182),
            level(1, "chat", "concurrency", 2, 93.6, 812),
            level(2, "chat", "concurrency", 4, 103.0, 1962)));
    Map<String, Object> pair = new LinkedHashMap<>();
    pair.put("level", 1);
    pair.put("level_below", 0);
    pair.put("users_factor", 2.0);
    pair.put("output_tokens_per_s_factor", 93.6 / 84.0);
    pair.put("scaling", 93.6 / 84.0 - 1);
    pair.put("ttft_p50_factor", 406.0 / 91);
    pair.put("e2e_p50_factor", null);
    pair.put("latency_grew", true);
    pair.put("throughput_short", true);
    pair.put("over_capacity", true);
    Map<String, Object> saturation = new LinkedHashMap<>();
    saturation.put("scenario", "chat");
    saturation.put("metric", "concurrency");
    saturation.put("saturation_level", 1);
    saturation.put("over_capacity_level", 1);
    saturation.put("verdict_text", "saturated at 2 users (level 1)");
    saturation.put("rule", "closed_loop_scaling");
    saturation.put("ttft_growth", 1.5);
    saturation.put("throughput_gain", 0.05);
    saturation.put("min_scaling", 0.25);
    saturation.put("scaling", List.of(pair));
    run.put("saturation", saturation);
    String html = render(run);
    assertTrue(
        html.contains(
            "<p id=\"scaling\">Closed-loop scaling (Little's law: throughput = users / latency): a"
                + " level is over capacity when its added users gave less than 0.25 of the output"
                + " tokens/s they would give an unsaturated server"
                + " (<code>llm.saturation.minScaling</code>), or less than +5%"
                + " (<code>llm.saturation.throughputGain</code>), while its TTFT or E2E p50 grew"
                + " 1.5x (<code>llm.saturation.ttftGrowth</code>).</p>"),
        html);
    assertTrue(
        html.contains(
            "<tr><td>0 &rarr; 1</td><td>1 user &rarr; 2 users (2x)</td><td>+11.4%</td>"
                + "<td>0.114</td><td>4.46x</td><td>–</td><td>yes</td></tr>"),
        html);
  }

  @Test
  void anOpenLoopHasNoScalingTable() {
    Map<String, Object> run = new LinkedHashMap<>();
    run.put(
        "levels",
        List.of(level(0, "chat", "rate", 1, 30, 50), level(1, "chat", "rate", 2, 60, 52)));
    run.put(
        "saturation",
        Map.of("metric", "rate", "rule", "open_loop_shortfall", "verdict_text", "no saturation"));
    assertFalse(render(run).contains("id=\"scaling\""));
  }
}
