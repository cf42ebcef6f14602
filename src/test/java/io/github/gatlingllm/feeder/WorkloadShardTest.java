package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.junit.jupiter.api.Test;

class WorkloadShardTest {

  private static PromptSource source() {
    return new PromptSource(
        PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 7, "c2_in64_out8", "measured", 64);
  }

  /** Feeds a workload until its DONE record: each record's phase and index. */
  private static List<String> drain(Workload w) {
    List<String> out = new ArrayList<>();
    while (true) {
      Map<String, Object> r = w.next();
      if (Boolean.TRUE.equals(r.get(PromptFeeder.DONE))) {
        return out;
      }
      out.add(r.get(PromptFeeder.PHASE) + " " + r.get(PromptFeeder.INDEX));
      w.ended((String) r.get(PromptFeeder.PHASE));
    }
  }

  @Test
  void shardHandsOutEveryNthIndexOfEachPhase() {
    Workload w = new Workload("unique", source(), 7, 3, new Shard(1, 3));
    try {
      assertEquals(List.of("warmup 1", "measured 1", "measured 4"), drain(w));
      assertTrue(w.spent());
    } finally {
      w.close();
    }
  }

  @Test
  void shardBeyondTheBudgetHandsOutNothing() {
    Workload w = new Workload("unique", source(), 2, 0, new Shard(2, 3));
    try {
      assertEquals(List.of(), drain(w));
      assertTrue(w.spent());
    } finally {
      w.close();
    }
  }

  @Test
  void shardsTogetherHaveTheOneMachineDigest() {
    Workload single = new Workload("unique", source(), 10, 0);
    List<Workload> shards =
        List.of(
            new Workload("unique", source(), 10, 0, new Shard(0, 3)),
            new Workload("unique", source(), 10, 0, new Shard(1, 3)),
            new Workload("unique", source(), 10, 0, new Shard(2, 3)));
    try {
      Map<Long, String> byIndex = new TreeMap<>();
      for (Workload shard : shards) {
        Map<String, Object> r;
        while (!Boolean.TRUE.equals((r = shard.next()).get(PromptFeeder.DONE))) {
          byIndex.put((Long) r.get(PromptFeeder.INDEX), (String) r.get(PromptFeeder.DIGEST));
        }
      }
      drain(single);
      assertEquals(10, byIndex.size());
      assertEquals(single.measured().digest(), PromptSource.phaseDigest(byIndex));
    } finally {
      single.close();
      shards.forEach(Workload::close);
    }
  }
}
