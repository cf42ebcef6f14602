package io.github.gatlingllm.metrics;

import com.fasterxml.jackson.annotation.JsonIgnoreProperties;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import com.fasterxml.jackson.databind.PropertyNamingStrategies;
import com.fasterxml.jackson.databind.annotation.JsonNaming;
import io.github.gatlingllm.stats.Distribution;
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
   * The {@code reasoning} object of a group in {@code llm-run.json}.
   *
   * @return the reasoning figures
   */
  public Reasoning reasoning() {
    return new Reasoning(
        reasoningRequests,
        neverAnswered,
        reasoningTokens,
        answerTokens,
        reasoningShare(),
        reasoningTokensPerRequest,
        reasoningTpotMs,
        answerTpotMs);
  }

  /**
   * The {@code cancellation} object of a group in {@code llm-run.json}.
   *
   * @return the cancellation counts
   */
  public Cancellation cancellation() {
    return new Cancellation(
        cancelChosen, cancelled, Math.max(0, cancelChosen - cancelled), cancelledWithFirstToken);
  }

  /**
   * A summary from its parts in {@code llm-run.json}.
   *
   * @param ttfoMs the TTFO distribution, or null ({@link Distribution#EMPTY}: a file from before
   *     TTFO)
   * @param reasoning the reasoning figures, or null (zeros and empty distributions)
   * @param cancellation the cancellation counts, or null (none: a run that cancelled nothing)
   * @return the summary
   */
  public static AnswerSummary of(
      Distribution ttfoMs, Reasoning reasoning, Cancellation cancellation) {
    Reasoning r = reasoning == null ? EMPTY.reasoning() : reasoning;
    Cancellation c = cancellation == null ? EMPTY.cancellation() : cancellation;
    return new AnswerSummary(
        ttfoMs == null ? Distribution.EMPTY : ttfoMs,
        orEmpty(r.reasoningTokensPerRequest()),
        orEmpty(r.reasoningTpotMs()),
        orEmpty(r.answerTpotMs()),
        r.reasoningTokens(),
        r.answerTokens(),
        r.requestsReasoning(),
        r.neverAnswered(),
        c.chosen(),
        c.cancelled(),
        c.cancelledAfterFirstToken());
  }

  private static Distribution orEmpty(Distribution d) {
    return d == null ? Distribution.EMPTY : d;
  }

  /**
   * The {@code reasoning} object of a group in {@code llm-run.json}, written and read by Jackson in
   * this order (nulls written). Distributions are null only when read from a file that lacks them.
   *
   * @param requestsReasoning successful requests with at least one reasoning token
   * @param neverAnswered successful streamed requests that reasoned and never answered
   * @param reasoningTokens reasoning tokens summed (see {@link AnswerSummary#reasoningTokens()})
   * @param answerTokens answer tokens summed over the same requests
   * @param reasoningShare {@link AnswerSummary#reasoningShare()}, or null
   * @param reasoningTokensPerRequest reasoning tokens of each successful request
   * @param reasoningTpotMs time per reasoning token, milliseconds
   * @param answerTpotMs time per answer token after the first, milliseconds
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({
    "requests_reasoning",
    "never_answered",
    "reasoning_tokens",
    "answer_tokens",
    "reasoning_share",
    "reasoning_tokens_per_request",
    "reasoning_tpot_ms",
    "answer_tpot_ms"
  })
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Reasoning(
      long requestsReasoning,
      long neverAnswered,
      long reasoningTokens,
      long answerTokens,
      Double reasoningShare,
      Distribution reasoningTokensPerRequest,
      Distribution reasoningTpotMs,
      Distribution answerTpotMs) {}

  /**
   * The {@code cancellation} object of a group in {@code llm-run.json}, written and read by Jackson
   * in this order.
   *
   * @param chosen requests the run's cancellation chose, whatever their status
   * @param cancelled requests cancelled by the client
   * @param completedFirst chosen requests that ended before their delay ({@code chosen -
   *     cancelled}, at least 0)
   * @param cancelledAfterFirstToken cancelled requests that had received their first token
   */
  @JsonNaming(PropertyNamingStrategies.SnakeCaseStrategy.class)
  @JsonPropertyOrder({"chosen", "cancelled", "completed_first", "cancelled_after_first_token"})
  @JsonIgnoreProperties(ignoreUnknown = true)
  public record Cancellation(
      long chosen, long cancelled, long completedFirst, long cancelledAfterFirstToken) {}
}
