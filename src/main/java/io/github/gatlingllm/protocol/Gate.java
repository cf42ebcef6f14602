package io.github.gatlingllm.protocol;

import java.util.Objects;
import java.util.function.BooleanSupplier;
import java.util.function.Supplier;

/**
 * Not API. The answer to the one question an LLM request asks before it is sent: must this user
 * stop, and why? As Gatling's {@code ExitableAction} asks {@code BlockExit.mustExit(session)}. The
 * run answers for the whole run ({@link RunContext#gate}: a saturation stop, a target that is down
 * or not answering, the end of the scenario's injection profile); then the request's sender for its
 * kind (misuse of the DSL, a missing prompt, a spent budget, the warmup hold).
 */
public sealed interface Gate permits Gate.Go, Gate.Wait, Gate.Held, Gate.EndUser, Gate.StopRun {

  /** Send now. */
  Go GO = new Go();

  /** Held until the warmup ends: the sender sends then, on the user's event loop. */
  Held HELD = new Held();

  /**
   * How long a virtual user waits before it ends while the run stops or its budget is spent, ms.
   */
  long END_PAUSE_MS = 1_000;

  /** Send now. */
  record Go() implements Gate {}

  /**
   * The target is not answering: wait, then ask once more (and send, whatever the target does).
   *
   * @param pauseMs the wait, in milliseconds, positive
   */
  record Wait(long pauseMs) implements Gate {}

  /** Held until the warmup ends: the sender resumes the request itself. */
  record Held() implements Gate {}

  /**
   * End this virtual user without a request.
   *
   * @param pauseMs how long it waits first, in milliseconds (0: at once): a closed loop replaces an
   *     ended user at once, so a pause keeps it from spinning while the run stops
   */
  record EndUser(long pauseMs) implements Gate {}

  /**
   * Stop the load generator.
   *
   * @param message why, for Gatling's console and the log, never null
   * @param crash whether the run fails (a scenario that cannot work) rather than ends
   */
  record StopRun(String message, boolean crash) implements Gate {
    /** Checks the message. */
    public StopRun {
      Objects.requireNonNull(message, "message");
    }
  }

  /** The message of a run stopped because its target is down ({@code llm.stopWhenTargetDown}). */
  String TARGET_DOWN = "gatling-llm: the target is down, stopping (llm.stopWhenTargetDown)";

  /**
   * The message of a run stopped because its target went silent ({@code llm.silentSeconds}, {@code
   * llm.stopWhenTargetDown}).
   */
  String TARGET_SILENT =
      "gatling-llm: the target is silent, stopping (llm.silentSeconds, llm.stopWhenTargetDown)";

  /**
   * The run's answer, each question asked only when the ones before it let the user through (each
   * may say something once): a saturation stop ({@code llm.stopWhenSaturated}), then the target
   * ({@link TargetWatch}), then the end of the scenario's injection profile ({@link ProfileEnd}).
   *
   * @param saturation the saturation stop's message, or null to go on
   * @param target what the target watch says
   * @param mayWait false after the user has waited once for a target that is not answering: it then
   *     goes on (or ends, or stops the run), never waits again
   * @param pastProfileEnd whether the user is past its scenario's injection profile
   * @return never null
   */
  static Gate ofRun(
      Supplier<String> saturation,
      Supplier<TargetWatch.Decision> target,
      boolean mayWait,
      BooleanSupplier pastProfileEnd) {
    String saturated = saturation.get();
    if (saturated != null) {
      return new StopRun(saturated, false);
    }
    switch (target.get()) {
      case STOP_RUN:
        return new StopRun(TARGET_DOWN, false);
      case END_USER:
        return new EndUser(END_PAUSE_MS);
      case WAIT:
        if (mayWait) {
          return new Wait(TargetWatch.SUSPECT_PAUSE_MS);
        }
        break;
      case WAIT_DOWN:
        if (mayWait) {
          return new Wait(TargetWatch.DOWN_PAUSE_MS);
        }
        break;
      default:
        break;
    }
    return pastProfileEnd.getAsBoolean() ? new EndUser(0) : GO;
  }
}
