package io.github.gatlingllm.prompt;

import java.util.Map;
import java.util.Objects;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.LinkedBlockingQueue;
import java.util.concurrent.ThreadPoolExecutor;
import java.util.concurrent.TimeUnit;
import java.util.function.LongFunction;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. Builds a source's next prompts ahead of their use, on one daemon thread ({@value
 * #THREAD_NAME}, shared by every source of the JVM), so that the thread that hands a prompt out (a
 * feeder on a Netty event loop, at the request's due time) finds it built rather than building a
 * trace row's 87,000 tokens itself while the next rows of a burst wait. Each prompt built ahead
 * carries its text already as a JSON string in UTF-8 ({@link Prompt#prepareJson}), so that its
 * request body is not escaped nor encoded at the due time either: one byte a char of an ASCII
 * prompt (more for escapes and text outside ASCII, up to 3 bytes a char), kept only while the
 * prompt is ahead and until its body is written.
 *
 * <p>A prompt is a function of its request index alone, so building it on another thread, earlier,
 * gives the same text and digest. A prompt built ahead is not handed out: the source records its
 * digest only when it is taken ({@link #take}), so a prompt built past the end of a budget is in no
 * digest. At most {@code depth} prompts are kept built (plus any whose index was taken while it was
 * being built, dropped at the next batch); the indices ahead follow the stride of the last two
 * taken (a shard takes every n-th index). Indices are expected to be taken in ascending order, as a
 * workload hands them out; one taken out of order is built by its taker.
 *
 * <p>A build that fails ahead (an index past a file's or a trace's end) is dropped silently: the
 * index is built again, and fails loudly, if it is ever taken. Thread-safe.
 */
final class PromptLookahead {

  private static final Logger LOG = LoggerFactory.getLogger(PromptLookahead.class);

  /** The builder thread's name. */
  static final String THREAD_NAME = "gatling-llm-prompts";

  /** The largest stride followed; a larger jump between two taken indices counts as stride 1. */
  static final long MAX_STRIDE = 1024;

  private static final class Builder {
    static final ExecutorService EXECUTOR =
        new ThreadPoolExecutor(
            1,
            1,
            0,
            TimeUnit.MILLISECONDS,
            new LinkedBlockingQueue<>(),
            r -> {
              Thread t = new Thread(r, THREAD_NAME);
              t.setDaemon(true);
              return t;
            });
  }

  private final LongFunction<Prompt> build;
  private final int depth;
  private final Map<Long, Prompt> built = new ConcurrentHashMap<>();
  private long lastTaken = Long.MIN_VALUE;
  private long stride = 1;
  // The highest index a batch was queued for; under this object's lock.
  private long aheadTo = Long.MIN_VALUE;

  /**
   * A lookahead over a source's builds.
   *
   * @param build the prompt of an index, thread-safe, never null
   * @param depth how many prompts to keep built ahead, at least 1
   * @throws IllegalArgumentException if {@code depth} is below 1
   */
  PromptLookahead(LongFunction<Prompt> build, int depth) {
    if (depth < 1) {
      throw new IllegalArgumentException("depth must be at least 1, got " + depth);
    }
    this.build = Objects.requireNonNull(build, "build");
    this.depth = depth;
  }

  /**
   * The prompt of an index if it was built ahead (it is then dropped from the lookahead), and
   * queues the next ones when fewer than half the depth are left ahead.
   *
   * @param index the request index being handed out
   * @return the prompt built ahead, or null: build it yourself
   */
  Prompt take(long index) {
    Prompt prompt = built.remove(index);
    long from;
    long to;
    long step;
    synchronized (this) {
      if (lastTaken != Long.MIN_VALUE && index > lastTaken && index - lastTaken <= MAX_STRIDE) {
        stride = index - lastTaken;
      }
      lastTaken = Math.max(lastTaken, index);
      step = stride;
      long last = index + step * depth;
      if (aheadTo != Long.MIN_VALUE && aheadTo >= index + step * (depth / 2)) {
        return prompt;
      }
      from = Math.max(aheadTo == Long.MIN_VALUE ? index : aheadTo, index) + step;
      to = last;
      aheadTo = last;
    }
    queue(from, to, step);
    return prompt;
  }

  /**
   * Queues the first prompts of a source (indices {@code first}, {@code first + 1}, ... {@code
   * depth} of them), before the clock starts.
   *
   * @param first the first index the source will hand out
   */
  void start(long first) {
    synchronized (this) {
      if (aheadTo != Long.MIN_VALUE) {
        return;
      }
      aheadTo = first + depth - 1;
    }
    queue(first, first + depth - 1, 1);
  }

  /**
   * How many prompts are built and not taken (for tests).
   *
   * @return the count
   */
  int builtCount() {
    return built.size();
  }

  /**
   * Waits until every queued batch is built (for tests and benchmarks).
   *
   * @throws Exception if interrupted
   */
  static void awaitIdle() throws Exception {
    Builder.EXECUTOR.submit(() -> {}).get();
  }

  private synchronized long passed() {
    return lastTaken;
  }

  private void queue(long from, long to, long step) {
    if (from > to) {
      return;
    }
    try {
      Builder.EXECUTOR.execute(
          () -> {
            // Drop what was passed over (taken meanwhile, built by its taker): never taken now.
            long passed = passed();
            built.keySet().removeIf(i -> i <= passed);
            for (long i = from; i <= to; i += step) {
              if (i <= passed()) {
                continue;
              }
              try {
                Prompt prompt = build.apply(i);
                // Its body's JSON string too: the largest part of the body's work at send time.
                prompt.prepareJson();
                built.putIfAbsent(i, prompt);
              } catch (RuntimeException e) {
                LOG.debug("prompt {} not built ahead: {}", i, e.toString());
                return;
              }
            }
          });
    } catch (java.util.concurrent.RejectedExecutionException e) {
      LOG.debug("prompts not built ahead: {}", e.toString());
    }
  }
}
