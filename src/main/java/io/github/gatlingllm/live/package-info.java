/**
 * What the run shows while it runs: a Prometheus {@code /metrics} endpoint in the Gatling JVM
 * ({@code llm.prometheusPort}), served through the official Prometheus Java client and fed by the
 * same per-request records as the run record ({@link LiveMetrics}), off the event loops ({@link
 * LiveEndpoint}). Live figures are bucketed; the exact ones are in {@code llm-requests.jsonl} and
 * {@code llm-run.json}.
 *
 * <p>Knows nothing of Gatling's classes: the run hands in its records and the suppliers of its
 * gauges.
 */
package io.github.gatlingllm.live;
