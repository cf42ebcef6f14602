package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import java.util.function.BooleanSupplier;
import java.util.function.Supplier;
import org.junit.jupiter.api.Test;

/** {@link Gate#ofRun}: the run's answer to a user about to send, one test per answer. */
class GateTest {

  private static final Supplier<String> NOT_SATURATED = () -> null;
  private static final BooleanSupplier IN_PROFILE = () -> false;

  private static <T> Supplier<T> notAsked() {
    return () -> {
      throw new AssertionError("asked");
    };
  }

  private static final BooleanSupplier PROFILE_NOT_ASKED =
      () -> {
        throw new AssertionError("asked");
      };

  @Test
  void aTargetThatAnswersAndAUserInItsProfileGo() {
    assertEquals(
        Gate.GO, Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.GO, true, IN_PROFILE));
  }

  @Test
  void aSaturationStopStopsTheRunAsNoCrashWithoutAskingTheTarget() {
    assertEquals(
        new Gate.StopRun("level 3 over-saturated", false),
        Gate.ofRun(() -> "level 3 over-saturated", notAsked(), true, PROFILE_NOT_ASKED));
  }

  @Test
  void aTargetJudgedDownStopsTheRunAsNoCrash() {
    assertEquals(
        new Gate.StopRun(
            "gatling-llm: the target is down, stopping (llm.stopWhenTargetDown)", false),
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.STOP_RUN, true, PROFILE_NOT_ASKED));
  }

  @Test
  void aUserWhileTheRunStopsForItsTargetEndsAfterASecond() {
    assertEquals(
        new Gate.EndUser(1_000),
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.END_USER, true, PROFILE_NOT_ASKED));
  }

  @Test
  void aTargetNotAnsweringHoldsTheUserATenthOfASecond() {
    assertEquals(
        new Gate.Wait(100),
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.WAIT, true, PROFILE_NOT_ASKED));
  }

  @Test
  void aTargetDownWhileTheRunGoesOnHoldsTheUserASecond() {
    assertEquals(
        new Gate.Wait(1_000),
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.WAIT_DOWN, true, PROFILE_NOT_ASKED));
  }

  @Test
  void aUserThatWaitedOnceGoesWhateverTheTargetSays() {
    assertEquals(
        Gate.GO, Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.WAIT, false, IN_PROFILE));
    assertEquals(
        Gate.GO,
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.WAIT_DOWN, false, IN_PROFILE));
  }

  @Test
  void aUserPastItsProfileEndsAtOnce() {
    assertEquals(
        new Gate.EndUser(0),
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.GO, true, () -> true));
  }

  @Test
  void aUserThatWaitedOnceAndIsPastItsProfileEnds() {
    assertEquals(
        new Gate.EndUser(0),
        Gate.ofRun(NOT_SATURATED, () -> TargetWatch.Decision.WAIT, false, () -> true));
  }

  @Test
  void aStopRunNeedsAMessage() {
    assertThrows(NullPointerException.class, () -> new Gate.StopRun(null, true));
  }
}
