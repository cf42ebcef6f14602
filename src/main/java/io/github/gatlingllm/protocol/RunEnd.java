package io.github.gatlingllm.protocol;

import java.util.Locale;

/**
 * Not API. How a run ended, for {@code llm-run.json}'s {@code end_reason} and {@code interrupted}:
 * from what Gatling and this extension know when the run record is written. Thread-safe.
 */
public final class RunEnd {

  /** Why a run ended; {@link #wireName()} is the record's {@code end_reason}. */
  public enum Reason {
    /**
     * Every prompt feeder's budget was spent and every scenario had been fed one: the extension
     * stopped the injection.
     */
    BUDGET_SPENT(false),
    /**
     * Gatling ended the run on its own: the injection profiles were over and every virtual user
     * ended (or the simulation stopped itself).
     */
    INJECTION_OVER(false),
    /** A load level was over-saturated and {@code llm.stopWhenSaturated} stopped the run. */
    SATURATION_STOP(false),
    /**
     * The capacity search was over (its hold ended, or its lowest level missed the SLO) and stopped
     * the run: its answer is in {@code capacity}.
     */
    SEARCH_OVER(false),
    /**
     * The target stopped answering (requests failed to connect and none was answered for {@code
     * llm.targetDown.afterMs}) and {@code llm.stopWhenTargetDown} stopped the run.
     */
    TARGET_DOWN(true),
    /**
     * No byte came from the target for {@code llm.silentSeconds} while streamed requests were in
     * flight ({@link SilenceWatch}) and {@code llm.stopWhenTargetDown} stopped the run.
     */
    TARGET_SILENT(true),
    /** Gatling's {@code maxDuration} stopped the run: the requests in flight were cut. */
    MAX_DURATION(true),
    /** Ctrl+C or SIGTERM stopped the JVM. */
    INTERRUPTED(true),
    /** The run was stopped as a crash (a scenario that cannot work). */
    CRASHED(true);

    private final boolean interrupted;

    Reason(boolean interrupted) {
      this.interrupted = interrupted;
    }

    /**
     * The name in the record.
     *
     * @return e.g. {@code "max_duration"}
     */
    public String wireName() {
      return name().toLowerCase(Locale.ROOT);
    }

    /**
     * Whether the run was stopped before its load was over: {@code llm-run.json}'s {@code
     * interrupted}.
     *
     * @return true for {@link #TARGET_DOWN}, {@link #TARGET_SILENT}, {@link #MAX_DURATION}, {@link
     *     #INTERRUPTED} and {@link #CRASHED}
     */
    public boolean interrupted() {
      return interrupted;
    }
  }

  private final Long maxDurationMs;
  private final long startMs;
  private volatile boolean budgetSpent;
  private volatile boolean saturationStop;
  private volatile boolean searchOver;
  private volatile boolean targetDown;
  private volatile boolean targetSilent;

  /**
   * Watches a run's end.
   *
   * @param maxDurationMs the simulation's {@code maxDuration} in milliseconds, or null when none
   *     (or unknown)
   * @param startMs when the load was about to start (epoch milliseconds, Gatling's clock): the
   *     {@code maxDuration} is counted from here
   */
  public RunEnd(Long maxDurationMs, long startMs) {
    this.maxDurationMs = maxDurationMs;
    this.startMs = startMs;
  }

  /** Every budget is spent: the injection is being stopped. */
  public void budgetSpent() {
    budgetSpent = true;
  }

  /** A saturation stop is being made. */
  public void saturationStop() {
    saturationStop = true;
  }

  /** The capacity search is over: the run is being stopped. */
  public void searchOver() {
    searchOver = true;
  }

  /** The target is down and the run is being stopped for it ({@code llm.stopWhenTargetDown}). */
  public void targetDown() {
    targetDown = true;
  }

  /**
   * The target is silent and the run is being stopped for it ({@code llm.silentSeconds}, {@code
   * llm.stopWhenTargetDown}).
   */
  public void targetSilent() {
    targetSilent = true;
  }

  /**
   * Why the run ended. The first that applies: a crash, a signal, a dead target, a silent one, a
   * saturation stop, the capacity search's end, a spent budget, the {@code maxDuration} reached
   * (the run lasted at least that long from {@code startMs}), else the injection was over.
   *
   * @param crashed whether the run was stopped as a crash
   * @param signalled whether Ctrl+C or SIGTERM stopped the JVM (the record is written by the
   *     shutdown hook)
   * @param nowMs now, epoch milliseconds, Gatling's clock
   * @return never null
   */
  public Reason reason(boolean crashed, boolean signalled, long nowMs) {
    if (crashed) {
      return Reason.CRASHED;
    }
    if (signalled) {
      return Reason.INTERRUPTED;
    }
    if (targetDown) {
      return Reason.TARGET_DOWN;
    }
    if (targetSilent) {
      return Reason.TARGET_SILENT;
    }
    if (saturationStop) {
      return Reason.SATURATION_STOP;
    }
    if (searchOver) {
      return Reason.SEARCH_OVER;
    }
    if (budgetSpent) {
      return Reason.BUDGET_SPENT;
    }
    if (maxDurationMs != null && nowMs - startMs >= maxDurationMs) {
      return Reason.MAX_DURATION;
    }
    return Reason.INJECTION_OVER;
  }
}
