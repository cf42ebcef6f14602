package io.github.gatlingllm.metrics;

import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.BiFunction;

/**
 * What one load level gave: the measured requests that started in it, aggregated as the run's (see
 * {@link MetricsAggregator}), with its rates per second of the level rather than of the requests'
 * own window.
 *
 * <p>Rates, as vLLM's {@code request_throughput} and {@code output_throughput} but over the level:
 * {@code requests_per_s} = successful requests that started in the level / its measured seconds;
 * {@code output_tokens_per_s} and {@code input_tokens_per_s} = their completion and prompt tokens /
 * the same seconds. A request that starts near the level's end finishes in the next one and still
 * counts here, one that started in the level before still counts there: in a steady level the two
 * even out, which a window from first start to last end (the run's) would not do on short levels.
 * The measured seconds run from the level's start, or from the end of the last warmup request that
 * started in it when there is one (warmup is never measured), to the level's end, or to the run's
 * end when the run stopped before it (an early stop, a spent prompt budget): the level is then
 * {@link #cutShort()}.
 *
 * @param index the level's place in the run, in start order, from 0
 * @param level the level, never null
 * @param summary its measured requests, as {@link MetricsAggregator#summary()}'s overall, never
 *     null
 * @param measuredFromMs when its measured time starts, epoch ms, in [start, end)
 * @param measuredToMs when it ends, epoch ms, in (measuredFromMs, end]
 */
public record LevelResult(
    int index, LoadLevel level, GroupSummary summary, long measuredFromMs, long measuredToMs) {

  /** Checks the values. */
  public LevelResult {
    Objects.requireNonNull(level, "level");
    Objects.requireNonNull(summary, "summary");
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
   * A level of its whole length.
   *
   * @param index the level's place in the run
   * @param level the level
   * @param summary its measured requests
   * @param measuredFromMs when its measured time starts
   */
  public LevelResult(int index, LoadLevel level, GroupSummary summary, long measuredFromMs) {
    this(index, level, summary, measuredFromMs, level.endMs());
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
   * Successful requests a second of the level.
   *
   * @return requests/s, at least 0
   */
  public double requestsPerS() {
    return summary.count(RequestStatus.OK) / durationS();
  }

  /**
   * Output tokens of the successful requests a second of the level.
   *
   * @return tokens/s, at least 0
   */
  public double outputTokensPerS() {
    return summary.completionTokens() / durationS();
  }

  /**
   * Prompt tokens of the successful requests a second of the level.
   *
   * @return tokens/s, at least 0
   */
  public double inputTokensPerS() {
    return summary.promptTokens() / durationS();
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
   * The JSON form of {@code llm-run.json}'s {@code levels} entries: {@code index}, {@code
   * scenario}, {@code kind}, {@code concurrency} (closed) or {@code rate} (open, users/s), {@code
   * start_ms}, {@code end_ms}, {@code duration_s}, {@code measured_from_ms} (only when a warmup
   * took the level's start), {@code measured_to_ms} and {@code cut_short: true} (only when the run
   * stopped before the level's end), then every field of {@link GroupSummary#toRecord()} with
   * {@code requests_per_s}, {@code output_tokens_per_s} and the goodput rates per second of the
   * level, then {@code input_tokens_per_s}, then {@code extra}'s fields.
   *
   * @param extra fields of the level's window (start ms, end ms), e.g. the client's schedule lag;
   *     may return null or an empty map; null for none
   * @return an ordered, unmodifiable map
   */
  public Map<String, Object> toRecord(BiFunction<Long, Long, Map<String, Object>> extra) {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("index", index);
    m.put("scenario", level.scenario());
    m.put("kind", level.kind());
    m.put(level.closed() ? "concurrency" : "rate", loadValue());
    m.put("start_ms", level.startMs());
    m.put("end_ms", level.endMs());
    m.put("duration_s", durationS());
    if (measuredFromMs != level.startMs()) {
      m.put("measured_from_ms", measuredFromMs);
    }
    if (cutShort()) {
      m.put("measured_to_ms", measuredToMs);
      m.put("cut_short", true);
    }
    m.putAll(summary.toRecord());
    m.put("requests_per_s", requestsPerS());
    m.put("output_tokens_per_s", outputTokensPerS());
    Goodput g = summary.goodput();
    if (g != null) {
      double s = durationS();
      Long start = summary.windowStartMs();
      Long end = summary.windowEndMs();
      double window = start == null ? 0 : (end - start) / 1000.0;
      Double tokens = g.outputTokensPerS() == null ? null : g.outputTokensPerS() * window;
      m.put(
          "goodput",
          new Goodput(
                  g.slo(),
                  g.offered(),
                  g.met(),
                  g.failed(),
                  g.missed(),
                  g.attainment(),
                  g.met() / s,
                  tokens == null ? (g.met() == 0 ? 0.0 : null) : tokens / s)
              .toRecord());
    }
    m.put("input_tokens_per_s", inputTokensPerS());
    if (extra != null) {
      Map<String, Object> more = extra.apply(level.startMs(), level.endMs());
      if (more != null) {
        m.putAll(more);
      }
    }
    return Collections.unmodifiableMap(m);
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
