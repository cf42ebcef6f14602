package io.github.gatlingllm.capacity;

import java.util.Locale;

/**
 * The capacity search's settings ({@code llm.search.*}, issue 44), checked: a bad value throws
 * {@link IllegalArgumentException} with one line naming the setting, the value and what is allowed.
 *
 * @param closed true for a concurrency search (users, {@code llm.search.maxUsers}), false for an
 *     arrival-rate search (users/s, {@code llm.search.maxRate})
 * @param max the highest load searched: users/s in (0, {@value #MAX_RATE}], or whole users in [1,
 *     {@value #MAX_USERS}]
 * @param coarseLevels {@code llm.search.coarseLevels}: coarse levels up to {@code max}, in [1, 20]
 * @param precision {@code llm.search.precision}: the bisection ends when the last met and the first
 *     missed load are within this share of the last met one, in [0.005, 1]
 * @param holdSeconds {@code llm.search.holdSeconds}: how long the found load is held, whole seconds
 *     in [0, 86400] (0: no hold)
 * @param warmupSeconds {@code llm.search.warmupSeconds}: how long the search first runs at its
 *     lowest load without judging it (a cold client JVM and a cold server's first requests are
 *     slow: judged, they would call a healthy server over capacity), whole seconds in [0, 3600]
 * @param minRequests {@code llm.search.minRequests}: ended requests a level needs before it may end
 *     early, in [1, 1000000]
 * @param minSeconds {@code llm.search.minSeconds}: seconds a level runs before it may end early, in
 *     [1, 3600]
 * @param maxSeconds {@code llm.search.maxSeconds}: the longest a level runs, seconds in
 *     [minSeconds, 86400]
 * @param margin {@code llm.search.margin}: the widest an SLO percentile's 95% interval may be, as a
 *     share of its bound, for a level to end on its percentiles, in (0, 1]
 * @param capacityAtLeast {@code llm.assert.capacityAtLeast}: the least load the search must find
 *     (users/s or users), above 0, or null for no such assertion
 */
public record SearchSettings(
    boolean closed,
    double max,
    int coarseLevels,
    double precision,
    int holdSeconds,
    int warmupSeconds,
    int minRequests,
    int minSeconds,
    int maxSeconds,
    double margin,
    Double capacityAtLeast) {

  /** The highest arrival rate a search may reach, users/s. */
  public static final double MAX_RATE = 100_000;

  /** The most users a concurrency search may reach. */
  public static final int MAX_USERS = 100_000;

  /** Default {@code llm.search.coarseLevels}. */
  public static final int DEFAULT_COARSE_LEVELS = 4;

  /** Default {@code llm.search.precision}. */
  public static final double DEFAULT_PRECISION = 0.05;

  /** Default {@code llm.search.holdSeconds}. */
  public static final int DEFAULT_HOLD_SECONDS = 60;

  /** Default {@code llm.search.warmupSeconds}. */
  public static final int DEFAULT_WARMUP_SECONDS = 10;

  /** Default {@code llm.search.minRequests}. */
  public static final int DEFAULT_MIN_REQUESTS = 20;

  /** Default {@code llm.search.minSeconds}. */
  public static final int DEFAULT_MIN_SECONDS = 5;

  /** Default {@code llm.search.maxSeconds}. */
  public static final int DEFAULT_MAX_SECONDS = 60;

  /** Default {@code llm.search.margin}. */
  public static final double DEFAULT_MARGIN = 0.1;

  /** Checks every value. */
  public SearchSettings {
    if (closed) {
      if (!(max >= 1 && max <= MAX_USERS) || max != Math.rint(max)) {
        throw bad("search.maxUsers", max, "a whole number of users in [1, " + MAX_USERS + "]");
      }
    } else if (!(max > 0 && max <= MAX_RATE)) {
      throw bad("search.maxRate", max, "a number of users/s in (0, " + (long) MAX_RATE + "]");
    }
    if (coarseLevels < 1 || coarseLevels > 20) {
      throw bad("search.coarseLevels", coarseLevels, "a whole number in [1, 20]");
    }
    if (!(precision >= 0.005 && precision <= 1)) {
      throw bad("search.precision", precision, "a share in [0.005, 1], e.g. 0.05 for 5%");
    }
    if (holdSeconds < 0 || holdSeconds > 86_400) {
      throw bad("search.holdSeconds", holdSeconds, "whole seconds in [0, 86400]");
    }
    if (warmupSeconds < 0 || warmupSeconds > 3600) {
      throw bad("search.warmupSeconds", warmupSeconds, "whole seconds in [0, 3600]");
    }
    if (minRequests < 1 || minRequests > 1_000_000) {
      throw bad("search.minRequests", minRequests, "a whole number in [1, 1000000]");
    }
    if (minSeconds < 1 || minSeconds > 3600) {
      throw bad("search.minSeconds", minSeconds, "whole seconds in [1, 3600]");
    }
    if (maxSeconds < minSeconds || maxSeconds > 86_400) {
      throw bad(
          "search.maxSeconds",
          maxSeconds,
          "whole seconds in [llm.search.minSeconds (" + minSeconds + "), 86400]");
    }
    if (!(margin > 0 && margin <= 1)) {
      throw bad("search.margin", margin, "a share in (0, 1], e.g. 0.1");
    }
    if (capacityAtLeast != null && !(capacityAtLeast > 0 && Double.isFinite(capacityAtLeast))) {
      throw bad("assert.capacityAtLeast", capacityAtLeast, "a load above 0 (users/s, or users)");
    }
  }

  /**
   * The one-line error of a bad value.
   *
   * @param name the setting without {@code llm.}
   * @param value the value as given
   * @param allowed what is allowed
   * @return the exception to throw
   */
  public static IllegalArgumentException bad(String name, Object value, String allowed) {
    return new IllegalArgumentException(
        "llm." + name + ": got " + show(value) + ", expected " + allowed);
  }

  private static String show(Object value) {
    if (value instanceof Double d && d == Math.rint(d) && Math.abs(d) < 1e15) {
      return Long.toString(d.longValue());
    }
    return String.valueOf(value);
  }

  /**
   * The unit of a load of this search.
   *
   * @return {@code users} or {@code users/s}
   */
  public String unit() {
    return closed ? "users" : "users/s";
  }

  /**
   * The longest the search can last: every level it can run at its longest, with a drain of up to
   * {@code drainMs} after each, and the hold.
   *
   * @param drainMs the longest wait after a level for its requests to end, ms
   * @return seconds
   */
  public long longestSeconds(long drainMs) {
    int bisections = (int) Math.ceil(Math.log(1.0 / coarseLevels / precision) / Math.log(2)) + 1;
    int levels = coarseLevels + Math.max(0, bisections) + 1;
    return (long) levels * maxSeconds
        + holdSeconds
        + warmupSeconds
        + (levels + 2) * drainMs / 1000
        + 1;
  }

  /**
   * The settings as a person reads them.
   *
   * @return e.g. {@code up to 32 users/s, 4 coarse levels, precision 5%, hold 60 s}
   */
  public String describe() {
    return String.format(
        Locale.ROOT,
        "up to %s %s, %d coarse level%s, precision %s%%, hold %d s; a level runs %d to %d s,"
            + " at least %d requests",
        io.github.gatlingllm.levels.LoadLevel.describeNumber(max),
        unit(),
        coarseLevels,
        coarseLevels == 1 ? "" : "s",
        io.github.gatlingllm.levels.LoadLevel.describeNumber(precision * 100),
        holdSeconds,
        minSeconds,
        maxSeconds,
        minRequests);
  }
}
