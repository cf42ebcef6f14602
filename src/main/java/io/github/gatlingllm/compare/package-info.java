/**
 * The comparison of two runs, beside the report: {@link RunSamples} reads each run folder's
 * requests into the few numbers a comparison resamples, {@link RunComparison} makes each headline
 * metric's change, its 95% bootstrap interval and the verdict, and renders them as text and JSON
 * ({@code gatling-llm report --compare A B}, and the baseline of a run with {@code llm.baseline}).
 *
 * <p>Reads the report room (the run folder's files, the number formats) and the statistics of
 * {@code stats}; the report room never imports it: the report page draws a comparison from the run
 * record's {@code baseline}, which the protocol wrote.
 */
package io.github.gatlingllm.compare;
