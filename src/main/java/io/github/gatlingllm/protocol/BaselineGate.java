package io.github.gatlingllm.protocol;

import io.github.gatlingllm.compare.ChangeVerdict;
import io.github.gatlingllm.compare.ComparisonOutput;
import io.github.gatlingllm.compare.RunComparison;
import io.github.gatlingllm.compare.RunDifferences;
import io.github.gatlingllm.compare.RunSamples;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.Baseline;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.settings.BaselineSettings;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The run against its baseline ({@code llm.baseline}): the baseline is read before any
 * load (a bad one is refused then); when the load is over the run's own requests are compared with
 * it ({@link RunComparison}), and with {@code llm.assert.noRegressionPct} one {@code BASELINE
 * <metric>} row per gated metric is logged into Gatling's statistics, KO when the metric is worse
 * than the baseline's beyond that percentage with 95% confidence, so the assertions {@code
 * llm.assertions(...)} adds ({@link LlmDsl#noRegression(String)}) fail the build.
 *
 * <p>The rows are logged when the run knows its load is over while Gatling still takes rows: every
 * prompt budget spent and every request ended, or a saturation stop. A run ended by its injection
 * profile alone is compared at its end, for the record and the console, but its rows cannot be
 * logged then: its {@code BASELINE} assertions fail for want of rows, and the console says why.
 *
 * <p>Thread-safe.
 */
public final class BaselineGate {

  private static final Logger LOG = LoggerFactory.getLogger(BaselineGate.class);

  /** The bootstrap's seed: a gated run's verdicts are reproducible from its files. */
  static final long SEED = 1;

  /** The metrics a gate logs a row for, when measurable or not (OK when not). */
  public static final List<String> GATED =
      List.of(
          "ttft_p50_ms",
          "ttft_p99_ms",
          "itl_p50_ms",
          "itl_p99_ms",
          "tpot_p50_ms",
          "e2e_p50_ms",
          "e2e_p99_ms",
          "output_tokens_per_s",
          "requests_per_s");

  /** The metrics gated besides {@link #GATED} when an SLO is set. */
  public static final List<String> GATED_WITH_SLO =
      List.of("goodput_requests_per_s", "slo_attainment");

  private final BaselineSettings settings;
  private final Slo slo;
  private final RunSamples baseline;
  private RunComparison comparison;
  private boolean rowsLogged;
  private String notLogged;

  private BaselineGate(BaselineSettings settings, Slo slo, RunSamples baseline) {
    this.settings = settings;
    this.slo = slo;
    this.baseline = baseline;
  }

  /**
   * Reads the baseline, before any load.
   *
   * @param settings the baseline settings
   * @param slo the run's SLO, which judges both runs
   * @param assertedPaths the request paths of the simulation's assertions, or null when unknown
   * @return the gate, or null without {@code llm.baseline}
   * @throws IllegalArgumentException naming {@code llm.baseline} when the folder cannot be read or
   *     has no measured request, or {@code llm.assert.noRegressionPct} when no assertion reads the
   *     {@code BASELINE} rows
   */
  static BaselineGate start(BaselineSettings settings, Slo slo, List<List<String>> assertedPaths) {
    if (settings.folder() == null) {
      return null;
    }
    if (settings.gated()
        && assertedPaths != null
        && assertedPaths.stream()
            .noneMatch(p -> p.size() == 1 && p.get(0).startsWith(LlmProtocol.BASELINE_ROW + " "))) {
      throw new IllegalArgumentException(
          "llm.assert.noRegressionPct: got "
              + describe(settings.noRegressionPct())
              + ", but setUp(...) has no assertion on the "
              + LlmProtocol.BASELINE_ROW
              + " rows, so the run would pass whatever the change: add llm.assertions(...) to"
              + " setUp (setUp(...).protocols(llm).assertions(llm.assertions(1.0, \"chat\")))");
    }
    RunSamples read;
    try {
      read = RunSamples.read(Path.of(settings.folder()), slo, SEED);
    } catch (IOException e) {
      throw new IllegalArgumentException(
          "llm.baseline: cannot read \"" + settings.folder() + "\": " + e, e);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm.baseline: " + e.getMessage(), e);
    }
    LOG.info(
        "baseline: {} ({} measured requests){}",
        settings.folder(),
        read.requests(),
        settings.gated()
            ? "; the build fails on a metric worse beyond "
                + describe(settings.noRegressionPct())
                + "% with 95% confidence (llm.assert.noRegressionPct)"
            : "");
    return new BaselineGate(settings, slo, read);
  }

  /**
   * The metrics gated for a run: {@link #GATED}, and {@link #GATED_WITH_SLO} with an SLO.
   *
   * @param sloSet whether the run has an SLO
   * @return the names
   */
  public static List<String> gated(boolean sloSet) {
    List<String> all = new ArrayList<>(GATED);
    if (sloSet) {
      all.addAll(GATED_WITH_SLO);
    }
    return all;
  }

  /**
   * Compares the run's requests with the baseline, once; later calls return the first comparison.
   *
   * @param requestsFolder the folder of the run's {@code llm-requests.jsonl}, flushed
   * @param run what is known of the run ({@code target}), for the model and endpoint check
   * @param gatling Gatling's core, to log the rows; null when Gatling takes no more rows (the run
   *     is over)
   * @param scenario the scenario the rows belong to
   * @return the comparison, or null when the run has no measured request
   */
  synchronized RunComparison judge(
      Path requestsFolder, RunRecord run, GatlingCore gatling, String scenario) {
    if (comparison != null || notLogged != null && gatling == null) {
      return comparison;
    }
    RunSamples own;
    try {
      own = RunSamples.read(requestsFolder, run, slo, SEED);
    } catch (IOException e) {
      throw new UncheckedIOException(e);
    } catch (IllegalArgumentException e) {
      notLogged = "the run has no measured request to compare";
      LOG.error("baseline: {}", notLogged);
      if (settings.gated() && gatling != null) {
        logRows(gatling, scenario, null);
      }
      return null;
    }
    double minEffect =
        settings.noRegressionPct() != null
            ? settings.noRegressionPct()
            : RunComparison.Settings.DEFAULT.minEffectPct();
    comparison =
        RunComparison.compare(
            baseline,
            own,
            new RunComparison.Settings(RunComparison.Settings.DEFAULT.resamples(), SEED, minEffect),
            List.of());
    for (String w : comparison.warnings()) {
      LOG.warn(
          "against baseline: {}",
          w.replaceFirst("^A\\b", "the baseline").replace(" B ", " this run "));
    }
    for (String line : table(comparison)) {
      LOG.info("{}", line);
    }
    if (settings.gated()) {
      if (gatling != null) {
        logRows(gatling, scenario, comparison);
      } else {
        notLogged =
            "the run ended by its injection profile, after Gatling stopped taking rows, so its "
                + LlmProtocol.BASELINE_ROW
                + " rows were not logged and their assertions fail: end the run by its prompt"
                + " budget (prompts().requests(N)) to gate it";
        LOG.error("llm.assert.noRegressionPct: {}", notLogged);
        failures(comparison);
      }
    }
    return comparison;
  }

  private void logRows(GatlingCore gatling, String scenario, RunComparison c) {
    long now = gatling.nowMillis();
    for (String metric : gated(slo.isSet())) {
      RunComparison.Row row = c == null ? null : c.row(metric);
      String failure = row == null ? null : failure(row);
      gatling.logFigure(
          scenario, List.of(), LlmProtocol.BASELINE_ROW + " " + metric, now, now, failure == null);
    }
    rowsLogged = true;
    if (c != null) {
      failures(c);
    }
  }

  private void failures(RunComparison c) {
    boolean any = false;
    for (String metric : gated(slo.isSet())) {
      RunComparison.Row row = c.row(metric);
      String failure = row == null ? null : failure(row);
      if (failure != null) {
        any = true;
        LOG.error("REGRESSION against baseline: {}", failure);
      }
    }
    if (!any) {
      LOG.info(
          "no regression against baseline beyond {}% with 95% confidence",
          describe(settings.noRegressionPct()));
    }
  }

  /** Why a row fails the gate, or null when it passes. */
  private String failure(RunComparison.Row row) {
    if (row.verdict() != ChangeVerdict.WORSE) {
      return null;
    }
    return String.format(
        Locale.ROOT,
        "%s worse than the baseline by %.1f%% (%s -> %s, 95%% interval [%+.1f%%, %+.1f%%]),"
            + " beyond llm.assert.noRegressionPct %s%% and the runs' noise floor %.1f%%",
        row.name(),
        Math.abs(row.deltaPct()),
        describe(row.a()),
        describe(row.b()),
        row.ci95Pct()[0],
        row.ci95Pct()[1],
        describe(settings.noRegressionPct()),
        row.noiseFloorPct() == null ? 0.0 : row.noiseFloorPct());
  }

  /**
   * The comparison for {@code llm-run.json}'s {@code baseline}: {@code folder}, {@code
   * no_regression_pct} (when gated), {@code rows_logged} and {@code not_logged} (why not), {@code
   * failed} (the gated metrics worse beyond it), then {@link RunComparison#toMap()}'s fields with
   * the prompts checked against the finished record, and {@code quantiles} ({@code percentiles},
   * then {@link RunComparison#quantileCurves()}, {@code a} the baseline and {@code b} this run).
   *
   * @param run the run's record so far ({@code prompts}, {@code workloads})
   * @return an ordered map
   */
  synchronized Baseline toRecord(RunRecord run) {
    boolean gated = settings.noRegressionPct() != null;
    if (comparison == null) {
      return Baseline.of(
          settings.folder(), settings.noRegressionPct(), gated ? rowsLogged : null, notLogged);
    }
    List<String> failed = null;
    if (settings.gated()) {
      failed = new ArrayList<>();
      for (String metric : gated(slo.isSet())) {
        RunComparison.Row row = comparison.row(metric);
        if (row != null && failure(row) != null) {
          failed.add(metric);
        }
      }
    }
    List<String> differences = RunDifferences.promptDifferences(baseline.record(), run);
    if (!differences.isEmpty()) {
      LOG.warn(
          "against baseline: the prompts differ ({}): compared anyway",
          String.join("; ", differences));
    }
    return comparison
        .toBlock()
        .against(
            settings.folder(),
            settings.noRegressionPct(),
            gated ? rowsLogged : null,
            notLogged,
            failed,
            differences,
            RunComparison.QUANTILES,
            comparison.quantileCurves());
  }

  private static List<String> table(RunComparison c) {
    List<String> lines = new ArrayList<>();
    lines.add("against baseline (A = baseline, B = this run): " + c.method());
    lines.add("against baseline: " + c.overall().line());
    for (RunComparison.Row r : c.rows()) {
      lines.add("  " + ComparisonOutput.line(r.name(), describe(r.a()), describe(r.b()), r, "-"));
    }
    return lines;
  }

  private static String describe(Double v) {
    if (v == null) {
      return "-";
    }
    if (v == Math.rint(v) && Math.abs(v) < 1e15) {
      return String.valueOf(v.longValue());
    }
    return String.format(Locale.ROOT, "%.3f", v).replaceFirst("0+$", "").replaceFirst("\\.$", "");
  }
}
