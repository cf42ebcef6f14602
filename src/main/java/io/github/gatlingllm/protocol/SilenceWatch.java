package io.github.gatlingllm.protocol;

import io.github.gatlingllm.record.TargetSilent;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.concurrent.Executors;
import java.util.concurrent.ScheduledExecutorService;
import java.util.concurrent.TimeUnit;
import java.util.function.Consumer;
import java.util.function.IntSupplier;
import java.util.function.LongSupplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Notices a target that went silent: no byte from it for {@code llm.silentSeconds} while
 * streamed requests were in flight. A hung server, or one stopped with SIGSTOP, keeps its
 * connections open (its kernel even accepts new ones), so no request fails to connect and {@link
 * TargetWatch} sees nothing but, at last, timeouts; this watch sees the bytes stop.
 *
 * <p>A <em>byte</em> is any response head or body chunk of any LLM request: each is stamped by
 * {@link #arrived(long)} on its event loop (one volatile read, and a write at most once a
 * millisecond). The silence is the time since the last byte <em>during which at least one streamed
 * request was in flight</em>, added up by a check every {@value #CHECK_EVERY_MS} ms off the event
 * loops ({@link #tick}): time with nothing in flight (think time, a pause between levels, an open
 * loop's gaps) is not silence, and a request that times out and is replaced does not reset it. Only
 * streamed requests count: a non-streamed answer owes no byte before it is whole, so a long
 * non-streamed generation is not silence. A silence of {@code llm.silentSeconds} or more is an
 * <em>episode</em>, said once when it reaches the bound ({@link Silent}); it ends at the next byte
 * ({@link Spoke}) or at the run's end. A server slower than the bound to its first token (a long
 * prefill, with nothing else streaming) is silent by this definition: such runs raise the bound.
 *
 * <p>Thread-safe: {@link #arrived(long)} from every event loop, the rest under this watch's lock.
 */
public final class SilenceWatch {

  private static final Logger LOG = LoggerFactory.getLogger(SilenceWatch.class);

  /** How often the watch adds up the silence, in milliseconds. */
  static final long CHECK_EVERY_MS = 250;

  /** The stamp of the last byte is renewed when it is at least this old, in nanoseconds. */
  static final long STAMP_NANOS = 1_000_000;

  /** The most episodes kept in the record; later ones are counted only. */
  static final int MAX_EPISODES = 100;

  /** What the watch says, once each. */
  sealed interface Change permits Silent, Spoke {}

  /**
   * No byte for {@code llm.silentSeconds} while requests were in flight.
   *
   * @param sinceNanos when the silence began ({@link System#nanoTime()}): the last byte, or the
   *     first request in flight after it
   * @param atNanos when the watch noticed it
   * @param inFlight the streamed requests in flight then
   */
  record Silent(long sinceNanos, long atNanos, int inFlight) implements Change {}

  /**
   * A byte came again after a silent episode.
   *
   * @param silent the episode
   * @param atNanos when the byte came ({@link System#nanoTime()}, to the millisecond)
   */
  record Spoke(Silent silent, long atNanos) implements Change {}

  private final int silentSeconds;
  private final long silentNanos;
  private final boolean stop;
  private final long anchorNanos;
  private final long anchorEpochMs;
  private final LongSupplier runStartMs;
  private final ZoneId zone;

  /** The last byte's stamp, {@link System#nanoTime()}. */
  private volatile long lastByteNanos;

  private long seenByteNanos;
  private long lastTickNanos;
  private boolean ticked;
  private long silentSoFarNanos;
  private Silent current;
  private final List<TargetSilent.Episode> episodes = new ArrayList<>();
  private Silent first;
  private int episodeCount;
  private boolean stopped;
  private ScheduledExecutorService checker;

  /**
   * Watches a run's target for silence.
   *
   * @param silentSeconds {@code llm.silentSeconds}: the bound, whole seconds, or 0 never to say it
   * @param stop {@code llm.stopWhenTargetDown}: whether the run stops for it (said in the line)
   * @param anchorNanos a {@link System#nanoTime()} reading, taken with {@code anchorEpochMs}
   * @param anchorEpochMs the epoch milliseconds at {@code anchorNanos}
   * @param runStartMs when the run's first request went, epoch ms: the line says how far into the
   *     run
   * @param zone the zone of the line's time of day, never null
   */
  SilenceWatch(
      int silentSeconds,
      boolean stop,
      long anchorNanos,
      long anchorEpochMs,
      LongSupplier runStartMs,
      ZoneId zone) {
    this.silentSeconds = silentSeconds;
    this.silentNanos = silentSeconds * 1_000_000_000L;
    this.stop = stop;
    this.anchorNanos = anchorNanos;
    this.anchorEpochMs = anchorEpochMs;
    this.runStartMs = runStartMs;
    this.zone = zone;
    this.lastByteNanos = anchorNanos;
    this.seenByteNanos = anchorNanos;
  }

  /**
   * A byte came from the target: a response head or a body chunk of any request.
   *
   * @param nanos when, {@link System#nanoTime()}
   */
  public void arrived(long nanos) {
    if (nanos - lastByteNanos >= STAMP_NANOS) {
      lastByteNanos = nanos;
    }
  }

  /**
   * Adds up the silence since the last check and says what changed: a byte since the last check
   * ends an episode (and restarts the count from that byte, when requests are in flight); else the
   * time since the last check is silence if streamed requests are in flight now.
   *
   * @param nowNanos now, {@link System#nanoTime()}
   * @param inFlight the streamed requests in flight now
   * @return the episode begun ({@link Silent}) or ended ({@link Spoke}), or null; always null with
   *     {@code llm.silentSeconds=0}
   */
  synchronized Change tick(long nowNanos, int inFlight) {
    if (silentNanos == 0) {
      return null;
    }
    long last = lastByteNanos;
    Change change = null;
    if (last != seenByteNanos) {
      seenByteNanos = last;
      silentSoFarNanos = inFlight > 0 ? Math.max(0, nowNanos - last) : 0;
      if (current != null) {
        change = new Spoke(current, last);
        ended(current, last, "bytes");
        current = null;
      }
    } else if (inFlight > 0 && ticked) {
      silentSoFarNanos += nowNanos - lastTickNanos;
    }
    lastTickNanos = nowNanos;
    ticked = true;
    if (change == null && current == null && silentSoFarNanos >= silentNanos) {
      current = new Silent(nowNanos - silentSoFarNanos, nowNanos, inFlight);
      episodeCount++;
      if (first == null) {
        first = current;
      }
      change = current;
    }
    return change;
  }

  /** Keeps an ended episode for the record (the first {@value #MAX_EPISODES}). */
  private void ended(Silent silent, long endNanos, String how) {
    if (episodes.size() < MAX_EPISODES) {
      episodes.add(episode(silent, endNanos, how));
    }
  }

  /** An episode's entry in the record. */
  private TargetSilent.Episode episode(Silent silent, long endNanos, String how) {
    return new TargetSilent.Episode(
        Instant.ofEpochMilli(epochMs(silent.sinceNanos())).toString(),
        Instant.ofEpochMilli(epochMs(silent.atNanos())).toString(),
        seconds1(epochMs(silent.atNanos()) - runStartMs.getAsLong()),
        seconds1((endNanos - silent.sinceNanos()) / 1_000_000),
        silent.inFlight(),
        how);
  }

  /** The run stops for the silence ({@code llm.stopWhenTargetDown}): the record says so. */
  synchronized void stopping() {
    stopped = true;
  }

  /**
   * The line said once when an episode begins.
   *
   * @param silent the episode, never null
   * @return e.g. {@code TARGET SILENT at 12:03:17 (17.2 s into the run): no byte from the target
   *     for 10.0 s (since 12:03:07) with 4 requests in flight - stopping the run
   *     (llm.stopWhenTargetDown=false keeps it going; llm.silentSeconds=10)}
   */
  String silentText(Silent silent) {
    long at = epochMs(silent.atNanos());
    return "TARGET SILENT at "
        + clock(at)
        + " ("
        + seconds(at - runStartMs.getAsLong())
        + " s into the run): no byte from the target for "
        + seconds((silent.atNanos() - silent.sinceNanos()) / 1_000_000)
        + " s (since "
        + clock(epochMs(silent.sinceNanos()))
        + ") with "
        + silent.inFlight()
        + (silent.inFlight() == 1 ? " request" : " requests")
        + " in flight"
        + (stop
            ? " - stopping the run (llm.stopWhenTargetDown=false keeps it going; llm.silentSeconds="
                + silentSeconds
                + ")"
            : " - the run goes on (llm.stopWhenTargetDown=false; llm.silentSeconds="
                + silentSeconds
                + ")");
  }

  /**
   * The line said when a byte comes again after an episode.
   *
   * @param spoke the change, never null
   * @return e.g. {@code TARGET SILENT ENDED at 12:03:25 (25.0 s into the run): a byte came again
   *     after 18.0 s of silence}
   */
  String spokeText(Spoke spoke) {
    long at = epochMs(spoke.atNanos());
    return "TARGET SILENT ENDED at "
        + clock(at)
        + " ("
        + seconds(at - runStartMs.getAsLong())
        + " s into the run): a byte came again after "
        + seconds((spoke.atNanos() - spoke.silent().sinceNanos()) / 1_000_000)
        + " s of silence";
  }

  /**
   * The run record's {@code target_silent} block.
   *
   * @param nowNanos now, {@link System#nanoTime()}: the end of an episode still open
   * @return null when the target was never silent; else {@code silent_seconds} ({@code
   *     llm.silentSeconds}), {@code stopped} (the run stopped for it), {@code episode_count},
   *     {@code episodes} (the first {@value #MAX_EPISODES}, each: {@code since} and {@code at}, ISO
   *     instants of the silence's start and of its notice, {@code after_run_start_s} of the notice,
   *     {@code silent_s} from its start to the next byte or the run's end, {@code in_flight}
   *     streamed requests when noticed, {@code ended} {@code bytes} or {@code run_end}) and {@code
   *     message} (the first episode's console line)
   */
  synchronized TargetSilent toRecord(long nowNanos) {
    if (first == null) {
      return null;
    }
    List<TargetSilent.Episode> all = new ArrayList<>(episodes);
    if (current != null && all.size() < MAX_EPISODES) {
      all.add(episode(current, nowNanos, "run_end"));
    }
    return new TargetSilent(silentSeconds, stopped, episodeCount, all, silentText(first));
  }

  /**
   * Starts the checks, every {@value #CHECK_EVERY_MS} ms on a thread of their own; does nothing
   * with {@code llm.silentSeconds=0}.
   *
   * @param inFlight the streamed requests in flight now
   * @param said what to do with a change (say it, stop the run), on the checks' thread
   */
  synchronized void start(IntSupplier inFlight, Consumer<Change> said) {
    if (silentNanos == 0 || checker != null) {
      return;
    }
    checker =
        Executors.newSingleThreadScheduledExecutor(
            r -> {
              Thread t = new Thread(r, "gatling-llm-silence-watch");
              t.setDaemon(true);
              return t;
            });
    checker.scheduleWithFixedDelay(
        () -> {
          try {
            Change change = tick(System.nanoTime(), inFlight.getAsInt());
            if (change != null) {
              said.accept(change);
            }
          } catch (RuntimeException e) {
            LOG.error("silence watch: {}", e.toString(), e);
          }
        },
        CHECK_EVERY_MS,
        CHECK_EVERY_MS,
        TimeUnit.MILLISECONDS);
  }

  /** Stops the checks; the record stays readable. */
  synchronized void close() {
    if (checker != null) {
      checker.shutdownNow();
    }
  }

  private long epochMs(long nanos) {
    return anchorEpochMs + Math.floorDiv(nanos - anchorNanos, 1_000_000L);
  }

  private String clock(long epochMs) {
    return DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
        .format(Instant.ofEpochMilli(epochMs).atZone(zone));
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
  }

  private static double seconds1(long ms) {
    return Math.round(ms / 100.0) / 10.0;
  }
}
