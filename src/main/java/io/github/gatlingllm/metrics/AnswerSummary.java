package io.github.gatlingllm.metrics;

import io.github.gatlingllm.stats.Distribution;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;

/**
 * The reasoning and cancellation figures of one group of requests ({@link GroupSummary#answer()}).
 * Distributions and sums cover {@link RequestStatus#OK} requests only, as every latency figure (see
 * {@link MetricsAggregator}); the cancellation counts cover every request.
 *
 * @param ttfoMs time to first output token (the first answer token after any reasoning) of
 *     successful streamed requests that answered
 * @param reasoningTokensPerRequest reasoning tokens of each successful request that reported or
 *     counted them (0 for a reply without reasoning)
 * @param reasoningTpotMs time per reasoning token of successful requests that reasoned
 * @param answerTpotMs time per answer token after the first, of successful requests
 * @param reasoningTokens reasoning tokens summed over successful requests whose reasoning and
 *     answer tokens are both known
 * @param answerTokens answer tokens summed over the same requests
 * @param reasoningRequests successful requests with at least one reasoning token
 * @param neverAnswered successful streamed requests that reasoned and never answered (null TTFO):
 *     status ok, since the stream ended well, but no answer
 * @param cancelChosen requests the run's cancellation chose ({@code cancel_after_ms} set), whatever
 *     their status
 * @param cancelled requests cancelled by the client (status {@code cancelled})
 * @param cancelledWithFirstToken cancelled requests that had received their first token
 */
public record AnswerSummary(
    Distribution ttfoMs,
    Distribution reasoningTokensPerRequest,
    Distribution reasoningTpotMs,
    Distribution answerTpotMs,
    long reasoningTokens,
    long answerTokens,
    long reasoningRequests,
    long neverAnswered,
    long cancelChosen,
    long cancelled,
    long cancelledWithFirstToken) {

  /** Nothing: a group summary from before these figures existed. */
  public static final AnswerSummary EMPTY =
      new AnswerSummary(
          Distribution.EMPTY,
          Distribution.EMPTY,
          Distribution.EMPTY,
          Distribution.EMPTY,
          0,
          0,
          0,
          0,
          0,
          0,
          0);

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if a distribution is null
   */
  public AnswerSummary {
    Objects.requireNonNull(ttfoMs, "ttfoMs");
    Objects.requireNonNull(reasoningTokensPerRequest, "reasoningTokensPerRequest");
    Objects.requireNonNull(reasoningTpotMs, "reasoningTpotMs");
    Objects.requireNonNull(answerTpotMs, "answerTpotMs");
  }

  /**
   * The share of output spent reasoning: {@code reasoningTokens / (reasoningTokens +
   * answerTokens)}.
   *
   * @return a share in [0, 1], or null when no output tokens are known
   */
  public Double reasoningShare() {
    long total = reasoningTokens + answerTokens;
    return total == 0 ? null : (double) reasoningTokens / total;
  }

  /**
   * The {@code reasoning} object of a group in {@code llm-run.json}: {@code requests_reasoning},
   * {@code never_answered}, {@code reasoning_tokens}, {@code answer_tokens}, {@code
   * reasoning_share}, {@code reasoning_tokens_per_request}, {@code reasoning_tpot_ms}, {@code
   * answer_tpot_ms}.
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  public Map<String, Object> reasoningRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("requests_reasoning", reasoningRequests);
    m.put("never_answered", neverAnswered);
    m.put("reasoning_tokens", reasoningTokens);
    m.put("answer_tokens", answerTokens);
    m.put("reasoning_share", reasoningShare());
    m.put("reasoning_tokens_per_request", reasoningTokensPerRequest.toRecord());
    m.put("reasoning_tpot_ms", reasoningTpotMs.toRecord());
    m.put("answer_tpot_ms", answerTpotMs.toRecord());
    return Collections.unmodifiableMap(m);
  }

  /**
   * The {@code cancellation} object of a group in {@code llm-run.json}: {@code chosen}, {@code
   * cancelled}, {@code completed_first} (chosen but ended before the delay), {@code
   * cancelled_after_first_token}.
   *
   * @return an ordered, unmodifiable map of JSON-ready values
   */
  public Map<String, Object> cancellationRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("chosen", cancelChosen);
    m.put("cancelled", cancelled);
    m.put("completed_first", Math.max(0, cancelChosen - cancelled));
    m.put("cancelled_after_first_token", cancelledWithFirstToken);
    return Collections.unmodifiableMap(m);
  }
}
