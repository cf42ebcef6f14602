package io.github.gatlingllm.feeder;

import java.util.Objects;

/**
 * Not API. The most a workload asks of a server's context, known before load: its longest planned
 * prompt, and its longest prompt plus the output tokens that prompt asks for, in the run's tokens
 * (before the chat template's lead). What a run compares with the context the server reports, so a
 * prompt that cannot fit is said before the first request, not found in HTTP 400s.
 *
 * @param workload the workload's name, never null
 * @param promptTokens the longest prompt, in tokens, at least 1; null when only the sum is bounded
 *     (a session that ends at {@code llm.maxContextTokens})
 * @param totalTokens the longest prompt plus the output tokens it asks for (a trace row's {@code
 *     output_length}; a session's window), in tokens, at least 1; null when the output is the
 *     request's {@code max_tokens}
 * @param setting what sets these sizes, to change when they do not fit, e.g. {@code
 *     llm.inputTokens}, never null
 */
public record PromptCeiling(
    String workload, Integer promptTokens, Integer totalTokens, String setting) {

  /**
   * Checks the values.
   *
   * @throws IllegalArgumentException if both sizes are null, or one is below 1
   */
  public PromptCeiling {
    Objects.requireNonNull(workload, "workload");
    Objects.requireNonNull(setting, "setting");
    if (promptTokens == null && totalTokens == null) {
      throw new IllegalArgumentException(
          "prompt ceiling of " + workload + ": promptTokens and totalTokens are both null");
    }
    if (promptTokens != null && promptTokens < 1) {
      throw new IllegalArgumentException(
          "prompt ceiling of "
              + workload
              + ": promptTokens: got "
              + promptTokens
              + ", expected >= 1");
    }
    if (totalTokens != null && totalTokens < 1) {
      throw new IllegalArgumentException(
          "prompt ceiling of "
              + workload
              + ": totalTokens: got "
              + totalTokens
              + ", expected >= 1");
    }
  }
}
