package io.github.gatlingllm.report;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Arrays;
import java.util.List;
import org.junit.jupiter.api.Test;

class ChartsTest {

  private static Charts.Chart chart(List<Double> x, List<Charts.Series> series) {
    return new Charts.Chart(
        "c", "A chart", Charts.Kind.TIME, "s", "ms", null, null, x, null, series, "Binned.");
  }

  @Test
  void numbersPrintWithoutSpuriousDecimals() {
    assertEquals("34", Charts.fmt(34.0));
    assertEquals("6.67", Charts.fmt(6.666666));
    assertEquals("20.5", Charts.fmt(20.5));
    assertEquals("1234.6", Charts.fmt(1234.56));
  }

  @Test
  void aChartIsAFigureWithItsDataAsJson() {
    String html =
        Charts.render(
            chart(
                List.of(0.0, 1.0, 2.0),
                List.of(
                    new Charts.Series("chat", "#4e79a7", Arrays.asList(1.23456, null, Double.NaN)),
                    new Charts.Series(
                        "rag", "#f28e2b", Arrays.asList(null, null, null), true, true))));
    assertEquals(
        "<figure class=\"chart\" data-chart=\"c\" data-series=\"1\"><div class=\"plot\"></div>"
            + "<script type=\"application/json\">{\"id\":\"c\",\"title\":\"A chart\",\"kind\":"
            + "\"time\",\"x_label\":\"s\",\"y_label\":\"ms\",\"x\":[0.0,1.0,2.0],\"series\":["
            + "{\"label\":\"chat\",\"color\":\"#4e79a7\",\"y\":[1.235,null,null]},"
            + "{\"label\":\"rag\",\"color\":\"#f28e2b\",\"right\":true,\"dashed\":true,"
            + "\"y\":[null,null,null]}]}</script><figcaption class=\"note\">Binned.</figcaption>"
            + "</figure>\n",
        html);
  }

  @Test
  void textCannotCloseTheScript() {
    String html =
        Charts.render(
            chart(List.of(0.0), List.of(new Charts.Series("</script><b>", "#000", List.of(1.0)))));
    assertTrue(html.contains("\"label\":\"\\u003c/script>\\u003cb>\""), html);
  }

  @Test
  void aChartWithoutValuesSaysSo() {
    assertEquals(
        "<figure class=\"chart empty\" data-chart=\"c\"><figcaption>A chart: no data</figcaption>"
            + "</figure>\n",
        Charts.render(chart(List.of(), List.of())));
  }

  @Test
  void seriesMustHaveAValuePerX() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                chart(List.of(0.0, 1.0), List.of(new Charts.Series("chat", "#000", List.of(1.0)))));
    assertEquals("series chat of chart c has 1 values for 2 x values", e.getMessage());
  }

  @Test
  void uplotIsInlinedFromTheWebJarWithItsLicence() {
    String assets = Charts.assets();
    assertTrue(assets.startsWith("<style>.uplot, .uplot *"), assets.substring(0, 80));
    assertTrue(assets.contains("<!-- uPlot 1.6.30, The MIT License (MIT)"), "licence");
    assertTrue(assets.contains("<script>/*! https://github.com/leeoniya/uPlot (v1.6.30) */"));
    assertTrue(assets.contains("window.llmCharts = charts;"), "the page's chart script");
    // Three elements, each closed once: nothing inside closes them early.
    assertEquals(2, assets.split("</script>", -1).length - 1);
    assertEquals(1, assets.split("</style>", -1).length - 1);
    assertTrue(!assets.contains("src="), "nothing is fetched");
  }
}
