package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;

class PhaseBudgetTest {

  private static PhaseBudget budget(long measured, long warmup, Shard shard) {
    return new PhaseBudget(
        LoggerFactory.getLogger(PhaseBudgetTest.class),
        "w",
        "requests",
        "",
        measured,
        warmup,
        shard);
  }

  @Test
  void warmupItemsComeFirstThenMeasuredOnesThenNothing() {
    PhaseBudget b = budget(2, 1, Shard.SINGLE);

    assertEquals(new PhaseBudget.Slot(true, 0), b.take());
    assertEquals(new PhaseBudget.Slot(false, 0), b.take());
    assertEquals(new PhaseBudget.Slot(false, 1), b.take());
    assertNull(b.take());
    assertNull(b.take());
    assertEquals(3, b.inFlight());
  }

  @Test
  void aShardHandsOutEveryNthIndexOfEachPhase() {
    PhaseBudget b = budget(5, 3, new Shard(1, 2));

    assertEquals(new PhaseBudget.Slot(true, 1), b.take());
    assertEquals(new PhaseBudget.Slot(false, 1), b.take());
    assertEquals(new PhaseBudget.Slot(false, 3), b.take());
    assertNull(b.take());
  }

  @Test
  void spentOnceEverythingIsHandedOutAndEnded() {
    PhaseBudget b = budget(1, 1, Shard.SINGLE);
    b.take();
    b.take();
    b.ended(true);

    assertEquals(false, b.spent());
    b.ended(false);
    assertEquals(true, b.spent());
  }

  @Test
  void aSecondRequestOnOneItemIsCountedInFlightOnItsOwn() {
    PhaseBudget b = budget(1, 0, Shard.SINGLE);
    b.take();
    b.begin(false);
    b.ended(false);

    assertEquals(1, b.inFlight());
    assertEquals(false, b.spent());
  }

  @Test
  void measuredItemsWaitUntilTheLastWarmupItemEnds() {
    PhaseBudget b = budget(2, 2, Shard.SINGLE);
    List<String> ran = new ArrayList<>();
    b.take();
    b.take();

    assertEquals(true, b.holdUntilWarmedUp(() -> ran.add("first")));
    assertEquals(true, b.holdUntilWarmedUp(() -> ran.add("second")));
    b.ended(true);
    assertEquals(List.of(), ran);
    b.ended(true);
    assertEquals(List.of("first", "second"), ran);
    assertEquals(false, b.holdUntilWarmedUp(() -> ran.add("third")));
  }

  @Test
  void theWarmupIsNotOverWhileWarmupItemsAreStillToBeHandedOut() {
    PhaseBudget b = budget(1, 2, Shard.SINGLE);
    b.take();
    b.ended(true);

    assertEquals(true, b.holdUntilWarmedUp(() -> {}));
  }

  @Test
  void endingAMeasuredItemReleasesNothing() {
    PhaseBudget b = budget(1, 0, Shard.SINGLE);
    b.take();

    assertEquals(List.of(), b.end(false));
  }

  @Test
  void theItemsHandedOutAndNotRecordedAreKnownByIndex() {
    PhaseBudget b = budget(10, 0, Shard.SINGLE);
    for (int i = 0; i < 6; i++) {
      b.take();
    }
    b.recorded(false, 0);
    b.recorded(false, 1);
    b.recorded(false, 3);
    b.recorded(false, 5);

    assertEquals(List.of(2L, 4L), b.unrecorded(false));
    assertEquals(List.of(), b.unrecorded(true));
  }

  @Test
  void anIndexIsRecordedOnceAndOnlyWhenHandedOut() {
    PhaseBudget b = budget(10, 0, Shard.SINGLE);
    b.take();
    b.take();

    assertEquals(true, b.recorded(false, 1));
    assertEquals(false, b.recorded(false, 1));
    assertEquals(false, b.recorded(false, 7));
    assertEquals(false, b.recorded(true, 0));
    assertEquals(true, b.recorded(false, 0));
    assertEquals(false, b.recorded(false, 0));
    assertEquals(List.of(), b.unrecorded(false));
  }

  @Test
  void aShardsLedgerCountsItsOwnIndices() {
    PhaseBudget b = budget(10, 0, new Shard(1, 3));
    b.take(); // 1
    b.take(); // 4
    b.take(); // 7

    assertEquals(false, b.recorded(false, 2));
    assertEquals(true, b.recorded(false, 4));
    assertEquals(List.of(1L, 7L), b.unrecorded(false));
  }

  @Test
  void aStoppedBudgetHandsOutNothingMore() {
    PhaseBudget b = budget(10, 2, Shard.SINGLE);
    b.take();
    b.stop();

    assertNull(b.take());
    assertEquals(List.of(0L), b.unrecorded(true));
  }
}
