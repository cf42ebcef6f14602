package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertTrue;

import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import java.util.Map;
import org.junit.jupiter.api.Test;

class PromptFeederTest {

  private static PromptSource source(PromptSpec spec) {
    return new PromptSource(
        spec, EstimatedTokenCounter.INSTANCE, 0, "c1_in64_out16", "measured", 64);
  }

  @Test
  void handsOutIndicesInFeedOrderThenDoneRecordsForever() {
    PromptFeeder feeder = new PromptFeeder(source(PromptSpec.unique()), 3);
    for (long i = 0; i < 3; i++) {
      Map<String, Object> record = feeder.next();
      assertEquals(i, record.get(PromptFeeder.INDEX));
      assertEquals(false, record.get(PromptFeeder.DONE));
    }
    for (int i = 0; i < 5; i++) {
      assertTrue(feeder.hasNext());
      assertEquals(Map.of(PromptFeeder.DONE, true), feeder.next());
    }
    assertEquals(3, feeder.handedOut());
  }

  @Test
  void phaseDigestEqualsThePromptsCommandsForTheSameRequests() {
    PromptSource fed = source(PromptSpec.sharedPrefix(0.5, 4));
    PromptFeeder feeder = new PromptFeeder(fed, 10);
    for (int i = 0; i < 12; i++) {
      feeder.next();
    }
    PromptSource direct = source(PromptSpec.sharedPrefix(0.5, 4));
    for (long i = 0; i < 10; i++) {
      direct.take(i);
    }
    assertEquals(direct.digest(), fed.digest());
  }

  @Test
  void recordCarriesThePromptAndItsFacts() {
    PromptSource source = source(PromptSpec.sharedPrefix(0.5, 4));
    Map<String, Object> record = new PromptFeeder(source, 1).next();
    var prompt = source(PromptSpec.sharedPrefix(0.5, 4)).take(0);
    assertEquals(prompt.text(), record.get(PromptFeeder.TEXT));
    assertEquals(prompt.promptId(), record.get(PromptFeeder.PROMPT_ID));
    assertEquals(prompt.digest(), record.get(PromptFeeder.DIGEST));
    assertEquals(prompt.prefixGroup(), record.get(PromptFeeder.PREFIX_GROUP));
    assertEquals(prompt.sharedPrefixTokens(), record.get(PromptFeeder.SHARED_PREFIX_TOKENS));
    assertEquals(64, record.get(PromptFeeder.PLANNED_TOKENS));
    assertEquals("measured", record.get(PromptFeeder.PHASE));
  }

  @Test
  void uniqueRecordsHaveNoGroup() {
    Map<String, Object> record = new PromptFeeder(source(PromptSpec.unique()), 1).next();
    assertFalse(record.containsKey(PromptFeeder.PREFIX_GROUP));
  }

  @Test
  void zeroBudgetIsAllDone() {
    assertEquals(
        Map.of(PromptFeeder.DONE, true), new PromptFeeder(source(PromptSpec.repeat()), 0).next());
  }
}
