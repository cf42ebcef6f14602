package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.SaturationBlock;
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
 * <p><b>The verdict</b> ({@link #saturated()}, {@link #verdictLevel()}, {@link #verdictText()}),
 * one for the console, the report page, {@code llm-run.json} and {@code llm.stopWhenSaturated},
 * which judges each level as it ends by the same rule ({@link #overSaturated}):
 *
 * <ul>
 *   <li>a closed loop (concurrent users) saturated when a level is over capacity by closed-loop
 *       scaling ({@link Scaling}: its added users gave less than {@code llm.saturation.minScaling}
 *       of the output tokens/s they would give an unsaturated server while its TTFT or E2E p50
 *       grew; by Little's law, {@code X = N / R}, they only queued), or with too many errors; the
 *       saturation level is then the first level over capacity. Throughput still growing a little
 *       proves nothing: 2x users for +11% output tokens/s while TTFT p50 went 91 -> 406 ms is a
 *       saturated server;
 *   <li>an open loop (arrival rates) saturated when a level is over capacity: it served fewer
 *       requests than it was offered while its TTFT grew (the queue grows: the offered rate is past
 *       what the server can serve, whatever throughput did), or too many errors; the saturation
 *       level is the first such level. Throughput growing with the offered rate says nothing more
 *       in an open loop: it grows as long as the server keeps up.
 * </ul>
 *
 * Otherwise no saturation was seen, and no level is named as the saturation.
 *
 * <ul>
 *   <li><b>Saturation point</b>: among the levels, in load order, the first whose output tokens/s
 *       reach the highest level's less the tolerance ({@link SaturationSettings#throughputGain()},
 *       5% by default): the least load giving (nearly) the highest throughput sustained; more load
 *       past it buys less than the tolerance and only adds queueing. Not the verdict's level
 *       ({@link #verdictLevel()}): {@code llm-run.json} does not write it.
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
 *     tolerance over the level below it (a fact about throughput; the verdict is {@link
 *     #saturated()})
 * @param overCapacity the first level, in load order, over capacity against the one below it
 *     ({@link #overSaturated}), or null when none is
 * @param overCapacityReason why it is, in one clause without the level ({@link
 *     OverCapacity#overCapacity( LevelResult, LevelResult, SaturationSettings)}), or null
 * @param tolerance the throughput gain under which throughput is flat ({@link
 *     SaturationSettings#throughputGain()})
 * @param settings the thresholds the verdict used, never null
 * @param scalings a closed loop's closed-loop scaling between each level and the one below it of
 *     fewer users, in load order (empty for an open loop), never null (copied)
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
    boolean stillGrowing,
    LevelResult overCapacity,
    String overCapacityReason,
    double tolerance,
    SaturationSettings settings,
    List<Scaling> scalings) {

  /** The SLO attainment a level needs without {@code llm.slo.levelAttainment}. */
  public static final double DEFAULT_SLO_RATIO = 0.95;

  /** Checks and copies. */
  public Saturation {
    Objects.requireNonNull(scenario, "scenario");
    levels = List.copyOf(levels);
    Objects.requireNonNull(saturation, "saturation");
    Objects.requireNonNull(settings, "settings");
    scalings = List.copyOf(scalings);
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
    LevelResult overCapacity = null;
    String overCapacityReason = null;
    for (int i = 1; i < levels.size() && overCapacity == null; i++) {
      overCapacityReason = OverCapacity.overCapacity(levels.get(i - 1), levels.get(i), settings);
      if (overCapacityReason != null) {
        overCapacity = levels.get(i);
      }
    }
    List<Scaling> scalings = new ArrayList<>();
    for (int i = 1; i < levels.size(); i++) {
      Scaling one = Scaling.of(levels.get(i - 1), levels.get(i), settings);
      if (one != null) {
        scalings.add(one);
      }
    }
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
        growing,
        overCapacity,
        overCapacityReason,
        settings.throughputGain(),
        settings,
        scalings);
  }

  /**
   * The verdict: whether the levels show the server saturated (see the class comment).
   *
   * @return true when a level is over capacity: in a closed loop by closed-loop scaling ({@link
   *     Scaling}), in an open loop by falling short of its offered rate while its latency grew, in
   *     both by its errors. A closed loop whose highest level's throughput is flat but whose
   *     latency did not grow is not saturated: by Little's law its users did not wait longer, so
   *     the server was not what held them (the client, a budget, a pause)
   */
  public boolean saturated() {
    return overCapacity != null;
  }

  /**
   * The level named as the saturation, as everything that shows the verdict names it: the first
   * level, in load order, over capacity, where the levels show the server saturated (in a closed
   * loop, where added users only queued). Not the saturation point ({@link #saturation()}, the
   * least load within the tolerance of the peak throughput): that one moves with a few percent of
   * noise on the highest level (the simulator's 4 slots at 1 to 8 users: 4 users in one run, 8 in
   * the next, the rule firing at 8 users in both).
   *
   * @return the first level over capacity; null when {@link #saturated()} is false
   */
  public LevelResult verdictLevel() {
    return overCapacity;
  }

  /**
   * The closed-loop scaling of the highest level over the level below it, or null (an open loop, or
   * the same load twice).
   */
  private Scaling topScaling() {
    if (scalings.isEmpty()) {
      return null;
    }
    Scaling last = scalings.get(scalings.size() - 1);
    return last.level() == levels.get(levels.size() - 1) ? last : null;
  }

  /**
   * The verdict in one clause, the same on the console, the report page and in {@code
   * llm-run.json}'s {@code verdict_text}, e.g. {@code saturated at 3 users/s (level 3, 2.57
   * requests/s, 82.0 output tokens/s): over capacity: served 2.57 of 3.00 offered requests/s (14.4%
   * short) while TTFT p50 grew 44.9x over level 2 (2 users/s), 57 -> 2560 ms (...)}, {@code
   * saturated at 2 users (level 1, 1.46 requests/s, 93.6 output tokens/s): over capacity: 2x users
   * over level 0 (1 user) gave +11.4% output tokens/s (84.0 -> 93.6), 11.4% of the +100% an
   * unsaturated server gives them, while TTFT p50 went 91 -> 406 ms (4.5x): the added users only
   * added latency, by closed-loop scaling (...)}, {@code saturated at 16 users (level 2, ...): over
   * capacity: ...; peak 710.0 output tokens/s at 32 users (level 3)}, {@code no saturation seen
   * over 3 levels: no level's added users gave less than 0.25 of the output tokens/s they would
   * give an unsaturated server while its TTFT or E2E p50 grew 1.5x (closed-loop scaling); the
   * highest, 4 users (level 2), 10.00 requests/s, 400.0 output tokens/s: 2x users over level 1 (2
   * users) gave +100.0% ...}, {@code no saturation seen over 3 levels: no level fell short of its
   * offered rate while its TTFT grew; the highest, 2 users/s (level 2), served 1.98 of 2.00
   * requests/s, 63.5 output tokens/s}.
   *
   * @return the clause, never null
   */
  public String verdictText() {
    LevelResult top = levels.get(levels.size() - 1);
    LevelResult at = verdictLevel();
    if (at == null) {
      if (closed) {
        Scaling scaling = topScaling();
        return String.format(
                Locale.ROOT,
                "no saturation seen over %d levels: no level's added users gave less than %s of"
                    + " the output tokens/s they would give an unsaturated server while its TTFT or"
                    + " E2E p50 grew %sx (closed-loop scaling); the highest, %s (level %d), %.2f"
                    + " requests/s, %.1f output tokens/s",
                levels.size(),
                LoadLevel.describeNumber(settings.minScaling()),
                LoadLevel.describeNumber(settings.ttftGrowth()),
                top.level().describeLoad(),
                top.index(),
                top.requestsPerS(),
                top.outputTokensPerS())
            + (scaling == null ? "" : ": " + scaling.describe());
      }
      return String.format(
          Locale.ROOT,
          "no saturation seen over %d levels: no level fell short of its offered rate while"
              + " its %s grew; the highest, %s (level %d), served %.2f of %.2f requests/s,"
              + " %.1f output tokens/s",
          levels.size(),
          top.summary().ttftMs().p50() != null ? "TTFT" : "E2E",
          top.level().describeLoad(),
          top.index(),
          top.requestsPerS(),
          top.offeredRequestsPerS(),
          top.outputTokensPerS());
    }
    StringBuilder text =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "saturated at %s (level %d, %.2f requests/s, %.1f output tokens/s)",
                at.level().describeLoad(),
                at.index(),
                at.requestsPerS(),
                at.outputTokensPerS()));
    text.append(": over capacity: ").append(overCapacityReason);
    LevelResult peak = peak();
    if (closed && peak != at) {
      text.append(
          String.format(
              Locale.ROOT,
              "; peak %.1f output tokens/s at %s (level %d)",
              maxOutputTokensPerS,
              peak.level().describeLoad(),
              peak.index()));
    }
    return text.toString();
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
   * An open-loop level must fall short of its offered load by more than this many requests to be
   * over capacity ({@link OverCapacity#MIN_SHORTFALL_REQUESTS}).
   */
  public static final int MIN_SHORTFALL_REQUESTS = OverCapacity.MIN_SHORTFALL_REQUESTS;

  /**
   * Whether a level is over-saturated (over capacity) against the one before it of the same
   * scenario: the rule of {@code llm.stopWhenSaturated} and of the verdict ({@link #saturated()}),
   * {@link OverCapacity#overSaturated}.
   *
   * @param previous the level before, never null
   * @param current the level, never null
   * @param settings the thresholds
   * @return why, in one line naming the level and the settings, or null when it is not
   */
  public static String overSaturated(
      LevelResult previous, LevelResult current, SaturationSettings settings) {
    return OverCapacity.overSaturated(previous, current, settings);
  }

  private static String percent(double share) {
    return OverCapacity.percent(share);
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
   * concurrency} or {@code rate}), {@code levels} (their count), {@code saturation_level} (the
   * verdict's level, {@link #verdictLevel()}: its index over the run), {@code
   * saturation_scenario_level} (its index in its scenario), {@code saturation_concurrency} or
   * {@code saturation_rate}, {@code saturation_requests_per_s}, {@code
   * saturation_output_tokens_per_s} (these five null when no saturation was seen), {@code
   * max_output_tokens_per_s}, {@code max_level} and {@code max_concurrency} or {@code max_rate}
   * (where that peak was), {@code still_growing} (no saturation seen: the opposite of {@code
   * saturated}), {@code stopped_early}, {@code stop_reason}, with an SLO {@code slo_ratio}, {@code
   * slo_load} (null when none), {@code slo_level_below} and {@code slo_level_above} (level indices
   * or null), {@code slo_met_at_every_level}; then the verdict: {@code saturated} ({@link
   * #saturated()}), {@code over_capacity_level} (the first level over capacity, or null), {@code
   * over_capacity} (why, or null), {@code throughput_still_growing} (the highest level's output
   * tokens/s grew more than the tolerance) and {@code verdict_text} ({@link #verdictText()}); then
   * the rule's numbers: {@code rule} ({@code closed_loop_scaling} or {@code open_loop_shortfall}),
   * {@code ttft_growth} ({@code llm.saturation.ttftGrowth}), {@code throughput_gain} ({@code
   * llm.saturation.throughputGain}), and for a closed loop {@code min_scaling} ({@code
   * llm.saturation.minScaling}) and {@code scaling}: one entry per level with more users than the
   * level below it ({@link Scaling#toRecord()}).
   *
   * @return the block, never null
   */
  public SaturationBlock toRecord() {
    LevelResult at = verdictLevel();
    LevelResult peak = peak();
    boolean slo = sloRatio != null;
    return new SaturationBlock(
        scenario,
        closed ? "concurrency" : SaturationBlock.RATE,
        levels.size(),
        at == null ? null : at.index(),
        at == null ? null : at.scenarioIndex(),
        at == null ? null : at.loadValue(),
        at == null ? null : at.requestsPerS(),
        at == null ? null : at.outputTokensPerS(),
        maxOutputTokensPerS,
        peak.index(),
        peak.loadValue(),
        !saturated(),
        stoppedEarly,
        stopReason,
        sloRatio,
        slo ? sloLoad : null,
        slo && sloBelow != null ? sloBelow.index() : null,
        slo && sloAbove != null ? sloAbove.index() : null,
        slo ? sloBelow != null && sloAbove == null : null,
        saturated(),
        overCapacity == null ? null : overCapacity.index(),
        overCapacity == null
            ? null
            : "level "
                + overCapacity.index()
                + " ("
                + overCapacity.level().describeLoad()
                + "): "
                + overCapacityReason,
        stillGrowing,
        verdictText(),
        closed ? "closed_loop_scaling" : "open_loop_shortfall",
        settings.ttftGrowth(),
        settings.throughputGain(),
        closed ? settings.minScaling() : null,
        closed ? scalings.stream().map(Scaling::toRecord).toList() : null,
        null,
        null);
  }

  /**
   * A few lines for the console: the verdict ({@link #verdictText()}) for the scenario, then the
   * SLO's and an early stop's.
   *
   * @return the lines, never empty
   */
  public List<String> describe() {
    List<String> lines = new ArrayList<>();
    lines.add("saturation of " + scenario + ": " + verdictText());
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
      lines.add(stopText(verdictText(), stopReason));
    }
    return lines;
  }

  /**
   * An early stop in words, after the verdict: its reason only when the verdict does not say it
   * already (the stop at the over-saturated level the verdict names says only where it stopped).
   *
   * @param verdict the verdict's sentence, e.g. {@code saturated at 24 users/s (...): over
   *     capacity: served ...}
   * @param stopReason the stop's reason, e.g. {@code level 3 (24 users/s): served ...}
   * @return e.g. {@code stopped early at level 3 (24 users/s) (llm.stopWhenSaturated)}, or {@code
   *     stopped early: REASON}
   */
  public static String stopText(String verdict, String stopReason) {
    int colon = stopReason == null ? -1 : stopReason.indexOf("): ");
    if (verdict != null && colon > 0 && verdict.contains(stopReason.substring(colon + 3))) {
      return "stopped early at " + stopReason.substring(0, colon + 1) + " (llm.stopWhenSaturated)";
    }
    return "stopped early: " + stopReason;
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
    return shortLevels(results, false);
  }

  /**
   * Warnings for levels too short for their latency (see {@link #shortLevels(List)}), each with the
   * advice that fits what bounded it: a level that ran its step's whole duration is made longer by
   * its step (e.g. sweep's {@code levelDuration}); one that the run's spent request budget ended
   * (the quickstart's single step, whose duration is only an upper bound) by more requests; one
   * that the run stopped in for another reason (an early stop, a signal) was cut, not short.
   *
   * @param results the levels, never null
   * @param budgetSpent whether the run ended because its request budget was spent
   * @return one sentence per such level, possibly empty, unmodifiable
   */
  public static List<String> shortLevels(List<LevelResult> results, boolean budgetSpent) {
    List<String> list = new ArrayList<>();
    for (LevelResult r : results) {
      Double p50 = r.summary().e2eMs().count() == 0 ? null : r.summary().e2eMs().p50();
      if (p50 != null && p50 > 0 && r.durationS() * 1000 < MIN_E2E_PER_LEVEL * p50) {
        String advice;
        if (!r.cutShort()) {
          advice = "make levels last longer, e.g. sweep's levelDuration";
        } else if (budgetSpent) {
          advice =
              "it ended when the run's request budget was spent, not at its step's end: give the"
                  + " run more requests, e.g. prompts().requests(n) or -Dllm.requests";
        } else {
          advice =
              String.format(
                  Locale.ROOT,
                  "cut short: the run stopped %.1f s into it, before its step's end",
                  (r.measuredToMs() - r.level().startMs()) / 1000.0);
        }
        list.add(
            String.format(
                Locale.ROOT,
                "level %d of %s (%s) lasted %.1f s, under %s times its E2E p50 (%.0f ms): its"
                    + " figures are unreliable (%s)",
                r.index(),
                r.level().scenario(),
                r.level().describeLoad(),
                r.durationS(),
                LoadLevel.describeNumber(MIN_E2E_PER_LEVEL),
                p50,
                advice));
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
