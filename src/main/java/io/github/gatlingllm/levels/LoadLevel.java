package io.github.gatlingllm.levels;

import java.util.ArrayList;
import java.util.List;
import java.util.Objects;

/**
 * One load level of a run: a steady step of one scenario's injection profile ({@link
 * Injection.Step#level()}: a constant number of concurrent users in a closed profile, a constant
 * arrival rate in an open one) placed on the clock. The levels of Gatling's {@code
 * incrementConcurrentUsers} / {@code incrementUsersPerSec}, of chained {@code
 * constantConcurrentUsers} steps and of populations chained with {@code andThen} are each a level;
 * the ramps between them are not.
 *
 * <p>Where a profile starts on the clock (its anchor) is observed, not asked of Gatling: see {@link
 * #plan(Injection, long)} and {@link #leadMs(Injection)}.
 *
 * @param scenario the scenario's name, never null
 * @param closed true for a level of concurrent users, false for an arrival rate
 * @param load concurrent users (closed) or users a second (open), at least 0
 * @param step the step's position in its profile, from 0
 * @param startMs the level's start, epoch milliseconds
 * @param endMs its end, epoch milliseconds, after {@code startMs}
 */
public record LoadLevel(
    String scenario, boolean closed, double load, int step, long startMs, long endMs) {

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException if {@code endMs <= startMs}, {@code load} is negative or not
   *     finite, or {@code step} is negative
   */
  public LoadLevel {
    Objects.requireNonNull(scenario, "scenario");
    if (endMs <= startMs) {
      throw new IllegalArgumentException(
          "load level of " + scenario + ": endMs " + endMs + " must be after startMs " + startMs);
    }
    if (!(load >= 0) || Double.isInfinite(load)) {
      throw new IllegalArgumentException(
          "load level of " + scenario + ": load must be finite and >= 0, got " + load);
    }
    if (step < 0) {
      throw new IllegalArgumentException(
          "load level of " + scenario + ": step must be >= 0, got " + step);
    }
  }

  /**
   * Whether a start time falls in the level: {@code startMs <= t < endMs}.
   *
   * @param epochMs a request start, epoch ms
   * @return true when the request started in this level
   */
  public boolean contains(long epochMs) {
    return epochMs >= startMs && epochMs < endMs;
  }

  /**
   * The level's length.
   *
   * @return seconds, more than 0
   */
  public double durationS() {
    return (endMs - startMs) / 1000.0;
  }

  /**
   * {@code closed} or {@code open}, as {@code llm-run.json} writes it.
   *
   * @return the kind
   */
  public String kind() {
    return closed ? "closed" : "open";
  }

  /**
   * The load as a person reads it: {@code 1 user}, {@code 4 users} or {@code 2.5 users/s}.
   *
   * @return the text
   */
  public String describeLoad() {
    return closed
        ? describeNumber(load) + (load == 1 ? " user" : " users")
        : describeNumber(load) + " users/s";
  }

  /**
   * A number as the console prints loads: whole numbers bare, others to 3 decimals at most.
   *
   * @param v the number
   * @return e.g. {@code 4} or {@code 2.5}
   */
  public static String describeNumber(double v) {
    return v == Math.rint(v) && Math.abs(v) < 1e15
        ? Long.toString((long) v)
        : String.format(java.util.Locale.ROOT, "%.3f", v)
            .replaceAll("0+$", "")
            .replaceAll("\\.$", "");
  }

  /**
   * The levels of a profile that starts at {@code anchorMs}: each step of it that holds its load
   * steady ({@link Injection.Step#level()}) at a load above 0, from the end of the steps before it
   * to its own end.
   *
   * @param injection the scenario's profile, never null
   * @param anchorMs when its first step starts, epoch ms
   * @return its levels in order; empty when it has none
   */
  public static List<LoadLevel> plan(Injection injection, long anchorMs) {
    List<LoadLevel> levels = new ArrayList<>();
    long t = anchorMs;
    List<Injection.Step> steps = injection.steps();
    for (int i = 0; i < steps.size(); i++) {
      Injection.Step step = steps.get(i);
      if (isLevel(step)) {
        levels.add(
            new LoadLevel(
                injection.scenario(),
                injection.closed(),
                step.from(),
                i,
                t,
                t + step.durationMs()));
      }
      t += step.durationMs();
    }
    return levels;
  }

  /**
   * Whether a step makes a level: it holds a load above 0 steady ({@link Injection.Step#level()}).
   *
   * @param step the step, never null
   * @return true for a level
   */
  public static boolean isLevel(Injection.Step step) {
    return step.level() && step.from() > 0;
  }

  /**
   * How many levels a profile has.
   *
   * @param injection the profile, never null
   * @return the number of its steps that make a level
   */
  public static int count(Injection injection) {
    return (int) injection.steps().stream().filter(LoadLevel::isLevel).count();
  }

  /**
   * How long after its start a profile starts its first virtual user: the length of its leading
   * steps that start none ({@code nothingFor}, a rate of 0, 0 concurrent users). The anchor of a
   * profile is the first virtual user's start minus this. Ramps that start from 0 are taken to
   * start a user at once (Gatling starts the first user of a ramp within its first second).
   *
   * @param injection the profile, never null
   * @return milliseconds, at least 0
   */
  public static long leadMs(Injection injection) {
    long lead = 0;
    for (Injection.Step step : injection.steps()) {
      boolean idle =
          step.type() == Injection.Type.NOTHING_FOR || step.from() == 0 && step.to() == 0;
      if (!idle) {
        break;
      }
      lead += step.durationMs();
    }
    return lead;
  }
}
