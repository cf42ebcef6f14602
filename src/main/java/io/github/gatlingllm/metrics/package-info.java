/**
 * Per-request timings and their formulas ({@link RequestTimer}), the per-request record ({@link
 * RequestRecord}, one line of {@code llm-requests.jsonl}), status classification ({@link
 * RequestStatus}) and aggregation into quantiles ({@link MetricsAggregator}).
 *
 * <p>Knows nothing of HTTP clients or Gatling: instants are plain {@link System#nanoTime()}
 * nanoseconds handed in by the caller (durations come out in milliseconds rounded to the
 * microsecond), statuses are plain numbers and strings.
 */
package io.github.gatlingllm.metrics;
