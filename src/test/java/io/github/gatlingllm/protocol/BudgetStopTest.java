package io.github.gatlingllm.protocol;

import static org.junit.jupiter.api.Assertions.assertEquals;

import java.util.List;
import org.junit.jupiter.api.Test;

class BudgetStopTest {

  @Test
  void aBudgetNotYetSpentStopsNothing() {
    BudgetStop stop = new BudgetStop(List.of("chat"));

    assertEquals(BudgetStop.Decision.NONE, stop.userEnded("chat", false));
  }

  @Test
  void aSpentBudgetStopsTheRunOnceWhenItsScenarioIsTheOnlyOne() {
    BudgetStop stop = new BudgetStop(List.of("chat"));

    assertEquals(BudgetStop.Decision.STOP, stop.userEnded("chat", true));
    assertEquals(BudgetStop.Decision.NONE, stop.userEnded("chat", true));
  }

  @Test
  void aScenarioWithoutABudgetRunsOnAndIsNamedOnce() {
    BudgetStop stop = new BudgetStop(List.of("chat", "own prompt", "http"));

    assertEquals(BudgetStop.Decision.RUN_ON, stop.userEnded("chat", true));
    assertEquals(BudgetStop.Decision.NONE, stop.userEnded("chat", true));
    assertEquals(List.of("own prompt", "http"), stop.unbudgeted());
    assertEquals(
        "every prompt budget is spent: the budgeted scenarios (chat) send no more requests, their"
            + " virtual users end without one until their injection ends; the run goes on for the"
            + " scenarios with no budget of their own (own prompt, http) until their injection"
            + " ends",
        stop.runOnText());
  }

  @Test
  void theRunStopsOnceEveryScenarioWasFedABudget() {
    BudgetStop stop = new BudgetStop(List.of("chat", "summaries"));

    assertEquals(BudgetStop.Decision.NONE, stop.userEnded("summaries", false));
    assertEquals(BudgetStop.Decision.STOP, stop.userEnded("chat", true));
  }

  @Test
  void aBudgetedScenarioSeenLateTurnsARunOnIntoAStop() {
    BudgetStop stop = new BudgetStop(List.of("chat", "summaries"));

    assertEquals(BudgetStop.Decision.RUN_ON, stop.userEnded("chat", true));
    assertEquals(BudgetStop.Decision.STOP, stop.userEnded("summaries", true));
  }

  @Test
  void unknownScenariosStopTheWholeRun() {
    BudgetStop stop = new BudgetStop(null);

    assertEquals(true, stop.stopsWholeRun());
    assertEquals(BudgetStop.Decision.STOP, stop.userEnded("chat", true));
  }
}
