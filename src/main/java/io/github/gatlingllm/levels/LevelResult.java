package io.github.gatlingllm.levels;

import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.record.LevelEntry;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * What one load level gave: its latencies from the measured requests that started in it, its
 * throughput from what the server served during it.
 *
 * <p>Latencies and counts ({@code requests}, {@code status}, {@code ttft_ms}, {@code e2e_ms}...):
 * the measured requests that started in the level, aggregated as the run's (see {@link
 * MetricsAggregator}): the latency a user arriving at that load saw.
 *
 * <p>Throughput, as vLLM's {@code request_throughput} and {@code output_throughput} but over the
 * level's measured window, counting what was <em>served</em> in it whatever level the request
 * started in: {@code requests_per_s} = successful measured requests of the scenario that
 * <em>completed</em> in the window / its seconds; {@code output_tokens_per_s} = their output tokens
 * that <em>arrived</em> in the window (first token at start + TTFT, then one event per ITL: {@link
 * TokenArrivals}, the report's tokens-by-arrival chart's definition) / its seconds; {@code
 * input_tokens_per_s} = prompt tokens of the successful requests whose first token (prefill done)
 * arrived in the window, or whose body did when not streamed / its seconds. In an open loop past
 * the server's capacity, the requests started in a level (the offered load, {@code
 * offered_requests_per_s}) outrun what completes; counting by start would report the offered load
 * as throughput. The measured window runs from the level's start, or from the end of the last
 * warmup request that started in it when there is one (warmup is never measured), to the level's
 * end, or to the run's end when the run stopped before it (an early stop, a spent prompt budget):
 * the level is then {@link #cutShort()}.
 *
 * @param index the level's place in the run, in start order over every scenario, from 0
 * @param scenarioIndex its place among its scenario's levels, from 0
 * @param level the level, never null
 * @param summary its measured requests (by start), as {@link MetricsAggregator#summary()}'s
 *     overall, never null
 * @param measuredFromMs when its measured time starts, epoch ms, in [start, end)
 * @param measuredToMs when it ends, epoch ms, in (measuredFromMs, end]
 * @param served what the server served in the measured window, never null
 */
public record LevelResult(
    int index,
    int scenarioIndex,
    LoadLevel level,
    GroupSummary summary,
    long measuredFromMs,
    long measuredToMs,
    Served served) {

  /**
   * What the server served during a level's measured window (see the class comment).
   *
   * @param completed successful measured requests that completed in it
   * @param outputTokens their output tokens that arrived in it (fractional: a request's tokens are
   *     shared among its events)
   * @param inputTokens prompt tokens of the successful requests whose first token arrived in it
   */
  public record Served(long completed, double outputTokens, double inputTokens) {}

  /** Checks the values. */
  public LevelResult {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(summary, "summary");
    Objects.requireNonNull(served, "served");
    if (measuredFromMs < level.startMs() || measuredFromMs >= level.endMs()) {
      throw new IllegalArgumentException(
          "level "
              + index
              + ": measuredFromMs "
              + measuredFromMs
              + " must be in ["
              + level.startMs()
              + ", "
              + level.endMs()
              + ")");
    }
    if (measuredToMs <= measuredFromMs || measuredToMs > level.endMs()) {
      throw new IllegalArgumentException(
          "level "
              + index
              + ": measuredToMs "
              + measuredToMs
              + " must be in ("
              + measuredFromMs
              + ", "
              + level.endMs()
              + "]");
    }
  }

  /**
   * A level of its whole length whose requests all started, ran and ended in it (a steady closed
   * level): what it served is what its requests gave.
   *
   * @param index the level's place in the run, and in its scenario
   * @param level the level
   * @param summary its measured requests
   * @param measuredFromMs when its measured time starts
   */
  public LevelResult(int index, LoadLevel level, GroupSummary summary, long measuredFromMs) {
    this(
        index,
        index,
        level,
        summary,
        measuredFromMs,
        level.endMs(),
        new Served(
            summary.count(RequestStatus.OK), summary.completionTokens(), summary.promptTokens()));
  }

  /**
   * Whether the run stopped before the level's end.
   *
   * @return true when {@code measuredToMs} is before the level's end
   */
  public boolean cutShort() {
    return measuredToMs < level.endMs();
  }

  /**
   * The measured length of the level.
   *
   * @return seconds, more than 0
   */
  public double durationS() {
    return (measuredToMs - measuredFromMs) / 1000.0;
  }

  /**
   * Successful requests completed a second of the level's measured window (served, see the class
   * comment).
   *
   * @return requests/s, at least 0
   */
  public double requestsPerS() {
    return served.completed() / durationS();
  }

  /**
   * Output tokens that arrived a second of the level's measured window (served).
   *
   * @return tokens/s, at least 0
   */
  public double outputTokensPerS() {
    return served.outputTokens() / durationS();
  }

  /**
   * Prompt tokens prefilled a second of the level's measured window (served).
   *
   * @return tokens/s, at least 0
   */
  public double inputTokensPerS() {
    return served.inputTokens() / durationS();
  }

  /**
   * Measured requests that started a second of the level's measured window: the offered load (open
   * loops: the arrival rate the injector reached).
   *
   * @return requests/s, at least 0
   */
  public double offeredRequestsPerS() {
    return summary.requests() / durationS();
  }

  /**
   * The share of the level's requests that did not succeed.
   *
   * @return in [0, 1]; 0 when the level has no request
   */
  public double errorRatio() {
    long n = summary.requests();
    return n == 0 ? 0 : (double) (n - summary.count(RequestStatus.OK)) / n;
  }

  /**
   * The level's SLO attainment: the share of its requests that met the SLO.
   *
   * @return in [0, 1], or null when no SLO is set or the level has no request
   */
  public Double attainment() {
    return summary.goodput() == null ? null : summary.goodput().attainment();
  }

  /**
   * {@code llm-run.json}'s {@code levels} entry of this level ({@link LevelEntry}, which gives the
   * keys and their order): {@code index} (over every scenario, in start order), {@code scenario},
   * {@code kind}, {@code concurrency} (closed) or {@code rate} (open, users/s), {@code start_ms},
   * {@code end_ms}, {@code duration_s}, {@code measured_from_ms} (only when a warmup took the
   * level's start), {@code measured_to_ms} and {@code cut_short: true} (only when the run stopped
   * before the level's end), then the level's {@link GroupSummary.Json} with {@code
   * requests_per_s}, {@code output_tokens_per_s} and the goodput rates per second of the level
   * (served: see the class comment; {@code requests} and {@code status} count the requests that
   * started in it), then {@code input_tokens_per_s}, {@code scenario_index}, {@code
   * offered_requests_per_s} (started / s), {@code completed_requests} (successful requests
   * completed in the window), then the client's figures over the level's window.
   *
   * @param client the client's figures of the level's window (start ms, end ms): its schedule lag
   *     and CPU share; null for none
   * @return the entry, never null
   */
  public LevelEntry entry(BiFunction<Long, Long, LevelEntry.Client> client) {
    GroupSummary.Json s = summary.json();
    Goodput g = summary.goodput();
    Goodput goodput = null;
    if (g != null) {
      double d = durationS();
      Long start = summary.windowStartMs();
      Long end = summary.windowEndMs();
      double window = start == null ? 0 : (end - start) / 1000.0;
      Double tokens = g.outputTokensPerS() == null ? null : g.outputTokensPerS() * window;
      goodput =
          new Goodput(
              g.slo(),
              g.offered(),
              g.met(),
              g.failed(),
              g.missed(),
              g.attainment(),
              g.met() / d,
              tokens == null ? (g.met() == 0 ? 0.0 : null) : tokens / d);
    }
    GroupSummary.Json json =
        new GroupSummary.Json(
            s.request(),
            s.phase(),
            s.requests(),
            s.status(),
            s.promptTokens(),
            s.cachedTokens(),
            s.cacheHitRatio(),
            s.completionTokens(),
            s.windowStartMs(),
            s.windowEndMs(),
            requestsPerS(),
            outputTokensPerS(),
            s.ttftMs(),
            s.itlMs(),
            s.tpotMs(),
            s.e2eMs(),
            s.outputTokensPerSPerRequest(),
            goodput,
            s.ttfoMs(),
            s.reasoning(),
            s.cancellation());
    Number load = loadValue();
    return new LevelEntry(
        index,
        level.scenario(),
        level.kind(),
        level.closed() ? load : null,
        level.closed() ? null : load,
        level.startMs(),
        level.endMs(),
        durationS(),
        measuredFromMs != level.startMs() ? measuredFromMs : null,
        cutShort() ? measuredToMs : null,
        cutShort() ? Boolean.TRUE : null,
        json,
        inputTokensPerS(),
        scenarioIndex,
        offeredRequestsPerS(),
        served.completed(),
        client == null ? null : client.apply(level.startMs(), level.endMs()),
        null);
  }

  /**
   * The level's load as a JSON number: a whole number of users, or users/s.
   *
   * @return a {@link Long} when whole, else a {@link Double}
   */
  public Number loadValue() {
    double v = level.load();
    return v == Math.rint(v) ? (Number) (long) v : (Number) v;
  }
}
