package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Objects;

/**
 * Where a stepped run saturated the server, and the highest load that met the SLO: what vLLM's
 * {@code bench sweep serve_sla} and GuideLLM's sweep answer, read from the levels of one scenario.
 *
 * <ul>
 *   <li><b>Saturation point</b>: among the levels, in load order, the first whose output tokens/s
 *       reach the highest level's less the tolerance ({@link SaturationSettings#throughputGain()},
 *       5% by default): the least load giving (nearly) the highest throughput sustained; more load
 *       past it buys less than the tolerance and only adds queueing.
 *   <li><b>Load meeting the SLO</b>: a level meets the SLO when its SLO attainment (the share of
 *       its requests that met every bound, {@link Goodput#attainment()}) is at least the goodput
 *       share {@code llm.slo.levelAttainment} ({@link #DEFAULT_SLO_RATIO} when unset; not the run's
 *       assertion {@code llm.assert.goodputRatio}). Walking the levels by load, the first one that
 *       does not meet it and the one before it bound the answer, interpolated linearly in
 *       attainment: {@code below + (above - below) * (a_below - ratio) / (a_below - a_above)}. When
 *       every level meets it, the answer is the highest load (a lower bound: {@code
 *       slo_met_at_every_level}); when the lowest level already misses it, there is none (null).
 * </ul>
 *
 * @param scenario the scenario whose levels these are, never null
 * @param closed whether its loads are concurrent users (else arrival rates, users/s)
 * @param levels the levels, in load order, never null, at least 2 (copied)
 * @param saturation the saturation point, one of {@code levels}
 * @param maxOutputTokensPerS the highest output tokens/s of a level
 * @param sloRatio the attainment a level needs to meet the SLO, or null when no SLO is set
 * @param sloLoad the interpolated highest load meeting the SLO, or null (no SLO, or not even the
 *     lowest level met it)
 * @param sloBelow the last level meeting the SLO before the first one missing it, or null
 * @param sloAbove the first level missing the SLO, or null when every level met it
 * @param stoppedEarly whether the run stopped at an over-saturated level ({@code
 *     llm.stopWhenSaturated})
 * @param stopReason why, or null
 * @param stillGrowing whether the highest level's output tokens/s still grew more than the
 *     tolerance over the level below it: the server did not saturate within the levels run, and the
 *     saturation point is only the highest load tried
 */
public record Saturation(
    String scenario,
    boolean closed,
    List<LevelResult> levels,
    LevelResult saturation,
    double maxOutputTokensPerS,
    Double sloRatio,
    Double sloLoad,
    LevelResult sloBelow,
    LevelResult sloAbove,
    boolean stoppedEarly,
    String stopReason,
    boolean stillGrowing) {

  /** The SLO attainment a level needs without {@code llm.slo.levelAttainment}. */
  public static final double DEFAULT_SLO_RATIO = 0.95;

  /** Checks and copies. */
  public Saturation {
    Objects.requireNonNull(scenario, "scenario");
    levels = List.copyOf(levels);
    Objects.requireNonNull(saturation, "saturation");
    if (levels.size() < 2) {
      throw new IllegalArgumentException(
          "saturation needs at least 2 levels of scenario " + scenario + ", got " + levels.size());
    }
  }

  /**
   * The saturation of the scenario with the most levels (the first of them on a tie). Levels the
   * run cut short ({@link LevelResult#cutShort()}: it stopped before their end) are left out: their
   * figures are those of a load that had not settled.
   *
   * @param results every level of the run, in start order, never null
   * @param settings the tolerance ({@link SaturationSettings#throughputGain()})
   * @param slo the run's SLO; {@link Slo#NONE} for none
   * @param goodputRatio the attainment a level needs ({@code llm.slo.levelAttainment}), or null for
   *     {@link #DEFAULT_SLO_RATIO}
   * @param stopReason why the run stopped early, or null when it did not
   * @return the saturation, or null when no scenario has 2 levels
   */
  public static Saturation of(
      List<LevelResult> results,
      SaturationSettings settings,
      Slo slo,
      Double goodputRatio,
      String stopReason) {
    Map<String, List<LevelResult>> byScenario = byScenario(results);
    List<LevelResult> best = null;
    for (List<LevelResult> list : byScenario.values()) {
      if (best == null || list.size() > best.size()) {
        best = list;
      }
    }
    if (best == null || best.size() < 2) {
      return null;
    }
    return forScenario(best, settings, slo, goodputRatio, stopReason);
  }

  /**
   * The saturation of every scenario with 2 levels or more that the run did not cut short, in the
   * order the scenarios' first levels started. Scenarios run side by side share the server: each
   * one's levels saw the others' load too.
   *
   * @param results every level of the run, in start order, never null
   * @param settings the tolerance
   * @param slo the run's SLO; {@link Slo#NONE} for none
   * @param goodputRatio the attainment a level needs ({@code llm.slo.levelAttainment}), or null
   * @param stopReason why the run stopped early, or null
   * @return one per such scenario, possibly empty, unmodifiable
   */
  public static List<Saturation> all(
      List<LevelResult> results,
      SaturationSettings settings,
      Slo slo,
      Double goodputRatio,
      String stopReason) {
    List<Saturation> list = new ArrayList<>();
    for (List<LevelResult> levels : byScenario(results).values()) {
      if (levels.size() >= 2) {
        list.add(forScenario(levels, settings, slo, goodputRatio, stopReason));
      }
    }
    return Collections.unmodifiableList(list);
  }

  private static Map<String, List<LevelResult>> byScenario(List<LevelResult> results) {
    Map<String, List<LevelResult>> byScenario = new LinkedHashMap<>();
    for (LevelResult r : results) {
      if (r.cutShort()) {
        continue;
      }
      byScenario.computeIfAbsent(r.level().scenario(), s -> new ArrayList<>()).add(r);
    }
    return byScenario;
  }

  private static Saturation forScenario(
      List<LevelResult> best,
      SaturationSettings settings,
      Slo slo,
      Double goodputRatio,
      String stopReason) {
    List<LevelResult> levels = new ArrayList<>(best);
    levels.sort(Comparator.comparingDouble((LevelResult r) -> r.level().load()));
    double max = 0;
    for (LevelResult r : levels) {
      max = Math.max(max, r.outputTokensPerS());
    }
    LevelResult point = levels.get(levels.size() - 1);
    for (LevelResult r : levels) {
      if (r.outputTokensPerS() >= max * (1 - settings.throughputGain())) {
        point = r;
        break;
      }
    }
    LevelResult top = levels.get(levels.size() - 1);
    double belowTop = levels.get(levels.size() - 2).outputTokensPerS();
    boolean growing =
        belowTop > 0
            ? top.outputTokensPerS() / belowTop - 1 > settings.throughputGain()
            : top.outputTokensPerS() > 0;
    Double ratio = null;
    Double load = null;
    LevelResult below = null;
    LevelResult above = null;
    if (slo.isSet()) {
      ratio = goodputRatio == null ? DEFAULT_SLO_RATIO : goodputRatio;
      SloLoad walk = sloLoad(levels, ratio);
      below = walk.below();
      above = walk.above();
      load = walk.load();
    }
    return new Saturation(
        levels.get(0).level().scenario(),
        levels.get(0).level().closed(),
        levels,
        point,
        max,
        ratio,
        load,
        below,
        above,
        stopReason != null,
        stopReason,
        growing);
  }

  /**
   * The highest load meeting the SLO, from levels in load order (see the class comment).
   *
   * @param below the last level meeting it before the first one missing it, or null
   * @param above the first level missing it, or null when none does
   * @param load the interpolated load, or null when {@code below} is null
   */
  public record SloLoad(LevelResult below, LevelResult above, Double load) {

    /**
     * Whether the answer is final: a level missed the SLO (more load cannot change it).
     *
     * @return true when {@code above} is set
     */
    public boolean settled() {
      return above != null;
    }
  }

  /**
   * Walks levels by load to the first one missing the SLO.
   *
   * @param ascending levels in load order, never null
   * @param ratio the least attainment of a level meeting it
   * @return the walk's answer
   */
  public static SloLoad sloLoad(List<LevelResult> ascending, double ratio) {
    LevelResult below = null;
    for (LevelResult r : ascending) {
      if (!meets(r, ratio)) {
        return new SloLoad(below, r, below == null ? null : interpolate(below, r, ratio));
      }
      below = r;
    }
    return new SloLoad(below, null, below == null ? null : below.level().load());
  }

  /**
   * Whether a level met the SLO.
   *
   * @param level the level
   * @param ratio the least attainment
   * @return false also when the level has no request or no SLO
   */
  public static boolean meets(LevelResult level, double ratio) {
    Double a = level.attainment();
    return a != null && a >= ratio;
  }

  /**
   * The load between two levels where the attainment, taken as linear between them, reaches the
   * ratio.
   *
   * @param below a level meeting the ratio (attainment at least {@code ratio})
   * @param above a level of higher load missing it
   * @param ratio the least attainment
   * @return a load in [below's, above's]
   */
  static double interpolate(LevelResult below, LevelResult above, double ratio) {
    double a0 = below.attainment();
    double a1 = above.attainment() == null ? 0 : above.attainment();
    double x0 = below.level().load();
    double x1 = above.level().load();
    if (a0 <= a1) {
      return x0;
    }
    double t = (a0 - ratio) / (a0 - a1);
    return x0 + (x1 - x0) * Math.max(0, Math.min(1, t));
  }

  /**
   * Whether a level is over-saturated against the one before it of the same scenario (see {@link
   * SaturationSettings}).
   *
   * @param previous the level before, never null
   * @param current the level, never null
   * @param settings the thresholds
   * @return why, in one line naming the setting, or null when it is not
   */
  public static String overSaturated(
      LevelResult previous, LevelResult current, SaturationSettings settings) {
    long n = current.summary().requests();
    if (n == 0) {
      return null;
    }
    if (current.errorRatio() > settings.errorRatio()) {
      return String.format(
          Locale.ROOT,
          "level %d (%s): %d of %d requests failed (%s), more than llm.saturation.errorRatio %s",
          current.index(),
          current.level().describeLoad(),
          n - current.summary().count(RequestStatus.OK),
          n,
          percent(current.errorRatio()),
          LoadLevel.describeNumber(settings.errorRatio()));
    }
    boolean streamed = current.summary().ttftMs().p50() != null;
    Double before = p50(previous, streamed);
    Double now = p50(current, streamed);
    double tpsBefore = previous.outputTokensPerS();
    if (before == null || now == null || tpsBefore <= 0) {
      return null;
    }
    double growth = before > 0 ? now / before : now > 0 ? Double.POSITIVE_INFINITY : 1;
    double gain = current.outputTokensPerS() / tpsBefore - 1;
    if (growth >= settings.ttftGrowth() && gain < settings.throughputGain()) {
      return String.format(
          Locale.ROOT,
          "level %d (%s): %s p50 grew %.1fx over level %d (%s) while output throughput changed"
              + " by %s (llm.saturation.ttftGrowth %s, llm.saturation.throughputGain %s)",
          current.index(),
          current.level().describeLoad(),
          streamed ? "TTFT" : "E2E",
          growth,
          previous.index(),
          previous.level().describeLoad(),
          (gain >= 0 ? "+" : "") + percent(gain),
          LoadLevel.describeNumber(settings.ttftGrowth()),
          LoadLevel.describeNumber(settings.throughputGain()));
    }
    return null;
  }

  private static Double p50(LevelResult r, boolean streamed) {
    return streamed ? r.summary().ttftMs().p50() : r.summary().e2eMs().p50();
  }

  private static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }

  /**
   * Why the load meeting the SLO is below a bound, for {@code llm.assert.sloLoadAtLeast}.
   *
   * @param bound the least load
   * @return null when {@link #sloLoad()} is at least {@code bound}; else one line
   */
  public String sloShortfall(double bound) {
    if (sloLoad != null && sloLoad >= bound) {
      return null;
    }
    return "the highest load meeting the SLO is "
        + (sloLoad == null
            ? "none (the lowest level, " + levels.get(0).level().describeLoad() + ", missed it)"
            : loadText(sloLoad))
        + ", below llm.assert.sloLoadAtLeast "
        + loadText(bound);
  }

  private String loadText(double load) {
    return String.format(Locale.ROOT, "%.2f", load).replaceAll("0+$", "").replaceAll("\\.$", "")
        + (closed ? " users" : " users/s");
  }

  /**
   * {@code llm-run.json}'s {@code saturation}: {@code scenario}, {@code metric} ({@code
   * concurrency} or {@code rate}), {@code levels} (their count), {@code saturation_level} (its
   * index over the run), {@code saturation_scenario_level} (its index in its scenario), {@code
   * saturation_concurrency} or {@code saturation_rate}, {@code saturation_requests_per_s}, {@code
   * saturation_output_tokens_per_s}, {@code max_output_tokens_per_s}, {@code max_level} and {@code
   * max_concurrency} or {@code max_rate} (where that peak was), {@code still_growing} (see {@link
   * #stillGrowing()}), {@code stopped_early}, {@code stop_reason}, and with an SLO {@code
   * slo_ratio}, {@code slo_load} (null when none), {@code slo_level_below} and {@code
   * slo_level_above} (level indices or null), {@code slo_met_at_every_level}.
   *
   * @return an ordered, unmodifiable map
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("scenario", scenario);
    m.put("metric", closed ? "concurrency" : "rate");
    m.put("levels", levels.size());
    m.put("saturation_level", saturation.index());
    m.put("saturation_scenario_level", saturation.scenarioIndex());
    m.put(closed ? "saturation_concurrency" : "saturation_rate", saturation.loadValue());
    m.put("saturation_requests_per_s", saturation.requestsPerS());
    m.put("saturation_output_tokens_per_s", saturation.outputTokensPerS());
    m.put("max_output_tokens_per_s", maxOutputTokensPerS);
    LevelResult peak = peak();
    m.put("max_level", peak.index());
    m.put(closed ? "max_concurrency" : "max_rate", peak.loadValue());
    m.put("still_growing", stillGrowing);
    m.put("stopped_early", stoppedEarly);
    m.put("stop_reason", stopReason);
    if (sloRatio != null) {
      m.put("slo_ratio", sloRatio);
      m.put("slo_load", sloLoad);
      m.put("slo_level_below", sloBelow == null ? null : sloBelow.index());
      m.put("slo_level_above", sloAbove == null ? null : sloAbove.index());
      m.put("slo_met_at_every_level", sloBelow != null && sloAbove == null);
    }
    return Collections.unmodifiableMap(m);
  }

  /**
   * A few lines for the console.
   *
   * @return the lines, never empty
   */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    LevelResult top = peak();
    if (stillGrowing) {
      lines.add(
          String.format(
              Locale.ROOT,
              "no saturation seen for %s over %d levels: throughput still growing at the highest"
                  + " level, %s (level %d), %.2f requests/s, %.1f output tokens/s",
              scenario,
              levels.size(),
              top.level().describeLoad(),
              top.index(),
              top.requestsPerS(),
              top.outputTokensPerS()));
    } else
      lines.add(
          String.format(
              Locale.ROOT,
              "saturation of %s over %d levels: %s (level %d), %.2f requests/s, %.1f output"
                  + " tokens/s; the highest, %.1f tokens/s, at %s",
              scenario,
              levels.size(),
              saturation.level().describeLoad(),
              saturation.index(),
              saturation.requestsPerS(),
              saturation.outputTokensPerS(),
              maxOutputTokensPerS,
              top.level().describeLoad()));
    if (sloRatio != null) {
      String where;
      if (sloLoad == null) {
        where =
            "no level met it (level "
                + sloAbove.index()
                + ", "
                + sloAbove.level().describeLoad()
                + ", attainment "
                + ratio(sloAbove.attainment())
                + ")";
      } else if (sloAbove == null) {
        where = "every level met it, up to " + loadText(sloLoad);
      } else {
        where =
            "met up to "
                + loadText(sloLoad)
                + " (interpolated between level "
                + sloBelow.index()
                + " at "
                + sloBelow.level().describeLoad()
                + ", attainment "
                + ratio(sloBelow.attainment())
                + ", and level "
                + sloAbove.index()
                + " at "
                + sloAbove.level().describeLoad()
                + ", attainment "
                + ratio(sloAbove.attainment())
                + ")";
      }
      lines.add(
          "SLO with at least "
              + LoadLevel.describeNumber(sloRatio)
              + " of requests meeting it: "
              + where);
    }
    if (stoppedEarly) {
      lines.add("stopped early: " + stopReason);
    }
    return lines;
  }

  /**
   * The sentence saying several stepped scenarios ran side by side on one server, or null when
   * there is one.
   *
   * @param all the saturations of {@link #all}
   * @return e.g. {@code "2 stepped scenarios (chat, batch) shared the server: each one's levels saw
   *     the others' load, so each saturation is that of the scenario with the others running"}
   */
  public static String shared(List<Saturation> all) {
    if (all.size() < 2) {
      return null;
    }
    return all.size()
        + " stepped scenarios ("
        + String.join(", ", all.stream().map(Saturation::scenario).toList())
        + ") shared the server: each one's levels saw the others' load, so each saturation is"
        + " that of the scenario with the others running";
  }

  /** Below this many E2E p50s in a level's measured window, its figures are not trusted. */
  public static final double MIN_E2E_PER_LEVEL = 10;

  /**
   * Warnings for levels too short for their latency: a level whose measured seconds are under
   * {@value #MIN_E2E_PER_LEVEL} times its E2E p50 holds few request lifetimes, and its requests
   * that straddle its edges weigh too much on its throughput (a short closed level can report more
   * than the server's capacity).
   *
   * @param results the levels, never null
   * @return one sentence per such level, possibly empty, unmodifiable
   */
  public static List<String> shortLevels(List<LevelResult> results) {
    List<String> list = new ArrayList<>();
    for (LevelResult r : results) {
      Double p50 = r.summary().e2eMs().count() == 0 ? null : r.summary().e2eMs().p50();
      if (p50 != null && p50 > 0 && r.durationS() * 1000 < MIN_E2E_PER_LEVEL * p50) {
        list.add(
            String.format(
                Locale.ROOT,
                "level %d of %s (%s) lasted %.1f s, under %s times its E2E p50 (%.0f ms): its"
                    + " figures are unreliable (make levels last longer, e.g. sweep's"
                    + " levelDuration)",
                r.index(),
                r.level().scenario(),
                r.level().describeLoad(),
                r.durationS(),
                LoadLevel.describeNumber(MIN_E2E_PER_LEVEL),
                p50));
      }
    }
    return Collections.unmodifiableList(list);
  }

  /**
   * The level with the highest output tokens/s (the highest load among equals).
   *
   * @return one of {@code levels}
   */
  public LevelResult peak() {
    LevelResult top = levels.get(0);
    for (LevelResult r : levels) {
      if (r.outputTokensPerS() == maxOutputTokensPerS) {
        top = r;
      }
    }
    return top;
  }

  private static String ratio(Double v) {
    return v == null ? "unknown" : String.format(Locale.ROOT, "%.3f", v);
  }
}
