package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.compare.RunComparison;
import io.github.gatlingllm.compare.RunSamples;
import io.github.gatlingllm.record.Baseline;
import io.github.gatlingllm.record.RunRecord;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class BaselineSectionTest {

  private static Map<String, Object> run() {
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("a", 20.107);
    row.put("b", 24.11);
    row.put("delta_pct", 19.908);
    row.put("ci95_pct", List.of(19.6, 20.2));
    row.put("verdict", "worse");
    List<Double> a = new ArrayList<>();
    List<Double> b = new ArrayList<>();
    for (double p : RunComparison.QUANTILES) {
      a.add(20 + p / 100);
      b.add(24 + p / 100);
    }
    Map<String, Object> baseline = new LinkedHashMap<>();
    baseline.put("folder", "runs/base");
    baseline.put("no_regression_pct", 5.0);
    baseline.put("failed", List.of("itl_p50_ms"));
    baseline.put("same_prompts", true);
    baseline.put("warnings", List.of("A warm start: 3 requests hit"));
    baseline.put("method", "95% intervals: percentile bootstrap");
    baseline.put("metrics", Map.of("itl_p50_ms", row));
    baseline.put(
        "quantiles",
        Map.of("percentiles", RunComparison.QUANTILES, "itl_ms", Map.of("a", a, "b", b)));
    Map<String, Object> run = new LinkedHashMap<>();
    run.put("baseline", baseline);
    return run;
  }

  /** The block as the page gets it: through the typed run record. */
  private static Baseline baseline(Map<String, Object> run) {
    return RunRecord.of(run).baseline();
  }

  @Test
  void aRunWithoutABaselineHasNoSection() {
    assertEquals("", BaselineSection.html(null));
  }

  @Test
  void eachFigureHasTheBaselinesTheChangeAndTheVerdict() {
    String html = BaselineSection.html(baseline(run()));

    assertTrue(html.contains("<h2 id=\"baseline\">Against baseline</h2>"), html);
    assertTrue(
        html.contains(
            "<tr><td>itl_p50_ms</td><td>20.107</td><td>24.11</td><td>+19.9%</td>"
                + "<td>[+19.6%, +20.2%]</td><td class=\"bad\"><strong>worse</strong></td></tr>"),
        html);
    assertTrue(html.contains("FAILED on itl_p50_ms"), html);
    assertTrue(html.contains("The baseline warm start: 3 requests hit"), html);
  }

  @Test
  void aSummaryFigureShowsTheBaselinesAndTheVerdict() {
    Map<String, Object> run = run();
    @SuppressWarnings("unchecked")
    Map<String, Object> baseline = (Map<String, Object>) run.get("baseline");
    Map<String, Object> row = new LinkedHashMap<>();
    row.put("a", 331.25);
    row.put("b", 294.6);
    row.put("delta_pct", -11.064);
    row.put("ci95_pct", List.of(-13.0, -9.2));
    row.put("verdict", "worse");
    baseline.put("metrics", Map.of("output_tokens_per_s", row));

    assertEquals(
        " <span class=\"bad\">(baseline 331.25: worse, -11.1% [-13.0%, -9.2%])</span>",
        BaselineSection.note(baseline(run), "output tokens/s"));
    assertEquals("", BaselineSection.note(baseline(run), "requests/s"));
    assertEquals("", BaselineSection.note(null, "output tokens/s"));
  }

  @Test
  void theDistributionsOfBothRunsAreOverlaid() {
    String html = BaselineSection.html(baseline(run()));

    assertTrue(html.contains("baseline-itl-ms"), html);
    assertTrue(html.contains("ITL against baseline, by percentile"), html);
    assertTrue(html.contains("this run"), html);
  }

  @Test
  void theItlCaptionNamesTheComparisonsSampleOfRequests() {
    String html = BaselineSection.html(baseline(run()));

    assertEquals(5_000, RunSamples.ITL_REQUESTS);
    assertEquals(RunSamples.ITL_REQUESTS, BaselineSection.ITL_REQUESTS);
    assertTrue(html.contains("(of a sample of up to 5000 requests each)"), html);
  }
}
