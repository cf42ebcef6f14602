package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.metrics.TokenArrivals;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.LevelEntry;
import io.github.gatlingllm.record.Levels;
import java.util.ArrayList;
import java.util.Collections;
import java.util.Comparator;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.atomic.LongAccumulator;
import java.util.concurrent.atomic.LongAdder;
import java.util.function.BiFunction;

/**
 * Sorts a run's requests into its load levels ({@link LoadLevel}) as they finish, and aggregates
 * each level as the run is aggregated. Thread-safe: every method may be called from every event
 * loop.
 *
 * <p>Where each profile starts on the clock (its anchor): every scenario that starts with the run
 * (no {@code andThen} parent) shares one anchor, the injector's start. It is read from Gatling's
 * injector ({@link #injectorStart}: the {@code startTime} an open injection adds its users' offsets
 * to) when a root scenario has an open injection in progress at the first LLM request; else
 * (closed-only roots, or Gatling's internals moved) it is estimated from the first LLM request a
 * root scenario starts (warmup included), taken as its first virtual user's start, minus the
 * profile's leading idle steps ({@link LoadLevel#leadMs}): late by the time that user took to reach
 * its LLM request (a few hundred ms at a run's start). {@code levels_anchor} says which. A scenario
 * chained with {@code andThen} has its own anchor, estimated from its own first request. A scenario
 * whose first virtual user reaches its first LLM request late (a pause before it) places its levels
 * late by that much: put the LLM request first in such scenarios, or let another root scenario
 * start the clock.
 *
 * <p>A request belongs to the level of its scenario it started in ({@link LoadLevel#contains}).
 * Only the measured phase counts (warmup requests are kept out of the level's figures, and a level
 * whose start a warmup took is measured from the warmup's end: {@link LevelResult}); measured
 * requests that started in a ramp between levels, before the first step or after the last are left
 * out of every level and counted ({@link #rampRequests()}, {@link #outsideRequests()}), so the
 * levels' requests plus these add up to the run's measured requests.
 *
 * <p>The scenario of a request is given by the caller; when it gives none (null) and exactly one
 * scenario has levels, that one is taken, else the request is counted in {@link
 * #unplacedRequests()}.
 */
public final class LevelTracker {

  private final Map<String, Injection> injections = new LinkedHashMap<>();
  private final Map<String, Integer> order = new LinkedHashMap<>();
  private final Slo slo;
  private final String onlyLevelled;
  private final ConcurrentHashMap<String, Long> anchors = new ConcurrentHashMap<>();
  private final ConcurrentHashMap<String, List<Slot>> byScenario = new ConcurrentHashMap<>();
  private final CopyOnWriteArrayList<Slot> slots = new CopyOnWriteArrayList<>();
  private final LongAdder ramps = new LongAdder();
  private final LongAdder outside = new LongAdder();
  private final LongAdder unplaced = new LongAdder();
  private final LongAdder notSent = new LongAdder();
  private final java.util.Set<String> excluded = ConcurrentHashMap.newKeySet();

  /** Per scenario, the latest end of its measured requests, epoch ms. */
  private final Map<String, LongAccumulator> lastEnd = new ConcurrentHashMap<>();

  private volatile Long rootAnchor;
  private volatile String rootAnchorSource;
  private volatile java.util.function.Function<String, Long> injectorStart;

  /** One anchored level and its requests so far. */
  public static final class Slot {
    private final LoadLevel level;
    private final MetricsAggregator aggregator;
    private final LongAdder pending = new LongAdder();
    private final LongAccumulator warmupEnd = new LongAccumulator(Math::max, Long.MIN_VALUE);
    private final LongAccumulator firstMeasuredStart =
        new LongAccumulator(Math::min, Long.MAX_VALUE);
    private final ServedBins served;

    Slot(LoadLevel level, Slo slo) {
      this.level = level;
      this.aggregator = new MetricsAggregator(slo);
      this.served = new ServedBins(level.startMs(), level.endMs());
    }

    /**
     * The level.
     *
     * @return never null
     */
    public LoadLevel level() {
      return level;
    }

    /**
     * Requests counted by {@link LevelTracker#started} in this level, less those {@link
     * LevelTracker#add}ed to it: the ones still in flight (it may go below 0 when a request's
     * recorded start falls in the next level).
     *
     * @return the count
     */
    public long pending() {
      return pending.sum();
    }

    /**
     * The level's result as if the run ended at {@code untilMs}.
     *
     * <p>Its measured window starts at the level's start or, when a warmup took that start, at the
     * later of the last warmup request's end and the first measured request's start (between the
     * two the client sent nothing measured: that wait is not the server's). A level the run cut
     * ends at {@code untilMs} or, when earlier, at the last end of a measured request of its
     * scenario ({@code lastEndMs}): after it the client had nothing in flight (its budget spent),
     * and counting that tail would lower the level's throughput below the run's for the same
     * requests.
     */
    LevelResult result(int index, int scenarioIndex, long untilMs, long lastEndMs) {
      long warm = warmupEnd.get();
      long from = warm == Long.MIN_VALUE ? level.startMs() : Math.max(level.startMs(), warm);
      from = Math.min(from, level.endMs() - 1);
      // What was served is summed over whole bins where the window's edge only cuts idle time.
      long servedFrom = from;
      long first = firstMeasuredStart.get();
      if (warm != Long.MIN_VALUE && first != Long.MAX_VALUE && first >= from) {
        from = Math.min(first, level.endMs() - 1);
        // nothing measured came before its first request: the bin holding it counts whole
        servedFrom = ServedBins.binEnd(level.startMs(), from) - ServedBins.BIN_MS;
      }
      long end = Math.min(level.endMs(), untilMs);
      long servedTo = -1;
      if (untilMs < level.endMs() && lastEndMs > from && lastEndMs < end) {
        end = lastEndMs;
        // nothing of the scenario's measured requests came after: its bin counts whole
        servedTo = Math.min(level.endMs(), ServedBins.binEnd(level.startMs(), lastEndMs));
      }
      long to = Math.max(from + 1, end);
      if (servedTo < to) {
        servedTo = to;
      }
      return new LevelResult(
          index,
          scenarioIndex,
          level,
          aggregator.summary().overall(),
          from,
          to,
          served.between(servedFrom, servedTo));
    }

    /**
     * Adds a request to the level's figures (the exact tables and histograms of every metric, each
     * ITL value): the costly half of {@link LevelTracker#add}. Thread-safe.
     *
     * @param record the request, never null
     */
    public void aggregate(RequestRecord record) {
      aggregator.add(record);
    }

    /** Whether the level began before {@code untilMs} or has a request. */
    boolean ran(long untilMs) {
      return level.startMs() < untilMs || aggregator.summary().overall().requests() > 0;
    }
  }

  /**
   * A tracker of the given profiles.
   *
   * @param injections one profile per scenario, never null; scenarios without a level are kept for
   *     nothing
   * @param slo the SLO each level's requests are judged against, {@link Slo#NONE} for none
   */
  public LevelTracker(List<Injection> injections, Slo slo) {
    this.slo = Objects.requireNonNull(slo, "slo");
    String levelled = null;
    int count = 0;
    for (Injection i : Objects.requireNonNull(injections, "injections")) {
      this.injections.putIfAbsent(i.scenario(), i);
      order.putIfAbsent(i.scenario(), order.size());
      if (LoadLevel.count(i) > 0) {
        levelled = i.scenario();
        count++;
      }
    }
    this.onlyLevelled = count == 1 ? levelled : null;
  }

  /**
   * Reads the root scenarios' anchor from Gatling's injector rather than estimating it.
   *
   * @param start a scenario's injection start by the clock of {@link #started} (epoch ms), or null
   *     while unknown (not started, over, or not an open injection); may throw {@link
   *     RuntimeException} when Gatling's internals moved (the estimate is then used)
   */
  public void injectorStart(java.util.function.Function<String, Long> start) {
    this.injectorStart = start;
  }

  /**
   * Whether any profile has a level.
   *
   * @return true when some scenario's profile holds a steady load for a while
   */
  public boolean hasLevels() {
    return injections.values().stream().anyMatch(i -> LoadLevel.count(i) > 0);
  }

  /**
   * The profiles tracked.
   *
   * @return in the order given, unmodifiable
   */
  public List<Injection> injections() {
    return List.copyOf(injections.values());
  }

  /**
   * Notes that a scenario's virtual user starts an LLM request: the first such call of a scenario
   * (of any root scenario, for root scenarios) places its levels on the clock, and the request is
   * counted in flight in its level.
   *
   * @param scenario the scenario's name, or null when unknown
   * @param epochMs the request's start, epoch ms
   * @return the level the request starts in, or null when it starts in none
   */
  public LoadLevel started(String scenario, long epochMs) {
    String s = resolve(scenario);
    if (s == null) {
      return null;
    }
    anchor(s, epochMs);
    Slot slot = slot(s, epochMs);
    if (slot == null) {
      return null;
    }
    slot.pending.increment();
    return slot.level;
  }

  private void anchor(String scenario, long firstUserMs) {
    if (anchors.containsKey(scenario)) {
      return;
    }
    Injection injection = injections.get(scenario);
    synchronized (this) {
      if (anchors.containsKey(scenario)) {
        return;
      }
      if (injection.after().isEmpty()) {
        if (rootAnchor == null) {
          long estimate = firstUserMs - LoadLevel.leadMs(injection);
          Long read = readInjectorStart(firstUserMs);
          rootAnchor = read == null ? estimate : read;
          rootAnchorSource =
              read == null
                  ? "estimated: the first LLM request of a root scenario less its profile's"
                      + " leading idle steps"
                      + (injectorStart == null
                          ? ""
                          : " (no open injection in progress to read Gatling's injector start"
                              + " from, or its internals moved)")
                  : "Gatling's injector start ("
                      + (estimate - read)
                      + " ms before the first-request estimate)";
          for (Injection root : injections.values()) {
            if (root.after().isEmpty()) {
              place(root, rootAnchor);
            }
          }
        }
      } else {
        place(injection, firstUserMs - LoadLevel.leadMs(injection));
      }
    }
  }

  /** The injector's start of an open root scenario, or null; never after the first request. */
  private Long readInjectorStart(long firstUserMs) {
    java.util.function.Function<String, Long> read = injectorStart;
    if (read == null) {
      return null;
    }
    for (Injection root : injections.values()) {
      if (!root.after().isEmpty() || root.closed()) {
        continue;
      }
      try {
        Long ms = read.apply(root.scenario());
        if (ms != null && ms <= firstUserMs) {
          return ms;
        }
      } catch (RuntimeException e) {
        return null;
      }
    }
    return null;
  }

  /**
   * When a scenario's injection profile ends: its levels' anchor (placed at the scenario's first
   * LLM request, see {@link #started}) plus the profile's length.
   *
   * @param scenario the scenario's name
   * @return epoch ms by the clock of {@link #started}, or null while the scenario has not been
   *     placed on the clock (or is not tracked)
   */
  public Long profileEndMs(String scenario) {
    Long anchor = scenario == null ? null : anchors.get(scenario);
    Injection injection = anchor == null ? null : injections.get(scenario);
    return injection == null ? null : anchor + injection.durationMs();
  }

  /**
   * How the root scenarios' levels were placed on the clock.
   *
   * @return a sentence, or null before the first root request
   */
  public String rootAnchorSource() {
    return rootAnchorSource;
  }

  private void place(Injection injection, long anchorMs) {
    List<Slot> list = new ArrayList<>();
    for (LoadLevel level : LoadLevel.plan(injection, anchorMs)) {
      Slot slot = new Slot(level, slo);
      list.add(slot);
      slots.add(slot);
    }
    byScenario.put(injection.scenario(), List.copyOf(list));
    anchors.put(injection.scenario(), anchorMs);
  }

  private String resolve(String scenario) {
    String s =
        scenario != null && injections.containsKey(scenario)
            ? scenario
            : scenario == null ? onlyLevelled : null;
    return s == null || excluded.contains(s) ? null : s;
  }

  /**
   * Leaves a scenario out of the levels: a scenario whose load a controller sets while it runs (the
   * capacity search) has levels of its own, not its injection profile's steps. Its measured
   * requests are then counted as from a scenario without levels ({@link #unplacedRequests()}).
   *
   * @param scenario the scenario's name, never null
   */
  public void exclude(String scenario) {
    excluded.add(Objects.requireNonNull(scenario, "scenario"));
  }

  private Slot slot(String scenario, long epochMs) {
    List<Slot> list = byScenario.get(scenario);
    if (list == null) {
      return null;
    }
    for (Slot slot : list) {
      if (slot.level.contains(epochMs)) {
        return slot;
      }
    }
    return null;
  }

  /**
   * Counts a prompt handed out and never sent (recorded {@code cut_by_run_end} when the run ended
   * before its virtual user could send it): it started in no level, so it is left out of every
   * level and counted apart ({@code levels_left_out.not_sent}), so that the levels and what they
   * leave out still add up to the run's measured requests.
   *
   * @param record the never-sent request's record, never null
   */
  public void notSent(RequestRecord record) {
    Objects.requireNonNull(record, "record");
    if (!Phase.isWarmup(record.phase())) {
      notSent.increment();
    }
  }

  /**
   * Adds a finished request to the level it started in.
   *
   * @param scenario the scenario that sent it, or null when unknown
   * @param record the request, never null
   * @return the level it was added to, or null when none
   */
  public LoadLevel add(String scenario, RequestRecord record) {
    Slot slot = slotOf(scenario, record);
    LoadLevel level = placed(scenario, record, slot);
    if (slot != null) {
      slot.aggregate(record);
    }
    return level;
  }

  /**
   * The slot a finished request belongs to, without adding it anywhere: the first half of {@link
   * #add}, for a caller that aggregates the level's figures on another thread (issue 43: off the
   * event loop). The caller then hands the record over for {@link Slot#aggregate} (queued), calls
   * {@link #placed} (in that order: a level is complete once its requests are placed, so each must
   * be queued first), and applies what is queued before it reads a level's result.
   *
   * @param scenario the scenario that sent it, or null when unknown
   * @param record the request, never null
   * @return the slot, or null when the request is in no level
   */
  public Slot slotOf(String scenario, RequestRecord record) {
    Objects.requireNonNull(record, "record");
    String s = resolve(scenario);
    return s == null || anchors.get(s) == null ? null : slot(s, record.startMs());
  }

  /**
   * Everything {@link #add} does but the level's aggregates (see {@link #slotOf}): the request's
   * completion and tokens credited to the levels they fell in, its level's pending count, or the
   * count of requests left out (ramps, outside the profile, unplaced).
   *
   * @param scenario the scenario that sent it, or null when unknown
   * @param record the request, never null
   * @param slot {@link #slotOf} of the same request
   * @return the level it belongs to, or null when none
   */
  public LoadLevel placed(String scenario, RequestRecord record, Slot slot) {
    Objects.requireNonNull(record, "record");
    boolean measured = !Phase.isWarmup(record.phase());
    String s = resolve(scenario);
    Long anchor = s == null ? null : anchors.get(s);
    if (anchor == null) {
      if (measured) {
        unplaced.increment();
      }
      return null;
    }
    if (measured) {
      serve(s, record);
      lastEnd
          .computeIfAbsent(s, k -> new LongAccumulator(Math::max, Long.MIN_VALUE))
          .accumulate((long) Math.ceil(record.endMs()));
    }
    if (slot == null) {
      if (measured) {
        long t = record.startMs();
        if (t >= anchor && t < anchor + injections.get(s).durationMs()) {
          ramps.increment();
        } else {
          outside.increment();
        }
      }
      return null;
    }
    slot.pending.decrement();
    if (!measured) {
      slot.warmupEnd.accumulate((long) Math.ceil(record.endMs()));
    } else {
      slot.firstMeasuredStart.accumulate(record.startMs());
    }
    return slot.level;
  }

  /**
   * Credits a measured request's completion and tokens to the levels of its scenario they fell in.
   */
  private void serve(String scenario, RequestRecord r) {
    if (r.status() != RequestStatus.OK) {
      return;
    }
    List<Slot> list = byScenario.get(scenario);
    if (list == null) {
      return;
    }
    Slot done = slot(scenario, (long) Math.floor(r.endMs()));
    if (done != null) {
      done.served.completion(r.endMs());
    }
    double prefilled = r.ttftMs() == null ? r.endMs() : r.startMs() + r.ttftMs();
    Slot prefill = slot(scenario, (long) Math.floor(prefilled));
    if (prefill != null && r.promptTokens() != null) {
      prefill.served.input(prefilled, r.promptTokens());
    }
    TokenArrivals.visit(
        r,
        new TokenArrivals.Sink() {
          @Override
          public void at(double atMs, double tokens) {
            Slot slot = slot(scenario, (long) Math.floor(atMs));
            if (slot != null) {
              slot.served.output(atMs, atMs, tokens);
            }
          }

          @Override
          public void spread(double fromMs, double toMs, double tokens) {
            for (Slot slot : list) {
              slot.served.output(fromMs, toMs, tokens);
            }
          }
        });
  }

  /**
   * The anchored levels, in start order (then in the order the profiles were given).
   *
   * @return a snapshot, unmodifiable
   */
  public List<Slot> slots() {
    List<Slot> list = new ArrayList<>(slots);
    list.removeIf(s -> excluded.contains(s.level.scenario()));
    list.sort(
        Comparator.comparingLong((Slot s) -> s.level.startMs())
            .thenComparing(s -> order.get(s.level.scenario()))
            .thenComparingInt(s -> s.level.step()));
    return Collections.unmodifiableList(list);
  }

  /**
   * What each anchored level gave so far, in start order, indexed from 0.
   *
   * @return a snapshot, unmodifiable
   */
  public List<LevelResult> results() {
    return results(slots(), Long.MAX_VALUE);
  }

  /**
   * What the given levels gave so far, indexed by their place in the list, as if the run ended at
   * {@code untilMs}: a level it cuts is measured up to it ({@link LevelResult#cutShort()}), a level
   * that would have begun after it and has no request is left out.
   *
   * @param slots levels from {@link #slots()}, never null
   * @param untilMs when the run ended (or stopped), epoch ms; {@link Long#MAX_VALUE} for a run that
   *     went to the end of its profiles
   * @return a snapshot, unmodifiable
   */
  public List<LevelResult> results(List<Slot> slots, long untilMs) {
    List<LevelResult> list = new ArrayList<>();
    Map<String, Integer> perScenario = new LinkedHashMap<>();
    for (Slot slot : slots) {
      if (slot.ran(untilMs)) {
        int n = perScenario.merge(slot.level.scenario(), 1, Integer::sum) - 1;
        LongAccumulator last = lastEnd.get(slot.level.scenario());
        list.add(slot.result(list.size(), n, untilMs, last == null ? Long.MIN_VALUE : last.get()));
      }
    }
    return Collections.unmodifiableList(list);
  }

  /**
   * How many levels are placed on the clock so far.
   *
   * @return the count
   */
  public int slotCount() {
    return slots.size();
  }

  /**
   * Measured requests that started between levels of their scenario's profile (in a ramp, an {@code
   * atOnceUsers}, a {@code nothingFor}).
   *
   * @return the count
   */
  public long rampRequests() {
    return ramps.sum();
  }

  /**
   * Measured requests that started before their profile's start or after its end (users still
   * looping once the injection is over).
   *
   * @return the count
   */
  public long outsideRequests() {
    return outside.sum();
  }

  /**
   * Measured requests whose scenario is not known or has not started.
   *
   * @return the count
   */
  public long unplacedRequests() {
    return unplaced.sum();
  }

  /**
   * The sentence of {@code llm-run.json}'s {@code levels_note}: which measured requests the levels
   * leave out, and how many (the counts that can differ at a run's end are explained in
   * docs/load-levels.md, "Counts that differ").
   *
   * @return e.g. {@code "Each level holds the measured requests that started in it; left out of
   *     every level: 2 measured requests started during ramps between levels, 1 measured request
   *     started outside the injection profile."}, or {@code "Each level holds the measured requests
   *     that started in it; none was left out."}
   */
  public String note() {
    List<String> parts = new ArrayList<>();
    if (ramps.sum() > 0) {
      parts.add(requests(ramps.sum()) + " started during ramps between levels");
    }
    if (outside.sum() > 0) {
      parts.add(requests(outside.sum()) + " started outside the injection profile");
    }
    if (unplaced.sum() > 0) {
      parts.add(requests(unplaced.sum()) + " came from a scenario without levels");
    }
    if (notSent.sum() > 0) {
      parts.add(requests(notSent.sum()) + " handed out but never sent (the run ended first)");
    }
    return "Each level holds the measured requests that started in it; "
        + (parts.isEmpty()
            ? "none was left out."
            : "left out of every level: " + String.join(", ", parts) + ".");
  }

  /**
   * Whether some measured requests are in no level ({@link #note()} says which).
   *
   * @return true when requests started during ramps, outside the profile or in a scenario without
   *     levels, or were handed out and never sent
   */
  public boolean leftOutAny() {
    return ramps.sum() + outside.sum() + unplaced.sum() + notSent.sum() > 0;
  }

  private static String requests(long n) {
    return n + (n == 1 ? " measured request" : " measured requests");
  }

  /**
   * {@code llm-run.json}'s levels block: {@code levels}, {@code levels_note}, {@code
   * levels_left_out} ({@code ramps}, {@code outside}, {@code unplaced}, {@code not_sent}, {@code
   * measured_total}) and {@code levels_anchor} ({@code epoch_ms}, {@code source}: where the root
   * scenarios' profiles start and how that was found), or null when no level was placed.
   *
   * @param results the levels, from {@link #results(List, long)}
   * @param client the client's figures of each level's window (start ms, end ms), or null: see
   *     {@link LevelResult#entry}
   * @return the block without warnings, or null when there is no level
   */
  public Levels toRecord(
      List<LevelResult> results, BiFunction<Long, Long, LevelEntry.Client> client) {
    if (results.isEmpty()) {
      return null;
    }
    List<LevelEntry> levels = new ArrayList<>();
    long inLevels = 0;
    for (LevelResult r : results) {
      levels.add(r.entry(client));
      inLevels += r.summary().requests();
    }
    long left = ramps.sum() + outside.sum() + unplaced.sum() + notSent.sum();
    // What the levels and the left-out add up to: compare with metrics' measured requests.
    Levels.LeftOut leftOut =
        new Levels.LeftOut(
            ramps.sum(), outside.sum(), unplaced.sum(), notSent.sum(), inLevels + left, null);
    Levels.Anchor anchor =
        rootAnchor == null ? null : new Levels.Anchor(rootAnchor, rootAnchorSource, null);
    return new Levels(levels, note(), leftOut, anchor, null);
  }
}
