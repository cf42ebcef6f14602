package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertNotEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.cache.CacheOutcome;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a workload tells the cache plan: each record's prefix key, which requests were sent before
 * (in the order they are sent, warmup included), and warm groups.
 */
class WorkloadCacheTest {

  private final List<Workload> made = new ArrayList<>();

  @AfterEach
  void close() {
    made.forEach(Workload::close);
  }

  private Workload workload(PromptSpec spec, int warmup, boolean warmGroups) {
    PromptSource source =
        new PromptSource(spec, EstimatedTokenCounter.INSTANCE, 7, "case", "measured", 128);
    Workload w = new Workload("w", source, 8, warmup, Shard.SINGLE, warmGroups, false, null);
    made.add(w);
    return w;
  }

  private static List<Map<String, Object>> take(Workload w, int n) {
    List<Map<String, Object>> records = new ArrayList<>();
    for (int i = 0; i < n; i++) {
      records.add(w.next());
    }
    return records;
  }

  @Test
  void repeatRecordsShareOneKeyWarmupIncluded() {
    Workload w = workload(PromptSpec.repeat(), 2, false);
    for (Map<String, Object> r : take(w, 10)) {
      assertEquals("repeat", r.get(PromptFeeder.PREFIX_KEY));
    }
  }

  @Test
  void uniqueRecordsHaveNoKey() {
    Workload w = workload(PromptSpec.unique(), 2, false);
    for (Map<String, Object> r : take(w, 10)) {
      assertFalse(r.containsKey(PromptFeeder.PREFIX_KEY));
    }
    assertFalse(w.sentBefore(null));
    assertFalse(w.sentBefore(null));
  }

  @Test
  void sharedPrefixKeysNameThePhaseOfTheGroupPrefixAndTheGroup() {
    Workload w = workload(PromptSpec.sharedPrefix(0.5, 4), 2, false);
    List<Map<String, Object>> records = take(w, 10);
    for (Map<String, Object> r : records) {
      assertEquals(
          r.get(PromptFeeder.PHASE) + ":g" + r.get(PromptFeeder.PREFIX_GROUP),
          r.get(PromptFeeder.PREFIX_KEY));
    }
  }

  @Test
  void theFirstSentOfAKeyIsNotSentBeforeLaterOnesAre() {
    Workload w = workload(PromptSpec.sharedPrefix(0.5, 4), 0, false);
    assertFalse(w.sentBefore("measured:g2"));
    assertTrue(w.sentBefore("measured:g2"));
    assertFalse(w.sentBefore("measured:g0"));
    assertTrue(w.sentBefore("measured:g2"));
  }

  @Test
  void aKeysFirstRequestSeesASecondSentBeforeItEnded() {
    Workload w = workload(PromptSpec.sharedPrefix(0.5, 4), 0, false);
    assertFalse(w.sentBefore("measured:g1", 1_000));
    assertFalse(w.sentAgainBy("measured:g1", 5_000));
    assertTrue(w.sentBefore("measured:g1", 4_000));
    assertTrue(w.sentAgainBy("measured:g1", 5_000));
    assertTrue(w.sentAgainBy("measured:g1", 4_000));
  }

  @Test
  void aSecondRequestSentAfterTheFirstEndedIsNotInFlightWithIt() {
    Workload w = workload(PromptSpec.sharedPrefix(0.5, 4), 0, false);
    assertFalse(w.sentBefore("measured:g1", 1_000));
    assertTrue(w.sentBefore("measured:g1", 9_000));
    assertTrue(w.sentBefore("measured:g1", 2_000));
    assertFalse(w.sentAgainBy("measured:g1", 5_000));
  }

  @Test
  void noKeyIsNeverSentAgain() {
    Workload w = workload(PromptSpec.unique(), 0, false);
    assertFalse(w.sentBefore(null, 1_000));
    assertFalse(w.sentBefore(null, 2_000));
    assertFalse(w.sentAgainBy(null, 5_000));
    assertFalse(w.sentAgainBy("repeat", 5_000));
  }

  @Test
  void eachWorkloadKeepsItsOwnSentKeys() {
    Workload a = workload(PromptSpec.repeat(), 0, false);
    Workload b = workload(PromptSpec.repeat(), 0, false);
    assertFalse(a.sentBefore("repeat"));
    assertFalse(b.sentBefore("repeat"));
    assertTrue(a.sentBefore("repeat"));
  }

  @Test
  void warmGroupsSendTheMeasuredGroupPrefixesRoundRobinInWarmup() {
    Workload w = workload(PromptSpec.sharedPrefix(0.5, 4), 6, true);
    assertTrue(w.warmGroups());
    List<Map<String, Object>> records = take(w, 14);
    List<Object> warmupGroups = new ArrayList<>();
    for (Map<String, Object> r : records.subList(0, 6)) {
      assertEquals("warmup", r.get(PromptFeeder.PHASE));
      warmupGroups.add(r.get(PromptFeeder.PREFIX_GROUP));
      assertEquals("measured:g" + r.get(PromptFeeder.PREFIX_GROUP), r.get(PromptFeeder.PREFIX_KEY));
    }
    assertEquals(List.of(0, 1, 2, 3, 0, 1), warmupGroups);
    for (Map<String, Object> warm : records.subList(0, 6)) {
      for (Map<String, Object> measured : records.subList(6, 14)) {
        if (!warm.get(PromptFeeder.PREFIX_GROUP).equals(measured.get(PromptFeeder.PREFIX_GROUP))) {
          continue;
        }
        String warmText = (String) warm.get(PromptFeeder.TEXT);
        String measuredText = (String) measured.get(PromptFeeder.TEXT);
        String prefix = measuredText.substring(0, measuredText.indexOf(" [", 2));
        assertTrue(warmText.startsWith(prefix + " ["), "the warmup prompt starts with the prefix");
        assertNotEquals(measuredText, warmText, "never a measured prompt");
      }
    }
  }

  @Test
  void warmGroupsAreDeterministicAndHaveTheirOwnWarmupDigest() {
    Workload a = workload(PromptSpec.sharedPrefix(0.5, 4), 4, true);
    Workload b = workload(PromptSpec.sharedPrefix(0.5, 4), 4, true);
    Workload plain = workload(PromptSpec.sharedPrefix(0.5, 4), 4, false);
    take(a, 12);
    take(b, 12);
    take(plain, 12);
    assertEquals(a.warmup().digest(), b.warmup().digest());
    assertNotEquals(plain.warmup().digest(), a.warmup().digest());
    assertEquals(plain.measured().digest(), a.measured().digest());
  }

  @Test
  void warmGroupsGoWithSharedPrefixOnly() {
    assertFalse(workload(PromptSpec.unique(), 4, true).warmGroups());
  }

  /** The plan of each record fed in order and sent in that order, as the LLM action makes it. */
  private static List<CacheOutcome> plans(Workload w, int n, String phase) {
    CachePlan.Server server = new CachePlan.Server(1, true, 16, true);
    List<CacheOutcome> plans = new ArrayList<>();
    for (Map<String, Object> r : take(w, n)) {
      boolean before = w.sentBefore((String) r.get(PromptFeeder.PREFIX_KEY));
      if (phase.equals(r.get(PromptFeeder.PHASE))) {
        CachePlan.Sent sent =
            new CachePlan.Sent(
                w.spec().mode(),
                before,
                (Integer) r.get(PromptFeeder.SHARED_PREFIX_TOKENS),
                (Integer) r.get(PromptFeeder.PLANNED_TOKENS));
        plans.add(CachePlan.of(server, sent, null).expected());
      }
    }
    return plans;
  }

  @Test
  void aRepeatWarmupMakesTheFirstMeasuredRequestAPlannedHit() {
    List<CacheOutcome> measured = plans(workload(PromptSpec.repeat(), 2, false), 10, "measured");
    assertEquals(List.of(CacheOutcome.HIT), List.copyOf(new java.util.HashSet<>(measured)));
    List<CacheOutcome> cold = plans(workload(PromptSpec.repeat(), 0, false), 8, "measured");
    assertEquals(CacheOutcome.MISS, cold.get(0));
    assertEquals(CacheOutcome.HIT, cold.get(1));
  }

  @Test
  void aSharedPrefixWarmupWarmsTheMeasuredGroupsOnlyWithWarmGroups() {
    Workload cold = workload(PromptSpec.sharedPrefix(0.5, 4), 4, false);
    List<CacheOutcome> coldPlans = plans(cold, 12, "measured");
    Set<Object> groups = new java.util.HashSet<>();
    for (long i = 0; i < 8; i++) {
      groups.add(cold.measured().prompt(i).prefixGroup());
    }
    assertEquals(groups.size(), coldPlans.stream().filter(p -> p == CacheOutcome.MISS).count());
    List<CacheOutcome> warm =
        plans(workload(PromptSpec.sharedPrefix(0.5, 4), 4, true), 12, "measured");
    assertEquals(java.util.Collections.nCopies(8, CacheOutcome.HIT), warm);
  }

  @Test
  void uniqueRequestsAreAllPlannedMisses() {
    assertEquals(
        java.util.Collections.nCopies(8, CacheOutcome.MISS),
        plans(workload(PromptSpec.unique(), 2, false), 10, "measured"));
  }
}
