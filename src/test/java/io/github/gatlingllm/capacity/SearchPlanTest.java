package io.github.gatlingllm.capacity;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertThrows;

import io.github.gatlingllm.capacity.SearchPlan.Stage;
import io.github.gatlingllm.capacity.SearchPlan.Step;
import java.util.List;
import org.junit.jupiter.api.Test;

class SearchPlanTest {

  @Test
  void coarseRatesAreEvenUpToTheHighest() {
    assertEquals(List.of(8.0, 16.0, 24.0, 32.0), new SearchPlan(false, 32, 4, 0.05).coarse());
  }

  @Test
  void coarseUsersAreWholeDistinctAndAtLeastOne() {
    assertEquals(List.of(1.0, 2.0, 3.0), new SearchPlan(true, 3, 4, 0.05).coarse());
    assertEquals(List.of(4.0, 8.0, 12.0, 16.0), new SearchPlan(true, 16, 4, 0.05).coarse());
  }

  @Test
  void aKneeAt21UsersPerSecondIsBisectedTo5Percent() {
    SearchPlan plan = new SearchPlan(false, 32, 4, 0.05);
    assertEquals(new Step(Stage.COARSE, 8), plan.first());
    assertEquals(new Step(Stage.COARSE, 16), plan.next(true));
    assertEquals(new Step(Stage.COARSE, 24), plan.next(true));
    assertEquals(new Step(Stage.BISECT, 20), plan.next(false));
    assertEquals(new Step(Stage.BISECT, 22), plan.next(true));
    assertEquals(new Step(Stage.BISECT, 21), plan.next(false));
    // 21 met, 22 missed: 1 apart, within 5% of 21 (1.05)
    assertEquals(new Step(Stage.HOLD, 21), plan.next(true));
    assertEquals(21.0, plan.lastMet());
    assertEquals(22.0, plan.firstMissed());
    assertNull(plan.edge());
    assertNull(plan.next(true));
  }

  @Test
  void metAtTheHighestIsAtLeastAndHeldThere() {
    SearchPlan plan = new SearchPlan(false, 10, 2, 0.05);
    plan.first();
    assertEquals(new Step(Stage.COARSE, 10), plan.next(true));
    assertEquals(new Step(Stage.HOLD, 10), plan.next(true));
    assertEquals(SearchPlan.AT_LEAST, plan.edge());
    assertNull(plan.firstMissed());
  }

  @Test
  void missedAtTheLowestIsBelowAndNothingIsHeld() {
    SearchPlan plan = new SearchPlan(false, 32, 4, 0.05);
    plan.first();
    assertNull(plan.next(false));
    assertEquals(SearchPlan.BELOW, plan.edge());
    assertNull(plan.lastMet());
    assertEquals(8.0, plan.firstMissed());
  }

  @Test
  void usersAreBisectedUntilNextToEachOther() {
    SearchPlan plan = new SearchPlan(true, 16, 4, 0.01);
    plan.first();
    assertEquals(new Step(Stage.COARSE, 8), plan.next(true));
    assertEquals(new Step(Stage.BISECT, 6), plan.next(false));
    assertEquals(new Step(Stage.BISECT, 7), plan.next(true));
    assertEquals(new Step(Stage.HOLD, 6), plan.next(false));
    assertEquals(6.0, plan.lastMet());
    assertEquals(7.0, plan.firstMissed());
  }

  @Test
  void aHoldThatMissesCountsItsLoadAsMissedAndHoldsTheMetLoadBelow() {
    SearchPlan plan = new SearchPlan(false, 32, 4, 0.05);
    plan.first();
    plan.next(true); // 8 met -> 16
    plan.next(true); // 16 met -> 24
    plan.next(false); // 24 missed -> 20
    plan.next(true); // 20 met -> 22
    plan.next(false); // 22 missed -> 21
    assertEquals(new Step(Stage.HOLD, 21), plan.next(true));
    // the hold at 21 misses: 21 is missed, 20 (met) and 21 are within 5% of 20: hold 20
    assertEquals(new Step(Stage.HOLD, 20), plan.next(false));
    assertEquals(20.0, plan.lastMet());
    assertEquals(21.0, plan.firstMissed());
    assertNull(plan.next(true));
  }

  @Test
  void aHoldThatMissesFarFromTheMetLoadBelowBisectsAgain() {
    SearchPlan plan = new SearchPlan(false, 10, 2, 0.05);
    plan.first(); // 5
    plan.next(true); // 5 met -> 10
    assertEquals(new Step(Stage.HOLD, 10), plan.next(true));
    assertEquals(SearchPlan.AT_LEAST, plan.edge());
    // the hold at the highest load misses: no longer at least 10; bisect 5..10
    assertEquals(new Step(Stage.BISECT, 7.5), plan.next(false));
    assertNull(plan.edge());
    assertEquals(10.0, plan.firstMissed());
  }

  @Test
  void holdsEndAfterThree() {
    SearchPlan plan = new SearchPlan(true, 16, 16, 0.01);
    plan.first(); // 1
    for (int i = 1; i < 16; i++) {
      plan.next(true); // 2 .. 16 met
    }
    assertEquals(new Step(Stage.HOLD, 16), plan.next(true));
    assertEquals(new Step(Stage.HOLD, 15), plan.next(false));
    assertEquals(new Step(Stage.HOLD, 14), plan.next(false));
    assertNull(plan.next(false));
    assertEquals(13.0, plan.lastMet());
    assertEquals(14.0, plan.firstMissed());
  }

  @Test
  void nothingIsAskedAfterAHoldThatHeld() {
    SearchPlan plan = new SearchPlan(false, 4, 1, 0.05);
    plan.first();
    plan.next(true); // the hold
    plan.next(true); // held: over
    assertThrows(IllegalStateException.class, () -> plan.next(true));
  }
}
