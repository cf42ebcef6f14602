package io.github.gatlingllm.report;

import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.prompt.Phase;
import java.util.Set;
import java.util.TreeSet;

/**
 * What the report page must know of a run's requests before it bins them: how many there are
 * outside and inside the warmup phase, their series (workload and request name) and their first
 * start and last end. Kept as requests are recorded (a few numbers and the set of series, whatever
 * the run's length), or found in a first pass over the file. Not thread-safe.
 */
public final class RequestsShape {

  private final Part measured = new Part();
  private final Part warmup = new Part();

  /** The requests of one side of the warmup line. */
  static final class Part {
    long count;
    long firstStart = Long.MAX_VALUE;
    double lastEnd = Long.MIN_VALUE;
    final Set<ChartData.Key> keys = new TreeSet<>(ChartData.ORDER);

    void add(RequestRecord r) {
      count++;
      firstStart = Math.min(firstStart, r.startMs());
      lastEnd = Math.max(lastEnd, r.endMs());
      keys.add(ChartData.Key.of(r));
    }

    /** Bins covering these requests, as {@link ChartData.TimeBins#of}. */
    ChartData.TimeBins bins() {
      return ChartData.TimeBins.over(firstStart, lastEnd - firstStart);
    }
  }

  /**
   * Adds one request.
   *
   * @param r the request, never null
   */
  public void add(RequestRecord r) {
    (Phase.isWarmup(r.phase()) ? warmup : measured).add(r);
  }

  /**
   * The shape of some requests, in one pass.
   *
   * @param requests the requests
   * @return their shape
   */
  static RequestsShape of(RecordedRequests requests) {
    RequestsShape shape = new RequestsShape();
    requests.forEach(shape::add);
    return shape;
  }

  /** How many requests were added. */
  long count() {
    return measured.count + warmup.count;
  }

  /** Whether any request is outside warmup: then the charts cover those only. */
  boolean anyMeasured() {
    return measured.count > 0;
  }

  /** The requests the charts cover: outside warmup, or every one when all are warmup. */
  Part charted() {
    return anyMeasured() ? measured : warmup;
  }

  /** Whether a request is among those the charts cover. */
  boolean charted(RequestRecord r) {
    return !anyMeasured() || !Phase.isWarmup(r.phase());
  }
}
