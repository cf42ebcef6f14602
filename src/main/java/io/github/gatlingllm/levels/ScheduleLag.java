package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.stats.Distribution;
import java.util.Arrays;
import java.util.Collection;
import org.HdrHistogram.ConcurrentHistogram;

/**
 * The schedule lag of a run's open-loop requests: for the first LLM request of each virtual user of
 * an open injection profile, its send time minus the time the profile said the user arrives ({@link
 * RequestRecord#scheduleLagMs()}). A client that keeps up sends within a millisecond or two of the
 * schedule; one that falls behind (busy event loops, a starved CPU, GC) sends late, so the server
 * gets less load, later, than the test says, and its latencies look better than under the planned
 * load: coordinated omission.
 *
 * <p>Summaries are {@link Distribution}s (percentiles by nearest rank, exact to the microsecond up
 * to {@link MetricsAggregator}'s limit); a lag below 0 (a user Gatling started up to a millisecond
 * before its due time: it schedules on whole milliseconds) counts as 0 there. Windows select
 * requests by their send time, as levels select requests by their start. Thread-safe.
 */
public final class ScheduleLag {

  private final ConcurrentHistogram live = new ConcurrentHistogram(3);
  private double[] sent = new double[1024];
  private double[] lag = new double[1024];
  private int size;

  /**
   * Adds one request's lag.
   *
   * @param sentMs when it was sent, epoch milliseconds
   * @param lagMs its lag, milliseconds, finite
   * @throws IllegalArgumentException if a value is not finite
   */
  public void add(double sentMs, double lagMs) {
    if (!Double.isFinite(sentMs) || !Double.isFinite(lagMs)) {
      throw new IllegalArgumentException(
          "schedule lag needs finite times, got sent " + sentMs + ", lag " + lagMs);
    }
    live.recordValue(Math.max(0, Math.round(lagMs * 1000)));
    synchronized (this) {
      if (size == sent.length) {
        sent = Arrays.copyOf(sent, size * 2);
        lag = Arrays.copyOf(lag, size * 2);
      }
      sent[size] = sentMs;
      lag[size] = lagMs;
      size++;
    }
  }

  /**
   * The lags of the requests of a run record that have one.
   *
   * @param records the records, never null
   * @return a new aggregate
   */
  public static ScheduleLag of(Collection<RequestRecord> records) {
    ScheduleLag out = new ScheduleLag();
    for (RequestRecord r : records) {
      Double l = r.scheduleLagMs();
      if (l != null) {
        out.add(r.sentMs(), l);
      }
    }
    return out;
  }

  /**
   * How many lags were added.
   *
   * @return at least 0
   */
  public synchronized long count() {
    return size;
  }

  /**
   * A cheap estimate of the 99th percentile so far, for checks during the run: the histogram's
   * value at 99% (3 significant digits).
   *
   * @return milliseconds, or null before any lag
   */
  public Double p99Estimate() {
    if (live.getTotalCount() == 0) {
      return null;
    }
    return live.getValueAtPercentile(99) / 1000.0;
  }

  /**
   * All lags.
   *
   * @return the distribution, {@link Distribution#EMPTY} without any
   */
  public Distribution distribution() {
    return distribution(Long.MIN_VALUE, Long.MAX_VALUE);
  }

  /**
   * The lags of the requests sent in a window.
   *
   * @param startMs the window's start, epoch ms, inclusive
   * @param endMs its end, epoch ms, exclusive
   * @return the distribution, {@link Distribution#EMPTY} without any
   */
  public Distribution distribution(long startMs, long endMs) {
    MetricsAggregator.Metric metric = new MetricsAggregator.Metric();
    synchronized (this) {
      for (int i = 0; i < size; i++) {
        if (sent[i] >= startMs && sent[i] < endMs) {
          metric.record(Math.max(0, lag[i]));
        }
      }
    }
    return metric.distribution();
  }
}
