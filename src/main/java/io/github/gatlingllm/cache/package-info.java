/**
 * Cache truth: the planned prefix-cache reuse of each request ({@link CachePlan}, {@link
 * ConversationPlan}), what the server reported ({@link CacheOutcome}), their aggregation over a run
 * ({@link CacheAggregator}) and the working-set sweep's summary ({@link WorkingSetSweepSummary}).
 * Counts are tokens.
 */
package io.github.gatlingllm.cache;
