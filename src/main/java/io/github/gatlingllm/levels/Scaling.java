package io.github.gatlingllm.levels;

import io.github.gatlingllm.record.SaturationBlock;
import java.util.Locale;
import java.util.Objects;

/**
 * Closed-loop scaling between two levels of one closed scenario, the second with more users: how
 * much of the throughput the added users would add on an unsaturated server they did add, and how
 * much the latency grew. The rule that reads it ({@link #overCapacity()}) is the closed loop's over
 * capacity: past the knee, added users add latency, not throughput.
 *
 * <p>The queueing behind it is Little's law for a closed loop (no think time): throughput {@code X
 * = N / R}, with {@code N} users in the system and {@code R} the time each request spends in it
 * (its E2E). Below saturation {@code R} stays flat and {@code X} grows with {@code N}; past it the
 * server serves its capacity whatever {@code N}, and each added user waits ({@code R} grows with
 * {@code N}, in the queue before the first token: TTFT, or in a batch that decodes slower: ITL,
 * both in E2E). Between the level below ({@code N0} users, output tokens/s {@code X0}) and this one
 * ({@code N1}, {@code X1}): {@code u = N1 / N0} (more than 1), {@code x = X1 / X0}, and the
 * <b>scaling</b> {@code (x - 1) / (u - 1)}: 1 when throughput grew in proportion to the users, 0
 * when it did not grow. The level is over capacity when both:
 *
 * <ul>
 *   <li>throughput fell short: {@code x - 1} under {@code max(minScaling * (u - 1),
 *       throughputGain)} ({@link SaturationSettings#minScaling()}, 0.25: the added users gave less
 *       than a quarter of what they would give unsaturated; {@link
 *       SaturationSettings#throughputGain()}, 0.05, the old flat-throughput bound, for levels close
 *       together);
 *   <li>latency grew: the TTFT p50 or the E2E p50 is at least {@link
 *       SaturationSettings#ttftGrowth()} (1.5) times the level below's. By Little's law it must,
 *       when the throughput fell short ({@code R} grows by {@code u / x}); a level whose throughput
 *       fell short while its latency stayed flat had users that were not in the system (a client
 *       that could not send, a pause), which is not the server's saturation.
 * </ul>
 *
 * The throughput is each level's output tokens/s served in its window ({@link
 * LevelResult#outputTokensPerS()}), the latencies the p50 of the requests that started in it.
 * Levels of the same load ({@code u = 1}, the same load twice) are not compared: nothing was added.
 *
 * @param below the level below, never null
 * @param level the level, with more users, never null
 * @param usersFactor {@code u}, more than 1
 * @param throughputFactor {@code x}, or null when the level below served no output token
 * @param scaling {@code (x - 1) / (u - 1)}, or null with {@code throughputFactor}
 * @param ttftFactor the TTFT p50 over the level below's, or null when either has none (not
 *     streamed)
 * @param e2eFactor the E2E p50 over the level below's, or null when either has none
 * @param latencyGrew whether the TTFT or the E2E p50 grew by the rule (see above)
 * @param throughputShort whether the throughput fell short by the rule (see above)
 * @param bound the gain under which throughput fell short: {@code max(minScaling * (u - 1),
 *     throughputGain)}
 * @param settings the thresholds, never null
 */
public record Scaling(
    LevelResult below,
    LevelResult level,
    double usersFactor,
    Double throughputFactor,
    Double scaling,
    Double ttftFactor,
    Double e2eFactor,
    boolean latencyGrew,
    boolean throughputShort,
    double bound,
    SaturationSettings settings) {

  /** Checks the values. */
  public Scaling {
    Objects.requireNonNull(below, "below");
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(settings, "settings");
    if (!(usersFactor > 1)) {
      throw new IllegalArgumentException("usersFactor must be > 1, got " + usersFactor);
    }
  }

  /**
   * The scaling from one closed level to one with more users.
   *
   * @param below the level below, never null
   * @param level the level, never null
   * @param settings the thresholds, never null
   * @return null when either level is open, or the level has no more users than the one below
   */
  public static Scaling of(LevelResult below, LevelResult level, SaturationSettings settings) {
    if (!below.level().closed() || !level.level().closed() || below.level().load() <= 0) {
      return null;
    }
    double u = level.level().load() / below.level().load();
    if (!(u > 1)) {
      return null;
    }
    double bound = Math.max(settings.minScaling() * (u - 1), settings.throughputGain());
    Double x = null;
    Double scaling = null;
    boolean shortOf = false;
    if (below.outputTokensPerS() > 0) {
      x = level.outputTokensPerS() / below.outputTokensPerS();
      scaling = (x - 1) / (u - 1);
      shortOf = x - 1 < bound;
    }
    Double ttft = factor(below.summary().ttftMs().p50(), level.summary().ttftMs().p50());
    Double e2e = factor(below.summary().e2eMs().p50(), level.summary().e2eMs().p50());
    boolean grew = grew(ttft, settings) || grew(e2e, settings);
    return new Scaling(below, level, u, x, scaling, ttft, e2e, grew, shortOf, bound, settings);
  }

  private static Double factor(Double before, Double now) {
    if (before == null || now == null) {
      return null;
    }
    return before > 0 ? now / before : now > 0 ? Double.POSITIVE_INFINITY : 1.0;
  }

  private static boolean grew(Double factor, SaturationSettings settings) {
    return factor != null && factor >= settings.ttftGrowth();
  }

  /**
   * Whether the level is over capacity by this rule: its throughput fell short while its latency
   * grew (see the class comment).
   *
   * @return {@code throughputShort && latencyGrew}
   */
  public boolean overCapacity() {
    return throughputShort && latencyGrew;
  }

  /**
   * The figures in one clause, e.g. {@code 2x users over level 0 (1 user) gave +11.4% output
   * tokens/s (84.0 -> 93.6), 11.4% of the +100% an unsaturated server gives them, while TTFT p50
   * went 91 -> 406 ms (4.5x) and E2E p50 390 -> 820 ms (2.1x)}.
   *
   * @return the clause, never null
   */
  public String describe() {
    StringBuilder text =
        new StringBuilder(
            String.format(
                Locale.ROOT,
                "%sx users over level %d (%s) gave ",
                factorText(usersFactor),
                below.index(),
                below.level().describeLoad()));
    if (throughputFactor == null) {
      text.append(
          String.format(
              Locale.ROOT,
              "%.1f output tokens/s (the level below served none)",
              level.outputTokensPerS()));
    } else {
      double gain = throughputFactor - 1;
      text.append(
          String.format(
              Locale.ROOT,
              "%s%.1f%% output tokens/s (%.1f -> %.1f), %s of the +%s an unsaturated server gives"
                  + " them",
              gain >= 0 ? "+" : "",
              gain * 100,
              below.outputTokensPerS(),
              level.outputTokensPerS(),
              scaling <= 0 ? "none" : String.format(Locale.ROOT, "%.1f%%", scaling * 100),
              percentText(usersFactor - 1)));
    }
    String latency = latencies();
    if (!latency.isEmpty()) {
      text.append(", while ").append(latency);
    }
    return text.toString();
  }

  /**
   * Why the level is over capacity, in one clause without naming it: {@link #describe()}, the
   * settings, and the rule's name.
   *
   * @return the clause
   */
  String reason() {
    boolean minScalingBinds =
        settings.minScaling() * (usersFactor - 1) >= settings.throughputGain();
    return describe()
        + ": the added users only added latency, by closed-loop scaling (Little's law; "
        + (minScalingBinds
            ? "llm.saturation.minScaling " + LoadLevel.describeNumber(settings.minScaling())
            : "llm.saturation.throughputGain "
                + LoadLevel.describeNumber(settings.throughputGain()))
        + ", llm.saturation.ttftGrowth "
        + LoadLevel.describeNumber(settings.ttftGrowth())
        + ")";
  }

  private String latencies() {
    StringBuilder text = new StringBuilder();
    if (ttftFactor != null) {
      text.append(
          latency(
              "TTFT", below.summary().ttftMs().p50(), level.summary().ttftMs().p50(), ttftFactor));
    }
    if (e2eFactor != null) {
      if (text.length() > 0) {
        text.append(" and ");
      }
      text.append(
          latency("E2E", below.summary().e2eMs().p50(), level.summary().e2eMs().p50(), e2eFactor));
    }
    return text.toString();
  }

  private static String latency(String name, double before, double now, double factor) {
    return String.format(
        Locale.ROOT,
        "%s p50 went %.0f -> %.0f ms (%s)",
        name,
        before,
        now,
        Double.isInfinite(factor) ? "from 0" : String.format(Locale.ROOT, "%.1fx", factor));
  }

  /** {@code 2}, {@code 1.5}, {@code 1.13}: a factor to 0.01, without trailing zeros. */
  private static String factorText(double f) {
    return String.format(Locale.ROOT, "%.2f", f).replaceAll("0+$", "").replaceAll("\\.$", "");
  }

  /** {@code 100%}, {@code 12.5%}: a share in percent to 0.1, without a trailing zero. */
  private static String percentText(double share) {
    return String.format(Locale.ROOT, "%.1f", share * 100).replaceAll("\\.0$", "") + "%";
  }

  /**
   * {@code llm-run.json}'s entry of a pair in {@code saturation.scaling}: {@code level} and {@code
   * level_below} (indices over the run), {@code users_factor}, {@code output_tokens_per_s_factor},
   * {@code scaling} (these two null when the level below served nothing), {@code ttft_p50_factor},
   * {@code e2e_p50_factor} (null when a level has none), {@code latency_grew}, {@code
   * throughput_short}, {@code over_capacity}.
   *
   * @return the row
   */
  public SaturationBlock.ScalingRow toRecord() {
    return new SaturationBlock.ScalingRow(
        level.index(),
        below.index(),
        usersFactor,
        throughputFactor,
        scaling,
        finite(ttftFactor),
        finite(e2eFactor),
        latencyGrew,
        throughputShort,
        overCapacity());
  }

  /** JSON has no infinity: a latency grown from 0 is written as null. */
  private static Double finite(Double v) {
    return v == null || Double.isInfinite(v) ? null : v;
  }
}
