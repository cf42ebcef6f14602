package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;

import io.gatling.javaapi.core.ClosedInjectionStep;
import io.github.gatlingllm.settings.DurationText;
import io.github.gatlingllm.settings.LlmSettings;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.Properties;

/**
 * A concurrency sweep, GuideLLM's sweep in Gatling's shape: closed injection steps for {@code
 * scenario.injectClosed(...)} that hold a synchronous level (1 user, one request at a time), then
 * {@code levels} levels between, then a throughput level ({@code maxConcurrency} users: all the
 * concurrency the server is meant to take), each for {@code levelDuration}, with an optional ramp
 * before each level after the first. The concurrencies between go geometrically from 1 to {@code
 * maxConcurrency} (rounded, and made strictly ascending): {@code maxConcurrency(16).levels(3)}
 * gives 1, 2, 4, 8, 16.
 *
 * <p>Each level of the run gets its own figures in {@code llm-run.json}'s {@code levels}; with 2
 * levels or more the run reports the saturation point and, with an SLO, the highest load meeting it
 * ({@code saturation}). With {@code llm.stopWhenSaturated} ({@link
 * LlmProtocolBuilder#stopWhenSaturated(boolean)}) the run stops at the end of the first
 * over-saturated level.
 *
 * <p>Give the scenario one request per virtual user (no {@code forever()}): Gatling's closed model
 * starts a new user whenever one ends, keeping the level's concurrency, and at the end of the last
 * level lets the users in flight finish, so the last level keeps all its requests and the run ends
 * there:
 *
 * <pre>{@code
 * SweepBuilder sweep = sweep().maxConcurrency(16).levels(3).levelDuration(Duration.ofSeconds(30));
 * ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").chatCompletion());
 * setUp(chat.injectClosed(sweep.steps())).protocols(llm.stopWhenSaturated(true));
 * }</pre>
 *
 * <p>Every value can be overridden with a system property, which wins over the DSL: {@code
 * -Dllm.sweep.maxConcurrency=32}, {@code -Dllm.sweep.levels=4}, {@code
 * -Dllm.sweep.levelDuration=20s}, {@code -Dllm.sweep.ramp=2s}. Immutable, so all methods return a
 * new instance. Made by {@link LlmDsl#sweep()}.
 */
public final class SweepBuilder {

  /** The default throughput level: 16 concurrent users. */
  public static final int DEFAULT_MAX_CONCURRENCY = 16;

  /** The default number of levels between the synchronous and the throughput level. */
  public static final int DEFAULT_LEVELS = 3;

  /** The default level duration: 30 seconds. */
  public static final Duration DEFAULT_LEVEL_DURATION = Duration.ofSeconds(30);

  /** The most users a sweep's top level may hold. */
  public static final int MAX_CONCURRENCY_LIMIT = 100_000;

  /** The most levels a sweep may have in all (its first and last included). */
  public static final int MAX_LEVELS = 64;

  /** The longest a whole sweep (its levels and ramps) may last. */
  public static final Duration MAX_SWEEP_DURATION = Duration.ofDays(7);

  private final Integer maxConcurrency;
  private final Integer levels;
  private final Duration levelDuration;
  private final Duration ramp;

  SweepBuilder(Integer maxConcurrency, Integer levels, Duration levelDuration, Duration ramp) {
    this.maxConcurrency = maxConcurrency;
    this.levels = levels;
    this.levelDuration = levelDuration;
    this.ramp = ramp;
  }

  /**
   * The throughput level: the most concurrent users, the sweep's last level ({@code
   * llm.sweep.maxConcurrency}, default 16). Set it at or above the concurrency the server is
   * configured for (vLLM's {@code --max-num-seqs}, llama.cpp's {@code --parallel}), so the sweep
   * goes past saturation.
   *
   * @param users at least 2, at most {@value #MAX_CONCURRENCY_LIMIT}
   * @return a new builder
   */
  public SweepBuilder maxConcurrency(int users) {
    return new SweepBuilder(users, levels, levelDuration, ramp);
  }

  /**
   * How many levels between the synchronous level (1 user) and the throughput level ({@code
   * llm.sweep.levels}, default 3).
   *
   * @param between at least 0, at most {@code maxConcurrency - 2} (each level its own concurrency)
   *     and 62 (at most {@value #MAX_LEVELS} levels in all)
   * @return a new builder
   */
  public SweepBuilder levels(int between) {
    return new SweepBuilder(maxConcurrency, between, levelDuration, ramp);
  }

  /**
   * How long each level holds its concurrency ({@code llm.sweep.levelDuration}, default 30 s). Let
   * a level last at least 10 requests' E2E: its rates count the requests that started in it.
   *
   * @param duration at least 1 s, never null; the whole sweep (levels and ramps) at most 7 days
   * @return a new builder
   * @throws NullPointerException if {@code duration} is null
   */
  public SweepBuilder levelDuration(Duration duration) {
    java.util.Objects.requireNonNull(duration, "levelDuration");
    return new SweepBuilder(maxConcurrency, levels, duration, ramp);
  }

  /**
   * How long each level holds its concurrency, in seconds.
   *
   * @param seconds at least 1
   * @return a new builder
   */
  public SweepBuilder levelDuration(long seconds) {
    return levelDuration(Duration.ofSeconds(seconds));
  }

  /**
   * A ramp before each level after the first ({@code llm.sweep.ramp}, default none): the
   * concurrency rises linearly from the level before; requests started in a ramp belong to no level
   * ({@code levels_note}).
   *
   * @param duration at least 0, at most 7 days, never null
   * @return a new builder
   * @throws NullPointerException if {@code duration} is null
   */
  public SweepBuilder ramp(Duration duration) {
    java.util.Objects.requireNonNull(duration, "ramp");
    return new SweepBuilder(maxConcurrency, levels, levelDuration, duration);
  }

  /**
   * The concurrency of each level, in order, after {@code -Dllm.sweep.*} properties.
   *
   * @return 1, the levels between, {@code maxConcurrency}; strictly ascending, unmodifiable
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public List<Integer> concurrencies() {
    return resolve(System.getProperties()).concurrencies;
  }

  /**
   * How long the sweep injects, ramps included, after {@code -Dllm.sweep.*} properties.
   *
   * @return the duration
   * @throws IllegalArgumentException naming a bad setting
   */
  public Duration duration() {
    Resolved r = resolve(System.getProperties());
    int n = r.concurrencies.size();
    return r.levelDuration.multipliedBy(n).plus(r.ramp.multipliedBy(n - 1));
  }

  /**
   * Gatling's closed injection steps of the sweep, for {@code scenario.injectClosed(...)}: per
   * level {@code constantConcurrentUsers(c).during(levelDuration)}, each but the first preceded by
   * {@code rampConcurrentUsers(previous).to(c).during(ramp)} when a ramp is set.
   *
   * @return the steps, unmodifiable
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public List<ClosedInjectionStep> steps() {
    Resolved r = resolve(System.getProperties());
    io.github.gatlingllm.settings.SettingUse.RUN.made(
        io.github.gatlingllm.settings.SettingUse.Part.SWEEP);
    List<ClosedInjectionStep> steps = new ArrayList<>();
    Integer previous = null;
    for (int c : r.concurrencies) {
      if (previous != null && !r.ramp.isZero()) {
        steps.add(rampConcurrentUsers(previous).to(c).during(r.ramp));
      }
      steps.add(constantConcurrentUsers(c).during(r.levelDuration));
      previous = c;
    }
    return Collections.unmodifiableList(steps);
  }

  /** The settings after properties, checked. */
  record Resolved(List<Integer> concurrencies, Duration levelDuration, Duration ramp) {}

  Resolved resolve(Properties properties) {
    int max = integer(properties, "maxConcurrency", maxConcurrency, DEFAULT_MAX_CONCURRENCY);
    int between = integer(properties, "levels", levels, DEFAULT_LEVELS);
    Duration duration =
        duration(properties, "levelDuration", levelDuration, DEFAULT_LEVEL_DURATION);
    Duration rampDuration = duration(properties, "ramp", ramp, Duration.ZERO);
    if (max < 2 || max > MAX_CONCURRENCY_LIMIT) {
      throw bad(
          "maxConcurrency", max, "a whole number of users in [2, " + MAX_CONCURRENCY_LIMIT + "]");
    }
    int upper = Math.min(max - 2, MAX_LEVELS - 2);
    if (between < 0 || between > upper) {
      throw bad(
          "levels",
          between,
          "a whole number in [0, "
              + upper
              + "]: levels between 1 and "
              + max
              + " users, each its own concurrency"
              + (upper < max - 2 ? ", at most " + MAX_LEVELS + " levels in all" : ""));
    }
    if (duration.compareTo(Duration.ofSeconds(1)) < 0) {
      throw bad("levelDuration", show(duration), "a duration of at least 1s, e.g. 30s");
    }
    if (duration.compareTo(MAX_SWEEP_DURATION) > 0) {
      throw bad(
          "levelDuration",
          show(duration),
          "a duration in [1s, " + MAX_SWEEP_DURATION.toDays() + "d], e.g. 30s");
    }
    if (rampDuration.isNegative()) {
      throw bad("ramp", show(rampDuration), "a duration >= 0, e.g. 2s");
    }
    if (rampDuration.compareTo(MAX_SWEEP_DURATION) > 0) {
      throw bad(
          "ramp",
          show(rampDuration),
          "a duration in [0s, " + MAX_SWEEP_DURATION.toDays() + "d], e.g. 2s");
    }
    int n = between + 2;
    Duration total = duration.multipliedBy(n).plus(rampDuration.multipliedBy(n - 1));
    if (total.compareTo(MAX_SWEEP_DURATION) > 0) {
      throw bad(
          "levelDuration",
          show(duration),
          "a duration such that the sweep's "
              + n
              + " levels and "
              + (n - 1)
              + " ramps of "
              + show(rampDuration)
              + " last at most "
              + MAX_SWEEP_DURATION.toDays()
              + "d (they would last "
              + total.toHours()
              + "h)");
    }
    return new Resolved(concurrencies(max, between), duration, rampDuration);
  }

  /**
   * The geometric concurrencies from 1 to {@code max} with {@code between} levels between: {@code
   * round(max^(i / (between + 1)))}, raised to one more than the level before and capped to leave
   * room for the levels after.
   */
  static List<Integer> concurrencies(int max, int between) {
    int n = between + 2;
    List<Integer> list = new ArrayList<>(n);
    int previous = 0;
    for (int i = 0; i < n; i++) {
      int c = (int) Math.round(Math.pow(max, (double) i / (n - 1)));
      c = Math.max(c, previous + 1);
      c = Math.min(c, max - (n - 1 - i));
      list.add(c);
      previous = c;
    }
    return Collections.unmodifiableList(list);
  }

  private static int integer(Properties properties, String name, Integer value, int fallback) {
    String text = properties.getProperty(LlmSettings.PREFIX + "sweep." + name);
    if (text == null || text.isBlank()) {
      return value == null ? fallback : value;
    }
    try {
      return Integer.parseInt(text.strip());
    } catch (NumberFormatException e) {
      throw bad(name, "\"" + text + "\"", "a whole number");
    }
  }

  private static Duration duration(
      Properties properties, String name, Duration value, Duration fallback) {
    String text = properties.getProperty(LlmSettings.PREFIX + "sweep." + name);
    if (text == null || text.isBlank()) {
      return value == null ? fallback : value;
    }
    try {
      return DurationText.parse(text, "30s, 500ms or 2m");
    } catch (IllegalArgumentException e) {
      throw bad(name, "\"" + text + "\"", e.getMessage());
    }
  }

  /** A duration as the messages show it: milliseconds, or seconds when too long for them. */
  private static String show(Duration d) {
    try {
      return d.toMillis() + "ms";
    } catch (ArithmeticException e) {
      return d.getSeconds() + "s";
    }
  }

  private static IllegalArgumentException bad(String name, Object value, String allowed) {
    return new IllegalArgumentException(
        "llm.sweep." + name + " (sweep()." + name + "): got " + value + ", expected " + allowed);
  }

  @Override
  public String toString() {
    return "SweepBuilder[maxConcurrency="
        + maxConcurrency
        + ", levels="
        + levels
        + ", levelDuration="
        + levelDuration
        + ", ramp="
        + ramp
        + "]";
  }
}
