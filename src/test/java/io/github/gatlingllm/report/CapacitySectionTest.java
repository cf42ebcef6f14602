package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.record.Capacity;
import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class CapacitySectionTest {

  private static Capacity.Step step(int i, String stage, double load, Double attainment) {
    return new Capacity.Step(
        i, stage, load, "attainment_above", true, attainment, 0.9, 1.0, 300L, null);
  }

  @Test
  void noSearchNoSection() {
    assertEquals("", CapacitySection.render(null));
  }

  @Test
  void theSectionSaysTheAnswerAndListsTheLevels() {
    Capacity c =
        new Capacity(
            "open",
            "search",
            21.0,
            null,
            null,
            new Capacity.Interval(21.0, 22.0),
            null,
            true,
            null,
            "CAPACITY: 21 users/s meets the SLO <here>",
            null,
            List.of(step(0, "coarse", 8, 1.0), step(1, "hold", 21, 0.97)),
            null);
    String html = CapacitySection.render(c);
    assertTrue(html.contains("<h2 id=\"capacity\">Capacity</h2>"), html);
    assertTrue(html.contains("CAPACITY: 21 users/s meets the SLO &lt;here&gt;"), html);
    assertTrue(html.contains("<td>coarse</td><td>8</td>"), html);
    assertTrue(html.contains("1.000 [0.900, 1.000]"), html);
  }

  @Test
  void theChartDrawsEachLevelFromItsStartToItsEndWithAGapBetween() {
    Capacity c =
        new Capacity(
            "open",
            "search",
            21.0,
            null,
            null,
            new Capacity.Interval(21.0, 22.0),
            null,
            true,
            null,
            "CAPACITY",
            null,
            List.of(
                withLevel(step(0, "coarse", 8, 1.0), 1_000, 6_000),
                withLevel(step(1, "coarse", 16, 0.5), 6_500, 12_000)),
            null);
    Charts.Chart chart = CapacitySection.chart(c, "users/s");
    assertEquals(Arrays.asList(0.0, 5.0, 5.001, 5.5, 11.0, 11.001), chart.x());
    assertEquals(Arrays.asList(8.0, 8.0, null, 16.0, 16.0, null), chart.series().get(0).y());
    assertEquals(Arrays.asList(1.0, 1.0, null, 0.5, 0.5, null), chart.series().get(1).y());
  }

  private static Capacity.Step withLevel(Capacity.Step s, long startMs, long endMs) {
    io.github.gatlingllm.record.LevelEntry level =
        new io.github.gatlingllm.record.LevelEntry(
            s.step(),
            "search",
            "open",
            null,
            s.load(),
            startMs,
            endMs,
            (endMs - startMs) / 1000.0,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null,
            null);
    return new Capacity.Step(
        s.step(),
        s.stage(),
        s.load(),
        s.endedBy(),
        s.met(),
        s.attainment(),
        s.attainmentLow(),
        s.attainmentHigh(),
        s.drainMs(),
        level);
  }
}
