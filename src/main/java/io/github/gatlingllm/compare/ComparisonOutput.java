package io.github.gatlingllm.compare;

import com.fasterxml.jackson.core.type.TypeReference;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.compare.ResampledRun.Estimates;
import io.github.gatlingllm.compare.RunComparison.Level;
import io.github.gatlingllm.compare.RunComparison.Row;
import io.github.gatlingllm.compare.RunComparison.Settings;
import io.github.gatlingllm.record.Baseline;
import io.github.gatlingllm.report.Decimals;
import io.github.gatlingllm.stats.Bootstrap;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * A comparison in words and as JSON: the lines {@code gatling-llm report --compare} prints, the
 * JSON-ready map it prints with {@code --json} (and a run with {@code llm.baseline} keeps in its
 * record), and the sentence that says how the intervals were made. Times in milliseconds to the
 * microsecond, changes in percent to 0.1 in text and 0.001 in JSON; a missing figure is {@code –}
 * in text and null in JSON.
 */
public final class ComparisonOutput {

  /** The columns of a metric's line: name, A, B, change, interval, noise floor, verdict. */
  private static final String COLUMNS = "%-22s %12s %12s %9s %20s %8s  %s";

  /** Turns the typed blocks into the JSON-ready maps of {@link #map(RunComparison)}. */
  static final ObjectMapper JSON = new ObjectMapper();

  private ComparisonOutput() {}

  /**
   * The comparison as a JSON-ready map, as {@link RunComparison#toMap()} describes it.
   *
   * @param c the comparison, never null
   * @return an ordered map
   */
  static Map<String, Object> map(RunComparison c) {
    return JSON.convertValue(block(c), new TypeReference<LinkedHashMap<String, Object>>() {});
  }

  /**
   * The comparison as the run record's {@code baseline} block holds it: the fields {@link
   * #map(RunComparison)} names, the baseline's own ({@code folder}, the gate's, {@code quantiles})
   * null.
   *
   * @param c the comparison, never null
   * @return the block
   */
  static Baseline block(RunComparison c) {
    List<Baseline.LevelRows> levels = new ArrayList<>();
    for (Level l : c.levels()) {
      levels.add(new Baseline.LevelRows(l.index(), l.describe(), rows(l.rows())));
    }
    RunComparison.Overall o = c.overall();
    return new Baseline(
        null,
        null,
        null,
        null,
        null,
        c.samePrompts(),
        c.promptDifferences(),
        c.warnings(),
        c.method(),
        c.settings().resamples(),
        c.settings().seed(),
        c.settings().minEffectPct(),
        side(c.runsA()),
        side(c.runsB()),
        new Baseline.Verdict(o.verdict(), o.worse(), o.better(), o.line()),
        rows(c.rows()),
        levels.isEmpty() ? null : levels,
        null,
        null);
  }

  /**
   * The comparison as lines of text, as {@link RunComparison#toText()} describes them.
   *
   * @param c the comparison, never null
   * @return the lines
   */
  static List<String> lines(RunComparison c) {
    List<String> lines = new ArrayList<>();
    runs(lines, "A", c.runsA());
    runs(lines, "B", c.runsB());
    if (c.samePrompts()) {
      lines.add("prompts: same (workloads and phase digests)");
    } else {
      for (String d : c.promptDifferences()) {
        lines.add("prompts DIFFER: " + d + " (compared anyway)");
      }
    }
    for (String w : c.warnings()) {
      lines.add("warning: " + w);
    }
    lines.add(c.method());
    lines.add(c.overall().line());
    table(lines, c.rows());
    for (Level l : c.levels()) {
      lines.add("");
      lines.add("level " + l.index() + ": " + l.describe());
      table(lines, l.rows());
    }
    return lines;
  }

  /** Each run of a side, and where it ran (its machine block, or that it has none). */
  private static void runs(List<String> lines, String side, List<RunSamples> runs) {
    for (int i = 0; i < runs.size(); i++) {
      RunSamples s = runs.get(i);
      String name = runs.size() == 1 ? side : side + (i + 1);
      lines.add(name + ": " + s.folder + " (" + s.n + " measured requests)");
      io.github.gatlingllm.record.Machine m = RunDifferences.machine(s.record);
      if (m != null) {
        lines.add("  machine: " + m.describe());
      }
    }
  }

  /**
   * One metric's line of a table: the name (22 characters), A and B (12 each), the change in
   * percent to 0.1 (9), its interval (20), the noise floor (8) and the verdict, e.g. {@code E2E p50
   * ms 41.2 49.5 +20.1% [+18.9%, +21.4%] 1.2% worse}.
   *
   * @param name the metric's name or label, never null
   * @param a A's value as text, never null
   * @param b B's value as text, never null
   * @param row the compared metric, never null
   * @param none what stands for a missing change or interval, e.g. {@code –}
   * @return the line, without a line break
   */
  public static String line(String name, String a, String b, Row row, String none) {
    return String.format(
        Locale.ROOT,
        COLUMNS,
        name,
        a,
        b,
        row.deltaPct() == null ? none : String.format(Locale.ROOT, "%+.1f%%", row.deltaPct()),
        row.ci95Pct() == null
            ? none
            : String.format(Locale.ROOT, "[%+.1f%%, %+.1f%%]", row.ci95Pct()[0], row.ci95Pct()[1]),
        row.noiseFloorPct() == null
            ? none
            : String.format(Locale.ROOT, "%.1f%%", row.noiseFloorPct()),
        row.verdict().wireName());
  }

  private static void table(List<String> lines, List<Row> rows) {
    lines.add(
        String.format(
            Locale.ROOT,
            COLUMNS,
            "metric",
            "A",
            "B",
            "change",
            "95% interval",
            "noise",
            "verdict"));
    for (Row r : rows) {
      HeadlineMetric m = HeadlineMetric.named(r.name());
      lines.add(
          line(
              m.label() + (m.unit().isEmpty() ? "" : " " + m.unit()),
              figure(r.a()),
              figure(r.b()),
              r,
              "–"));
      if (r.reason() != null) {
        lines.add("    " + r.reason());
      }
    }
  }

  private static String figure(Double v) {
    if (v == null) {
      return "–";
    }
    return Decimals.ms(v);
  }

  private static Baseline.Side side(List<RunSamples> runs) {
    if (runs.size() == 1) {
      return side(runs.get(0));
    }
    List<Baseline.Side> each = new ArrayList<>();
    List<String> folders = new ArrayList<>();
    int n = 0;
    for (RunSamples s : runs) {
      each.add(side(s));
      folders.add(s.folder.toString());
      n += s.n;
    }
    return new Baseline.Side(String.join(",", folders), n, null, each);
  }

  private static Baseline.Side side(RunSamples s) {
    return new Baseline.Side(s.folder.toString(), s.n, RunDifferences.machine(s.record), null);
  }

  private static Map<String, Baseline.Row> rows(List<Row> rows) {
    Map<String, Baseline.Row> m = new LinkedHashMap<>();
    for (Row r : rows) {
      m.put(r.name(), r.toBlock());
    }
    return m;
  }

  /**
   * A figure for JSON: to the thousandth.
   *
   * @param v the figure, or null
   * @return it rounded half up to 0.001; null for null, NaN or an infinity
   */
  static Double round(Double v) {
    if (v == null || !Double.isFinite(v)) {
      return null;
    }
    return Math.round(v * 1000.0) / 1000.0;
  }

  /**
   * How the intervals were made, in one sentence: resamples, seed, what each kind of metric is
   * resampled over, each run's time blocks, the tail rule and the minimum effect.
   *
   * @param settings the comparison's settings, never null
   * @param ea A's estimates, never null
   * @param eb B's estimates, never null
   * @return the sentence
   */
  static String method(Settings settings, Estimates ea, Estimates eb) {
    return String.format(
        Locale.ROOT,
        "95%% intervals: percentile bootstrap, %d resamples of each run (seed %d), every metric"
            + " over time blocks (A: %s, B: %s); a percentile with fewer than %d values above it"
            + " (p99 under 500, p90 under 50) has no interval; verdict beyond +/-%s%% and beyond"
            + " the noise floor (the larger of the runs' spreads over %d stretches of their"
            + " requests)",
        settings.resamples(),
        settings.seed(),
        blocks(ea),
        blocks(eb),
        Bootstrap.MIN_TAIL,
        Decimals.fmt(settings.minEffectPct()),
        RunComparison.STRETCHES);
  }

  /**
   * How the intervals of a comparison of replicates were made, in one sentence.
   *
   * @param settings the comparison's settings, never null
   * @param runsA A's runs
   * @param runsB B's runs
   * @return the sentence
   */
  static String replicatesMethod(Settings settings, int runsA, int runsB) {
    return String.format(
        Locale.ROOT,
        "95%% intervals over %d run(s) of A and %d of B, each a replicate: a metric's value is the"
            + " mean of its runs' values; its interval spans the between-run t interval (Welch,"
            + " over the runs' values) and the percentile bootstrap of the runs' mean (%d"
            + " resamples of each run over time blocks, seed %d); a percentile with fewer than %d"
            + " values above it in a run has no interval; verdict beyond +/-%s%% and beyond the"
            + " noise floor (the largest of the runs' spreads over %d stretches of their"
            + " requests)",
        runsA,
        runsB,
        settings.resamples(),
        settings.seed(),
        Bootstrap.MIN_TAIL,
        Decimals.fmt(settings.minEffectPct()),
        RunComparison.STRETCHES);
  }

  private static String blocks(Estimates e) {
    if (e.blocks() < ResampledRun.MIN_BLOCKS) {
      return "too short for " + ResampledRun.MIN_BLOCKS + " blocks, no interval";
    }
    return e.blocks() + " blocks of " + String.format(Locale.ROOT, "%.2f", e.blockSeconds()) + " s";
  }
}
