/**
 * Per-request timings and their formulas ({@link RequestTimer}), the per-request record ({@link
 * RequestRecord}, one line of {@code llm-requests.jsonl}), status classification ({@link
 * RequestStatus}) and aggregation into quantiles ({@link MetricsAggregator}).
 *
 * <p>Knows nothing of HTTP clients or Gatling: times are plain milliseconds handed in by the caller
 * (Gatling's clock), statuses are plain numbers and strings.
 */
package io.github.gatlingllm.metrics;
