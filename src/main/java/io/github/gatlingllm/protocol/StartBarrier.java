package io.github.gatlingllm.protocol;

import java.time.Duration;
import java.time.Instant;
import java.util.Properties;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The start barrier {@code llm.startAt} (epoch milliseconds) of a test run on several
 * machines: the run's start waits until then, after the simulator, the tokenizer and the server
 * probe, before any virtual user starts, so that the shards' load starts together. A barrier more
 * than {@link #MAX_DISTANCE} away (in either direction) is refused: it is most likely seconds given
 * for milliseconds. A barrier already passed starts the run at once, with a warning when it is more
 * than a second late.
 */
final class StartBarrier {

  /** The farthest a barrier may be from now, ahead or behind. */
  static final Duration MAX_DISTANCE = Duration.ofHours(1);

  private static final Logger LOG = LoggerFactory.getLogger(StartBarrier.class);

  /** Waits a number of milliseconds; {@link Thread#sleep(long)} in a run. */
  interface Sleeper {
    void sleep(long ms) throws InterruptedException;
  }

  private StartBarrier() {}

  /**
   * The barrier of {@code llm.startAt}.
   *
   * @param properties where {@code llm.startAt} is looked up
   * @return epoch milliseconds, or null when unset or blank
   * @throws IllegalArgumentException naming the setting and the value if it is not a whole number
   */
  static Long startAt(Properties properties) {
    String value = properties.getProperty("llm.startAt");
    if (value == null || value.isBlank()) {
      return null;
    }
    try {
      return Long.parseLong(value.strip());
    } catch (NumberFormatException e) {
      throw new IllegalArgumentException(
          "llm.startAt: got \""
              + value
              + "\", expected epoch milliseconds, e.g. $(( $(date +%s) * 1000 + 60000 )) for a"
              + " minute from now",
          e);
    }
  }

  /**
   * Checks that the barrier is near enough, before the run starts anything.
   *
   * @param startAt the barrier, epoch milliseconds
   * @param now the wall clock, epoch milliseconds
   * @throws IllegalArgumentException if the barrier is more than {@link #MAX_DISTANCE} away
   */
  static void check(long startAt, long now) {
    long wait = startAt - now;
    String at = Instant.ofEpochMilli(startAt).toString();
    if (Math.abs(wait) > MAX_DISTANCE.toMillis()) {
      throw new IllegalArgumentException(
          "llm.startAt: "
              + startAt
              + " ("
              + at
              + ") is "
              + Math.abs(wait) / 60_000
              + " min "
              + (wait > 0 ? "ahead" : "past")
              + ", more than "
              + MAX_DISTANCE.toMinutes()
              + " min: expected epoch milliseconds near now, e.g. $(( $(date +%s) * 1000 + 60000 ))"
              + " for a minute from now");
    }
  }

  /**
   * Waits until the barrier (checked by {@link #check} first).
   *
   * @param startAt the barrier, epoch milliseconds
   * @param who who waits, for the log (e.g. {@code shard 1/4})
   * @param clock the wall clock, epoch milliseconds
   * @param sleeper how to wait
   * @return how late the barrier was reached, milliseconds (0 when it was waited for)
   * @throws IllegalStateException if the wait is interrupted
   */
  static long await(long startAt, String who, LongSupplier clock, Sleeper sleeper) {
    long wait = startAt - clock.getAsLong();
    String at = Instant.ofEpochMilli(startAt).toString();
    if (wait <= 0) {
      if (-wait > 1_000) {
        LOG.warn(
            "{}: the start barrier llm.startAt={} ({}) passed {} ms ago: starting at once; this"
                + " shard's load may not overlap the others'",
            who,
            startAt,
            at,
            -wait);
      } else {
        LOG.info(
            "{}: start barrier llm.startAt={} ({}) reached {} ms late", who, startAt, at, -wait);
      }
      return -wait;
    }
    LOG.info("{}: waiting {} ms for the start barrier llm.startAt={} ({})", who, wait, startAt, at);
    try {
      while ((wait = startAt - clock.getAsLong()) > 0) {
        sleeper.sleep(wait);
      }
    } catch (InterruptedException e) {
      Thread.currentThread().interrupt();
      throw new IllegalStateException("interrupted while waiting for llm.startAt=" + startAt, e);
    }
    LOG.info("{}: start barrier llm.startAt={} ({}) reached: starting the load", who, startAt, at);
    return 0;
  }
}
