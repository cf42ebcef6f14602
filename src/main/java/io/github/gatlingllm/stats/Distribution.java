package io.github.gatlingllm.stats;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Summary statistics of one metric's values (milliseconds with microsecond precision, or tokens per
 * second).
 *
 * <p>Values are kept in whole thousandths (microseconds for times, milli-tokens per second for
 * throughput): the count is exact, min and max are exact to the thousandth, the mean is rounded to
 * it. Each percentile is the smallest recorded value with at least p% of the values at or below it
 * (nearest rank, no interpolation), exact to the microsecond while the metric has at most 65,536
 * distinct values in microseconds, else an HdrHistogram's estimate rounded to its 3 significant
 * digits (see {@link MetricsAggregator}). So the p50 of 1, 2, ..., 100 ms is 50 ms, where numpy's
 * default interpolation would say 50.5.
 *
 * @param count the number of values, at least 0
 * @param mean the arithmetic mean rounded to the thousandth, or null when {@code count} is 0 (as
 *     all other fields)
 * @param min the smallest value
 * @param p50 the median
 * @param p90 the 90th percentile
 * @param p95 the 95th percentile
 * @param p99 the 99th percentile
 * @param max the largest value
 */
public record Distribution(
    long count,
    Double mean,
    Double min,
    Double p50,
    Double p90,
    Double p95,
    Double p99,
    Double max) {

  /** No values. */
  public static final Distribution EMPTY =
      new Distribution(0, null, null, null, null, null, null, null);

  /**
   * Checks the count.
   *
   * @throws IllegalArgumentException if {@code count} is negative
   */
  public Distribution {
    if (count < 0) {
      throw new IllegalArgumentException("count must be >= 0, got " + count);
    }
  }

  /**
   * The JSON form: {@code count, mean, min, p50, p90, p95, p99, max} in that order.
   *
   * @return an ordered, unmodifiable map; values null when there are no values
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("count", count);
    m.put("mean", mean);
    m.put("min", min);
    m.put("p50", p50);
    m.put("p90", p90);
    m.put("p95", p95);
    m.put("p99", p99);
    m.put("max", max);
    return Collections.unmodifiableMap(m);
  }
}
