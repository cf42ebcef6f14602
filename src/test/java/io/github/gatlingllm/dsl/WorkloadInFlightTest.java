package io.github.gatlingllm.dsl;

import static org.junit.jupiter.api.Assertions.assertEquals;

import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;

/**
 * What a workload counts in flight when a fed record carries several LLM requests ({@code
 * feed(prompts).exec(llm("a")..., llm("b")...)}): the workload is spent, and the warmup over, only
 * once every request of every record has ended.
 */
class WorkloadInFlightTest {

  private Workload workload;

  private Workload workload(long budget, long warmup) {
    workload =
        new Workload(
            "test",
            new PromptSource(
                PromptSpec.unique(), EstimatedTokenCounter.INSTANCE, 0, "c1", "measured", 32),
            budget,
            warmup);
    return workload;
  }

  @AfterEach
  void close() {
    workload.close();
  }

  private static AtomicBoolean claim(Map<String, Object> record) {
    return (AtomicBoolean) record.get(PromptFeeder.CLAIM);
  }

  @Test
  void aRecordHandedOutKeepsTheWorkloadUnspentUntilItsRequestEnds() {
    Workload w = workload(1, 0);
    Map<String, Object> record = w.next();
    assertEquals(false, w.spent());
    w.begin(claim(record), "measured");
    assertEquals(false, w.spent());
    w.ended("measured");
    assertEquals(true, w.spent());
  }

  @Test
  void twoRequestsOnOneRecordSpendTheWorkloadWhenBothHaveEnded() {
    Workload w = workload(1, 0);
    Map<String, Object> record = w.next();
    w.begin(claim(record), "measured");
    w.begin(claim(record), "measured");
    w.ended("measured");
    assertEquals(false, w.spent());
    w.ended("measured");
    assertEquals(true, w.spent());
  }

  @Test
  void twoWarmupRequestsOnOneRecordHoldTheMeasuredOnesUntilBothHaveEnded() {
    Workload w = workload(1, 1);
    Map<String, Object> warmup = w.next();
    assertEquals("warmup", warmup.get(PromptFeeder.PHASE));
    w.begin(claim(warmup), "warmup");
    w.begin(claim(warmup), "warmup");
    Map<String, Object> measured = w.next();
    w.begin(claim(measured), "measured");
    AtomicInteger released = new AtomicInteger();
    assertEquals(true, w.holdUntilWarmedUp(released::incrementAndGet));
    w.ended("warmup");
    assertEquals(0, released.get());
    w.ended("warmup");
    assertEquals(1, released.get());
    w.ended("measured");
    assertEquals(true, w.spent());
  }
}
