package io.github.gatlingllm.feeder;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertFalse;
import static org.junit.jupiter.api.Assertions.assertThrows;
import static org.junit.jupiter.api.Assertions.assertTrue;

import java.util.Map;
import java.util.Properties;
import org.junit.jupiter.api.Test;

class ShardTest {

  private static Shard shard(Map<String, String> properties, Map<String, String> env) {
    Properties p = new Properties();
    p.putAll(properties);
    return Shard.from(p, env::get);
  }

  private static void assertRejected(
      String expected, Map<String, String> properties, Map<String, String> env) {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> shard(properties, env));
    assertEquals(expected, e.getMessage());
  }

  @Test
  void nothingSetIsTheWholeTest() {
    assertEquals(Shard.SINGLE, shard(Map.of(), Map.of()));
  }

  @Test
  void shardPropertyNamesIndexAndCount() {
    assertEquals(new Shard(2, 4), shard(Map.of("llm.shard", "2/4"), Map.of()));
  }

  @Test
  void shardPropertyWinsOverTheJobIndex() {
    assertEquals(
        new Shard(1, 3),
        shard(Map.of("llm.shard", "1/3"), Map.of(Shard.JOB_COMPLETION_INDEX, "2")));
  }

  @Test
  void jobIndexWithShardsCount() {
    assertEquals(
        new Shard(3, 4), shard(Map.of("llm.shards", "4"), Map.of(Shard.JOB_COMPLETION_INDEX, "3")));
  }

  @Test
  void jobIndexWithoutShardsCountIsTheWholeTest() {
    assertEquals(Shard.SINGLE, shard(Map.of(), Map.of(Shard.JOB_COMPLETION_INDEX, "3")));
  }

  @Test
  void shardsCountWithoutAnIndexIsRejected() {
    assertRejected(
        "llm.shards: got 4, but which shard this is is not set: set llm.shard=I/4, or run in a"
            + " Kubernetes Indexed Job (JOB_COMPLETION_INDEX)",
        Map.of("llm.shards", "4"),
        Map.of());
  }

  @Test
  void jobIndexBeyondTheCountIsRejected() {
    assertRejected(
        "JOB_COMPLETION_INDEX: got 4, expected from 0 to less than llm.shards (4): the Job's"
            + " completions must equal llm.shards",
        Map.of("llm.shards", "4"),
        Map.of(Shard.JOB_COMPLETION_INDEX, "4"));
  }

  @Test
  void indexBeyondTheCountIsRejected() {
    assertRejected(
        "llm.shard: got \"4/4\", expected I/N with N >= 1 and 0 <= I < N, e.g. 0/4",
        Map.of("llm.shard", "4/4"),
        Map.of());
  }

  @Test
  void shardWithoutSlashIsRejected() {
    assertRejected(
        "llm.shard: got \"2\", expected I/N (this shard, of N), e.g. 0/4",
        Map.of("llm.shard", "2"),
        Map.of());
  }

  @Test
  void nonNumericShardIsRejected() {
    assertRejected(
        "llm.shard: got \"a/4\", expected I/N (this shard, of N), e.g. 0/4",
        Map.of("llm.shard", "a/4"),
        Map.of());
  }

  @Test
  void shardAndShardsThatDisagreeAreRejected() {
    assertRejected(
        "llm.shards: got 3, but llm.shard is 1/4: set one of them",
        Map.of("llm.shard", "1/4", "llm.shards", "3"),
        Map.of());
  }

  @Test
  void zeroShardsIsRejected() {
    assertRejected(
        "llm.shards: got \"0\", expected a whole number >= 1, e.g. 4",
        Map.of("llm.shards", "0"),
        Map.of(Shard.JOB_COMPLETION_INDEX, "0"));
  }

  @Test
  void ownsEveryNthIndexFromItsOwn() {
    Shard s = new Shard(1, 3);
    assertFalse(s.owns(0));
    assertTrue(s.owns(1));
    assertFalse(s.owns(2));
    assertTrue(s.owns(4));
    assertTrue(s.owns(7));
  }

  @Test
  void shareOfABudget() {
    assertEquals(4, new Shard(0, 3).share(10)); // 0 3 6 9
    assertEquals(3, new Shard(1, 3).share(10)); // 1 4 7
    assertEquals(3, new Shard(2, 3).share(10)); // 2 5 8
    assertEquals(0, new Shard(2, 3).share(2));
    assertEquals(0, new Shard(0, 3).share(0));
    assertEquals(10, Shard.SINGLE.share(10));
  }

  @Test
  void usersAddUpOverTheShards() {
    assertEquals(3, new Shard(0, 3).users(8));
    assertEquals(3, new Shard(1, 3).users(8));
    assertEquals(2, new Shard(2, 3).users(8));
    assertEquals(0, new Shard(1, 2).users(1));
    assertEquals(8, Shard.SINGLE.users(8));
  }

  @Test
  void rateIsDivided() {
    assertEquals(2.5, new Shard(3, 4).rate(10));
  }

  @Test
  void negativeUsersAreRejected() {
    IllegalArgumentException e =
        assertThrows(IllegalArgumentException.class, () -> new Shard(0, 2).users(-1));
    assertEquals("shardUsers: got -1, expected >= 0", e.getMessage());
  }

  @Test
  void printsAsIndexSlashCount() {
    assertEquals("1/4", new Shard(1, 4).toString());
  }
}
