package io.github.gatlingllm.protocol;

import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.levels.InjectionRecords;
import io.github.gatlingllm.levels.LevelResult;
import io.github.gatlingllm.levels.LevelTracker;
import io.github.gatlingllm.levels.LoadLevel;
import io.github.gatlingllm.levels.OverCapacity;
import io.github.gatlingllm.levels.Saturation;
import io.github.gatlingllm.levels.SaturationSettings;
import io.github.gatlingllm.levels.Scaling;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.Levels;
import io.github.gatlingllm.record.SaturationBlock;
import io.github.gatlingllm.report.Console;
import io.github.gatlingllm.settings.LlmSettings;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.HashSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.function.BiFunction;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The run's load levels as the run goes: sorts each request into its level ({@link
 * LevelTracker}), judges each level once all its requests have ended (or {@code llm.timeout} after
 * its end, when none can still be in flight), stops the run at the first over-saturated level with
 * {@code llm.stopWhenSaturated}, logs the {@code SLO LOAD} row of {@code llm.assert.sloLoadAtLeast}
 * once the load meeting the SLO is known, and writes {@code levels}, {@code saturation} and {@code
 * load.injection} into the run record. Thread-safe.
 */
final class LevelWatch {

  private static final Logger LOG = LoggerFactory.getLogger(LevelWatch.class);

  /** The request name a request name is mapped to when several scenarios send it. */
  private static final String SEVERAL = "";

  private final List<Injection> injections;
  private final LlmSettings settings;
  private final SaturationSettings rules;
  private final GatlingCore gatling;
  private final LongSupplier inFlight;
  private final LevelTracker tracker;
  private final String sloScenario;
  private final int sloScenarioLevels;
  private final long maxWaitMs;
  private final ConcurrentHashMap<String, String> scenarios = new ConcurrentHashMap<>();
  private final Set<LoadLevel> judged = new HashSet<>();
  private final Map<String, LevelResult> lastJudged = new HashMap<>();
  private final List<LevelResult> sloJudged = new ArrayList<>();
  private volatile long nextCheckMs;
  private volatile int placed;
  private volatile String stopReason;
  private String overSaturation;
  private final Map<String, Integer> judgedPerScenario = new HashMap<>();
  private volatile long stoppedAtMs = Long.MAX_VALUE;
  private volatile boolean stopHanded;
  private volatile Runnable drain = () -> {};
  private boolean verdictLogged;

  /**
   * Watches a run's levels.
   *
   * @param injections every scenario's profile, never null (empty when unknown)
   * @param settings the run's settings
   * @param gatling Gatling's core, for the {@code SLO LOAD} row
   * @param inFlight the LLM requests in flight now
   * @param injectorStart a scenario's open injection start by Gatling's clock, or null while
   *     unknown (see {@link LevelTracker#injectorStart})
   * @throws IllegalArgumentException if {@code llm.assert.sloLoadAtLeast} is set but no scenario
   *     has 2 levels or more
   */
  LevelWatch(
      List<Injection> injections,
      LlmSettings settings,
      GatlingCore gatling,
      LongSupplier inFlight,
      java.util.function.Function<String, Long> injectorStart) {
    this.injections = List.copyOf(injections);
    this.settings = settings;
    this.rules = settings.saturation();
    this.gatling = gatling;
    this.inFlight = inFlight;
    this.tracker = new LevelTracker(injections, settings.slo());
    tracker.injectorStart(injectorStart);
    this.maxWaitMs = settings.timeout().toMillis();
    String most = null;
    int count = 0;
    for (Injection i : injections) {
      int n = LoadLevel.count(i);
      if (n > count) {
        most = i.scenario();
        count = n;
      }
    }
    this.sloScenario = most;
    this.sloScenarioLevels = count;
  }

  /**
   * Watches a run's levels, its root scenarios' levels anchored on their first LLM request.
   *
   * @param injections every scenario's profile
   * @param settings the run's settings
   * @param gatling Gatling's core
   * @param inFlight the LLM requests in flight now
   */
  LevelWatch(
      List<Injection> injections,
      LlmSettings settings,
      GatlingCore gatling,
      LongSupplier inFlight) {
    this(injections, settings, gatling, inFlight, null);
  }

  /**
   * The line that says, before any load, when {@code llm.stopWhenSaturated} stops the run: the rule
   * of {@link OverCapacity#rule} for the loops whose profiles have load levels (closed, open, or
   * both).
   *
   * @return the line, never null
   */
  String earlyStopLine() {
    boolean closed = false;
    boolean open = false;
    for (Injection i : injections) {
      if (LoadLevel.count(i) > 0) {
        closed |= i.closed();
        open |= !i.closed();
      }
    }
    return "EARLY STOP ON (llm.stopWhenSaturated): the run stops at the end of the first load level "
        + OverCapacity.rule(rules, closed, open);
  }

  /**
   * Checks the settings against the profiles and says what is on, before any load.
   *
   * @param injectionUnknown why the profiles could not be read, or null
   * @throws IllegalArgumentException if {@code llm.assert.sloLoadAtLeast} cannot be evaluated
   */
  void announce(String injectionUnknown) {
    if (rules.sloLoadAtLeast() != null && injectionUnknown == null && sloScenarioLevels < 2) {
      throw new IllegalArgumentException(
          "llm.assert.sloLoadAtLeast: "
              + rules.sloLoadAtLeast()
              + " needs a scenario whose injection profile has 2 load levels or more (steady"
              + " steps such as constantConcurrentUsers or constantUsersPerSec, e.g. sweep()), got"
              + " "
              + (sloScenario == null ? "none" : sloScenarioLevels + " in " + sloScenario));
    }
    if (tracker.hasLevels()) {
      long steps = injections.stream().mapToLong(LoadLevel::count).sum();
      LOG.info(
          "load levels: {} steady step{} ({}); each gets its own figures in llm-run.json's levels",
          steps,
          steps == 1 ? "" : "s",
          String.join("; ", injections.stream().map(InjectionRecords::describe).toList()));
    }
    if (rules.stopWhenSaturated()) {
      if (tracker.hasLevels()) {
        LOG.warn("{}", earlyStopLine());
      } else {
        LOG.warn(
            "llm.stopWhenSaturated is set but no injection profile has a load level (a steady"
                + " step): nothing to stop on");
      }
    }
  }

  /**
   * A virtual user of a scenario starts an LLM request now.
   *
   * @param scenario the scenario's name
   * @param request the request's name
   * @param nowMs now, epoch ms of Gatling's clock
   */
  void started(String scenario, String request, long nowMs) {
    String known = scenarios.putIfAbsent(request, scenario);
    if (known != null && !known.equals(scenario) && !known.equals(SEVERAL)) {
      scenarios.put(request, SEVERAL);
    }
    tracker.started(scenario, nowMs);
  }

  /**
   * Leaves a scenario out of the load levels: the capacity search sets its load and records its own
   * levels ({@link LevelTracker#exclude}).
   *
   * @param scenario the scenario's name
   */
  void exclude(String scenario) {
    tracker.exclude(scenario);
  }

  /**
   * When a scenario's injection profile ends.
   *
   * @param scenario the scenario's name
   * @return epoch ms, or null while not known (see {@link LevelTracker#profileEndMs})
   */
  Long profileEndMs(String scenario) {
    return tracker.profileEndMs(scenario);
  }

  /**
   * The load levels in force at an instant (the live endpoint's load-level gauge): one per scenario
   * whose steady step holds it; none during a ramp, before the first request or after the last
   * level.
   *
   * @param nowMs the instant, epoch ms of Gatling's clock
   * @return a new list, in start order
   */
  List<LoadLevel> current(long nowMs) {
    List<LoadLevel> now = new ArrayList<>();
    for (LevelTracker.Slot slot : tracker.slots()) {
      if (slot.level().contains(nowMs)) {
        now.add(slot.level());
      }
    }
    return now;
  }

  /**
   * A request ended and was recorded.
   *
   * @param record the request
   * @param nowMs now, epoch ms
   */
  void record(RequestRecord record, long nowMs) {
    Placement p = placement(record);
    if (p.slot() != null) {
      p.slot().aggregate(record);
    }
    record(p, nowMs);
  }

  /**
   * Where a finished request belongs, without adding it anywhere: its scenario and its level's slot
   * ({@link LevelTracker#slotOf}). The caller queues the record and the slot for {@link
   * LevelTracker.Slot#aggregate} on the aggregator thread, then calls {@link #record(Placement,
   * long)}, in that order.
   *
   * @param record the request, never null
   * @return the placement, never null
   */
  Placement placement(RequestRecord record) {
    String scenario = scenarios.get(record.request());
    String s = scenario == null || scenario.equals(SEVERAL) ? null : scenario;
    return new Placement(s, tracker.slotOf(s, record), record);
  }

  /**
   * A request ended and was queued for its level's figures ({@link #placement}): places it (its
   * level's pending count, what it served, or what it is left out as) and judges the levels that
   * are over, the queued figures applied first ({@link #aggregatedBy}).
   *
   * @param placement the request's placement
   * @param nowMs now, epoch ms
   */
  void record(Placement placement, long nowMs) {
    tracker.placed(placement.scenario(), placement.record(), placement.slot());
    check(nowMs);
  }

  /**
   * What applies the levels' queued figures on the calling thread ({@code AggregatorThread.drain}):
   * run before a level's result is read.
   *
   * @param drain never null
   */
  void aggregatedBy(Runnable drain) {
    this.drain = java.util.Objects.requireNonNull(drain, "drain");
  }

  /**
   * A finished request's scenario (null when unknown or several) and level's slot (null when none).
   *
   * @param scenario the scenario, or null
   * @param slot the slot, or null
   * @param record the request
   */
  record Placement(String scenario, LevelTracker.Slot slot, RequestRecord record) {}

  /**
   * A prompt handed out and never sent was recorded as cut by the run's end: left out of every
   * level, counted apart ({@link LevelTracker#notSent}).
   *
   * @param record the never-sent request's record
   */
  void notSent(RequestRecord record) {
    tracker.notSent(record);
  }

  /**
   * Judges the levels that are over and, once, hands back why the run must stop.
   *
   * @param nowMs now, epoch ms
   * @return the stop message for Gatling, or null to go on
   */
  String stopNow(long nowMs) {
    check(nowMs);
    if (stopReason == null || stopHanded) {
      return null;
    }
    synchronized (this) {
      if (stopHanded) {
        return null;
      }
      stopHanded = true;
      stoppedAtMs = nowMs;
      return "gatling-llm: over-saturated, stopping (llm.stopWhenSaturated): " + stopReason;
    }
  }

  private void check(long nowMs) {
    if (nowMs < nextCheckMs && tracker.slotCount() == placed) {
      return;
    }
    judge(nowMs);
  }

  private synchronized void judge(long nowMs) {
    List<LevelTracker.Slot> slots = tracker.slots();
    placed = slots.size();
    List<LevelResult> results = null;
    long next = Long.MAX_VALUE;
    Set<String> blocked = new HashSet<>();
    for (int i = 0; i < slots.size(); i++) {
      LevelTracker.Slot slot = slots.get(i);
      LoadLevel level = slot.level();
      if (judged.contains(level) || blocked.contains(level.scenario())) {
        continue;
      }
      boolean complete =
          nowMs >= level.endMs()
              && (slot.pending() <= 0
                  || inFlight.getAsLong() == 0
                  || nowMs >= level.endMs() + maxWaitMs);
      if (!complete) {
        blocked.add(level.scenario());
        next = Math.min(next, nowMs < level.endMs() ? level.endMs() : nowMs);
        continue;
      }
      judged.add(level);
      if (results == null) {
        drain.run();
        results = tracker.results(slots, Long.MAX_VALUE);
      }
      judge(results.get(i), nowMs);
    }
    nextCheckMs = next;
  }

  private void judge(LevelResult result, long nowMs) {
    LevelResult previous = lastJudged.put(result.level().scenario(), result);
    Scaling scaling = previous == null ? null : Scaling.of(previous, result, rules);
    LOG.info(
        "load level {} of {} ({}) over: {} requests, {} requests/s, {} output tokens/s, TTFT p50 {}"
            + " ms, p99 {} ms, E2E p50 {} ms{}",
        result.index(),
        result.level().scenario(),
        result.level().describeLoad(),
        result.summary().requests(),
        String.format(Locale.ROOT, "%.2f", result.requestsPerS()),
        String.format(Locale.ROOT, "%.1f", result.outputTokensPerS()),
        result.summary().ttftMs().p50(),
        result.summary().ttftMs().p99(),
        result.summary().e2eMs().p50(),
        scaling == null
            ? ""
            : String.format(
                Locale.ROOT,
                "; closed-loop scaling %s: %s",
                scaling.scaling() == null
                    ? "unknown"
                    : String.format(Locale.ROOT, "%.3f", scaling.scaling()),
                scaling.describe()));
    int judgedOfScenario = judgedPerScenario.merge(result.level().scenario(), 1, Integer::sum);
    if (previous != null && overSaturation == null) {
      String reason = Saturation.overSaturated(previous, result, rules);
      if (reason != null) {
        overSaturation = reason;
        boolean more = judgedOfScenario < levelsOf(result.level().scenario());
        if (rules.stopWhenSaturated() && more) {
          Console.warning(
              LOG, "OVER-SATURATED, stopping the run (llm.stopWhenSaturated): " + reason);
          stopReason = reason;
        } else {
          Console.warning(
              LOG,
              "OVER-SATURATED: "
                  + reason
                  + (rules.stopWhenSaturated() ? " (its last level: nothing left to stop)" : ""));
        }
      }
    }
    if (result.level().scenario().equals(sloScenario)) {
      sloJudged.add(result);
      boolean last = sloJudged.size() >= sloScenarioLevels;
      if (rules.sloLoadAtLeast() != null && !verdictLogged) {
        List<LevelResult> ascending = new ArrayList<>(sloJudged);
        ascending.sort(Comparator.comparingDouble(r -> r.level().load()));
        Saturation.SloLoad walk = Saturation.sloLoad(ascending, levelAttainment());
        if (walk.settled() || last || stopReason != null) {
          logVerdict(walk, ascending, nowMs);
        }
      }
    }
  }

  private int levelsOf(String scenario) {
    for (Injection i : injections) {
      if (i.scenario().equals(scenario)) {
        return LoadLevel.count(i);
      }
    }
    return 0;
  }

  /** When a level meets the SLO ({@code llm.slo.levelAttainment}); never the run's assertion. */
  private double levelAttainment() {
    return rules.levelAttainment();
  }

  private void logVerdict(Saturation.SloLoad walk, List<LevelResult> ascending, long nowMs) {
    verdictLogged = true;
    double bound = rules.sloLoadAtLeast();
    boolean ok = walk.load() != null && walk.load() >= bound;
    String unit = ascending.get(0).level().closed() ? " users" : " users/s";
    String message =
        ok
            ? null
            : "the highest load meeting the SLO is "
                + (walk.load() == null
                    ? "none (the lowest level, "
                        + ascending.get(0).level().describeLoad()
                        + ", missed it)"
                    : LoadLevel.describeNumber(walk.load()) + unit)
                + ", below llm.assert.sloLoadAtLeast "
                + LoadLevel.describeNumber(bound)
                + unit;
    if (ok) {
      LOG.info(
          "SLO load {}{} >= llm.assert.sloLoadAtLeast {}",
          LoadLevel.describeNumber(walk.load()),
          unit,
          LoadLevel.describeNumber(bound));
    } else {
      LOG.error("{}", message);
    }
    // A verdict, not a timing: a figure of no duration (as a request row it was a 30 s "response
    // time" and a KO in Global).
    gatling.logFigure(sloScenario, List.of(), LlmProtocol.SLO_LOAD_ROW, nowMs, nowMs, ok);
  }

  /**
   * Up to when the levels are measured, for {@link #addTo}: a run whose injection was over ran
   * every level to its end (an open loop's last user arrives before its level's end and the run
   * ends when it is served, often a few ms before the level's end: that level was not cut short),
   * any other end (a spent budget, a stop, a signal) at {@code nowMs}.
   *
   * @param reason why the run ended, never null
   * @param nowMs when it ended, epoch ms
   * @return {@link Long#MAX_VALUE} for {@link RunEnd.Reason#INJECTION_OVER}, else {@code nowMs}
   */
  static long levelsUntil(RunEnd.Reason reason, long nowMs) {
    return reason == RunEnd.Reason.INJECTION_OVER ? Long.MAX_VALUE : nowMs;
  }

  /**
   * Adds the levels, the saturation and the injection to the run record, and prints the saturation.
   *
   * @param info the run record's maps, its {@code load} map included
   * @param peakConcurrency the most LLM requests in flight at once
   * @param endMs when the run ended, epoch ms: levels are measured up to it, or up to the early
   *     stop
   * @param client the client's figures of each level's window (start ms, end ms): its schedule lag
   *     and CPU share; or null
   */
  void addTo(
      Map<String, Object> info,
      long peakConcurrency,
      long endMs,
      BiFunction<Long, Long, LevelEntry.Client> client) {
    addTo(info, peakConcurrency, endMs, client, false);
  }

  /**
   * Adds the levels, the saturation and the injection to the run record, and prints the saturation.
   *
   * @param info the run record's maps, its {@code load} map included
   * @param peakConcurrency the most LLM requests in flight at once
   * @param endMs when the run ended, epoch ms: levels are measured up to it, or up to the early
   *     stop
   * @param client the client's figures of each level's window (start ms, end ms): its schedule lag
   *     and CPU share; or null
   * @param budgetSpent whether the run ended because its request budget was spent ({@link
   *     RunEnd.Reason#BUDGET_SPENT}): a level it cut short was bounded by the budget, and a warning
   *     that it was too short says to give the run more requests
   */
  @SuppressWarnings("unchecked")
  synchronized void addTo(
      Map<String, Object> info,
      long peakConcurrency,
      long endMs,
      BiFunction<Long, Long, LevelEntry.Client> client,
      boolean budgetSpent) {
    if (info.get("load") instanceof Map<?, ?> load) {
      Map<String, Object> m = new LinkedHashMap<>((Map<String, Object>) load);
      m.put("profiles", injections.stream().map(InjectionRecords::describe).toList());
      m.put("injection", InjectionRecords.toRecords(injections));
      m.put("peak_concurrency", peakConcurrency);
      info.put("load", m);
    }
    drain.run();
    List<LevelResult> results = tracker.results(tracker.slots(), Math.min(endMs, stoppedAtMs));
    Levels levels = tracker.toRecord(results, client);
    if (levels == null) {
      return;
    }
    List<String> warnings = Saturation.shortLevels(results, budgetSpent);
    for (String w : warnings) {
      LOG.warn("{}", w);
    }
    info.putAll(levels.withWarnings(warnings).fields());
    Saturation saturation =
        Saturation.of(results, rules, settings.slo(), rules.levelAttainment(), stopReason);
    if (tracker.leftOutAny()) {
      // Said only when it says something: a level holds the requests that started in it.
      LOG.info("{}", tracker.note());
    }
    if (saturation == null) {
      return;
    }
    List<Saturation> all =
        Saturation.all(results, rules, settings.slo(), rules.levelAttainment(), stopReason);
    String shared = Saturation.shared(all);
    List<SaturationBlock> each = new ArrayList<>();
    for (Saturation one : all) {
      each.add(one.toRecord().withSharedServer(shared));
      for (String line : one.describe()) {
        LOG.info("{}", line);
      }
    }
    info.putAll(
        SaturationBlock.fields(
            new SaturationBlock.Run(saturation.toRecord().withSharedServer(shared), overSaturation),
            each));
    if (shared != null) {
      LOG.warn("{}", shared);
    }
    if (rules.sloLoadAtLeast() != null) {
      String shortfall = saturation.sloShortfall(rules.sloLoadAtLeast());
      if (shortfall != null && !verdictLogged) {
        LOG.error("{} (llm.assert.sloLoadAtLeast)", shortfall);
      }
    }
  }
}
