package io.github.gatlingllm.levels;

import java.util.List;
import java.util.Objects;

/**
 * The load of one scenario as Gatling's injection profile holds it: closed (a number of concurrent
 * virtual users over time) or open (virtual users arriving over time), and its steps in order.
 * Composite steps (Gatling's {@code incrementConcurrentUsers}, {@code incrementUsersPerSec}) are
 * expanded into their constant levels and the ramps between them, as Gatling runs them.
 *
 * @param scenario the scenario's name, never null
 * @param closed true for a closed profile ({@code injectClosed}), false for an open one
 * @param steps the steps in order, never null (copied)
 * @param after the names of the scenarios this one starts after ({@code andThen}); empty for a
 *     scenario that starts with the run; never null (copied)
 */
public record Injection(String scenario, boolean closed, List<Step> steps, List<String> after) {

  /** Checks and copies. */
  public Injection {
    Objects.requireNonNull(scenario, "scenario");
    steps = List.copyOf(Objects.requireNonNull(steps, "steps"));
    after = List.copyOf(Objects.requireNonNull(after, "after"));
    for (Step step : steps) {
      if (step.type().closed() != closed) {
        throw new IllegalArgumentException(
            "injection step "
                + step.type()
                + " is "
                + (closed ? "open" : "closed")
                + " in the "
                + (closed ? "closed" : "open")
                + " profile of scenario "
                + scenario);
      }
    }
  }

  /**
   * The profile's length: the sum of its steps' durations.
   *
   * @return milliseconds, at least 0
   */
  public long durationMs() {
    return steps.stream().mapToLong(Step::durationMs).sum();
  }

  /** The kind of an injection step, named as Gatling's Java DSL names it. */
  public enum Type {
    /** {@code constantConcurrentUsers(from).during(d)}: {@code from == to} users. */
    CONSTANT_CONCURRENT_USERS(true),
    /** {@code rampConcurrentUsers(from).to(to).during(d)}. */
    RAMP_CONCURRENT_USERS(true),
    /** {@code atOnceUsers(from)}: {@code from} users at once; duration 0. */
    AT_ONCE_USERS(false),
    /** {@code rampUsers(from).during(d)}: {@code from} users spread evenly over {@code d}. */
    RAMP_USERS(false),
    /** {@code constantUsersPerSec(from).during(d)}: {@code from == to} users a second. */
    CONSTANT_USERS_PER_SEC(false),
    /** {@code rampUsersPerSec(from).to(to).during(d)}: users a second, linear. */
    RAMP_USERS_PER_SEC(false),
    /**
     * {@code constantUsersPerSec(r).during(d).randomized()} or {@code rampUsersPerSec(..)..
     * .randomized()}: Poisson arrivals at a rate from {@code from} to {@code to} users a second.
     */
    POISSON_USERS_PER_SEC(false),
    /** {@code stressPeakUsers(from).during(d)}: {@code from} users, Heaviside-shaped. */
    STRESS_PEAK_USERS(false),
    /** {@code nothingFor(d)}: no arrival for {@code d}. */
    NOTHING_FOR(false);

    private final boolean closed;

    Type(boolean closed) {
      this.closed = closed;
    }

    /**
     * Whether the step belongs to a closed profile.
     *
     * @return true for concurrent-user steps
     */
    public boolean closed() {
      return closed;
    }
  }

  /**
   * One step.
   *
   * @param type its kind, never null
   * @param from concurrent users (closed), users (at once, ramp, stress peak) or users a second
   *     (rates) at the step's start; 0 for {@code NOTHING_FOR}; at least 0
   * @param to the same at the step's end; equal to {@code from} but for ramps of concurrency or
   *     rate
   * @param durationMs the step's length, milliseconds, at least 0
   * @param seed the seed of a {@code POISSON_USERS_PER_SEC} step's arrival times (Gatling draws
   *     them with {@code new SplittableRandom(seed)}), null for every other step
   */
  public record Step(Type type, double from, double to, long durationMs, Long seed) {

    /** Checks the values. */
    public Step {
      Objects.requireNonNull(type, "type");
      if ((seed != null) != (type == Type.POISSON_USERS_PER_SEC)) {
        throw new IllegalArgumentException(
            "injection step " + type + ": a seed belongs to Poisson steps only, got " + seed);
      }
      if (!(from >= 0) || !(to >= 0) || Double.isInfinite(from) || Double.isInfinite(to)) {
        throw new IllegalArgumentException(
            "injection step "
                + type
                + ": from and to must be finite and >= 0, got "
                + from
                + ", "
                + to);
      }
      if (durationMs < 0) {
        throw new IllegalArgumentException(
            "injection step " + type + ": durationMs must be >= 0, got " + durationMs);
      }
    }

    /**
     * A step without a seed (any but {@code POISSON_USERS_PER_SEC}).
     *
     * @param type its kind, never null
     * @param from as in the canonical constructor
     * @param to as in the canonical constructor
     * @param durationMs as in the canonical constructor
     */
    public Step(Type type, double from, double to, long durationMs) {
      this(type, from, to, durationMs, null);
    }

    /**
     * Whether the step holds its load steady: a constant concurrency or arrival rate, a level.
     *
     * @return true for constant concurrent users and constant (or Poisson) rates with {@code from
     *     == to} and a duration above 0
     */
    public boolean level() {
      return durationMs > 0
          && from == to
          && (type == Type.CONSTANT_CONCURRENT_USERS
              || type == Type.RAMP_CONCURRENT_USERS
              || type == Type.CONSTANT_USERS_PER_SEC
              || type == Type.RAMP_USERS_PER_SEC
              || type == Type.POISSON_USERS_PER_SEC);
    }
  }
}
