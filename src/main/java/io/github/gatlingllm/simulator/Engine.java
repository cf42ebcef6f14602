package io.github.gatlingllm.simulator;

import java.util.ArrayDeque;
import java.util.List;
import java.util.concurrent.atomic.AtomicLong;

/** The state one simulator shares between its connections. Thread-safe. */
final class Engine {

  final SimulatorConfig config;
  final ResponseStrategy strategy;
  final RequestParser parser;
  final PrefixCache cache;
  final Scheduler scheduler;
  final StoredResponses stored = new StoredResponses();
  final SimulatorMetrics metrics = new SimulatorMetrics();
  final long startedEpochSeconds = System.currentTimeMillis() / 1000;

  private final AtomicLong ids = new AtomicLong();
  private final ArrayDeque<ServedRequest> records = new ArrayDeque<>();

  Engine(SimulatorConfig config, ResponseStrategy strategy) {
    this.config = config;
    this.strategy = strategy;
    this.parser = new RequestParser(config, stored);
    this.cache = new PrefixCache(config.blockSize(), config.cacheBlocks());
    this.scheduler = new Scheduler(config.maxConcurrent());
  }

  /** The next request id: 1, 2, 3, ... */
  long nextId() {
    return ids.incrementAndGet();
  }

  /** Keeps a record, dropping the oldest beyond the configured capacity. */
  void record(ServedRequest record) {
    if (config.recordCapacity() == 0) {
      return;
    }
    synchronized (records) {
      if (records.size() == config.recordCapacity()) {
        records.pollFirst();
      }
      records.addLast(record);
    }
  }

  /** The records kept, oldest first. */
  List<ServedRequest> records() {
    synchronized (records) {
      return List.copyOf(records);
    }
  }

  SimulatorStats stats() {
    return metrics.snapshot(scheduler, cache, config);
  }
}
