package io.github.gatlingllm.simulator;

import java.util.EnumMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.SplittableRandom;
import java.util.concurrent.atomic.AtomicLongArray;

/**
 * A {@link ResponseStrategy} that answers a seeded share of requests with a fault and the rest as
 * another strategy does, counting each fault it injects. For soak and resilience tests of a client.
 *
 * <p>Whether request {@code id} gets a fault, and which, depends only on the seed and the id
 * ({@link GenerationRequest#id()}, 1, 2, 3, ... in arrival order): the draw uses its own {@link
 * SplittableRandom} seeded with {@code seed ^ (id * golden ratio)}, so no state is shared between
 * the simulator's network threads. A faulty request first draws whether it fails (probability
 * {@code faultRate}), then one of the {@link Fault kinds} with equal probability.
 *
 * <p>Thread-safe.
 */
public final class FaultInjectingStrategy implements ResponseStrategy {

  /** A fault the strategy can inject into a streamed request. */
  public enum Fault {
    /**
     * The strategy throws: the simulator closes the connection after the stream's head, before any
     * event (a streamed request sees a stream that ended without any event; a non-streamed one gets
     * HTTP 500).
     */
    ABORT,
    /**
     * One chunk, due {@code stallMs} after admission: a client whose timeout is shorter gives up
     * first.
     */
    STALL
  }

  private static final long GOLDEN = 0x9E3779B97F4A7C15L;

  private final ResponseStrategy normal;
  private final double faultRate;
  private final long seed;
  private final long stallNanos;
  private final AtomicLongArray injected = new AtomicLongArray(Fault.values().length);

  /**
   * A strategy that injects faults into a share of requests.
   *
   * @param normal the strategy for requests without a fault, never null
   * @param faultRate the share of requests with a fault, in [0, 1]
   * @param seed the seed of the draws
   * @param stallMs how long a {@link Fault#STALL} request waits before its one chunk, in
   *     milliseconds, at least 1
   * @throws IllegalArgumentException if {@code faultRate} or {@code stallMs} is out of range
   */
  public FaultInjectingStrategy(
      ResponseStrategy normal, double faultRate, long seed, long stallMs) {
    this.normal = Objects.requireNonNull(normal, "normal");
    if (!(faultRate >= 0 && faultRate <= 1)) {
      throw new IllegalArgumentException("faultRate must be in [0, 1], got " + faultRate);
    }
    if (stallMs < 1) {
      throw new IllegalArgumentException("stallMs must be >= 1 (milliseconds), got " + stallMs);
    }
    this.faultRate = faultRate;
    this.seed = seed;
    this.stallNanos = stallMs * 1_000_000L;
  }

  /**
   * The fault drawn for a request id, or null for none; the same for the same seed and id.
   *
   * @param id the request id
   * @return the fault, or null
   */
  public Fault draw(long id) {
    SplittableRandom random = new SplittableRandom(seed ^ (id * GOLDEN));
    if (random.nextDouble() >= faultRate) {
      return null;
    }
    Fault[] kinds = Fault.values();
    return kinds[random.nextInt(kinds.length)];
  }

  @Override
  public List<PlannedChunk> plan(GenerationRequest request, SimulatorConfig config) {
    Fault fault = draw(request.id());
    if (fault == null) {
      return normal.plan(request, config);
    }
    injected.incrementAndGet(fault.ordinal());
    return switch (fault) {
      case ABORT -> throw new IllegalStateException("injected fault: abort");
      case STALL -> List.of(new PlannedChunk(stallNanos, 1, WordCycle.token(0)));
    };
  }

  /**
   * How many faults of each kind were injected so far.
   *
   * @return fault to count, every kind present, in declaration order
   */
  public Map<Fault, Long> injected() {
    Map<Fault, Long> counts = new EnumMap<>(Fault.class);
    for (Fault f : Fault.values()) {
      counts.put(f, injected.get(f.ordinal()));
    }
    return counts;
  }
}
