package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import org.junit.jupiter.api.Test;

class RunEndTest {

  @Test
  void aRunThatLastedItsMaxDurationEndedByIt() {
    RunEnd end = new RunEnd(10_000L, 1_000L);
    assertEquals(RunEnd.Reason.MAX_DURATION, end.reason(false, false, 11_000L));
    assertEquals("max_duration", end.reason(false, false, 11_000L).wireName());
    assertEquals(true, end.reason(false, false, 11_000L).interrupted());
  }

  @Test
  void aRunThatEndedBeforeItsMaxDurationEndedWithItsInjection() {
    RunEnd end = new RunEnd(10_000L, 1_000L);
    assertEquals(RunEnd.Reason.INJECTION_OVER, end.reason(false, false, 10_999L));
    assertEquals(false, RunEnd.Reason.INJECTION_OVER.interrupted());
  }

  @Test
  void withoutMaxDurationALongRunEndedWithItsInjection() {
    assertEquals(
        RunEnd.Reason.INJECTION_OVER, new RunEnd(null, 0L).reason(false, false, 3_600_000L));
  }

  @Test
  void aSpentBudgetWinsOverTheClock() {
    RunEnd end = new RunEnd(10_000L, 0L);
    end.budgetSpent();
    assertEquals("budget_spent", end.reason(false, false, 20_000L).wireName());
    assertEquals(false, end.reason(false, false, 20_000L).interrupted());
  }

  @Test
  void aSaturationStopWinsOverASpentBudget() {
    RunEnd end = new RunEnd(null, 0L);
    end.budgetSpent();
    end.saturationStop();
    assertEquals("saturation_stop", end.reason(false, false, 5_000L).wireName());
  }

  @Test
  void aSignalWinsOverEverythingButACrash() {
    RunEnd end = new RunEnd(1_000L, 0L);
    end.saturationStop();
    assertEquals("interrupted", end.reason(false, true, 5_000L).wireName());
    assertEquals("crashed", end.reason(true, true, 5_000L).wireName());
    assertEquals(true, RunEnd.Reason.CRASHED.interrupted());
  }

  @Test
  void aDeadTargetWinsOverASaturationStopAndASpentBudget() {
    RunEnd end = new RunEnd(null, 0L);
    end.budgetSpent();
    end.saturationStop();
    end.targetDown();
    assertEquals("target_down", end.reason(false, false, 5_000L).wireName());
    assertEquals(true, end.reason(false, false, 5_000L).interrupted());
  }

  @Test
  void aSignalWinsOverADeadTarget() {
    RunEnd end = new RunEnd(null, 0L);
    end.targetDown();
    assertEquals("interrupted", end.reason(false, true, 5_000L).wireName());
  }
}
