package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.ClosedInjectionStep;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.github.gatlingllm.action.SearchGate;
import io.github.gatlingllm.capacity.SearchSettings;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.settings.SettingUse;
import java.time.Duration;
import java.util.Properties;

/**
 * A capacity search in one run (issue 44): the highest arrival rate (or number of concurrent users)
 * that meets the SLO ({@code llm.slo.*}, read at {@code llm.slo.levelAttainment}), found inside
 * Gatling's injection by a load controller, then held. Coarse levels up to {@code maxRate}, a
 * bisection between the last level that met the SLO and the first that missed it down to {@code
 * precision}, then the hold for {@code holdSeconds}; each level ends as soon as its attainment is
 * known (see docs/capacity.md). The answer is {@code llm-run.json}'s {@code capacity}.
 *
 * <pre>{@code
 * CapacitySearchBuilder search = capacitySearch().maxRate(32);
 * ScenarioBuilder chat =
 *     scenario("search").exec(search.gate()).feed(prompts).exec(llm("chat").request());
 * setUp(chat.injectOpen(search.openProfile())).protocols(llm.sloTtftMs(100));
 * }</pre>
 *
 * The injection profile ({@link #openProfile()}: users arriving at {@code maxRate}; {@link
 * #closedProfile()}: {@code maxUsers} users, each looping) is fixed when the run starts; the gate
 * ({@link #gate()}), the scenario's first step, lets through only the users the current level
 * takes: an arriving user it does not admit ends at once without sending anything. Put the gate
 * before the feeder, so that a user not admitted takes no prompt. A closed search's users loop
 * ({@code forever()}) with the gate first in the loop.
 *
 * <p>Every value can be set with {@code -Dllm.search.*} properties, which win. Immutable: each
 * method returns a new instance.
 */
public final class CapacitySearchBuilder {

  private final Double maxRate;
  private final Integer maxUsers;
  private final Integer coarseLevels;
  private final Double precision;
  private final Integer holdSeconds;
  private final Integer warmupSeconds;
  private final Integer minRequests;
  private final Integer minSeconds;
  private final Integer maxSeconds;
  private final Double margin;
  private final Double capacityAtLeast;

  CapacitySearchBuilder(
      Double maxRate,
      Integer maxUsers,
      Integer coarseLevels,
      Double precision,
      Integer holdSeconds,
      Integer warmupSeconds,
      Integer minRequests,
      Integer minSeconds,
      Integer maxSeconds,
      Double margin,
      Double capacityAtLeast) {
    this.maxRate = maxRate;
    this.maxUsers = maxUsers;
    this.coarseLevels = coarseLevels;
    this.precision = precision;
    this.holdSeconds = holdSeconds;
    this.warmupSeconds = warmupSeconds;
    this.minRequests = minRequests;
    this.minSeconds = minSeconds;
    this.maxSeconds = maxSeconds;
    this.margin = margin;
    this.capacityAtLeast = capacityAtLeast;
  }

  /**
   * An arrival-rate search up to this rate ({@code llm.search.maxRate}).
   *
   * @param usersPerSec the highest rate searched, users/s, in (0, 100000]
   * @return a new builder (an open search, whatever was set before)
   */
  public CapacitySearchBuilder maxRate(double usersPerSec) {
    return new CapacitySearchBuilder(
        usersPerSec,
        null,
        coarseLevels,
        precision,
        holdSeconds,
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        capacityAtLeast);
  }

  /**
   * A concurrency search up to this many users ({@code llm.search.maxUsers}).
   *
   * @param users the most concurrent users searched, in [1, 100000]
   * @return a new builder (a closed search, whatever was set before)
   */
  public CapacitySearchBuilder maxUsers(int users) {
    return new CapacitySearchBuilder(
        null,
        users,
        coarseLevels,
        precision,
        holdSeconds,
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        capacityAtLeast);
  }

  /**
   * How many coarse levels up to the highest load ({@code llm.search.coarseLevels}, default 4).
   *
   * @param levels in [1, 20]
   * @return a new builder
   */
  public CapacitySearchBuilder coarseLevels(int levels) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        levels,
        precision,
        holdSeconds,
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        capacityAtLeast);
  }

  /**
   * Where the bisection ends ({@code llm.search.precision}, default 0.05): the last met and the
   * first missed load within this share of the last met one.
   *
   * @param share in [0.005, 1]
   * @return a new builder
   */
  public CapacitySearchBuilder precision(double share) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        coarseLevels,
        share,
        holdSeconds,
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        capacityAtLeast);
  }

  /**
   * How long the found load is held ({@code llm.search.holdSeconds}, default 60 s).
   *
   * @param hold whole seconds in [0, 86400]; 0 holds nothing
   * @return a new builder
   */
  public CapacitySearchBuilder hold(Duration hold) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        coarseLevels,
        precision,
        (int) Math.min(Integer.MAX_VALUE, hold.toSeconds()),
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        capacityAtLeast);
  }

  /**
   * How long the search first runs at its lowest load without judging it ({@code
   * llm.search.warmupSeconds}, default 10 s): a cold client JVM and a cold server's first requests
   * are slow, and would call a healthy server over capacity.
   *
   * @param warmup whole seconds in [0, 3600]
   * @return a new builder
   */
  public CapacitySearchBuilder warmup(Duration warmup) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        coarseLevels,
        precision,
        holdSeconds,
        (int) Math.min(Integer.MAX_VALUE, warmup.toSeconds()),
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        capacityAtLeast);
  }

  /**
   * When a level may end ({@code llm.search.minRequests}, {@code llm.search.minSeconds}, {@code
   * llm.search.maxSeconds}; defaults 20 requests, 5 s, 60 s): not before {@code minRequests}
   * requests ended and {@code min} passed, at the latest at {@code max}.
   *
   * @param minRequests ended requests, in [1, 1000000]
   * @param min whole seconds, in [1, 3600]
   * @param max whole seconds, in [min, 86400]
   * @return a new builder
   */
  public CapacitySearchBuilder levels(int minRequests, Duration min, Duration max) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        coarseLevels,
        precision,
        holdSeconds,
        warmupSeconds,
        minRequests,
        (int) Math.min(Integer.MAX_VALUE, min.toSeconds()),
        (int) Math.min(Integer.MAX_VALUE, max.toSeconds()),
        margin,
        capacityAtLeast);
  }

  /**
   * How precisely the SLO's percentiles must be known for a level to end on them ({@code
   * llm.search.margin}, default 0.1): each 95% interval no wider than this share of its bound.
   *
   * @param share in (0, 1]
   * @return a new builder
   */
  public CapacitySearchBuilder margin(double share) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        coarseLevels,
        precision,
        holdSeconds,
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        share,
        capacityAtLeast);
  }

  /**
   * The least capacity the run must find ({@code llm.assert.capacityAtLeast}): with {@code
   * llm.assertions(...)} in {@code setUp} (or {@link LlmDsl#capacityMet()}), the build fails below
   * it.
   *
   * @param load users/s (or users), above 0
   * @return a new builder
   */
  public CapacitySearchBuilder capacityAtLeast(double load) {
    return new CapacitySearchBuilder(
        maxRate,
        maxUsers,
        coarseLevels,
        precision,
        holdSeconds,
        warmupSeconds,
        minRequests,
        minSeconds,
        maxSeconds,
        margin,
        load);
  }

  /**
   * The settings, the {@code -Dllm.search.*} properties over the builder's values, checked.
   *
   * @return never null
   * @throws IllegalArgumentException with one line naming a bad setting, its value and what is
   *     allowed
   */
  public SearchSettings settings() {
    SettingUse.RUN.made(SettingUse.Part.SEARCH);
    return resolve(System.getProperties());
  }

  SearchSettings resolve(Properties p) {
    String rateText = text(p, "search.maxRate");
    String usersText = text(p, "search.maxUsers");
    if (rateText != null && usersText != null) {
      throw SearchSettings.bad(
          "search.maxUsers",
          usersText,
          "unset beside llm.search.maxRate="
              + rateText
              + " (one search a run: an arrival-rate search, or a concurrency search)");
    }
    boolean closed;
    double max;
    if (rateText != null) {
      closed = false;
      max = decimal("search.maxRate", rateText);
    } else if (usersText != null) {
      closed = true;
      max = whole("search.maxUsers", usersText);
    } else if (maxRate != null) {
      closed = false;
      max = maxRate;
    } else if (maxUsers != null) {
      closed = true;
      max = maxUsers;
    } else {
      throw SearchSettings.bad(
          "search.maxRate",
          "nothing",
          "the highest arrival rate to search, users/s > 0 (or llm.search.maxUsers for a"
              + " concurrency search): capacitySearch().maxRate(32) or -Dllm.search.maxRate=32");
    }
    return new SearchSettings(
        closed,
        max,
        integer(p, "search.coarseLevels", coarseLevels, SearchSettings.DEFAULT_COARSE_LEVELS),
        number(p, "search.precision", precision, SearchSettings.DEFAULT_PRECISION),
        integer(p, "search.holdSeconds", holdSeconds, SearchSettings.DEFAULT_HOLD_SECONDS),
        integer(p, "search.warmupSeconds", warmupSeconds, SearchSettings.DEFAULT_WARMUP_SECONDS),
        integer(p, "search.minRequests", minRequests, SearchSettings.DEFAULT_MIN_REQUESTS),
        integer(p, "search.minSeconds", minSeconds, SearchSettings.DEFAULT_MIN_SECONDS),
        integer(p, "search.maxSeconds", maxSeconds, SearchSettings.DEFAULT_MAX_SECONDS),
        number(p, "search.margin", margin, SearchSettings.DEFAULT_MARGIN),
        text(p, "assert.capacityAtLeast") == null
            ? capacityAtLeast
            : (Double) decimal("assert.capacityAtLeast", text(p, "assert.capacityAtLeast")));
  }

  /**
   * The gate, the searched scenario's first step (before its feeder): lets through the users the
   * current level takes.
   *
   * @return the action
   */
  public ActionBuilder gate() {
    SearchSettings s = settings();
    return () -> new SearchGate.Builder(s);
  }

  /**
   * The open injection profile of an arrival-rate search: users arriving at {@code maxRate} for as
   * long as the search can last (every level at its longest, each followed by a drain of up to a
   * minute, and the hold); the run stops when the search is over, usually long before.
   *
   * @return the profile's one step
   * @throws IllegalArgumentException when the search is a concurrency search
   */
  public OpenInjectionStep openProfile() {
    SearchSettings s = settings();
    if (s.closed()) {
      throw SearchSettings.bad(
          "search.maxUsers",
          (long) s.max(),
          "unset with openProfile() (an arrival-rate search: llm.search.maxRate); use"
              + " closedProfile() for a concurrency search");
    }
    return constantUsersPerSec(s.max()).during(Duration.ofSeconds(s.longestSeconds(60_000)));
  }

  /**
   * The closed injection profile of a concurrency search: {@code maxUsers} users for as long as the
   * search can last; give them a {@code forever()} loop with the gate first.
   *
   * @return the profile's one step
   * @throws IllegalArgumentException when the search is an arrival-rate search
   */
  public ClosedInjectionStep closedProfile() {
    SearchSettings s = settings();
    if (!s.closed()) {
      throw SearchSettings.bad(
          "search.maxRate",
          s.max(),
          "unset with closedProfile() (a concurrency search: llm.search.maxUsers); use"
              + " openProfile() for an arrival-rate search");
    }
    return constantConcurrentUsers((int) s.max())
        .during(Duration.ofSeconds(s.longestSeconds(60_000)));
  }

  private static String text(Properties p, String name) {
    String v = p.getProperty(LlmSettings.PREFIX + name);
    return v == null || v.isBlank() ? null : v.strip();
  }

  private static double decimal(String name, String text) {
    try {
      double v = Double.parseDouble(text);
      if (!Double.isFinite(v)) {
        throw new NumberFormatException();
      }
      return v;
    } catch (NumberFormatException e) {
      throw SearchSettings.bad(name, "\"" + text + "\"", "a number");
    }
  }

  private static int whole(String name, String text) {
    try {
      return Integer.parseInt(text);
    } catch (NumberFormatException e) {
      throw SearchSettings.bad(name, "\"" + text + "\"", "a whole number");
    }
  }

  private static int integer(Properties p, String name, Integer value, int fallback) {
    String t = text(p, name);
    return t != null ? whole(name, t) : value != null ? value : fallback;
  }

  private static double number(Properties p, String name, Double value, double fallback) {
    String t = text(p, name);
    return t != null ? decimal(name, t) : value != null ? value : fallback;
  }
}
