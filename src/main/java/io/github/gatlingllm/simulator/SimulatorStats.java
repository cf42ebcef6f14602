package io.github.gatlingllm.simulator;

import java.util.Map;

/**
 * A snapshot of the simulator's counters and gauges, as {@code GET /metrics} shows them.
 *
 * @param requestsByStatus requests to the generation endpoints by HTTP status, in status order; a
 *     streamed request counts when it ends; unmodifiable, never null
 * @param promptTokens prompt tokens of admitted requests
 * @param cachedPromptTokens prompt tokens served from the prefix cache
 * @param generationTokens output tokens produced
 * @param runningSequences sequences generating now
 * @param waitingSequences sequences waiting for a free slot now
 * @param cacheBlocks prefix-cache blocks held now
 * @param cacheCapacityBlocks prefix-cache capacity, in blocks (0: the cache is off)
 * @param blockSize prefix-cache block size, in tokens
 * @param connectionsAccepted TCP connections accepted since the simulator started (a keep-alive
 *     client that reuses its connections opens at most one per concurrent request)
 * @param cancelledRequests requests whose client went away (closed the connection) while they
 *     waited or generated: each stopped generating and freed its slot at once
 * @param reasoningTokens output tokens produced as reasoning (the reasoning mode), part of {@code
 *     generationTokens}
 */
public record SimulatorStats(
    Map<Integer, Long> requestsByStatus,
    long promptTokens,
    long cachedPromptTokens,
    long generationTokens,
    int runningSequences,
    int waitingSequences,
    int cacheBlocks,
    int cacheCapacityBlocks,
    int blockSize,
    long connectionsAccepted,
    long cancelledRequests,
    long reasoningTokens) {

  /**
   * Copies the map, so the snapshot cannot change.
   *
   * @throws NullPointerException if {@code requestsByStatus} is null
   */
  public SimulatorStats {
    requestsByStatus =
        java.util.Collections.unmodifiableMap(new java.util.TreeMap<>(requestsByStatus));
  }

  /**
   * Requests answered with one status.
   *
   * @param status an HTTP status, e.g. 200
   * @return the number of such requests, 0 if none
   */
  public long requests(int status) {
    return requestsByStatus.getOrDefault(status, 0L);
  }

  /**
   * The share of the prefix cache in use.
   *
   * @return cached blocks / capacity, 0 when the cache is off
   */
  public double cacheUsage() {
    return cacheCapacityBlocks == 0 ? 0 : (double) cacheBlocks / cacheCapacityBlocks;
  }
}
