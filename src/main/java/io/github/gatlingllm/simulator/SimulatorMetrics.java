package io.github.gatlingllm.simulator;

import java.math.BigDecimal;
import java.util.Map;
import java.util.TreeMap;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.atomic.LongAdder;

/** The simulator's counters, and their Prometheus text. Thread-safe. */
final class SimulatorMetrics {

  static final String PREFIX = "gatling_llm_simulator_";

  private final Map<Integer, LongAdder> requests = new ConcurrentHashMap<>();
  private final LongAdder promptTokens = new LongAdder();
  private final LongAdder cachedPromptTokens = new LongAdder();
  private final LongAdder generationTokens = new LongAdder();
  private final LongAdder connections = new LongAdder();
  private final LongAdder cancelled = new LongAdder();
  private final LongAdder reasoningTokens = new LongAdder();

  /** A request whose client went away before its end: its generation stopped, its slot freed. */
  void cancelled() {
    cancelled.increment();
  }

  void reasoning(int tokens) {
    reasoningTokens.add(tokens);
  }

  void request(int status) {
    requests.computeIfAbsent(status, s -> new LongAdder()).increment();
  }

  void admitted(int prompt, int cached) {
    promptTokens.add(prompt);
    cachedPromptTokens.add(cached);
  }

  void generated(int tokens) {
    generationTokens.add(tokens);
  }

  void connectionAccepted() {
    connections.increment();
  }

  SimulatorStats snapshot(Scheduler scheduler, PrefixCache cache, SimulatorConfig config) {
    Map<Integer, Long> byStatus = new TreeMap<>();
    requests.forEach((status, count) -> byStatus.put(status, count.sum()));
    return new SimulatorStats(
        byStatus,
        promptTokens.sum(),
        cachedPromptTokens.sum(),
        generationTokens.sum(),
        scheduler.running(),
        scheduler.waiting(),
        cache.size(),
        config.cacheBlocks(),
        config.blockSize(),
        connections.sum(),
        cancelled.sum(),
        reasoningTokens.sum());
  }

  /** The Prometheus text exposition (format 0.0.4) of a snapshot. */
  static String prometheus(SimulatorStats stats) {
    StringBuilder text = new StringBuilder(1024);
    header(
        text,
        "requests_total",
        "counter",
        "Requests to /v1/chat/completions, /v1/completions, /v1/responses and /v1/messages, by HTTP status.");
    stats
        .requestsByStatus()
        .forEach(
            (status, count) ->
                text.append(PREFIX)
                    .append("requests_total{status=\"")
                    .append(status)
                    .append("\"} ")
                    .append(count)
                    .append('\n'));
    sample(
        text,
        "prompt_tokens_total",
        "counter",
        "Prompt tokens of admitted requests.",
        stats.promptTokens());
    sample(
        text,
        "cached_prompt_tokens_total",
        "counter",
        "Prompt tokens served from the prefix cache.",
        stats.cachedPromptTokens());
    sample(
        text,
        "generation_tokens_total",
        "counter",
        "Output tokens produced.",
        stats.generationTokens());
    sample(
        text,
        "connections_total",
        "counter",
        "TCP connections accepted.",
        stats.connectionsAccepted());
    sample(
        text,
        "cancelled_requests_total",
        "counter",
        "Requests whose client went away before their end: generation stopped, slot freed.",
        stats.cancelledRequests());
    sample(
        text,
        "reasoning_tokens_total",
        "counter",
        "Output tokens produced as reasoning (reasoning mode).",
        stats.reasoningTokens());
    sample(
        text, "running_sequences", "gauge", "Sequences generating now.", stats.runningSequences());
    sample(
        text,
        "waiting_sequences",
        "gauge",
        "Sequences waiting for a free slot.",
        stats.waitingSequences());
    sample(text, "cache_blocks", "gauge", "Prefix-cache blocks held now.", stats.cacheBlocks());
    sample(
        text,
        "cache_capacity_blocks",
        "gauge",
        "Prefix-cache capacity, in blocks (0: no cache).",
        stats.cacheCapacityBlocks());
    sample(
        text,
        "cache_block_size_tokens",
        "gauge",
        "Prefix-cache block size, in tokens.",
        stats.blockSize());
    header(
        text,
        "cache_usage_ratio",
        "gauge",
        "Prefix-cache blocks held / capacity (0 to 1; 0 without a cache).");
    text.append(PREFIX)
        .append("cache_usage_ratio ")
        .append(BigDecimal.valueOf(stats.cacheUsage()).stripTrailingZeros().toPlainString())
        .append('\n');
    return text.toString();
  }

  private static void header(StringBuilder text, String name, String type, String help) {
    text.append("# HELP ").append(PREFIX).append(name).append(' ').append(help).append('\n');
    text.append("# TYPE ").append(PREFIX).append(name).append(' ').append(type).append('\n');
  }

  private static void sample(
      StringBuilder text, String name, String type, String help, long value) {
    header(text, name, type, help);
    text.append(PREFIX).append(name).append(' ').append(value).append('\n');
  }
}
