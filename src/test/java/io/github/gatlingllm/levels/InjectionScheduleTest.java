package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * Offsets per step type, worked out by hand from Gatling 3.16.0's {@code OpenInjectionStep} (and
 * checked user by user against Gatling's own iterator in {@code GatlingArrivalsTest}).
 */
class InjectionScheduleTest {

  @Test
  void atOnceUsersAllArriveAtTheStart() {
    assertEquals(List.of(0L, 0L, 0L), offsets(new Step(Type.AT_ONCE_USERS, 3, 3, 0)));
  }

  @Test
  void rampUsersShareTheSecondsThenTheirMilliseconds() {
    // 4 users over 2 s: 2 a second; 2 in a second at its ms 0 and 500
    assertEquals(List.of(0L, 500L, 1000L, 1500L), offsets(new Step(Type.RAMP_USERS, 4, 4, 2_000)));
  }

  @Test
  void rampUsersUnderASecondInjectNoOneAsInGatling() {
    assertEquals(List.of(), offsets(new Step(Type.RAMP_USERS, 7, 7, 500)));
  }

  @Test
  void constantRateRoundsItsUsersAndRampsThem() {
    // round(2 s x 2.5/s) = 5 users: ceil(2.5) = 3 in second 0 (ms 0, 333, 666), 2 in second 1
    assertEquals(
        List.of(0L, 333L, 666L, 1000L, 1500L),
        offsets(new Step(Type.CONSTANT_USERS_PER_SEC, 2.5, 2.5, 2_000)));
  }

  @Test
  void rateRampsCarryTheFractionOfEachSecond() {
    // the same 2.5/s as a ramp: 2 in second 0 (0.5 carried), 3 in second 1
    assertEquals(
        List.of(0L, 500L, 1000L, 1333L, 1666L),
        offsets(new Step(Type.RAMP_USERS_PER_SEC, 2.5, 2.5, 2_000)));
    // 1 -> 3/s over 2 s: a = 0.5; 1.5 users in second 0 (1, 0.5 carried), 0.5*3+1+0.5 = 3 in 1
    assertEquals(
        List.of(0L, 1000L, 1333L, 1666L), offsets(new Step(Type.RAMP_USERS_PER_SEC, 1, 3, 2_000)));
  }

  @Test
  void stressPeakFollowsGatlingsHeavisideCurve() {
    // user i of 5 at (long) (k * (erfinv(2i/7 - 1) + t0)), t0 = |erfinv(2/7 - 1)|, k = 1000/(2 t0)
    assertEquals(
        List.of(0L, 234L, 415L, 584L, 765L),
        offsets(new Step(Type.STRESS_PEAK_USERS, 5, 5, 1_000)));
  }

  @Test
  void poissonArrivalsReplayGatlingsDrawFromTheSeed() {
    // (3 + 3) / 2 x 2 s = 6 users; seed 42 as Gatling's SplittableRandom draws them
    assertEquals(
        List.of(97L, 681L, 1041L, 1328L, 1869L, 1886L),
        offsets(new Step(Type.POISSON_USERS_PER_SEC, 3, 3, 2_000, 42L)));
  }

  @Test
  void nothingForAndEarlierStepsShiftTheLaterOnes() {
    InjectionSchedule s =
        schedule(
            new Step(Type.NOTHING_FOR, 0, 0, 1_500),
            new Step(Type.AT_ONCE_USERS, 2, 2, 0),
            new Step(Type.CONSTANT_USERS_PER_SEC, 0, 0, 3_000),
            new Step(Type.RAMP_USERS, 2, 2, 1_000));
    assertEquals(4, s.users());
    assertEquals(List.of(1_500L, 1_500L, 4_500L, 5_000L), offsets(s));
  }

  @Test
  void aUserPastTheProfileIsRefused() {
    InjectionSchedule s = schedule(new Step(Type.AT_ONCE_USERS, 2, 2, 0));
    IndexOutOfBoundsException e =
        assertThrows(IndexOutOfBoundsException.class, () -> s.offsetMs(2));
    assertEquals("user 2 of scenario chat, which injects 2", e.getMessage());
  }

  @Test
  void aClosedProfileHasNoSchedule() {
    Injection closed =
        new Injection(
            "chat",
            true,
            List.of(new Step(Type.CONSTANT_CONCURRENT_USERS, 4, 4, 1_000)),
            List.of());
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> InjectionSchedule.of(closed));
    assertEquals("scenario chat: a closed profile has no arrival schedule", e.getMessage());
  }

  private static InjectionSchedule schedule(Step... steps) {
    return InjectionSchedule.of(new Injection("chat", false, List.of(steps), List.of()));
  }

  private static List<Long> offsets(Step step) {
    return offsets(schedule(step));
  }

  private static List<Long> offsets(InjectionSchedule s) {
    List<Long> out = new ArrayList<>();
    for (long k = 0; k < s.users(); k++) {
      out.add(s.offsetMs(k));
    }
    return out;
  }
}
