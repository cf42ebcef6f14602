package io.github.gatlingllm.protocol;

import com.sun.management.GarbageCollectionNotificationInfo;
import io.github.gatlingllm.record.ClientSummary;
import io.github.gatlingllm.stats.Distribution;
import io.github.gatlingllm.stats.ValueCounts;
import java.lang.management.GarbageCollectorMXBean;
import java.lang.management.ManagementFactory;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import javax.management.ListenerNotFoundException;
import javax.management.Notification;
import javax.management.NotificationEmitter;
import javax.management.NotificationListener;
import javax.management.openmbean.CompositeData;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. The client JVM's own garbage-collection pauses over a run (issue 43): every
 * stop-the-world pause the JVM reports ({@link GarbageCollectionNotificationInfo}, on the JMX
 * notification thread, off the requests' path) is counted by its duration. A request in flight
 * during a pause has it added to what the client measures (its TTFT, an ITL, a schedule lag), so
 * the pauses are one of the causes of the client's own tail: {@code client.gc} in {@code
 * llm-run.json}.
 *
 * <p>Which beans report pauses: a concurrent collector's JVM has a bean for its pauses and one for
 * its cycles (ZGC's and Shenandoah's {@code ... Pauses} and {@code ... Cycles}); only the pauses
 * are counted then. A stop-the-world collector's beans (Serial's {@code Copy} and {@code
 * MarkSweepCompact}, Parallel's, G1's {@code G1 Young Generation} and {@code G1 Old Generation})
 * each report pauses. Durations are whole milliseconds, as the JVM reports them.
 *
 * <p>Keeps one count per distinct duration, nothing per pause. Thread-safe.
 */
final class GcWatch {

  private static final Logger LOG = LoggerFactory.getLogger(GcWatch.class);

  private final List<String> collectors = new ArrayList<>();
  private final List<NotificationEmitter> emitters = new ArrayList<>();
  private final boolean pausesOnly;
  private final ValueCounts pauses = new ValueCounts();
  private final NotificationListener listener = this::notified;
  private long pausedMs;
  private ClientSummary.Gc finished;

  GcWatch() {
    this(ManagementFactory.getGarbageCollectorMXBeans());
  }

  GcWatch(List<GarbageCollectorMXBean> beans) {
    boolean pauseBeans = false;
    for (GarbageCollectorMXBean b : beans) {
      collectors.add(b.getName());
      pauseBeans |= pausesBean(b.getName());
    }
    this.pausesOnly = pauseBeans;
  }

  /** Starts listening: call when the load starts. */
  void start() {
    for (GarbageCollectorMXBean b : ManagementFactory.getGarbageCollectorMXBeans()) {
      if (b instanceof NotificationEmitter e) {
        e.addNotificationListener(listener, null, null);
        emitters.add(e);
      }
    }
  }

  /**
   * A collector's bean that reports pauses apart from its cycles.
   *
   * @param name the bean's name
   * @return whether the name ends with {@code Pauses}
   */
  static boolean pausesBean(String name) {
    return name.endsWith("Pauses");
  }

  private void notified(Notification n, Object handback) {
    if (!GarbageCollectionNotificationInfo.GARBAGE_COLLECTION_NOTIFICATION.equals(n.getType())) {
      return;
    }
    GarbageCollectionNotificationInfo info =
        GarbageCollectionNotificationInfo.from((CompositeData) n.getUserData());
    pause(info.getGcName(), info.getGcInfo().getDuration());
  }

  /**
   * A collection ended: counted when its bean reports pauses.
   *
   * @param bean the collector bean's name
   * @param durationMs its duration, whole milliseconds
   */
  synchronized void pause(String bean, long durationMs) {
    if (finished != null || (pausesOnly && !pausesBean(bean)) || durationMs < 0) {
      return;
    }
    pauses.add(durationMs);
    pausedMs += durationMs;
  }

  /**
   * Stops listening (once; later calls give the same block) and sums up.
   *
   * @return {@code client.gc}, never null
   */
  synchronized ClientSummary.Gc finish() {
    if (finished != null) {
      return finished;
    }
    for (NotificationEmitter e : emitters) {
      try {
        e.removeNotificationListener(listener);
      } catch (ListenerNotFoundException ex) {
        LOG.debug("GC listener already gone: {}", ex.getMessage());
      }
    }
    finished = snapshot();
    return finished;
  }

  /**
   * The pauses so far, listening on.
   *
   * @return the block as it would be now, never null
   */
  synchronized ClientSummary.Gc snapshot() {
    if (finished != null) {
      return finished;
    }
    long count = pauses.total();
    Distribution d =
        count == 0
            ? Distribution.EMPTY
            : new Distribution(
                count,
                Math.round(1000.0 * pausedMs / count) / 1000.0,
                (double) pauses.min(),
                (double) pauses.atRank(0.50),
                (double) pauses.atRank(0.90),
                (double) pauses.atRank(0.95),
                (double) pauses.atRank(0.99),
                (double) pauses.max());
    return new ClientSummary.Gc(
        List.copyOf(collectors), d, pausedMs, Runtime.getRuntime().availableProcessors());
  }

  /**
   * The note of a run whose longest pause is over the client's lag threshold, or null: what the
   * pauses add to the client's own figures, and what to change.
   *
   * @param gc the block
   * @param maxLagMs {@code llm.client.maxLagP99Ms}
   * @return the note, or null when the longest pause is within it
   */
  static String note(ClientSummary.Gc gc, double maxLagMs) {
    Distribution p = gc.pauseMs();
    if (p.count() == 0 || p.max() == null || p.max() <= maxLagMs) {
      return null;
    }
    boolean serial = gc.collectors().contains("Copy");
    return String.format(
        Locale.ROOT,
        "the client's own GC paused it %d times, %d ms in all, the longest %.0f ms (p99 %.0f ms;"
            + " llm.client.maxLagP99Ms=%s): a request in flight during a pause has it added to its"
            + " TTFT, an ITL or its schedule lag%s",
        p.count(),
        gc.pausedMs(),
        p.max(),
        p.p99(),
        ClientWatch.plain(maxLagMs),
        serial
            ? " (Serial GC: the JVM saw "
                + gc.processors()
                + " processor(s); -XX:+UseZGC or -XX:+UseShenandoahGC in the Gatling JVM's"
                + " arguments keeps pauses under a millisecond, docs/accuracy.md)"
            : "");
  }
}
