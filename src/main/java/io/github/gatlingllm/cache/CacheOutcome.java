package io.github.gatlingllm.cache;

import java.util.Locale;

/**
 * What a request got from the server's prefix cache, against its {@link CachePlan}: the {@code
 * cache} field of {@code llm-requests.jsonl}. A plan expects either {@link #HIT} or {@link #MISS}.
 */
public enum CacheOutcome {
  /**
   * The plan expects prompt tokens from the cache, and the server served them (within the plan's
   * tolerance).
   */
  HIT("hit"),
  /** The plan expects prompt tokens from the cache; the server served some, fewer than planned. */
  PARTIAL("partial"),
  /**
   * The server served nothing beyond the chat template's leading tokens, where the plan expects a
   * miss (or a hit: then the cache lost what the run sent before).
   */
  MISS("miss"),
  /** The server served more than planned, by more than the plan's tolerance: a warm cache. */
  UNPLANNED_HIT("unplanned_hit"),
  /** The server reports no cached tokens (or the request failed before it said). */
  UNKNOWN("unknown");

  private final String wireName;

  CacheOutcome(String wireName) {
    this.wireName = wireName;
  }

  /**
   * The name in the record.
   *
   * @return e.g. {@code unplanned_hit}
   */
  public String wireName() {
    return wireName;
  }

  /**
   * The outcome of a record's name.
   *
   * @param wireName e.g. {@code hit}
   * @return the outcome
   * @throws IllegalArgumentException naming the value and what is allowed
   */
  public static CacheOutcome fromWireName(String wireName) {
    for (CacheOutcome o : values()) {
      if (o.wireName.equals(wireName)) {
        return o;
      }
    }
    throw new IllegalArgumentException(
        "cache outcome: got \""
            + wireName
            + "\", expected one of hit, partial, miss, unplanned_hit, unknown");
  }

  @Override
  public String toString() {
    return wireName.toLowerCase(Locale.ROOT);
  }
}
