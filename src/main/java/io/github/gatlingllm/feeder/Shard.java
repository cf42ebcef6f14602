package io.github.gatlingllm.feeder;

import java.util.Properties;
import java.util.function.Function;

/**
 * Not API: simulations use {@code LlmDsl.shardUsers} and {@code LlmDsl.shardRate}. Which share of
 * one test this JVM runs when the test runs on several machines: shard {@code index} of {@code
 * count} takes the request indices {@code index, index + count, index + 2 * count, ...} of every
 * phase of every workload (the budgets are the whole test's), and {@code 1/count} of the
 * concurrency or arrival rate. All shards share the seed, case id and group prefixes, so their
 * prompts are those of the one-machine run, and prefixes collide across shards as they would on one
 * machine.
 *
 * <p>Set by {@code -Dllm.shard=I/N}, or, when that is unset, by the {@code JOB_COMPLETION_INDEX}
 * environment variable of a Kubernetes Indexed Job with {@code -Dllm.shards=N}.
 *
 * @param index this shard, from 0 to {@code count - 1}
 * @param count the number of shards, at least 1
 */
public record Shard(int index, int count) {

  /** The whole test on one machine: shard 0 of 1. */
  public static final Shard SINGLE = new Shard(0, 1);

  /** The environment variable Kubernetes sets in each pod of an Indexed Job. */
  public static final String JOB_COMPLETION_INDEX = "JOB_COMPLETION_INDEX";

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException naming {@code llm.shard}, the value and what is allowed
   */
  public Shard {
    if (count < 1 || index < 0 || index >= count) {
      throw new IllegalArgumentException(
          "llm.shard: got \""
              + index
              + "/"
              + count
              + "\", expected I/N with N >= 1 and 0 <= I < N, e.g. 0/4");
    }
  }

  /**
   * The shard of this JVM, from {@link System#getProperties()} and {@link System#getenv()}.
   *
   * @return the shard, {@link #SINGLE} when none is set
   * @throws IllegalArgumentException naming the bad setting
   */
  public static Shard current() {
    return from(System.getProperties(), System::getenv);
  }

  /**
   * The shard of {@code llm.shard=I/N}; when unset, of {@code JOB_COMPLETION_INDEX} with {@code
   * llm.shards=N}; else {@link #SINGLE}. {@code JOB_COMPLETION_INDEX} alone (an Indexed Job whose
   * simulation does not set {@code llm.shards}) is the whole test.
   *
   * @param properties where {@code llm.shard} and {@code llm.shards} are looked up
   * @param environment where {@code JOB_COMPLETION_INDEX} is looked up
   * @return the shard
   * @throws IllegalArgumentException naming the bad setting, its value and what is allowed
   */
  public static Shard from(Properties properties, Function<String, String> environment) {
    String shard = blankToNull(properties.getProperty("llm.shard"));
    String shards = blankToNull(properties.getProperty("llm.shards"));
    Integer count = null;
    if (shards != null) {
      count = parse("llm.shards", shards, "a whole number >= 1, e.g. 4");
      if (count < 1) {
        throw new IllegalArgumentException(
            "llm.shards: got \"" + shards + "\", expected a whole number >= 1, e.g. 4");
      }
    }
    if (shard != null) {
      int slash = shard.indexOf('/');
      if (slash < 0) {
        throw new IllegalArgumentException(
            "llm.shard: got \"" + shard + "\", expected I/N (this shard, of N), e.g. 0/4");
      }
      String expected = "I/N (this shard, of N), e.g. 0/4";
      int i = parse("llm.shard", shard, shard.substring(0, slash).strip(), expected);
      int n = parse("llm.shard", shard, shard.substring(slash + 1).strip(), expected);
      Shard s = new Shard(i, n);
      if (count != null && count != n) {
        throw new IllegalArgumentException(
            "llm.shards: got " + count + ", but llm.shard is " + shard + ": set one of them");
      }
      return s;
    }
    String job = blankToNull(environment.apply(JOB_COMPLETION_INDEX));
    if (count == null) {
      return SINGLE;
    }
    if (job == null) {
      throw new IllegalArgumentException(
          "llm.shards: got "
              + count
              + ", but which shard this is is not set: set llm.shard=I/"
              + count
              + ", or run in a Kubernetes Indexed Job (JOB_COMPLETION_INDEX)");
    }
    int index = parse(JOB_COMPLETION_INDEX, job, "a whole number >= 0");
    if (index < 0 || index >= count) {
      throw new IllegalArgumentException(
          JOB_COMPLETION_INDEX
              + ": got "
              + index
              + ", expected from 0 to less than llm.shards ("
              + count
              + "): the Job's completions must equal llm.shards");
    }
    return new Shard(index, count);
  }

  /**
   * Whether this shard is the whole test.
   *
   * @return true for shard 0 of 1
   */
  public boolean single() {
    return count == 1;
  }

  /**
   * Whether a request index is this shard's.
   *
   * @param requestIndex a request index, at least 0
   * @return true when {@code requestIndex % count == index}
   */
  public boolean owns(long requestIndex) {
    return requestIndex % count == index;
  }

  /**
   * How many of the indices {@code 0 .. total - 1} are this shard's.
   *
   * @param total the whole test's budget of a phase, at least 0
   * @return the shard's share, {@code ceil((total - index) / count)} or 0
   */
  public long share(long total) {
    return total <= index ? 0 : (total - index - 1) / count + 1;
  }

  /**
   * This shard's part of a number of virtual users: {@code users / count}, and one more for the
   * first {@code users % count} shards, so the shards' parts add up to {@code users}.
   *
   * @param users the whole test's users, at least 0
   * @return this shard's users
   * @throws IllegalArgumentException if {@code users} is negative
   */
  public int users(int users) {
    if (users < 0) {
      throw new IllegalArgumentException("shardUsers: got " + users + ", expected >= 0");
    }
    return users / count + (index < users % count ? 1 : 0);
  }

  /**
   * This shard's part of an arrival rate: {@code rate / count}.
   *
   * @param rate the whole test's rate (users or requests per second), at least 0
   * @return this shard's rate
   * @throws IllegalArgumentException if {@code rate} is negative or not finite
   */
  public double rate(double rate) {
    if (!(rate >= 0) || Double.isInfinite(rate)) {
      throw new IllegalArgumentException("shardRate: got " + rate + ", expected a number >= 0");
    }
    return rate / count;
  }

  /** {@code I/N}, e.g. {@code 0/4}. */
  @Override
  public String toString() {
    return index + "/" + count;
  }

  private static int parse(String name, String value, String allowed) {
    return parse(name, value, value, allowed);
  }

  private static int parse(String name, String value, String part, String allowed) {
    try {
      return Integer.parseInt(part.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(name + ": got \"" + value + "\", expected " + allowed, e);
    }
  }

  private static String blankToNull(String value) {
    return value == null || value.isBlank() ? null : value.strip();
  }
}
