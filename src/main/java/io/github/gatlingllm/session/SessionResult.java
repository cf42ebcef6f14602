package io.github.gatlingllm.session;

import java.util.Objects;

/**
 * One ended agent session's figures ({@link SessionTally#finish}).
 *
 * @param end how it ended, never null
 * @param requests the turns it sent (each one request), at least 0
 * @param toolCalls the tool calls its replies made, at least 0
 * @param malformedToolCalls those whose arguments were not one JSON object, at least 0
 * @param startMs its first turn's send, epoch milliseconds (Gatling's clock); -1 when it sent
 *     nothing
 * @param durationMs from its first turn's send to its last reply's end (tool latency and think time
 *     included) or to the moment it ended without a reply, milliseconds; -1 when it sent nothing
 * @param promptTokens its turns' prompt tokens, summed
 * @param completionTokens its turns' completion tokens, summed
 * @param plannedCacheRatio its planned cached tokens over its prompt tokens, in [0, 1]; null
 *     without prompt tokens or when a turn had no plan
 * @param observedCacheRatio its cached tokens (as the server reported them) over its prompt tokens,
 *     in [0, 1]; null without prompt tokens or when a turn's server reported none
 */
public record SessionResult(
    SessionEnd end,
    int requests,
    int toolCalls,
    int malformedToolCalls,
    long startMs,
    long durationMs,
    long promptTokens,
    long completionTokens,
    Double plannedCacheRatio,
    Double observedCacheRatio) {

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if {@code end} is null
   * @throws IllegalArgumentException if a count is negative
   */
  public SessionResult {
    Objects.requireNonNull(end, "end");
    if (requests < 0
        || toolCalls < 0
        || malformedToolCalls < 0
        || promptTokens < 0
        || completionTokens < 0
        || durationMs < -1) {
      throw new IllegalArgumentException(
          "session counts must be >= 0 (duration -1 for none), got requests "
              + requests
              + ", tool calls "
              + toolCalls
              + ", malformed "
              + malformedToolCalls
              + ", prompt tokens "
              + promptTokens
              + ", completion tokens "
              + completionTokens
              + ", duration "
              + durationMs);
    }
  }

  /**
   * Its prompt and completion tokens.
   *
   * @return tokens
   */
  public long tokens() {
    return promptTokens + completionTokens;
  }
}
