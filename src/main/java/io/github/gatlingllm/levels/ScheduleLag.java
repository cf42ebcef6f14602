package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.MetricsAggregator;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.stats.Distribution;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.nio.channels.FileChannel;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
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
 *
 * <p>Memory does not grow with the number of users: a window's lags can only be counted once the
 * window is known (a level's, at the end of the run), so each lag (its send millisecond and its
 * microseconds, 16 bytes) goes to a buffer of {@value #BUFFER} in memory and, when that is full, to
 * a temporary file (deleted when the JVM exits), which each window reads back in one pass. A live
 * estimate of the 99th percentile comes from a histogram. If the temporary file cannot be written,
 * the lags stay in memory.
 */
public final class ScheduleLag {

  /** Lags kept in memory before they are written to the spill file, 64 KB of them. */
  static final int BUFFER = 4096;

  private final ConcurrentHistogram live = new ConcurrentHistogram(3);
  private final int bufferSize;
  // Each lag as two longs: its send time's whole epoch millisecond (windows have whole-millisecond
  // bounds, so that selects as the exact time does) and the lag in microseconds, at least 0 (as
  // the distributions count it).
  private long[] buffer;
  private int buffered;
  private FileChannel spill;
  private Path spillFile;
  private long spilled;
  private long size;

  /** Empty. */
  public ScheduleLag() {
    this(BUFFER);
  }

  /** Empty, spilling every {@code bufferSize} lags: for tests. */
  ScheduleLag(int bufferSize) {
    this.bufferSize = bufferSize;
    this.buffer = new long[2 * bufferSize];
  }

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
    long lagUs = Math.max(0, Math.round(lagMs * 1000));
    live.recordValue(lagUs);
    long sent = (long) Math.floor(sentMs);
    synchronized (this) {
      if (buffered == buffer.length) {
        spill();
      }
      buffer[buffered++] = sent;
      buffer[buffered++] = lagUs;
      size++;
    }
  }

  /**
   * Writes the buffer to the spill file (made at the first call); when the file cannot be made or
   * written, the lags stay in memory (the buffer grows), so nothing is lost.
   */
  private void spill() {
    try {
      if (spill == null) {
        spillFile = Files.createTempFile("gatling-llm-schedule-lag-", ".bin");
        spillFile.toFile().deleteOnExit();
        spill =
            FileChannel.open(
                spillFile,
                StandardOpenOption.READ,
                StandardOpenOption.WRITE,
                StandardOpenOption.DELETE_ON_CLOSE);
      }
      ByteBuffer bytes = ByteBuffer.allocate(buffered * Long.BYTES);
      bytes.asLongBuffer().put(buffer, 0, buffered);
      long at = spilled * 2 * Long.BYTES;
      while (bytes.hasRemaining()) {
        at += spill.write(bytes, at);
      }
      spilled += buffered / 2;
      buffered = 0;
    } catch (IOException e) {
      buffer = Arrays.copyOf(buffer, buffer.length * 2);
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
   * How many lags were more than a bound, exactly (every lag is read back, as {@link
   * #distribution(long, long)} does).
   *
   * @param boundMs the bound, milliseconds
   * @return the count of lags over it, at least 0
   */
  public long countOver(double boundMs) {
    long[] n = new long[1];
    double boundUs = boundMs * 1000;
    forEach((sentMs, lagUs) -> n[0] += lagUs > boundUs ? 1 : 0);
    return n[0];
  }

  /**
   * A cheap estimate of how many lags were more than a bound so far, for checks during the run:
   * from the histogram (3 significant digits).
   *
   * @param boundMs the bound, milliseconds
   * @return the count, at least 0
   */
  public long countOverEstimate(double boundMs) {
    long boundUs = (long) Math.floor(boundMs * 1000);
    long total = live.getTotalCount();
    return total == 0 ? 0 : total - live.getCountBetweenValues(0, boundUs);
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
    forEach((sentMs, lagUs) -> select(metric, sentMs, lagUs, startMs, endMs));
    return metric.distribution();
  }

  /** What is done with each lag read back: its send millisecond and its microseconds. */
  private interface LagVisitor {
    void visit(long sentMs, long lagUs);
  }

  /** Reads every lag back, the spilled ones first, in one pass. */
  private void forEach(LagVisitor visitor) {
    synchronized (this) {
      if (spilled > 0) {
        ByteBuffer bytes = ByteBuffer.allocate(BUFFER * 2 * Long.BYTES);
        long at = 0;
        long end = spilled * 2 * Long.BYTES;
        try {
          while (at < end) {
            bytes.clear();
            bytes.limit((int) Math.min(bytes.capacity(), end - at));
            while (bytes.hasRemaining()) {
              int n = spill.read(bytes, at + bytes.position());
              if (n < 0) {
                throw new IOException("the file ends early");
              }
            }
            bytes.flip();
            at += bytes.limit();
            while (bytes.hasRemaining()) {
              visitor.visit(bytes.getLong(), bytes.getLong());
            }
          }
        } catch (IOException e) {
          throw new UncheckedIOException("cannot read back the schedule lags of " + spillFile, e);
        }
      }
      for (int i = 0; i < buffered; i += 2) {
        visitor.visit(buffer[i], buffer[i + 1]);
      }
    }
  }

  private static void select(
      MetricsAggregator.Metric metric, long sentMs, long lagUs, long startMs, long endMs) {
    if (sentMs >= startMs && sentMs < endMs) {
      metric.record(lagUs / 1000.0);
    }
  }
}
