package io.github.gatlingllm.capacity;

import io.github.gatlingllm.levels.LevelResult;
import io.github.gatlingllm.levels.LoadLevel;
import io.github.gatlingllm.levels.ServedBins;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.metrics.TokenArrivals;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.record.Capacity;
import io.github.gatlingllm.record.LevelEntry;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.Objects;
import java.util.TreeMap;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.function.BiFunction;

/**
 * The capacity search's controller (issue 44): a load controller inside Gatling's injection. The
 * scenario's injection profile is fixed when the run starts, so the search does not change it; it
 * decides which of the users the profile starts may go on.
 *
 * <p><b>Open (an arrival-rate search).</b> The profile starts users at {@code llm.search.maxRate}
 * users/s; each arriving user asks {@link #admitArrival}: the search admits them by deterministic
 * thinning, so that the admitted arrivals follow the current level's rate (each arrival adds {@code
 * rate / maxRate} to a credit; an arrival that brings the credit to 1 is admitted and takes 1 from
 * it: evenly spaced arrivals stay evenly spaced). A user not admitted ends at once: it sends
 * nothing and is no request.
 *
 * <p><b>Closed (a concurrency search).</b> The profile runs {@code llm.search.maxUsers} users, each
 * looping; at the start of each loop a user asks {@link #enter}: it goes on when fewer than the
 * current level's users are in their loop, else it waits and asks again. It leaves its place
 * ({@link #leave}) when it comes back to ask; a level's places end with it.
 *
 * <p><b>Levels.</b> Each level runs until it knows ({@link LevelPrecision#judge}: the attainment's
 * Wilson interval clear of {@code llm.slo.levelAttainment}, or the SLO's percentiles known within
 * {@code llm.search.margin}, after {@code minRequests} and {@code minSeconds}; at the latest at
 * {@code maxSeconds}). Then the search admits nobody and waits for the level's requests to end (at
 * most {@code drainMaxMs}): the level's verdict is taken on every request that started in it, and
 * the next level starts without the queue of the one before. The next level comes from {@link
 * SearchPlan}: coarse levels up to the highest load, a bisection between the last met and the first
 * missed load, then the hold of the found load for {@code llm.search.holdSeconds}; then the search
 * is over ({@link Listener#over}) and the run stops.
 *
 * <p>Each level's figures are those of a load level ({@link LevelResult}: latencies of the requests
 * that started in it, throughput served in its window, offered vs served). Thread-safe: admissions
 * come from every event loop, {@link #tick} from one timer thread.
 */
public final class CapacitySearch {

  /** What the run does when the search moves on. */
  public interface Listener {
    /**
     * A level ended and was judged.
     *
     * @param line the console's line for it
     */
    void levelJudged(String line);

    /**
     * The search is over: the run stops.
     *
     * @param answer the console's line of the answer
     * @param ok whether the answer meets {@code llm.assert.capacityAtLeast} (true when unset)
     */
    void over(String answer, boolean ok);
  }

  /** Where the search is. */
  enum State {
    /** No user has arrived yet. */
    WAITING,
    /** A level runs: users are admitted at its load. */
    RUNNING,
    /** A level is over: nobody is admitted until its requests end. */
    DRAINING,
    /** The search is over. */
    OVER
  }

  /** A level's least drain, ms: an admitted user may not have reached its request yet. */
  static final long MIN_DRAIN_MS = 200;

  private final SearchSettings settings;
  private final Slo slo;
  private final double threshold;
  private final long drainMaxMs;
  private final long staleMs;
  private final LevelPrecision.Rules rules;
  private final SearchPlan plan;
  private final Listener listener;
  private final List<Level> levels = new CopyOnWriteArrayList<>();
  private volatile State phase = State.WAITING;
  private volatile Level current;
  private volatile String scenario;
  private long drainStartMs;
  private double credit;
  private int inLoop;
  private String answer;
  private boolean answerOk = true;

  /**
   * A search.
   *
   * @param settings the search's settings, never null
   * @param slo the SLO, never {@link Slo#NONE}
   * @param threshold {@code llm.slo.levelAttainment}, in (0, 1]
   * @param drainMaxMs the longest wait for a level's requests to end ({@code llm.timeout}), ms
   * @param listener what the run does as the search moves on, never null
   * @throws IllegalArgumentException if no SLO is set (the one line names the settings)
   */
  public CapacitySearch(
      SearchSettings settings, Slo slo, double threshold, long drainMaxMs, Listener listener) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.slo = Objects.requireNonNull(slo, "slo");
    if (!slo.isSet()) {
      throw new IllegalArgumentException(
          "llm.search: a capacity search looks for the highest load meeting an SLO, but none is"
              + " set; expected at least one of llm.slo.ttftMs, llm.slo.itlMs, llm.slo.tpotMs,"
              + " llm.slo.e2eMs, llm.slo.ttfoMs");
    }
    this.threshold = threshold;
    this.drainMaxMs = Math.max(MIN_DRAIN_MS, drainMaxMs);
    this.listener = Objects.requireNonNull(listener, "listener");
    this.rules =
        new LevelPrecision.Rules(
            threshold,
            settings.minRequests(),
            settings.minSeconds() * 1000L,
            settings.maxSeconds() * 1000L,
            settings.margin());
    this.plan =
        new SearchPlan(
            settings.closed(), settings.max(), settings.coarseLevels(), settings.precision());
    this.staleMs = staleMs(slo);
  }

  /**
   * How old a request in flight must be to have missed the SLO possibly: the largest time bound of
   * the SLO (TTFT, TTFO, E2E), or none (Long.MAX_VALUE) when it bounds only ITL or TPOT.
   */
  static long staleMs(Slo slo) {
    double most = 0;
    for (Double b : new Double[] {slo.ttftMs(), slo.ttfoMs(), slo.e2eMs()}) {
      if (b != null) {
        most = Math.max(most, b);
      }
    }
    return most == 0 ? Long.MAX_VALUE : (long) Math.ceil(most);
  }

  /**
   * The settings.
   *
   * @return never null
   */
  public SearchSettings settings() {
    return settings;
  }

  /**
   * The scenario searched: the first whose user asked.
   *
   * @return its name, or null before the first user
   */
  public String scenario() {
    return scenario;
  }

  /**
   * Whether a user of this scenario is one the search controls.
   *
   * @param name a scenario's name
   * @return true for the scenario searched
   */
  public boolean controls(String name) {
    return name != null && name.equals(scenario);
  }

  /**
   * An open-loop user arrives: admitted at the current level's rate, or not.
   *
   * @param userScenario the user's scenario, never null
   * @param nowMs now, epoch ms
   * @return true to let it go on, false to end it without a request
   */
  public synchronized boolean admitArrival(String userScenario, long nowMs) {
    begin(userScenario, nowMs);
    if (phase != State.RUNNING) {
      return false;
    }
    credit += current.load / settings.max();
    if (credit >= 1 - 1e-9) {
      credit -= 1;
      return true;
    }
    return false;
  }

  /**
   * A closed-loop user asks to start a loop.
   *
   * @param userScenario the user's scenario, never null
   * @param nowMs now, epoch ms
   * @return the place's level (its step, from 0) when it took a place (hand it to {@link #leave}
   *     when it asks again), or -1 to wait
   */
  public synchronized int enter(String userScenario, long nowMs) {
    begin(userScenario, nowMs);
    if (phase != State.RUNNING || inLoop >= current.load) {
      return -1;
    }
    inLoop++;
    return current.index;
  }

  /**
   * A closed-loop user that held a place ends its loop.
   *
   * @param level the place's level, as {@link #enter} gave it: a place of a level that is over (its
   *     users were let go when it ended) frees nothing in the current one
   */
  public synchronized void leave(int level) {
    if (phase == State.RUNNING && current != null && current.index == level) {
      inLoop = Math.max(0, inLoop - 1);
    }
  }

  /**
   * The load the search admits now.
   *
   * @return users/s or users of the current level; 0 while none runs (before the first user, while
   *     a level's requests end, once over)
   */
  public double currentLoad() {
    Level level = current;
    return phase == State.RUNNING && level != null ? level.load : 0;
  }

  /**
   * Whether the search is over: users that ask are ended.
   *
   * @return true once the hold is over (or the lowest level missed)
   */
  public boolean over() {
    return phase == State.OVER;
  }

  private void begin(String userScenario, long nowMs) {
    if (phase != State.WAITING) {
      return;
    }
    scenario = userScenario;
    if (settings.warmupSeconds() > 0) {
      // the client's and the server's first requests are slow: run, do not judge
      start(new SearchPlan.Step(SearchPlan.Stage.WARMUP, plan.coarse().get(0)), nowMs);
    } else {
      start(plan.first(), nowMs);
    }
  }

  private void start(SearchPlan.Step step, long nowMs) {
    long longest =
        switch (step.stage()) {
          case HOLD -> settings.holdSeconds() * 1000L;
          case WARMUP -> settings.warmupSeconds() * 1000L;
          default -> settings.maxSeconds() * 1000L;
        };
    Level level = new Level(levels.size(), step, nowMs, longest, slo);
    levels.add(level);
    current = level;
    credit = 1; // the level's first arrival is admitted
    phase = State.RUNNING;
  }

  /**
   * A request of the searched scenario is about to be sent: counted in flight in the level it
   * starts in.
   *
   * @param nowMs now, epoch ms
   */
  public void started(long nowMs) {
    Level level = levelAt(nowMs);
    if (level != null) {
      level.started(nowMs);
    }
  }

  /**
   * A request of the searched scenario ended: added to the level it started in.
   *
   * @param r the request, never null
   */
  public void record(RequestRecord r) {
    Level level = levelAt(r.startMs());
    if (level == null) {
      return;
    }
    level.ended(r.startMs());
    if (Phase.isWarmup(r.phase())) {
      return;
    }
    level.add(r, slo);
    serve(r);
  }

  /** Credits a request's completion and tokens to the levels they fell in (as LevelTracker). */
  private void serve(RequestRecord r) {
    if (r.status() != RequestStatus.OK) {
      return;
    }
    Level done = levelAt((long) Math.floor(r.endMs()));
    if (done != null) {
      done.served.completion(r.endMs());
    }
    double prefilled = r.ttftMs() == null ? r.endMs() : r.startMs() + r.ttftMs();
    Level prefill = levelAt((long) Math.floor(prefilled));
    if (prefill != null && r.promptTokens() != null) {
      prefill.served.input(prefilled, r.promptTokens());
    }
    TokenArrivals.visit(
        r,
        new TokenArrivals.Sink() {
          @Override
          public void at(double atMs, double tokens) {
            Level level = levelAt((long) Math.floor(atMs));
            if (level != null) {
              level.served.output(atMs, atMs, tokens);
            }
          }

          @Override
          public void spread(double fromMs, double toMs, double tokens) {
            for (Level level : levels) {
              level.served.output(fromMs, toMs, tokens);
            }
          }
        });
  }

  /** The level a start time falls in: the last that started at or before it. */
  private Level levelAt(long epochMs) {
    Level found = null;
    for (Level level : levels) {
      if (level.startMs <= epochMs) {
        found = level;
      } else {
        break;
      }
    }
    return found;
  }

  /**
   * Moves the search on: ends the current level when it knows, judges it once its requests ended,
   * starts the next one or ends the search. Called by a timer (every 100 ms or so).
   *
   * @param nowMs now, epoch ms
   */
  public void tick(long nowMs) {
    String judged = null;
    boolean overNow = false;
    synchronized (this) {
      if (phase == State.RUNNING) {
        LevelPrecision.Reason reason = current.reasonToEnd(nowMs, rules, staleMs, settings);
        if (reason != LevelPrecision.Reason.CONTINUE) {
          current.close(nowMs, reason);
          phase = State.DRAINING;
          drainStartMs = nowMs;
          inLoop = 0;
        }
      }
      if (phase == State.DRAINING) {
        long waited = nowMs - drainStartMs;
        if (waited >= MIN_DRAIN_MS && (current.pending() <= 0 || waited >= drainMaxMs)) {
          Level level = current;
          SearchPlan.Step next;
          if (level.step.stage() == SearchPlan.Stage.WARMUP) {
            level.drainMs = waited;
            judged = level.describe(settings.unit(), threshold);
            next = plan.first();
          } else {
            level.judge(threshold, waited);
            judged = level.describe(settings.unit(), threshold);
            boolean met = Boolean.TRUE.equals(level.met);
            if (!met
                && level.step.stage() == SearchPlan.Stage.HOLD
                && !level.clearlyMissed(threshold)) {
              // Below the threshold, but its interval reaches it: too few requests to move the
              // answer down on; the search ends with the hold not confirmed.
              met = true;
            }
            next = plan.next(met);
          }
          if (next != null
              && next.stage() == SearchPlan.Stage.HOLD
              && settings.holdSeconds() == 0) {
            next = null; // nothing to hold
          }
          if (next == null) {
            phase = State.OVER;
            overNow = true;
            answer = answerLine(null);
            answerOk = meetsBound();
          } else {
            start(next, nowMs);
          }
        }
      }
    }
    if (judged != null) {
      listener.levelJudged(judged);
    }
    if (overNow) {
      listener.over(answer, answerOk);
    }
  }

  /** The answer reaches {@code llm.assert.capacityAtLeast}, and the hold (if any) held it. */
  private boolean meetsBound() {
    Double bound = settings.capacityAtLeast();
    Level hold = hold();
    return bound == null
        || (plan.lastMet() != null
            && plan.lastMet() >= bound
            && (hold == null || Boolean.TRUE.equals(hold.met)));
  }

  /** The last hold that ran and was judged. */
  private Level hold() {
    Level last = null;
    for (Level level : levels) {
      if (level.step.stage() == SearchPlan.Stage.HOLD && level.met != null) {
        last = level;
      }
    }
    return last;
  }

  /** What the holds that missed the SLO said, before the last one; empty for none. */
  private String failedHolds(Level last) {
    StringBuilder b = new StringBuilder();
    for (Level level : levels) {
      if (level != last
          && level.step.stage() == SearchPlan.Stage.HOLD
          && Boolean.FALSE.equals(level.met)) {
        b.append("; the hold at ")
            .append(LoadLevel.describeNumber(level.load))
            .append(' ')
            .append(settings.unit())
            .append(" did not hold the SLO (attainment ")
            .append(level.attainment == null ? "none" : f3(level.attainment))
            .append("): counted as missed");
      }
    }
    return b.toString();
  }

  /**
   * The answer as one line.
   *
   * @param stoppedBy the run's end reason when the search did not finish, else null
   * @return e.g. {@code CAPACITY: 21.25 users/s meets the SLO ...}
   */
  synchronized String answerLine(String stoppedBy) {
    String unit = settings.unit();
    String slo = this.slo + " for " + pct(threshold) + " of requests";
    Double met = plan.lastMet();
    Double missed = plan.firstMissed();
    StringBuilder b = new StringBuilder("CAPACITY: ");
    if (stoppedBy != null && phase != State.OVER) {
      b.append("the search did not finish (the run ended: ")
          .append(stoppedBy)
          .append(") after ")
          .append(countJudged())
          .append(" level(s); ");
      if (met == null) {
        b.append("no level met the SLO (").append(slo).append(") so far");
      } else {
        b.append("so far ")
            .append(n(met))
            .append(' ')
            .append(unit)
            .append(" met the SLO (")
            .append(slo)
            .append(")")
            .append(missed == null ? "" : ", " + n(missed) + " " + unit + " missed it");
      }
      return b.toString();
    }
    if (SearchPlan.BELOW.equals(plan.edge())) {
      Level lowest = levels.isEmpty() ? null : levels.get(0);
      return b.append("below ")
          .append(n(missed))
          .append(' ')
          .append(unit)
          .append(": the SLO (")
          .append(slo)
          .append(") was missed at the lowest level searched")
          .append(
              lowest == null || lowest.attainment == null
                  ? ""
                  : " (attainment " + f3(lowest.attainment) + ")")
          .append("; lower llm.search.")
          .append(settings.closed() ? "maxUsers" : "maxRate")
          .append(" to search below it")
          .toString();
    }
    if (SearchPlan.AT_LEAST.equals(plan.edge())) {
      b.append("at least ")
          .append(n(met))
          .append(' ')
          .append(unit)
          .append(": the SLO (")
          .append(slo)
          .append(") was met at the highest load searched (llm.search.")
          .append(settings.closed() ? "maxUsers" : "maxRate")
          .append("); raise it to find the limit");
    } else {
      b.append(n(met))
          .append(' ')
          .append(unit)
          .append(" meets the SLO (")
          .append(slo)
          .append("): met at ")
          .append(n(met))
          .append(", missed at ")
          .append(n(missed))
          .append(' ')
          .append(unit);
    }
    Level hold = hold();
    b.append(failedHolds(hold));
    if (hold == null) {
      b.append("; not held (llm.search.holdSeconds 0)");
    } else if (met != null && hold.load != met) {
      b.append("; the last hold, at ")
          .append(n(hold.load))
          .append(' ')
          .append(unit)
          .append(", did not hold the SLO either (attainment ")
          .append(hold.attainment == null ? "none" : f3(hold.attainment))
          .append("): ")
          .append(n(met))
          .append(' ')
          .append(unit)
          .append(" was not held (")
          .append(SearchPlan.MAX_HOLDS)
          .append(" holds at most)");
    } else {
      b.append(String.format(Locale.ROOT, "; held %.0f s: ", hold.durationMs() / 1000.0))
          .append(hold.requests())
          .append(" requests, attainment ")
          .append(hold.attainment == null ? "none" : f3(hold.attainment))
          .append(
              hold.interval == null
                  ? ""
                  : " [" + f3(hold.interval.low()) + ", " + f3(hold.interval.high()) + "]")
          .append(Boolean.TRUE.equals(hold.met) ? ", the SLO held" : ", the SLO did NOT hold")
          .append(
              Boolean.TRUE.equals(hold.met) || hold.clearlyMissed(threshold)
                  ? ""
                  : " (but its interval reaches "
                      + LoadLevel.describeNumber(threshold)
                      + ": too few requests to say the load misses it; lengthen"
                      + " llm.search.holdSeconds)");
      String drift = hold.drift(threshold);
      if (drift != null) {
        b.append("; ").append(drift);
      }
    }
    return b.toString();
  }

  private int countJudged() {
    int n = 0;
    for (Level level : levels) {
      if (level.met != null) {
        n++;
      }
    }
    return n;
  }

  /**
   * {@code llm-run.json}'s {@code capacity}.
   *
   * @param stoppedBy the run's end reason ({@code end_reason}), used when the search did not finish
   * @param nowMs now, epoch ms: a level the run stopped in is measured up to it
   * @param client the client's figures of a window (start ms, end ms), or null
   * @return the block, or null when no user ever asked (the search never started)
   */
  public synchronized Capacity toRecord(
      String stoppedBy, long nowMs, BiFunction<Long, Long, LevelEntry.Client> client) {
    if (levels.isEmpty()) {
      return null;
    }
    boolean finished = phase == State.OVER;
    List<Capacity.Step> steps = new ArrayList<>();
    for (Level level : levels) {
      steps.add(level.toRecord(scenario, settings.closed(), nowMs, client));
    }
    Double met = plan.lastMet();
    Level hold = hold();
    Capacity.Hold held =
        hold == null
            ? null
            : new Capacity.Hold(
                number(hold.step.load()),
                hold.startMs,
                hold.endMs,
                hold.requests(),
                hold.attainment,
                hold.interval == null ? null : hold.interval.low(),
                hold.interval == null ? null : hold.interval.high(),
                hold.met,
                hold.halfAttainment(true),
                hold.halfAttainment(false),
                hold.drift(threshold));
    return new Capacity(
        settings.closed() ? "closed" : "open",
        scenario,
        settings.closed() ? null : number(met),
        settings.closed() ? (met == null ? null : (Number) met.longValue()) : null,
        plan.edge(),
        new Capacity.Interval(number(met), number(plan.firstMissed())),
        held,
        finished,
        finished ? null : stoppedBy,
        finished ? answer : answerLine(stoppedBy),
        new Capacity.Settings(
            number(settings.max()),
            settings.coarseLevels(),
            settings.precision(),
            settings.holdSeconds(),
            settings.warmupSeconds(),
            settings.minRequests(),
            settings.minSeconds(),
            settings.maxSeconds(),
            settings.margin(),
            threshold,
            "wilson_95",
            settings.capacityAtLeast()),
        steps,
        null);
  }

  static Number number(Double v) {
    if (v == null) {
      return null;
    }
    return v == Math.rint(v) && Math.abs(v) < 1e15 ? (Number) v.longValue() : (Number) v;
  }

  private static String n(Double v) {
    return v == null ? "none" : LoadLevel.describeNumber(v);
  }

  private static String f3(double v) {
    return String.format(Locale.ROOT, "%.3f", v);
  }

  private static String pct(double share) {
    return LoadLevel.describeNumber(share * 100) + "%";
  }

  /** One level of the search and its requests. */
  static final class Level {
    final int index;
    final SearchPlan.Step step;
    final double load;
    final long startMs;
    final MetricsAggregator aggregator;
    final ServedBins served;
    private final TreeMap<Long, Integer> inFlight = new TreeMap<>();
    private long pending;
    private long ended;
    private long metCount;
    private final long[] halves = new long[4]; // first half: ended, met; second half: ended, met
    private final long halfMs;
    private List<double[]> values; // per SLO metric: the ended requests' values
    private double[] e2e = new double[64]; // the ended requests' E2E (failed: +infinity)
    private final List<String> metrics = new ArrayList<>();
    private final List<Double> bounds = new ArrayList<>();
    private int valueCount;
    volatile long endMs = -1;
    LevelPrecision.Reason reason;
    Boolean met;
    Double attainment;
    LevelPrecision.Interval interval;
    long drainMs;

    Level(int index, SearchPlan.Step step, long startMs, long longestMs, Slo slo) {
      this.index = index;
      this.halfMs = longestMs / 2;
      this.step = step;
      this.load = step.load();
      this.startMs = startMs;
      this.aggregator = new MetricsAggregator(slo);
      this.served = new ServedBins(startMs, startMs + Math.max(1, longestMs) + 1000);
      for (String c : new String[] {"ttft", "itl", "tpot", "e2e", "ttfo"}) {
        Double bound = slo.bound(c);
        if (bound != null) {
          metrics.add(c);
          bounds.add(bound);
        }
      }
      values = new ArrayList<>();
      for (int i = 0; i < metrics.size(); i++) {
        values.add(new double[64]);
      }
    }

    synchronized void started(long nowMs) {
      pending++;
      inFlight.merge(nowMs, 1, Integer::sum);
    }

    synchronized void ended(long startMs) {
      pending--;
      Long key = inFlight.floorKey(startMs + 5);
      if (key == null) {
        key = inFlight.ceilingKey(startMs);
      }
      if (key != null) {
        inFlight.computeIfPresent(key, (k, v) -> v == 1 ? null : v - 1);
      }
    }

    synchronized long pending() {
      return pending;
    }

    synchronized void add(RequestRecord r, Slo slo) {
      aggregator.add(r);
      boolean ok = slo.missed(r).isEmpty();
      ended++;
      if (ok) {
        metCount++;
      }
      if (step.stage() == SearchPlan.Stage.HOLD) {
        // the hold's halves, by start
        int half = r.startMs() < startMs + halfMs ? 0 : 2;
        halves[half]++;
        if (ok) {
          halves[half + 1]++;
        }
      }
      if (values != null) {
        if (valueCount == e2e.length) {
          for (int i = 0; i < values.size(); i++) {
            values.set(i, java.util.Arrays.copyOf(values.get(i), valueCount * 2));
          }
          e2e = java.util.Arrays.copyOf(e2e, valueCount * 2);
        }
        for (int i = 0; i < metrics.size(); i++) {
          values.get(i)[valueCount] = value(r, metrics.get(i));
        }
        e2e[valueCount] = value(r, "e2e");
        valueCount++;
      }
    }

    /** A request's value of an SLO metric; a failed one (or one without it) as +infinity. */
    static double value(RequestRecord r, String metric) {
      if (r.status() != RequestStatus.OK) {
        return Double.POSITIVE_INFINITY;
      }
      Double v =
          switch (metric) {
            case "ttft" -> r.ttftMs();
            case "tpot" -> r.tpotMs();
            case "e2e" -> r.e2eMs();
            case "ttfo" -> r.ttfoMs();
            case "itl" ->
                r.itlMs() == null || r.itlMs().isEmpty()
                    ? 0.0
                    : r.itlMs().stream().mapToDouble(Double::doubleValue).max().orElse(0);
            default -> null;
          };
      return v == null ? Double.POSITIVE_INFINITY : v;
    }

    synchronized LevelPrecision.Reason reasonToEnd(
        long nowMs, LevelPrecision.Rules rules, long staleMs, SearchSettings settings) {
      long elapsed = nowMs - startMs;
      if (step.stage() == SearchPlan.Stage.HOLD) {
        return elapsed >= settings.holdSeconds() * 1000L
            ? LevelPrecision.Reason.HOLD_OVER
            : LevelPrecision.Reason.CONTINUE;
      }
      if (step.stage() == SearchPlan.Stage.WARMUP) {
        return elapsed >= settings.warmupSeconds() * 1000L
            ? LevelPrecision.Reason.WARMUP_OVER
            : LevelPrecision.Reason.CONTINUE;
      }
      // In flight longer than the SLO's time bound and than the median E2E of the level's ended
      // requests: such a request may have missed the SLO already (a request younger than that is
      // most likely still decoding after a first token in time, and says nothing yet).
      long stale = 0;
      if (staleMs != Long.MAX_VALUE) {
        long after = staleMs;
        if (valueCount > 0) {
          double[] sorted = java.util.Arrays.copyOf(e2e, valueCount);
          java.util.Arrays.sort(sorted);
          double median = sorted[(valueCount - 1) / 2];
          if (Double.isFinite(median)) {
            after = Math.max(after, (long) Math.ceil(median));
          }
        }
        for (var e : inFlight.headMap(nowMs - after, true).entrySet()) {
          stale += e.getValue();
        }
      }
      LevelPrecision.Percentile[] percentiles = new LevelPrecision.Percentile[metrics.size()];
      for (int i = 0; i < metrics.size(); i++) {
        LevelPrecision.Interval in =
            valueCount == 0
                ? null
                : LevelPrecision.quantileInterval(
                    java.util.Arrays.copyOf(values.get(i), valueCount),
                    rules.threshold() == 1 ? 0.999 : rules.threshold());
        percentiles[i] = new LevelPrecision.Percentile(metrics.get(i), in, bounds.get(i));
      }
      return LevelPrecision.judge(
          new LevelPrecision.Known(elapsed, ended, metCount, stale, percentiles), rules);
    }

    synchronized void close(long nowMs, LevelPrecision.Reason why) {
      endMs = Math.max(startMs + 1, nowMs);
      reason = why;
      values = null; // nothing per request stays once the level has ended
      e2e = new double[0];
    }

    synchronized void judge(double threshold, long waitedMs) {
      drainMs = waitedMs;
      Goodput g = aggregator.summary().overall().goodput();
      if (g == null || g.offered() == 0 || g.attainment() == null) {
        met = Boolean.FALSE;
        return;
      }
      attainment = g.attainment();
      interval = LevelPrecision.wilson(g.met(), g.offered(), LevelPrecision.Z95);
      met = attainment >= threshold;
    }

    long requests() {
      return aggregator.summary().overall().requests();
    }

    /** Whether the attainment's Wilson interval lies below the threshold: the level missed it. */
    boolean clearlyMissed(double threshold) {
      return interval == null || interval.high() < threshold;
    }

    long durationMs() {
      return (endMs < 0 ? startMs : endMs) - startMs;
    }

    Double halfAttainment(boolean first) {
      int i = first ? 0 : 2;
      return halves[i] == 0 ? null : (double) halves[i + 1] / halves[i];
    }

    /** The hold's drift: its first half met the SLO, its second did not. */
    String drift(double threshold) {
      Double a = halfAttainment(true);
      Double b = halfAttainment(false);
      if (a == null || b == null || !(a >= threshold) || b >= threshold) {
        return null;
      }
      return String.format(
          Locale.ROOT,
          "capacity drifted during the hold: its first half met the SLO (attainment %.3f), its"
              + " second half did not (%.3f)",
          a,
          b);
    }

    String describe(String unit, double threshold) {
      if (step.stage() == SearchPlan.Stage.WARMUP) {
        return String.format(
            Locale.ROOT,
            "capacity search warm-up (%s %s) over after %.1f s, drained %.1f s: %d requests, not"
                + " judged (llm.search.warmupSeconds)",
            LoadLevel.describeNumber(load),
            unit,
            durationMs() / 1000.0,
            drainMs / 1000.0,
            requests());
      }
      return String.format(
          Locale.ROOT,
          "capacity search level %d (%s, %s %s) over after %.1f s (%s), drained %.1f s: %d"
              + " requests, attainment %s%s: %s",
          index,
          step.stage().wireName(),
          LoadLevel.describeNumber(load),
          unit,
          durationMs() / 1000.0,
          reason.wireName(),
          drainMs / 1000.0,
          requests(),
          attainment == null ? "none" : String.format(Locale.ROOT, "%.3f", attainment),
          interval == null
              ? ""
              : String.format(Locale.ROOT, " [%.3f, %.3f]", interval.low(), interval.high()),
          Boolean.TRUE.equals(met)
              ? "met (>= " + LoadLevel.describeNumber(threshold) + ")"
              : "missed (< " + LoadLevel.describeNumber(threshold) + ")");
    }

    synchronized Capacity.Step toRecord(
        String scenario,
        boolean closed,
        long nowMs,
        BiFunction<Long, Long, LevelEntry.Client> client) {
      boolean stopped = endMs < 0;
      LevelPrecision.Reason why = stopped ? LevelPrecision.Reason.RUN_STOPPED : reason;
      long end = stopped ? Math.max(startMs + 1, nowMs) : endMs;
      LoadLevel level =
          new LoadLevel(scenario == null ? "" : scenario, closed, load, index, startMs, end);
      LevelResult result =
          new LevelResult(
              index,
              index,
              level,
              aggregator.summary().overall(),
              startMs,
              end,
              served.between(startMs, end));
      return new Capacity.Step(
          index,
          step.stage().wireName(),
          number(load),
          why.wireName(),
          stopped ? null : met,
          attainment,
          interval == null ? null : interval.low(),
          interval == null ? null : interval.high(),
          stopped ? null : drainMs,
          result.entry(client));
    }
  }
}
