package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.List;
import org.junit.jupiter.api.Test;

class ChartsTest {

  @Test
  void numbersPrintWithoutSpuriousDecimals() {
    assertEquals("34", Charts.fmt(34.0));
    assertEquals("6.67", Charts.fmt(6.666666));
    assertEquals("20.5", Charts.fmt(20.5));
    assertEquals("1234.6", Charts.fmt(1234.56));
  }

  @Test
  void wholeValuesOverAShortRangeGetOneBarEach() {
    String svg = Charts.histogram("h", "TTFT", "ms", new double[] {60, 61, 61, 63});
    assertTrue(svg.startsWith("<svg class=\"chart\" data-chart=\"h\" data-marks=\"3\""), svg);
    assertTrue(svg.contains("<title>61–62 ms: 2</title>"), svg);
  }

  @Test
  void noDataSaysSo() {
    String svg = Charts.histogram("h", "TTFT", "ms", new double[0]);
    assertTrue(svg.startsWith("<svg class=\"chart\" data-chart=\"h\" data-marks=\"0\""), svg);
    assertTrue(svg.contains(">no data</text>"), svg);
  }

  @Test
  void aScatterOfManyPointsDrawsEveryKth() {
    double[] xs = new double[10_000];
    double[] ys = new double[10_000];
    for (int i = 0; i < xs.length; i++) {
      xs[i] = i;
      ys[i] = i % 7;
    }
    String svg = Charts.scatter("s", "TTFT by start", "s", "ms", xs, ys);
    assertTrue(svg.contains("data-marks=\"3334\""), svg.substring(0, 200));
    assertTrue(svg.contains("TTFT by start (1 point in 3 shown)"), svg.substring(0, 400));
  }

  @Test
  void barsCarryTheirPlannedReference() {
    String svg = Charts.bars("c", "cache", "ratio", List.of(new Charts.Bar("group 0", 0.45, 0.5)));
    assertTrue(svg.contains("<title>group 0: 0.45 (planned 0.5)</title>"), svg);
    assertTrue(svg.contains("<line class=\"reference\""), svg);
  }

  @Test
  void histogramBarsGiveTheirBoundsToTheMicrosecond() {
    String svg = Charts.histogram("h", "ITL", "ms", new double[] {2.517, 2.557});
    assertTrue(svg.contains("<title>2.517–2.518 ms: 1</title>"), svg);
    assertTrue(svg.contains("<title>2.556–2.557 ms: 1</title>"), svg);
  }

  @Test
  void subMillisecondAxesAreLabelledToTheMicrosecond() {
    String svg = Charts.histogram("h", "ITL", "ms", new double[] {0.2, 0.3});
    assertTrue(svg.contains(">0.225</text>"), svg);
    assertTrue(svg.contains(">0.275</text>"), svg);
  }
}
