package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNull;
import static org.junit.jupiter.api.Assertions.assertSame;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/** {@link Workload} and the {@link PromptFeeder} over it, without Gatling. */
class WorkloadTest {

  private final List<Workload> made = new ArrayList<>();

  @AfterEach
  void closeWorkloads() {
    made.forEach(Workload::close);
  }

  private static PromptSource source(PromptSpec spec) {
    return new PromptSource(
        spec, EstimatedTokenCounter.INSTANCE, 0, "c1_in64_out16", "measured", 64);
  }

  private Workload workload(PromptSpec spec, long budget, long warmup) {
    Workload w = new Workload("test", source(spec), budget, warmup);
    made.add(w);
    return w;
  }

  @Test
  void handsOutWarmupRecordsFirstThenMeasuredOnesInIndexOrder() {
    Workload w = workload(PromptSpec.unique(), 3, 2);
    List<String> seen = new ArrayList<>();
    for (int i = 0; i < 5; i++) {
      Map<String, Object> record = w.next();
      seen.add(record.get(PromptFeeder.PHASE) + " " + record.get(PromptFeeder.INDEX));
      assertEquals(false, record.get(PromptFeeder.DONE));
      assertSame(w, record.get(PromptFeeder.WORKLOAD));
    }
    assertEquals(List.of("warmup 0", "warmup 1", "measured 0", "measured 1", "measured 2"), seen);
  }

  @Test
  void afterTheBudgetEveryRecordIsDone() {
    Workload w = workload(PromptSpec.repeat(), 2, 0);
    w.next();
    w.next();
    for (int i = 0; i < 5; i++) {
      Map<String, Object> record = w.next();
      assertEquals(Map.of(PromptFeeder.DONE, true, PromptFeeder.WORKLOAD, w), record);
    }
    assertEquals(2, w.measured().handedOut());
  }

  @Test
  void theFeederNeverReportsEmpty() {
    Workload w = workload(PromptSpec.repeat(), 1, 0);
    PromptFeeder feeder = new PromptFeeder(w);
    for (int i = 0; i < 4; i++) {
      assertTrue(feeder.hasNext());
      feeder.next();
    }
    assertEquals(true, feeder.next().get(PromptFeeder.DONE));
    assertSame(w, feeder.workload());
  }

  @Test
  void phaseDigestsEqualThePromptSourcesForTheSameRequests() {
    Workload w = workload(PromptSpec.sharedPrefix(0.5, 4), 10, 3);
    for (int i = 0; i < 15; i++) {
      w.next();
    }
    PromptSource measured = source(PromptSpec.sharedPrefix(0.5, 4));
    PromptSource warmup = measured.forPhase("warmup");
    for (long i = 0; i < 10; i++) {
      measured.take(i);
    }
    for (long i = 0; i < 3; i++) {
      warmup.take(i);
    }
    assertEquals(measured.digest(), w.measured().digest());
    assertEquals(warmup.digest(), w.warmup().digest());
    assertEquals(10, w.measured().handedOut());
    assertEquals(3, w.warmup().handedOut());
  }

  @Test
  void recordCarriesThePromptAndItsFacts() {
    Map<String, Object> record = workload(PromptSpec.sharedPrefix(0.5, 4), 1, 0).next();
    Prompt prompt = source(PromptSpec.sharedPrefix(0.5, 4)).take(0);
    assertEquals(0L, record.get(PromptFeeder.INDEX));
    assertEquals("measured", record.get(PromptFeeder.PHASE));
    assertEquals(prompt.text(), record.get(PromptFeeder.TEXT));
    assertEquals(prompt.promptId(), record.get(PromptFeeder.PROMPT_ID));
    assertEquals(prompt.digest(), record.get(PromptFeeder.DIGEST));
    assertEquals(prompt.prefixGroup(), record.get(PromptFeeder.PREFIX_GROUP));
    assertEquals(prompt.sharedPrefixTokens(), record.get(PromptFeeder.SHARED_PREFIX_TOKENS));
    assertEquals(64, record.get(PromptFeeder.PLANNED_TOKENS));
  }

  @Test
  void warmupRecordsHaveTheirOwnPrompts() {
    Workload w = workload(PromptSpec.unique(), 1, 1);
    Map<String, Object> warmup = w.next();
    Map<String, Object> measured = w.next();
    assertEquals(
        source(PromptSpec.unique()).forPhase("warmup").take(0).text(),
        warmup.get(PromptFeeder.TEXT));
    assertEquals(source(PromptSpec.unique()).take(0).text(), measured.get(PromptFeeder.TEXT));
    assertFalse(warmup.get(PromptFeeder.TEXT).equals(measured.get(PromptFeeder.TEXT)));
  }

  @Test
  void uniqueRecordsHaveNoGroup() {
    Map<String, Object> record = workload(PromptSpec.unique(), 1, 0).next();
    assertFalse(record.containsKey(PromptFeeder.PREFIX_GROUP));
    assertFalse(record.containsKey(PromptFeeder.SHARED_PREFIX_TOKENS));
  }

  @Test
  void measuredRequestsWaitUntilEveryWarmupRequestHasEnded() {
    Workload w = workload(PromptSpec.repeat(), 2, 2);
    List<String> resumed = new ArrayList<>();
    // Before any warmup record is handed out, a measured request must wait too.
    assertTrue(w.holdUntilWarmedUp(() -> resumed.add("a")));
    w.next();
    w.next();
    assertTrue(w.holdUntilWarmedUp(() -> resumed.add("b")));
    w.next();
    w.ended("warmup");
    assertEquals(List.of(), resumed);
    w.ended("warmup");
    assertEquals(List.of("a", "b"), resumed);
    // Released once: a later measured request goes at once and nothing runs again.
    assertFalse(w.holdUntilWarmedUp(() -> resumed.add("c")));
    w.ended("measured");
    assertEquals(List.of("a", "b"), resumed);
  }

  @Test
  void withoutWarmupMeasuredRequestsGoAtOnce() {
    Workload w = workload(PromptSpec.repeat(), 2, 0);
    assertFalse(w.holdUntilWarmedUp(() -> {}));
  }

  @Test
  void spentOnceEveryPromptIsHandedOutAndEveryRequestHasEnded() {
    Workload w = workload(PromptSpec.repeat(), 2, 1);
    assertFalse(w.spent());
    w.next();
    w.next();
    w.next();
    assertFalse(w.spent());
    w.ended("warmup");
    w.ended("measured");
    assertFalse(w.spent());
    w.ended("measured");
    assertTrue(w.spent());
    // A DONE record starts no request.
    w.next();
    assertTrue(w.spent());
  }

  @Test
  void allSpentIsFalseWhileAnOpenWorkloadIsNotSpent() {
    // The list is JVM-wide: other tests' workloads may be on it too, so only "false" is certain.
    Workload a = workload(PromptSpec.repeat(), 1, 0);
    Workload b = workload(PromptSpec.repeat(), 1, 0);
    a.next();
    a.ended("measured");
    assertTrue(a.spent());
    assertFalse(b.spent());
    assertFalse(Workload.allSpent());
  }

  @Test
  void zeroRequestsAreRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Workload("w", source(PromptSpec.repeat()), 0, 0));
    assertEquals("requests: got 0, expected >= 1", e.getMessage());
  }

  @Test
  void negativeWarmupIsRefused() {
    IllegalArgumentException e =
        assertThrows(
            IllegalArgumentException.class,
            () -> new Workload("w", source(PromptSpec.repeat()), 1, -1));
    assertEquals("warmup: got -1, expected >= 0", e.getMessage());
  }

  @Test
  void noPromptIsHandedOutBeforeTheFirstRecord() {
    Workload w = workload(PromptSpec.unique(), 3, 2);
    assertNull(w.measured().digest());
    assertNull(w.warmup().digest());
    assertEquals("test", w.name());
    assertEquals(3, w.budget());
    assertEquals(2, w.warmupBudget());
  }
}
