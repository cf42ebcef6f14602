package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.Levels;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.record.SaturationBlock;
import io.github.gatlingllm.stats.Distribution;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The report page's "Levels" part, from {@code llm-run.json}'s {@code levels}, {@code levels_note}
 * and {@code saturation}: the sweep's saturation point in a sentence, a table with a row per level
 * (its load, requests, throughput, latency p50 and p99, SLO attainment, cache-hit ratio and, in
 * open loops, the client's schedule lag and CPU share), then curves: the throughput-latency curve
 * (TTFT p99 and ITL p99 against output tokens/s, a point per level, as vLLM's and GuideLLM's sweep
 * plots) and each figure against the level's concurrency or arrival rate. One series per scenario.
 */
final class LevelsSection {

  private static final List<String> LATENCIES = List.of("ttft_ms", "itl_ms", "tpot_ms", "e2e_ms");

  private LevelsSection() {}

  /**
   * What the page puts before a lone scenario's saturation sentence so that it reads as one: a
   * record's {@code verdict_text} ({@code saturated at ...}, {@code no saturation seen ...}) after
   * {@code Saturation: }, an older record's {@code saturates at ...} after {@code The server }.
   */
  private static String lead(String saturation) {
    return saturation.startsWith("saturates ") ? "The server " : "Saturation: ";
  }

  /**
   * The section.
   *
   * @param record the run record
   * @param run the run record's map, for its {@code load} block
   * @return the HTML, empty when the run has no level
   */
  static String render(RunRecord record, Map<String, Object> run) {
    Levels block = record.levelsBlock();
    List<LevelEntry> levels = block == null ? List.of() : block.entries();
    if (levels.isEmpty()) {
      return "";
    }
    StringBuilder html = new StringBuilder("<h2 id=\"levels\">Levels</h2>\n");
    String saturation = RunSentences.saturations(record);
    Set<Integer> saturationLevels = new HashSet<>();
    Set<Integer> overCapacityLevels = new HashSet<>();
    List<SaturationBlock> verdicts = verdicts(record);
    for (SaturationBlock v : verdicts) {
      if (v.saturationLevel() != null) {
        saturationLevels.add(v.saturationLevel());
      }
      if (v.overCapacityLevel() != null) {
        overCapacityLevels.add(v.overCapacityLevel());
      }
    }
    if (saturation != null) {
      boolean several = record.saturations() != null && record.saturations().size() > 1;
      html.append("<p id=\"saturation\"><strong>")
          .append(several ? "" : lead(saturation))
          .append(ReportPage.esc(saturation))
          .append(".</strong></p>\n");
    }
    if (block.warnings() != null) {
      for (String w : block.warnings()) {
        html.append("<p class=\"warning\">").append(ReportPage.esc(w)).append("</p>\n");
      }
    }
    if (block.note() != null && block.leftOutAny()) {
      // Said only when some measured requests are in no level.
      html.append("<p>").append(ReportPage.esc(block.note())).append("</p>\n");
    }
    SaturationBlock.Run run0 = record.saturation();
    html.append(
        table(
            run,
            levels,
            saturationLevels,
            overCapacityLevels,
            run0 == null ? null : run0.verdict().sloRatio()));
    html.append(scaling(verdicts, levels));
    if (levels.size() < 2) {
      // One level: a curve of one point says nothing the table does not.
      return html.toString();
    }
    html.append("<div class=\"charts\">\n");
    for (Charts.Chart chart : charts(levels)) {
      html.append(Charts.render(chart));
    }
    return html.append("</div>\n").toString();
  }

  /** Every scenario's verdict ({@code saturations}), else the run's one, else none. */
  private static List<SaturationBlock> verdicts(RunRecord record) {
    if (record.saturations() != null) {
      return record.saturations();
    }
    return record.saturation() == null ? List.of() : List.of(record.saturation().verdict());
  }

  /**
   * The table, made to fit a 1280 px window: the scenario column only with several scenarios,
   * statuses beside the request count only when a request failed (in red), input and output
   * tokens/s in one column, a latency's p50 and p99 in one column; {@code (cut short)} only on a
   * level of a scenario whose profile has 2 levels or more (one steady step ends where the run
   * ends: nothing was cut that mattered).
   */
  private static String table(
      Map<String, Object> run,
      List<LevelEntry> levels,
      Set<Integer> saturationLevels,
      Set<Integer> overCapacityLevels,
      Double sloRatio) {
    boolean slo = levels.stream().anyMatch(l -> l.summary().goodput() != null);
    boolean lag =
        levels.stream().anyMatch(l -> l.client() != null && l.client().scheduleLagMs() != null);
    boolean cpu =
        levels.stream().anyMatch(l -> l.client() != null && l.client().clientCpu() != null);
    boolean scenarios =
        levels.stream().map(l -> String.valueOf(l.scenario())).distinct().count() > 1;
    StringBuilder html =
        new StringBuilder("<div class=\"levels-wrap\">")
            .append("<table id=\"levels-table\"><tr><th>level</th>")
            .append(scenarios ? "<th class=\"l\">scenario</th>" : "")
            .append("<th>load</th><th>duration, s</th><th>requests</th>")
            .append("<th>requests/s</th><th>tokens/s in / out</th>");
    for (String metric : LATENCIES) {
      String name = metric.replace("_ms", "").toUpperCase(java.util.Locale.ROOT);
      html.append("<th>").append(name).append(", ms p50 / p99</th>");
    }
    html.append("<th>cache hit ratio</th>")
        .append(slo ? "<th>SLO attainment</th>" : "")
        .append(lag ? "<th>schedule lag p99, ms</th>" : "")
        .append(cpu ? "<th>client CPU</th>" : "")
        .append("</tr>\n");
    for (LevelEntry l : levels) {
      GroupSummary.Json summary = l.summary();
      boolean saturated = saturationLevels.contains(l.index());
      boolean cut = Boolean.TRUE.equals(l.cutShort()) && stepped(run, levels, l.scenario());
      html.append(
              saturated
                  ? "<tr class=\"saturation\" title=\"saturation\">"
                  : cut
                      ? "<tr class=\"cut-short\" title=\"cut short: the run stopped in it\">"
                      : "<tr>")
          .append("<td>")
          .append(ReportPage.esc(l.index()))
          .append("</td>");
      if (scenarios) {
        html.append("<td class=\"l\">").append(ReportPage.esc(l.scenario())).append("</td>");
      }
      html.append("<td>")
          .append(ReportPage.esc(load(l)))
          .append(
              saturated
                  ? " (saturation)"
                  : overCapacityLevels.contains(l.index()) ? " (over capacity)" : "")
          .append("</td><td>")
          .append(ReportPage.num(l.durationS()))
          .append(cut ? " (cut short)" : "")
          .append("</td><td>")
          .append(ReportPage.esc(summary.requests()))
          .append(failures(summary.status()))
          .append("</td><td>")
          .append(ReportPage.num(summary.requestsPerS()))
          .append("</td><td>")
          .append(ReportPage.num(l.inputTokensPerS()))
          .append(" / ")
          .append(ReportPage.num(summary.outputTokensPerS()))
          .append("</td>");
      for (String metric : LATENCIES) {
        Distribution d = latency(l, metric);
        html.append("<td>")
            .append(ReportPage.ms(d == null ? null : d.p50()))
            .append(" / ")
            .append(ReportPage.ms(d == null ? null : d.p99()))
            .append("</td>");
      }
      html.append("<td>").append(ReportPage.num(summary.cacheHitRatio())).append("</td>");
      if (slo) {
        Object attainment = summary.goodput() == null ? null : summary.goodput().attainment();
        html.append("<td>").append(ReportPage.num(attainment)).append("</td>");
      }
      if (lag) {
        Distribution d = l.client() == null ? null : l.client().scheduleLagMs();
        html.append("<td>").append(ReportPage.ms(d == null ? null : d.p99())).append("</td>");
      }
      if (cpu) {
        Double share = l.client() == null ? null : l.client().clientCpu();
        html.append("<td>").append(ReportPage.num(share)).append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</table></div>\n");
    if (slo && sloRatio != null) {
      html.append("<p class=\"note\">A level meets the SLO when its attainment is at least ")
          .append(ReportPage.num(sloRatio))
          .append(" (<code>llm.slo.levelAttainment</code>).</p>\n");
    }
    return html.toString();
  }

  /**
   * A closed loop's closed-loop scaling, from its saturation record's {@code scaling} (one row per
   * level with more users than the one below it): the users' and the output tokens/s' factors, the
   * scaling (the share of the throughput the added users would add unsaturated), the TTFT and E2E
   * p50 factors, and whether the level is over capacity by the rule, with the rule and its
   * thresholds in a sentence above. Empty when no record has one (open loops, older records).
   */
  private static String scaling(List<SaturationBlock> verdicts, List<LevelEntry> levels) {
    StringBuilder html = new StringBuilder();
    boolean several = verdicts.size() > 1;
    for (SaturationBlock v : verdicts) {
      if (v.scaling() == null || v.scaling().isEmpty()) {
        continue;
      }
      html.append("<p id=\"scaling\">Closed-loop scaling")
          .append(several ? " of " + ReportPage.esc(v.scenario()) : "")
          .append(
              " (Little's law: throughput = users / latency): a level is over capacity when its")
          .append(" added users gave less than ")
          .append(ReportPage.num(v.minScaling()))
          .append(" of the output tokens/s they would give an unsaturated server")
          .append(" (<code>llm.saturation.minScaling</code>), or less than +")
          .append(ReportPage.num(percent(v.throughputGain())))
          .append("% (<code>llm.saturation.throughputGain</code>), while its TTFT or E2E p50")
          .append(" grew ")
          .append(ReportPage.num(v.ttftGrowth()))
          .append("x (<code>llm.saturation.ttftGrowth</code>).</p>\n")
          .append("<table class=\"scaling\"><tr><th>levels</th><th>users</th>")
          .append("<th>output tokens/s</th><th>scaling</th><th>TTFT p50</th><th>E2E p50</th>")
          .append("<th>over capacity</th></tr>\n");
      for (SaturationBlock.ScalingRow row : v.scaling()) {
        html.append("<tr><td>")
            .append(ReportPage.esc(row.levelBelow()))
            .append(" &rarr; ")
            .append(ReportPage.esc(row.level()))
            .append("</td><td>")
            .append(ReportPage.esc(loadOf(levels, row.levelBelow())))
            .append(" &rarr; ")
            .append(ReportPage.esc(loadOf(levels, row.level())))
            .append(" (")
            .append(factor(row.usersFactor()))
            .append(")</td><td>")
            .append(gain(row.outputTokensPerSFactor()))
            .append("</td><td>")
            .append(
                row.scaling() != null
                    ? String.format(java.util.Locale.ROOT, "%.3f", row.scaling())
                    : "–")
            .append("</td><td>")
            .append(factor(row.ttftP50Factor()))
            .append("</td><td>")
            .append(factor(row.e2eP50Factor()))
            .append("</td><td>")
            .append(row.overCapacity() ? "yes" : "no")
            .append("</td></tr>\n");
      }
      html.append("</table>\n");
    }
    return html.toString();
  }

  private static Object percent(Object share) {
    return share instanceof Number n ? n.doubleValue() * 100 : null;
  }

  /** {@code 2x}, {@code 1.13x}, or a dash. */
  private static String factor(Object value) {
    if (!(value instanceof Number n)) {
      return "–";
    }
    return String.format(java.util.Locale.ROOT, "%.2f", n.doubleValue())
            .replaceAll("0+$", "")
            .replaceAll("\\.$", "")
        + "x";
  }

  /** A throughput factor as a gain: {@code +11.4%}, {@code -3.0%}, or a dash. */
  private static String gain(Object value) {
    if (!(value instanceof Number n)) {
      return "–";
    }
    double g = (n.doubleValue() - 1) * 100;
    return String.format(java.util.Locale.ROOT, "%s%.1f%%", g >= 0 ? "+" : "", g);
  }

  /** The load of the level of that index, or the index when it is not in the table. */
  private static Object loadOf(List<LevelEntry> levels, int index) {
    for (LevelEntry l : levels) {
      if (l.index() != null && l.index() == index) {
        return load(l);
      }
    }
    return index;
  }

  /** Beside a level's request count: its statuses when any is not {@code ok}, failures in red. */
  private static String failures(Map<String, Long> status) {
    if (status == null) {
      return "";
    }
    boolean notOk =
        status.entrySet().stream()
            .anyMatch(e -> !"ok".equals(e.getKey()) && e.getValue() != null && e.getValue() > 0);
    return notOk
        ? " (" + ReportPage.statusesHtml(ReportPage.esc(ReportPage.statuses(status))) + ")"
        : "";
  }

  /**
   * Whether a scenario's profile has 2 levels or more: from {@code load.injection}'s steps marked
   * {@code level}, else from the levels recorded.
   */
  private static boolean stepped(
      Map<String, Object> run, List<LevelEntry> levels, Object scenario) {
    if (run.get("load") instanceof Map<?, ?> load && load.get("injection") instanceof List<?> all) {
      for (Object o : all) {
        if (o instanceof Map<?, ?> i
            && String.valueOf(scenario).equals(String.valueOf(i.get("scenario")))
            && i.get("steps") instanceof List<?> steps) {
          long n =
              steps.stream()
                  .filter(st -> st instanceof Map<?, ?> m && Boolean.TRUE.equals(m.get("level")))
                  .count();
          return n >= 2;
        }
      }
    }
    return levels.stream()
            .filter(l -> String.valueOf(scenario).equals(String.valueOf(l.scenario())))
            .count()
        >= 2;
  }

  /** {@code 4 users} (closed loop) or {@code 2.5 users/s} (open loop). */
  static String load(LevelEntry level) {
    if (level.rate() != null) {
      return Charts.fmt(level.rate().doubleValue()) + " users/s";
    }
    if (level.concurrency() != null) {
      Number c = level.concurrency();
      return Charts.fmt(c.doubleValue()) + (c.doubleValue() == 1 ? " user" : " users");
    }
    return "–";
  }

  private static Double loadValue(LevelEntry level) {
    return level.load();
  }

  /** The level curves: throughput against latency, then each figure against the load. */
  static List<Charts.Chart> charts(List<LevelEntry> levels) {
    Set<String> scenarios = new LinkedHashSet<>();
    boolean open = false;
    boolean closed = false;
    for (LevelEntry l : levels) {
      scenarios.add(String.valueOf(l.scenario()));
      open |= l.rate() != null;
      closed |= l.rate() == null;
    }
    String loadLabel =
        open && closed ? "concurrency (users) or rate (users/s)" : open ? "users/s" : "users";
    List<Charts.Chart> charts = new ArrayList<>();
    charts.add(
        curve(
            "levels-throughput-latency",
            "Throughput-latency curve (a point per level)",
            "output tokens/s",
            "TTFT p99, ms",
            "ITL p99, ms",
            levels,
            scenarios,
            l -> l.summary().outputTokensPerS(),
            List.of(
                new Stat("TTFT p99", l -> stat(l, "ttft_ms", "p99"), false, false),
                new Stat("ITL p99", l -> stat(l, "itl_ms", "p99"), true, true))));
    charts.add(
        curve(
            "levels-output-tokens",
            "Output tokens/s by level",
            loadLabel,
            "output tokens/s",
            null,
            levels,
            scenarios,
            LevelsSection::loadValue,
            List.of(new Stat("", l -> l.summary().outputTokensPerS(), false, false))));
    for (String metric : LATENCIES) {
      String name = metric.replace("_ms", "").toUpperCase(java.util.Locale.ROOT);
      charts.add(
          curve(
              "levels-" + metric.replace("_ms", ""),
              name + " by level",
              loadLabel,
              name + ", ms",
              null,
              levels,
              scenarios,
              LevelsSection::loadValue,
              List.of(
                  new Stat("p50", l -> stat(l, metric, "p50"), false, false),
                  new Stat("p99", l -> stat(l, metric, "p99"), false, true))));
    }
    return charts;
  }

  /** A statistic drawn per scenario. */
  private record Stat(
      String name, Function<LevelEntry, Double> value, boolean rightAxis, boolean dashed) {}

  /**
   * Points (x, y) of every scenario on one x axis: the levels sorted by x, each series null where
   * another scenario's level lies.
   */
  private static Charts.Chart curve(
      String id,
      String title,
      String xLabel,
      String yLabel,
      String y2Label,
      List<LevelEntry> levels,
      Set<String> scenarios,
      Function<LevelEntry, Double> x,
      List<Stat> stats) {
    List<LevelEntry> points = new ArrayList<>();
    for (LevelEntry l : levels) {
      if (x.apply(l) != null) {
        points.add(l);
      }
    }
    points.sort(Comparator.comparingDouble(l -> x.apply(l)));
    List<Double> xs = new ArrayList<>();
    for (LevelEntry l : points) {
      xs.add(x.apply(l));
    }
    List<Charts.Series> series = new ArrayList<>();
    int k = 0;
    for (String scenario : scenarios) {
      String color = Charts.color(k++);
      for (Stat stat : stats) {
        List<Double> ys = new ArrayList<>();
        for (LevelEntry l : points) {
          ys.add(scenario.equals(String.valueOf(l.scenario())) ? stat.value().apply(l) : null);
        }
        String label =
            scenarios.size() == 1 && !stat.name().isEmpty()
                ? stat.name()
                : (scenario + " " + stat.name()).strip();
        series.add(new Charts.Series(label, color, ys, stat.rightAxis(), stat.dashed()));
      }
    }
    return new Charts.Chart(
        id, title, Charts.Kind.XY, xLabel, yLabel, y2Label, null, xs, null, series, null);
  }

  private static Double stat(LevelEntry level, String metric, String stat) {
    Distribution d = latency(level, metric);
    return d == null ? null : "p50".equals(stat) ? d.p50() : d.p99();
  }

  /** A level's latency distribution by its key ({@code ttft_ms}...), or null. */
  private static Distribution latency(LevelEntry level, String metric) {
    GroupSummary.Json s = level.summary();
    return switch (metric) {
      case "ttft_ms" -> s.ttftMs();
      case "itl_ms" -> s.itlMs();
      case "tpot_ms" -> s.tpotMs();
      case "e2e_ms" -> s.e2eMs();
      default -> throw new IllegalArgumentException("not a latency of a level: " + metric);
    };
  }
}
