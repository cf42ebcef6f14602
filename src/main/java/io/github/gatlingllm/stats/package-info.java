/**
 * Statistics with no knowledge of requests: a distribution's summary ({@link Distribution}: count,
 * mean and percentiles of one figure), counts of values at a fixed precision ({@link ValueCounts}:
 * an HdrHistogram read back as exact values for the page and the CSV), nearest-rank percentiles
 * ({@link NearestRank}) and the percentile bootstrap of a change ({@link Bootstrap}).
 *
 * <p>The lowest room: imports nothing of the project. Metrics, levels, the report and the
 * comparison of runs use it.
 */
package io.github.gatlingllm.stats;
