package io.github.gatlingllm.capacity;

import java.util.ArrayList;
import java.util.List;

/**
 * The capacity search's sequence of loads (issue 44), pure: a few coarse levels up to the highest
 * load, then a bisection between the last load that met the SLO and the first that missed it, down
 * to a precision, then a hold at the last load that met it.
 *
 * <p>Coarse levels: {@code max * k / coarseLevels} for k = 1..coarseLevels (users are rounded, each
 * at least 1 and above the one before), in order, until one misses. Met at the highest: the answer
 * is at least the highest ({@code at_least}), held there. Missed at the first: the answer is below
 * the lowest level ({@code below}), nothing is held. Else the bisection: the middle of the last met
 * and the first missed load, until they are within {@code precision} times the last met load (for
 * users: also until they are next to each other); then the hold at the last met load.
 *
 * <p>Not thread-safe: the search's controller calls it under its own lock.
 */
public final class SearchPlan {

  /** A level's part in the search. */
  public enum Stage {
    /**
     * The warm-up before the search, at its lowest load, not judged (the controller's, never the
     * plan's).
     */
    WARMUP,
    /** A coarse level, up to the highest load. */
    COARSE,
    /** A level of the bisection. */
    BISECT,
    /** The hold at the load found. */
    HOLD;

    /**
     * The name in the record.
     *
     * @return e.g. {@code coarse}
     */
    public String wireName() {
      return name().toLowerCase(java.util.Locale.ROOT);
    }
  }

  /**
   * One level to run.
   *
   * @param stage its part in the search
   * @param load users/s (open) or users (closed), above 0
   */
  public record Step(Stage stage, double load) {}

  /** {@code at_least}: the SLO was met at the highest load. */
  public static final String AT_LEAST = "at_least";

  /** {@code below}: the SLO was missed at the lowest level. */
  public static final String BELOW = "below";

  /** The most holds a search runs: a hold that misses the SLO is followed by one lower. */
  public static final int MAX_HOLDS = 3;

  private final boolean closed;
  private final double precision;
  private final java.util.TreeSet<Double> metLoads = new java.util.TreeSet<>();
  private int holds;
  private final List<Double> coarse;
  private int coarseIndex;
  private Double lastMet;
  private Double firstMissed;
  private String edge;
  private Step current;

  /**
   * A search.
   *
   * @param closed whether loads are users (whole numbers) rather than users/s
   * @param max the highest load, above 0 (for users, at least 1)
   * @param coarseLevels how many coarse levels, at least 1
   * @param precision the bisection's end, as a share of the last met load, above 0
   * @throws IllegalArgumentException if a value is out of range
   */
  public SearchPlan(boolean closed, double max, int coarseLevels, double precision) {
    if (!(max > 0) || Double.isInfinite(max) || (closed && max < 1)) {
      throw new IllegalArgumentException("search plan: max must be > 0 (users >= 1), got " + max);
    }
    if (coarseLevels < 1 || !(precision > 0)) {
      throw new IllegalArgumentException(
          "search plan: need coarseLevels >= 1, precision > 0, got "
              + coarseLevels
              + ", "
              + precision);
    }
    this.closed = closed;
    this.precision = precision;
    this.coarse = coarseLoads(closed, max, coarseLevels);
  }

  /**
   * The coarse loads.
   *
   * @param closed users (whole, distinct, at least 1) rather than users/s
   * @param max the highest load
   * @param n how many
   * @return ascending, ending at {@code max}; fewer than n for users when max is small
   */
  static List<Double> coarseLoads(boolean closed, double max, int n) {
    List<Double> loads = new ArrayList<>();
    double previous = 0;
    for (int k = 1; k <= n; k++) {
      double load = max * k / n;
      if (closed) {
        load = Math.max(1, Math.round(load));
        if (load <= previous) {
          continue;
        }
      } else {
        load = round(load);
      }
      loads.add(load);
      previous = load;
    }
    return List.copyOf(loads);
  }

  private static double round(double v) {
    return Math.round(v * 1000) / 1000.0;
  }

  /**
   * The coarse loads of this search.
   *
   * @return ascending, never empty
   */
  public List<Double> coarse() {
    return coarse;
  }

  /**
   * The first level.
   *
   * @return the lowest coarse level
   */
  public Step first() {
    current = new Step(Stage.COARSE, coarse.get(0));
    return current;
  }

  /**
   * The level after the current one ended with a verdict.
   *
   * @param met whether the current level met the SLO
   * @return the next level, or null when the search is over (after a hold that met the SLO, the
   *     last hold allowed, or a miss at the lowest level)
   * @throws IllegalStateException before {@link #first()} or after the search is over
   */
  public Step next(boolean met) {
    if (current == null) {
      throw new IllegalStateException("search plan: no level is running");
    }
    Step was = current;
    current = null;
    switch (was.stage()) {
      case WARMUP:
        return null;
      case HOLD:
        if (met) {
          return null;
        }
        // The hold did not confirm the load: it is missed, and the highest met load below it is
        // the answer to hold (or to bisect towards), at most MAX_HOLDS holds in all.
        holds++;
        firstMissed = was.load();
        metLoads.remove(was.load());
        lastMet = metLoads.lower(was.load());
        edge = null;
        if (lastMet == null) {
          edge = BELOW;
          return null;
        }
        if (holds >= MAX_HOLDS) {
          return null;
        }
        return bisectOrHold();
      case COARSE:
        if (met) {
          lastMet = was.load();
          metLoads.add(was.load());
          coarseIndex++;
          if (coarseIndex < coarse.size()) {
            return current = new Step(Stage.COARSE, coarse.get(coarseIndex));
          }
          edge = AT_LEAST;
          return current = new Step(Stage.HOLD, lastMet);
        }
        firstMissed = was.load();
        if (lastMet == null) {
          edge = BELOW;
          return null;
        }
        return bisectOrHold();
      case BISECT:
      default:
        if (met) {
          lastMet = was.load();
          metLoads.add(was.load());
        } else {
          firstMissed = was.load();
        }
        return bisectOrHold();
    }
  }

  private Step bisectOrHold() {
    double gap = firstMissed - lastMet;
    boolean done = gap <= precision * lastMet || (closed && gap <= 1);
    if (done) {
      return current = new Step(Stage.HOLD, lastMet);
    }
    double mid =
        closed ? Math.floor((lastMet + firstMissed) / 2) : round((lastMet + firstMissed) / 2);
    if (mid <= lastMet || mid >= firstMissed) {
      return current = new Step(Stage.HOLD, lastMet);
    }
    return current = new Step(Stage.BISECT, mid);
  }

  /**
   * The highest load that met the SLO so far.
   *
   * @return users/s or users, or null when none did
   */
  public Double lastMet() {
    return lastMet;
  }

  /**
   * The lowest load that missed it above the last met one.
   *
   * @return users/s or users, or null when none did
   */
  public Double firstMissed() {
    return firstMissed;
  }

  /**
   * The answer's edge.
   *
   * @return {@link #AT_LEAST}, {@link #BELOW}, or null when the answer lies between two levels
   */
  public String edge() {
    return edge;
  }
}
