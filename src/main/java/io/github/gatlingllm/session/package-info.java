/**
 * Per-session figures of agent sessions (issue 32): a session's tally while its turns run ({@link
 * SessionTally}, from the turns' request records), its figures once ended ({@link SessionResult},
 * how it ended: {@link SessionEnd}), their aggregation over a phase into histograms and sums
 * ({@link SessionAggregator}) and the run record's {@code sessions} block ({@link SessionSummary},
 * {@link SessionAggregator#toRecord()}), which merges across the shards of one test.
 *
 * <p>Knows nothing of HTTP, Gatling or the feeders: it reads {@code metrics}' request records and
 * is read by {@code feeder} (the agent workload) and {@code report} (merges).
 */
package io.github.gatlingllm.session;
