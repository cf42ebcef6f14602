package io.github.gatlingllm.simulator;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

class SchedulerTest {

  private static final class Named implements Scheduler.Admittable {
    private final String name;
    private final List<String> admitted;

    Named(String name, List<String> admitted) {
      this.name = name;
      this.admitted = admitted;
    }

    @Override
    public void admitted(long admittedNanos) {
      admitted.add(name);
    }
  }

  @Test
  void admitsUpToTheLimitAtOnce() {
    Scheduler scheduler = new Scheduler(2);
    List<String> admitted = new ArrayList<>();
    assertTrue(scheduler.submit(new Named("a", admitted)));
    assertTrue(scheduler.submit(new Named("b", admitted)));
    assertFalse(scheduler.submit(new Named("c", admitted)));
    assertEquals(2, scheduler.running());
    assertEquals(1, scheduler.waiting());
  }

  @Test
  void waitingSequencesAreAdmittedInArrivalOrder() {
    Scheduler scheduler = new Scheduler(1);
    List<String> admitted = new ArrayList<>();
    scheduler.submit(new Named("a", admitted));
    scheduler.submit(new Named("b", admitted));
    scheduler.submit(new Named("c", admitted));
    scheduler.release();
    scheduler.release();
    assertEquals(List.of("b", "c"), admitted);
    assertEquals(1, scheduler.running());
    assertEquals(0, scheduler.waiting());
  }

  @Test
  void releaseWithNobodyWaitingFreesTheSlot() {
    Scheduler scheduler = new Scheduler(1);
    List<String> admitted = new ArrayList<>();
    scheduler.submit(new Named("a", admitted));
    scheduler.release();
    assertEquals(0, scheduler.running());
    assertTrue(scheduler.submit(new Named("b", admitted)));
  }

  @Test
  void cancelledWaitingSequenceIsSkipped() {
    Scheduler scheduler = new Scheduler(1);
    List<String> admitted = new ArrayList<>();
    scheduler.submit(new Named("a", admitted));
    Named b = new Named("b", admitted);
    scheduler.submit(b);
    scheduler.submit(new Named("c", admitted));
    assertTrue(scheduler.cancelWaiting(b));
    scheduler.release();
    assertEquals(List.of("c"), admitted);
  }

  @Test
  void cancellingAnAdmittedSequenceReportsIt() {
    Scheduler scheduler = new Scheduler(1);
    List<String> admitted = new ArrayList<>();
    Named a = new Named("a", admitted);
    scheduler.submit(a);
    assertFalse(scheduler.cancelWaiting(a));
  }
}
