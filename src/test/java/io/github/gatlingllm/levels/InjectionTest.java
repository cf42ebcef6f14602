package io.github.gatlingllm.levels;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.levels.Injection.Step;
import io.github.gatlingllm.levels.Injection.Type;
import java.util.List;
import org.junit.jupiter.api.Test;

class InjectionTest {

  @Test
  void durationIsTheSumOfTheSteps() {
    Injection closed =
        new Injection(
            "chat",
            true,
            List.of(
                new Step(Type.CONSTANT_CONCURRENT_USERS, 1, 1, 10_000),
                new Step(Type.RAMP_CONCURRENT_USERS, 1, 4, 2_000),
                new Step(Type.CONSTANT_CONCURRENT_USERS, 4, 4, 10_000)),
            List.of());
    assertEquals(22_000, closed.durationMs());
  }

  @Test
  void levelsAreSteadyStepsWithADuration() {
    assertTrue(new Step(Type.CONSTANT_CONCURRENT_USERS, 4, 4, 1_000).level());
    assertTrue(new Step(Type.CONSTANT_USERS_PER_SEC, 2.5, 2.5, 1_000).level());
    assertFalse(new Step(Type.RAMP_CONCURRENT_USERS, 1, 4, 1_000).level());
    assertFalse(new Step(Type.CONSTANT_CONCURRENT_USERS, 4, 4, 0).level());
    assertFalse(new Step(Type.RAMP_USERS, 10, 10, 1_000).level());
    assertFalse(new Step(Type.AT_ONCE_USERS, 10, 10, 0).level());
  }

  @Test
  void anOpenStepInAClosedProfileIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () ->
                new Injection(
                    "chat", true, List.of(new Step(Type.AT_ONCE_USERS, 1, 1, 0)), List.of()));
    assertEquals(
        "injection step AT_ONCE_USERS is open in the closed profile of scenario chat",
        e.getMessage());
  }

  @Test
  void aNegativeRateIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Step(Type.CONSTANT_USERS_PER_SEC, -1, -1, 1_000));
    assertEquals(
        "injection step CONSTANT_USERS_PER_SEC: from and to must be finite and >= 0, got -1.0, -1.0",
        e.getMessage());
  }
}
