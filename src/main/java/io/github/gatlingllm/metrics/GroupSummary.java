package io.github.gatlingllm.metrics;

import io.github.gatlingllm.stats.Distribution;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The aggregate of one (request name, phase) pair, or of all requests ({@code request} and {@code
 * phase} null). See {@link MetricsAggregator} for which requests count where.
 *
 * @param request the request name, or null for the overall summary
 * @param phase the phase, or null (overall summary, or requests without a phase)
 * @param requests all requests seen, whatever their status
 * @param statuses requests per status, every status present (0 when none); unmodifiable
 * @param promptTokens prompt tokens summed over successful requests that reported them
 * @param cachedTokens cached prompt tokens summed over successful requests that reported them
 * @param cacheHitRatio {@code cachedTokens} over the prompt tokens of the successful requests that
 *     reported cached tokens; null when none did or those prompt tokens sum to 0
 * @param completionTokens output tokens summed over successful requests
 * @param windowStartMs the first request start, epoch ms, or null if no request
 * @param windowEndMs the last request end (start + E2E), epoch ms, or null
 * @param requestsPerS successful requests per second of the window, or null if the window is empty
 * @param outputTokensPerS {@code completionTokens} per second of the window (vLLM's {@code
 *     output_throughput}), or null
 * @param ttftMs time to first token of successful streamed requests
 * @param itlMs every inter-token latency of successful requests
 * @param tpotMs time per output token of successful requests
 * @param e2eMs end-to-end latency of successful requests
 * @param outputTokensPerSPerRequest each successful request's own output tokens per second
 * @param goodput SLO attainment and goodput, or null when no SLO was set
 * @param answer the reasoning and cancellation figures (TTFO, reasoning tokens, cancelled
 *     requests); {@link AnswerSummary#EMPTY} when null
 */
public record GroupSummary(
    String request,
    String phase,
    long requests,
    Map<RequestStatus, Long> statuses,
    long promptTokens,
    long cachedTokens,
    Double cacheHitRatio,
    long completionTokens,
    Long windowStartMs,
    Long windowEndMs,
    Double requestsPerS,
    Double outputTokensPerS,
    Distribution ttftMs,
    Distribution itlMs,
    Distribution tpotMs,
    Distribution e2eMs,
    Distribution outputTokensPerSPerRequest,
    Goodput goodput,
    AnswerSummary answer) {

  /**
   * A summary without reasoning and cancellation figures ({@link AnswerSummary#EMPTY}).
   *
   * @throws NullPointerException if {@code statuses} or a distribution is null
   */
  public GroupSummary(
      String request,
      String phase,
      long requests,
      Map<RequestStatus, Long> statuses,
      long promptTokens,
      long cachedTokens,
      Double cacheHitRatio,
      long completionTokens,
      Long windowStartMs,
      Long windowEndMs,
      Double requestsPerS,
      Double outputTokensPerS,
      Distribution ttftMs,
      Distribution itlMs,
      Distribution tpotMs,
      Distribution e2eMs,
      Distribution outputTokensPerSPerRequest,
      Goodput goodput) {
    this(
        request,
        phase,
        requests,
        statuses,
        promptTokens,
        cachedTokens,
        cacheHitRatio,
        completionTokens,
        windowStartMs,
        windowEndMs,
        requestsPerS,
        outputTokensPerS,
        ttftMs,
        itlMs,
        tpotMs,
        e2eMs,
        outputTokensPerSPerRequest,
        goodput,
        AnswerSummary.EMPTY);
  }

  /**
   * Checks the fields and copies {@code statuses}.
   *
   * @throws NullPointerException if {@code statuses} or a distribution is null
   */
  public GroupSummary {
    Map<RequestStatus, Long> copy = new EnumMap<>(RequestStatus.class);
    for (RequestStatus s : RequestStatus.values()) {
      copy.put(s, Objects.requireNonNull(statuses, "statuses").getOrDefault(s, 0L));
    }
    statuses = Collections.unmodifiableMap(copy);
    Objects.requireNonNull(ttftMs, "ttftMs");
    Objects.requireNonNull(itlMs, "itlMs");
    Objects.requireNonNull(tpotMs, "tpotMs");
    Objects.requireNonNull(e2eMs, "e2eMs");
    Objects.requireNonNull(outputTokensPerSPerRequest, "outputTokensPerSPerRequest");
    answer = answer == null ? AnswerSummary.EMPTY : answer;
  }

  /**
   * The count of one status.
   *
   * @param status the status
   * @return the number of requests that ended so
   */
  public long count(RequestStatus status) {
    return statuses.get(status);
  }

  /**
   * The JSON form, keys in this order: {@code request}, {@code phase} (both left out of the overall
   * summary), {@code requests}, {@code status} (an object keyed by wire name), {@code
   * prompt_tokens}, {@code cached_tokens}, {@code cache_hit_ratio}, {@code completion_tokens},
   * {@code window_start_ms}, {@code window_end_ms}, {@code requests_per_s}, {@code
   * output_tokens_per_s}, {@code ttft_ms}, {@code itl_ms}, {@code tpot_ms}, {@code e2e_ms}, {@code
   * output_tokens_per_s_per_request} (each a {@link Distribution#toRecord()}), and {@code goodput}
   * ({@link Goodput#toRecord()}) when an SLO was set, then {@code ttfo_ms} (a distribution), {@code
   * reasoning} ({@link AnswerSummary#reasoningRecord()}) and, when the run cancelled requests,
   * {@code cancellation} ({@link AnswerSummary#cancellationRecord()}).
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    if (request != null) {
      m.put("request", request);
      m.put("phase", phase);
    }
    m.put("requests", requests);
    Map<String, Object> byStatus = new LinkedHashMap<>();
    for (Map.Entry<RequestStatus, Long> e : statuses.entrySet()) {
      byStatus.put(e.getKey().wireName(), e.getValue());
    }
    m.put("status", Collections.unmodifiableMap(byStatus));
    m.put("prompt_tokens", promptTokens);
    m.put("cached_tokens", cachedTokens);
    m.put("cache_hit_ratio", cacheHitRatio);
    m.put("completion_tokens", completionTokens);
    m.put("window_start_ms", windowStartMs);
    m.put("window_end_ms", windowEndMs);
    m.put("requests_per_s", requestsPerS);
    m.put("output_tokens_per_s", outputTokensPerS);
    m.put("ttft_ms", ttftMs.toRecord());
    m.put("itl_ms", itlMs.toRecord());
    m.put("tpot_ms", tpotMs.toRecord());
    m.put("e2e_ms", e2eMs.toRecord());
    m.put("output_tokens_per_s_per_request", outputTokensPerSPerRequest.toRecord());
    if (goodput != null) {
      m.put("goodput", goodput.toRecord());
    }
    m.put("ttfo_ms", answer.ttfoMs().toRecord());
    m.put("reasoning", answer.reasoningRecord());
    if (answer.cancelChosen() > 0 || answer.cancelled() > 0) {
      m.put("cancellation", answer.cancellationRecord());
    }
    return Collections.unmodifiableMap(m);
  }
}
