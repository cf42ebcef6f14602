package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.RequestStatus;
import java.util.Locale;

/**
 * Not API. The rule that judges one level against the one before it of the same scenario: is it
 * over capacity (too many errors, or latency grown while the server served no more than it did: in
 * a closed loop, added users that added latency rather than throughput, {@link Scaling}; in an open
 * loop, fewer requests served than offered)? One rule for the run's verdict ({@link Saturation})
 * and for {@code llm.stopWhenSaturated}, which applies it to each level as it ends. Pure: levels
 * in, a one-line reason (or null) out.
 */
public final class OverCapacity {

  private OverCapacity() {}

  /**
   * An open-loop level must fall short of its offered load by more than this many requests to be
   * over capacity: a request or two started near a level's end complete in the next one whatever
   * the load, and must not make a level of a few requests look over capacity.
   */
  public static final int MIN_SHORTFALL_REQUESTS = 3;

  /**
   * Whether a level is over-saturated (over capacity) against the one before it of the same
   * scenario (see {@link SaturationSettings}): the rule of {@code llm.stopWhenSaturated} and of the
   * verdict ({@link Saturation#saturated()}).
   *
   * @param previous the level before, never null
   * @param current the level, never null
   * @param settings the thresholds
   * @return why, in one line naming the level and the settings, or null when it is not
   */
  public static String overSaturated(
      LevelResult previous, LevelResult current, SaturationSettings settings) {
    String why = overCapacity(previous, current, settings);
    return why == null
        ? null
        : "level " + current.index() + " (" + current.level().describeLoad() + "): " + why;
  }

  /**
   * Why a level is over capacity against the one before it, without naming it: more than {@code
   * errorRatio} of its requests failed; or, in a closed loop, by closed-loop scaling ({@link
   * Scaling#overCapacity()}: its added users gave less than {@code minScaling} of the output
   * tokens/s they would give an unsaturated server while its TTFT or E2E p50 grew by at least
   * {@code ttftGrowth} times; a level with no more users than the one before is not judged so); or,
   * in an open loop, its TTFT p50 (E2E p50 when not streamed) grew by at least {@code ttftGrowth}
   * times while it served (completed) fewer requests than were offered (started) in it, by more
   * than {@code throughputGain} of the offered and more than {@value #MIN_SHORTFALL_REQUESTS}
   * requests: the server queued the added load instead of serving it, whatever its throughput did.
   *
   * @param previous the level before, never null
   * @param current the level, never null
   * @param settings the thresholds
   * @return the clause, or null when it is not over capacity
   */
  static String overCapacity(
      LevelResult previous, LevelResult current, SaturationSettings settings) {
    long n = current.summary().requests();
    if (n == 0) {
      return null;
    }
    if (current.errorRatio() > settings.errorRatio()) {
      return String.format(
          Locale.ROOT,
          "%d of %d requests failed (%s), more than llm.saturation.errorRatio %s",
          n - current.summary().count(RequestStatus.OK),
          n,
          percent(current.errorRatio()),
          LoadLevel.describeNumber(settings.errorRatio()));
    }
    if (current.level().closed()) {
      Scaling scaling = Scaling.of(previous, current, settings);
      return scaling != null && scaling.overCapacity() ? scaling.reason() : null;
    }
    boolean streamed = current.summary().ttftMs().p50() != null;
    Double before = p50(previous, streamed);
    Double now = p50(current, streamed);
    if (before == null || now == null) {
      return null;
    }
    double growth = before > 0 ? now / before : now > 0 ? Double.POSITIVE_INFINITY : 1;
    if (growth < settings.ttftGrowth()) {
      return null;
    }
    String latency =
        String.format(
            Locale.ROOT,
            "%s p50 grew %.1fx over level %d (%s)",
            streamed ? "TTFT" : "E2E",
            growth,
            previous.index(),
            previous.level().describeLoad());
    long served = current.served().completed();
    long shortfall = n - served;
    if (shortfall > MIN_SHORTFALL_REQUESTS && shortfall > settings.throughputGain() * n) {
      return String.format(
          Locale.ROOT,
          "served %.2f of %.2f offered requests/s (%s short) while %s, %.0f -> %.0f ms"
              + " (llm.saturation.ttftGrowth %s, llm.saturation.throughputGain %s)",
          current.requestsPerS(),
          current.offeredRequestsPerS(),
          percent((double) shortfall / n),
          latency,
          before,
          now,
          LoadLevel.describeNumber(settings.ttftGrowth()),
          LoadLevel.describeNumber(settings.throughputGain()));
    }
    return null;
  }

  /**
   * The rule of {@link #overCapacity} in words, for the loops a run holds: what makes a level over
   * capacity in a closed loop (latency up while output throughput stays flat), in an open loop
   * (latency up while the level served fewer requests than it was offered), or both, each named;
   * then the error share. E.g. {@code whose TTFT p50 (E2E p50 when not streamed) grows 1.5x over
   * the level before while it serves fewer requests than it is offered, by more than 5% of them and
   * more than 3 requests, or whose errors exceed 5%}.
   *
   * @param settings the thresholds, never null
   * @param closed whether a scenario of the run has closed levels (concurrent users)
   * @param open whether a scenario of the run has open levels (arrival rates)
   * @return the clause, starting with {@code whose}; without a loop of either kind, the closed
   *     loop's
   */
  public static String rule(SaturationSettings settings, boolean closed, boolean open) {
    String growth = LoadLevel.describeNumber(settings.ttftGrowth());
    String gain = LoadLevel.describeNumber(settings.throughputGain() * 100) + "%";
    String closedClause =
        "its added users give less than "
            + LoadLevel.describeNumber(settings.minScaling())
            + " of the output tokens/s they would give an unsaturated server (closed-loop"
            + " scaling, Little's law), or less than "
            + gain;
    String openClause =
        "it serves fewer requests than it is offered, by more than "
            + gain
            + " of them and more than "
            + MIN_SHORTFALL_REQUESTS
            + " requests";
    String latency =
        "whose TTFT p50 (E2E p50 when not streamed"
            + (closed ? "; in a closed loop, TTFT or E2E p50" : "")
            + ") grows "
            + growth
            + "x over the level before";
    String why;
    if (open && closed) {
      why =
          latency
              + " while, in a closed loop, "
              + closedClause
              + " or, in an open loop, "
              + openClause;
    } else {
      why = latency + " while " + (open ? openClause : closedClause);
    }
    return why
        + ", or whose errors exceed "
        + LoadLevel.describeNumber(settings.errorRatio() * 100)
        + "%";
  }

  private static Double p50(LevelResult r, boolean streamed) {
    return streamed ? r.summary().ttftMs().p50() : r.summary().e2eMs().p50();
  }

  static String percent(double share) {
    return String.format(Locale.ROOT, "%.1f%%", share * 100);
  }
}
