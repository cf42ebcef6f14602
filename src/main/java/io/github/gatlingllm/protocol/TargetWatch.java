package io.github.gatlingllm.protocol;

import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.TargetDown;
import io.github.gatlingllm.settings.TargetDownSettings;
import java.time.Instant;
import java.time.ZoneId;
import java.time.format.DateTimeFormatter;
import java.util.Locale;
import java.util.concurrent.atomic.AtomicBoolean;

/**
 * Not API. Notices a target that stopped answering, from request endings alone. The target is
 * judged <em>down</em> when no request has been answered for {@code llm.targetDown.afterMs} while
 * at least {@code llm.targetDown.minErrors} requests were not served: counted from the first such
 * failure after the last answer (a streak), judged at each failure. It is <em>back</em> at the next
 * answer. Only three kinds of ending count ({@link #kind}): an answer (a request served, or any
 * HTTP response but a server error: {@code ok}, a 4xx {@code http_error}, a 429 {@code rejected})
 * ends a streak; a request that never got a response ({@code connect_error} with no status:
 * refused, reset, DNS, TLS) or got a server error (HTTP 500, 502, 503 or 504: a crashed engine, or
 * a gateway whose server is gone) is evidence; everything else (timeouts, broken streams, cancels,
 * cuts) is neither, so an overloaded server whose requests time out, or are refused with 429, is
 * never judged down; one that sheds every request with 503 for the whole window serves nothing, and
 * is.
 *
 * <p>Its {@link Decision} is asked before each LLM request, as part of the run's {@link Gate}
 * ({@link RunContext#gate}).
 *
 * <p>Thread-safe. An answer while no streak is open costs two volatile reads; the rest takes a
 * short lock.
 */
public final class TargetWatch {

  /** How long a virtual user waits before its request while the target is not answering, ms. */
  public static final long SUSPECT_PAUSE_MS = 100;

  /** How long it waits once the target is judged down and the run goes on, ms. */
  public static final long DOWN_PAUSE_MS = 1_000;

  /**
   * The HTTP statuses that say the target serves nothing: an internal error (a crashed engine), a
   * bad gateway, a service unavailable, a gateway timeout.
   */
  static final java.util.Set<Integer> SERVER_ERRORS = java.util.Set.of(500, 502, 503, 504);

  /** What an ending says about the target. */
  enum Kind {
    /** The server answered (a request served, or an HTTP response but a server error). */
    ANSWERED,
    /**
     * Not served: no response at all (the connection was refused, reset or closed, or DNS or TLS
     * failed), or a server error (HTTP 500, 502, 503, 504).
     */
    NO_CONNECTION,
    /** Neither: a timeout, a broken stream, a cancel, a cut. */
    NEUTRAL
  }

  /** What a virtual user about to send does, from {@link #gate}. */
  public enum Decision {
    /** Send. */
    GO,
    /** The target is not answering: wait {@link #SUSPECT_PAUSE_MS}, then send. */
    WAIT,
    /**
     * The target is down and the run goes on ({@code llm.stopWhenTargetDown=false}): wait {@link
     * #DOWN_PAUSE_MS}, then send.
     */
    WAIT_DOWN,
    /** The target is down and the run stops: stop the load generator (returned once). */
    STOP_RUN,
    /** The target is down and the run is stopping: end this user without a request. */
    END_USER
  }

  /** A change of the target's state, said once. */
  sealed interface Change permits Down, Back {}

  /**
   * The target was judged down.
   *
   * @param sinceMs the first connect error of the streak, epoch ms
   * @param atMs when it was judged down, epoch ms
   * @param connectErrors the connect errors of the streak so far, at least {@code minErrors}
   * @param error the last connect error's text, or null
   */
  record Down(long sinceMs, long atMs, int connectErrors, String error) implements Change {}

  /**
   * The target answered again after it was judged down.
   *
   * @param atMs when, epoch ms
   * @param down the episode that ended
   * @param failed the connect errors from the episode's first to its end
   */
  record Back(long atMs, Down down, long failed) implements Change {}

  private final TargetDownSettings settings;
  private volatile long runStartMs;
  private final ZoneId zone;
  private final AtomicBoolean stopSaid = new AtomicBoolean();
  private volatile int streakErrors;
  private volatile Down current;
  private volatile boolean sentAny;
  private long streakStartMs;
  private String lastError;
  private long failedInEpisode;
  private Down first;
  private Back firstBack;
  private int episodes;
  private long failed;

  /**
   * Watches a run's target.
   *
   * @param settings the thresholds and whether the run stops, never null
   * @param runStartMs when the run started, epoch ms, until {@link #firstSent(long)} says when its
   *     first request went: the console says how far into the run
   * @param zone the zone of the console's time of day, never null
   */
  TargetWatch(TargetDownSettings settings, long runStartMs, ZoneId zone) {
    this.settings = settings;
    this.runStartMs = runStartMs;
    this.zone = zone;
  }

  /**
   * Whether the run's first request has been noted ({@link #firstSent(long)}).
   *
   * @return true once noted
   */
  boolean started() {
    return sentAny;
  }

  /**
   * The run's first request is about to be sent: the run's time is counted from here.
   *
   * @param nowMs now, epoch ms
   */
  synchronized void firstSent(long nowMs) {
    if (!sentAny) {
      runStartMs = nowMs;
      sentAny = true;
    }
  }

  /**
   * When the run's first request went (or the run started, before it), epoch ms.
   *
   * @return epoch ms
   */
  long runStartMs() {
    return runStartMs;
  }

  /**
   * The run stops for another reason of the target's (a silent one, {@link SilenceWatch}): from now
   * on the gate ends every virtual user, as after a stop for a dead target.
   */
  void stopping() {
    stopSaid.set(true);
  }

  /**
   * What an ending says about the target.
   *
   * <p>A 503 (read as {@code rejected}, as a 429 is) is evidence, a 429 is not: a gateway whose
   * server is gone answers 503 (Kubernetes' ingress-nginx with no endpoint), and a server that
   * sheds every request for the whole window serves nothing; a 429 is a server telling the client
   * to slow down.
   *
   * @param status how the request ended, never null
   * @param httpStatus the response's status, or null when none came
   * @return never null
   */
  static Kind kind(RequestStatus status, Integer httpStatus) {
    switch (status) {
      case OK:
        return Kind.ANSWERED;
      case REJECTED:
      case HTTP_ERROR:
        return httpStatus != null && SERVER_ERRORS.contains(httpStatus)
            ? Kind.NO_CONNECTION
            : Kind.ANSWERED;
      case CONNECT_ERROR:
        return httpStatus == null ? Kind.NO_CONNECTION : Kind.NEUTRAL;
      default:
        return Kind.NEUTRAL;
    }
  }

  /**
   * A request ended.
   *
   * @param kind what its ending says ({@link #kind})
   * @param error its error text, or null
   * @param nowMs when, epoch ms
   * @return the change it made (said once), or null
   */
  Change ended(Kind kind, String error, long nowMs) {
    if (kind == Kind.NEUTRAL || (kind == Kind.ANSWERED && streakErrors == 0 && current == null)) {
      return null;
    }
    synchronized (this) {
      if (kind == Kind.ANSWERED) {
        streakErrors = 0;
        Down down = current;
        if (down == null) {
          return null;
        }
        current = null;
        Back back = new Back(nowMs, down, failedInEpisode);
        if (firstBack == null) {
          firstBack = back;
        }
        return back;
      }
      if (streakErrors == 0) {
        streakStartMs = nowMs;
      }
      streakErrors++;
      lastError = error;
      if (current != null) {
        failedInEpisode++;
        failed++;
        return null;
      }
      if (nowMs - streakStartMs < settings.afterMs() || streakErrors < settings.minErrors()) {
        return null;
      }
      Down down = new Down(streakStartMs, nowMs, streakErrors, error);
      current = down;
      episodes++;
      failedInEpisode = streakErrors;
      failed += streakErrors;
      if (first == null) {
        first = down;
      }
      return down;
    }
  }

  /**
   * What a virtual user about to send does now.
   *
   * @return {@link Decision#STOP_RUN} once when the target is down and {@code
   *     llm.stopWhenTargetDown} is on, {@link Decision#END_USER} after that; {@link
   *     Decision#WAIT_DOWN} when it is down and the run goes on; {@link Decision#WAIT} while the
   *     target is not answering (a streak of {@code minErrors} connect errors or more); else {@link
   *     Decision#GO}
   */
  Decision gate() {
    Decision gate =
        decide(
            current != null || stopSaid.get(),
            settings.stop(),
            stopSaid.get(),
            streakErrors >= settings.minErrors());
    if (gate == Decision.STOP_RUN && !stopSaid.compareAndSet(false, true)) {
      return Decision.END_USER;
    }
    return gate;
  }

  /**
   * The gate's decision, pure.
   *
   * @param down whether the target is judged down (or the run already stops for it)
   * @param stop {@code llm.stopWhenTargetDown}
   * @param stopSaid whether the stop was already handed to a user
   * @param suspect whether the target is not answering: at least {@code minErrors} connect errors
   *     since the last answer
   * @return never null
   */
  static Decision decide(boolean down, boolean stop, boolean stopSaid, boolean suspect) {
    if (down && stop) {
      return stopSaid ? Decision.END_USER : Decision.STOP_RUN;
    }
    if (down) {
      return Decision.WAIT_DOWN;
    }
    return suspect ? Decision.WAIT : Decision.GO;
  }

  /**
   * The line said once when the target is judged down.
   *
   * @param down the change, never null
   * @return e.g. {@code TARGET DOWN at 12:03:17 (17.2 s into the run): 250 requests failed to
   *     connect or got a server error over 2.0 s since 12:03:15 and none was served (Connection
   *     refused) - stopping the run (llm.stopWhenTargetDown=false keeps it going)}
   */
  String downText(Down down) {
    return "TARGET DOWN at "
        + clock(down.atMs())
        + " ("
        + seconds(down.atMs() - runStartMs)
        + " s into the run): "
        + down.connectErrors()
        + " requests failed to connect or got a server error over "
        + seconds(down.atMs() - down.sinceMs())
        + " s since "
        + clock(down.sinceMs())
        + " and none was served"
        + (down.error() == null ? "" : " (" + down.error() + ")")
        + (settings.stop()
            ? " - stopping the run (llm.stopWhenTargetDown=false keeps it going)"
            : " - the run goes on (llm.stopWhenTargetDown=false)");
  }

  /**
   * The line said when the target answers again.
   *
   * @param back the change, never null
   * @return e.g. {@code TARGET BACK at 12:03:25 (25.0 s into the run): a request was answered again
   *     10.1 s after the first failure; 410 requests failed to connect or got a server error
   *     meanwhile}
   */
  String backText(Back back) {
    return "TARGET BACK at "
        + clock(back.atMs())
        + " ("
        + seconds(back.atMs() - runStartMs)
        + " s into the run): a request was answered again "
        + seconds(back.atMs() - back.down().sinceMs())
        + " s after the first failure; "
        + back.failed()
        + " requests failed to connect or got a server error meanwhile";
  }

  /**
   * The run record's {@code target_down} block.
   *
   * @param nowMs now, epoch ms (the end of an episode still open)
   * @return null when the target was never judged down; else {@code at}, {@code since} (ISO
   *     instants), {@code after_run_start_s}, {@code connect_errors} (when judged), {@code error},
   *     {@code stopped} (the run stopped for it), {@code back_at} (ISO, or null), {@code episodes},
   *     {@code failed_requests} (every connect error of every episode, from its first to its end)
   *     and {@code message} (the console's line)
   */
  synchronized TargetDown toRecord(long nowMs) {
    if (first == null) {
      return null;
    }
    return new TargetDown(
        Instant.ofEpochMilli(first.atMs()).toString(),
        Instant.ofEpochMilli(first.sinceMs()).toString(),
        Math.round((first.atMs() - runStartMs) / 100.0) / 10.0,
        first.connectErrors(),
        first.error(),
        settings.stop(),
        firstBack == null ? null : Instant.ofEpochMilli(firstBack.atMs()).toString(),
        episodes,
        failed,
        downText(first));
  }

  private String clock(long epochMs) {
    return DateTimeFormatter.ofPattern("HH:mm:ss", Locale.ROOT)
        .format(Instant.ofEpochMilli(epochMs).atZone(zone));
  }

  private static String seconds(long ms) {
    return String.format(Locale.ROOT, "%.1f", ms / 1000.0);
  }
}
