package io.github.gatlingllm.metrics;

import com.fasterxml.jackson.annotation.JsonCreator;
import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonInclude;
import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.annotation.JsonValue;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import com.fasterxml.jackson.databind.node.JsonNodeFactory;
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

  /** No request: every count 0, every distribution empty, no goodput. */
  public static final GroupSummary EMPTY =
      new GroupSummary(
          null,
          null,
          0,
          Map.of(),
          0,
          0,
          null,
          0,
          null,
          null,
          null,
          null,
          Distribution.EMPTY,
          Distribution.EMPTY,
          Distribution.EMPTY,
          Distribution.EMPTY,
          Distribution.EMPTY,
          null,
          AnswerSummary.EMPTY);

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
   * The JSON form in {@code llm-run.json} ({@link Json}), as Jackson writes it.
   *
   * @return the form
   */
  @JsonValue
  public Json json() {
    Map<String, Long> byStatus = new LinkedHashMap<>();
    for (Map.Entry<RequestStatus, Long> e : statuses.entrySet()) {
      byStatus.put(e.getKey().wireName(), e.getValue());
    }
    return new Json(
        request,
        request == null
            ? null
            : phase == null
                ? JsonNodeFactory.instance.nullNode()
                : JsonNodeFactory.instance.textNode(phase),
        requests,
        byStatus,
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
        answer.ttfoMs(),
        answer.reasoning(),
        answer.cancelChosen() > 0 || answer.cancelled() > 0 ? answer.cancellation() : null);
  }

  /**
   * Reads the JSON form, as Jackson does. A file from an older version lacks some objects: a
   * missing distribution reads as {@link Distribution#EMPTY}, missing counts as 0, a missing status
   * as 0 requests, an unknown status is left out.
   *
   * @param json the form, never null
   * @return the summary
   */
  @JsonCreator
  public static GroupSummary of(Json json) {
    Map<RequestStatus, Long> statuses = new EnumMap<>(RequestStatus.class);
    if (json.status() != null) {
      for (RequestStatus s : RequestStatus.values()) {
        Long n = json.status().get(s.wireName());
        if (n != null) {
          statuses.put(s, n);
        }
      }
    }
    JsonNode phase = json.phase();
    return new GroupSummary(
        json.request(),
        phase == null || phase.isNull() ? null : phase.asText(),
        json.requests(),
        statuses,
        json.promptTokens(),
        json.cachedTokens(),
        json.cacheHitRatio(),
        json.completionTokens(),
        json.windowStartMs(),
        json.windowEndMs(),
        json.requestsPerS(),
        json.outputTokensPerS(),
        orEmpty(json.ttftMs()),
        orEmpty(json.itlMs()),
        orEmpty(json.tpotMs()),
        orEmpty(json.e2eMs()),
        orEmpty(json.outputTokensPerSPerRequest()),
        json.goodput(),
        AnswerSummary.of(json.ttfoMs(), json.reasoning(), json.cancellation()));
  }

  private static Distribution orEmpty(Distribution d) {
    return d == null ? Distribution.EMPTY : d;
  }

  /**
   * A group's object in {@code llm-run.json}, keys in this order: {@code request} and {@code phase}
   * (both left out of the overall summary; a group's null phase is written as null), {@code
   * requests}, {@code status} (an object keyed by wire name), {@code prompt_tokens}, {@code
   * cached_tokens}, {@code cache_hit_ratio}, {@code completion_tokens}, {@code window_start_ms},
   * {@code window_end_ms}, {@code requests_per_s}, {@code output_tokens_per_s}, {@code ttft_ms},
   * {@code itl_ms}, {@code tpot_ms}, {@code e2e_ms}, {@code output_tokens_per_s_per_request} (each
   * a {@link Distribution}), {@code goodput} ({@link Goodput}) when an SLO was set, then {@code
   * ttfo_ms} (a distribution), {@code reasoning} ({@link AnswerSummary.Reasoning}) and, when the
   * run cancelled requests, {@code cancellation} ({@link AnswerSummary.Cancellation}). Other nulls
   * are written. Read back, any field may be null (a file of an older version); unknown keys are
   * ignored.
   *
   * @param request the request name, or null (absent) for the overall summary
   * @param phase the phase as a JSON text or JSON null, or null (absent) for the overall summary
   * @param requests all requests seen
   * @param status requests per status wire name
   * @param promptTokens see {@link GroupSummary#promptTokens()}
   * @param cachedTokens see {@link GroupSummary#cachedTokens()}
   * @param cacheHitRatio see {@link GroupSummary#cacheHitRatio()}
   * @param completionTokens see {@link GroupSummary#completionTokens()}
   * @param windowStartMs see {@link GroupSummary#windowStartMs()}
   * @param windowEndMs see {@link GroupSummary#windowEndMs()}
   * @param requestsPerS see {@link GroupSummary#requestsPerS()}
   * @param outputTokensPerS see {@link GroupSummary#outputTokensPerS()}
   * @param ttftMs see {@link GroupSummary#ttftMs()}
   * @param itlMs see {@link GroupSummary#itlMs()}
   * @param tpotMs see {@link GroupSummary#tpotMs()}
   * @param e2eMs see {@link GroupSummary#e2eMs()}
   * @param outputTokensPerSPerRequest see {@link GroupSummary#outputTokensPerSPerRequest()}
   * @param goodput see {@link GroupSummary#goodput()}, null (absent) without an SLO
   * @param ttfoMs {@link AnswerSummary#ttfoMs()}
   * @param reasoning {@link AnswerSummary#reasoning()}
   * @param cancellation {@link AnswerSummary#cancellation()}, null (absent) when the run cancelled
   *     nothing
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "request",
    "phase",
    "requests",
    "status",
    "prompt_tokens",
    "cached_tokens",
    "cache_hit_ratio",
    "completion_tokens",
    "window_start_ms",
    "window_end_ms",
    "requests_per_s",
    "output_tokens_per_s",
    "ttft_ms",
    "itl_ms",
    "tpot_ms",
    "e2e_ms",
    "output_tokens_per_s_per_request",
    "goodput",
    "ttfo_ms",
    "reasoning",
    "cancellation"
  })
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Json(
      @JsonInclude(JsonInclude.Include.NON_NULL) String request,
      @JsonInclude(JsonInclude.Include.NON_NULL) JsonNode phase,
      long requests,
      Map<String, Long> status,
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
      @JsonProperty("output_tokens_per_s_per_request") Distribution outputTokensPerSPerRequest,
      @JsonInclude(JsonInclude.Include.NON_NULL) Goodput goodput,
      Distribution ttfoMs,
      AnswerSummary.Reasoning reasoning,
      @JsonInclude(JsonInclude.Include.NON_NULL) AnswerSummary.Cancellation cancellation) {}
}
