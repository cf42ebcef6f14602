package io.github.gatlingllm.report;

import io.github.gatlingllm.levels.LevelEntry;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.stats.Distribution;
import java.util.ArrayList;
import java.util.Comparator;
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
   * @param run the run record
   * @return the HTML, empty when the run has no level
   */
  static String render(Map<String, Object> run) {
    List<LevelEntry> levels = new ArrayList<>();
    if (run.get("levels") instanceof List<?> list) {
      for (Object o : list) {
        LevelEntry l = RunRecordJson.read(o, LevelEntry.class);
        if (l != null) {
          levels.add(l);
        }
      }
    }
    if (levels.isEmpty()) {
      return "";
    }
    StringBuilder html = new StringBuilder("<h2 id=\"levels\">Levels</h2>\n");
    String saturation = RunSentences.saturations(run);
    Set<Object> saturationLevels = new java.util.HashSet<>();
    Set<Object> overCapacityLevels = new java.util.HashSet<>();
    List<Object> verdicts =
        run.get("saturations") instanceof List<?> all
            ? new ArrayList<>(all)
            : run.get("saturation") instanceof Map<?, ?> m ? List.of(m) : List.of();
    for (Object o : verdicts) {
      if (o instanceof Map<?, ?> m) {
        if (m.get("saturation_level") != null) {
          saturationLevels.add(m.get("saturation_level"));
        }
        if (m.get("over_capacity_level") != null) {
          overCapacityLevels.add(m.get("over_capacity_level"));
        }
      }
    }
    if (saturation != null) {
      boolean several = run.get("saturations") instanceof List<?> all && all.size() > 1;
      html.append("<p id=\"saturation\"><strong>")
          .append(several ? "" : lead(saturation))
          .append(ReportPage.esc(saturation))
          .append(".</strong></p>\n");
    }
    if (run.get("levels_warnings") instanceof List<?> warnings) {
      for (Object w : warnings) {
        html.append("<p class=\"warning\">").append(ReportPage.esc(w)).append("</p>\n");
      }
    }
    if (run.get("levels_note") != null && leftOutAny(run)) {
      // Said only when some measured requests are in no level.
      html.append("<p>").append(ReportPage.esc(run.get("levels_note"))).append("</p>\n");
    }
    html.append(table(run, levels, saturationLevels, overCapacityLevels));
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
      Set<Object> saturationLevels,
      Set<Object> overCapacityLevels) {
    boolean slo = levels.stream().anyMatch(l -> l.summary().goodput() != null);
    boolean lag = levels.stream().anyMatch(l -> l.extra().get("schedule_lag_ms") instanceof Map);
    boolean cpu = levels.stream().anyMatch(l -> l.extra().get("client_cpu") instanceof Number);
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
        Object p99 = l.extra().get("schedule_lag_ms") instanceof Map<?, ?> s ? s.get("p99") : null;
        html.append("<td>").append(ReportPage.ms(p99)).append("</td>");
      }
      if (cpu) {
        html.append("<td>").append(ReportPage.num(l.extra().get("client_cpu"))).append("</td>");
      }
      html.append("</tr>\n");
    }
    html.append("</table></div>\n");
    Object share = run.get("saturation") instanceof Map<?, ?> sat ? sat.get("slo_ratio") : null;
    if (slo && share instanceof Number n) {
      html.append("<p class=\"note\">A level meets the SLO when its attainment is at least ")
          .append(ReportPage.num(n.doubleValue()))
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
  private static String scaling(List<Object> verdicts, List<LevelEntry> levels) {
    StringBuilder html = new StringBuilder();
    boolean several = verdicts.size() > 1;
    for (Object o : verdicts) {
      if (!(o instanceof Map<?, ?> m)
          || !(m.get("scaling") instanceof List<?> rows)
          || rows.isEmpty()) {
        continue;
      }
      html.append("<p id=\"scaling\">Closed-loop scaling")
          .append(several ? " of " + ReportPage.esc(m.get("scenario")) : "")
          .append(
              " (Little's law: throughput = users / latency): a level is over capacity when its")
          .append(" added users gave less than ")
          .append(ReportPage.num(m.get("min_scaling")))
          .append(" of the output tokens/s they would give an unsaturated server")
          .append(" (<code>llm.saturation.minScaling</code>), or less than +")
          .append(ReportPage.num(percent(m.get("throughput_gain"))))
          .append("% (<code>llm.saturation.throughputGain</code>), while its TTFT or E2E p50")
          .append(" grew ")
          .append(ReportPage.num(m.get("ttft_growth")))
          .append("x (<code>llm.saturation.ttftGrowth</code>).</p>\n")
          .append("<table class=\"scaling\"><tr><th>levels</th><th>users</th>")
          .append("<th>output tokens/s</th><th>scaling</th><th>TTFT p50</th><th>E2E p50</th>")
          .append("<th>over capacity</th></tr>\n");
      for (Object r : rows) {
        if (!(r instanceof Map<?, ?> row)) {
          continue;
        }
        html.append("<tr><td>")
            .append(ReportPage.esc(row.get("level_below")))
            .append(" &rarr; ")
            .append(ReportPage.esc(row.get("level")))
            .append("</td><td>")
            .append(ReportPage.esc(loadOf(levels, row.get("level_below"))))
            .append(" &rarr; ")
            .append(ReportPage.esc(loadOf(levels, row.get("level"))))
            .append(" (")
            .append(factor(row.get("users_factor")))
            .append(")</td><td>")
            .append(gain(row.get("output_tokens_per_s_factor")))
            .append("</td><td>")
            .append(
                row.get("scaling") instanceof Number n
                    ? String.format(java.util.Locale.ROOT, "%.3f", n.doubleValue())
                    : "–")
            .append("</td><td>")
            .append(factor(row.get("ttft_p50_factor")))
            .append("</td><td>")
            .append(factor(row.get("e2e_p50_factor")))
            .append("</td><td>")
            .append(Boolean.TRUE.equals(row.get("over_capacity")) ? "yes" : "no")
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
  private static Object loadOf(List<LevelEntry> levels, Object index) {
    for (LevelEntry l : levels) {
      if (index instanceof Number n && l.index() != null && l.index() == n.intValue()) {
        return load(l);
      }
    }
    return index;
  }

  /** Beside a level's request count: its statuses when any is not {@code ok}, failures in red. */
  private static String failures(Object status) {
    if (!(status instanceof Map<?, ?> m)) {
      return "";
    }
    boolean notOk =
        m.entrySet().stream()
            .anyMatch(
                e ->
                    !"ok".equals(e.getKey())
                        && e.getValue() instanceof Number n
                        && n.longValue() > 0);
    return notOk
        ? " (" + ReportPage.statusesHtml(ReportPage.esc(ReportPage.statuses(status))) + ")"
        : "";
  }

  /** Whether the record says some measured requests are in no level (or does not say). */
  private static boolean leftOutAny(Map<String, Object> run) {
    if (!(run.get("levels_left_out") instanceof Map<?, ?> left)) {
      return true;
    }
    for (String key : List.of("ramps", "outside", "unplaced", "not_sent")) {
      if (left.get(key) instanceof Number n && n.longValue() > 0) {
        return true;
      }
    }
    return false;
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
