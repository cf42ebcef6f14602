/**
 * Per-session figures of agent sessions (issue 32): a session's tally while its turns run ({@link
 * SessionTally}, from the turns' request records), its figures once ended ({@link SessionResult},
 * how it ended: {@link SessionEnd}), their aggregation over a phase into histograms and sums
 * ({@link SessionAggregator}) into the run record's {@code sessions} block ({@code
 * record.SessionSummary}, which defines the figures and merges across the shards of one test).
 *
 * <p>Knows nothing of HTTP, Gatling or the feeders: it reads {@code metrics}' request records and
 * is read by {@code feeder} (the agent workload); it writes {@code record}'s types.
 */
package io.github.gatlingllm.session;
