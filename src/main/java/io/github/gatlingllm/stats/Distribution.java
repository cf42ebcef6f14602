package io.github.gatlingllm.stats;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;

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
 * <p>Its JSON form in {@code llm-run.json}, written and read by Jackson: {@code count, mean, min,
 * p50, p90, p95, p99, max} in that order, nulls written (every value but {@code count} is null when
 * there are no values); a missing {@code count} reads as 0, unknown keys are ignored.
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
@JsonPropertyOrder({"count", "mean", "min", "p50", "p90", "p95", "p99", "max"})
@JsonIgnoreProperties(ignoreUnknown = true)
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
}
