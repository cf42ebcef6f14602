package io.github.gatlingllm;

import java.time.Duration;
import java.util.Map;
import java.util.Objects;

/**
 * Package-private, so not part of the API: what the builders of session workloads ({@link
 * ConversationFeederBuilder}, {@link AgentFeederBuilder}) share beside {@link WorkloadBuilder}'s
 * seed, case id, tokenizer and name: the context window a turn must fit, a group system prompt, and
 * pauses set as a fixed or a uniform range of milliseconds.
 *
 * @param <B> the builder type, returned by every setter
 * @param <W> the workload type it makes
 */
abstract class SessionFeederBuilder<B extends SessionFeederBuilder<B, W>, W>
    extends WorkloadBuilder<B, W> {

  SessionFeederBuilder(Map<String, String> values, String name) {
    super(values, name);
  }

  /**
   * The model's context window ({@code llm.maxContextTokens}, shared by {@code conversations()} and
   * {@code agents()}): a turn whose prompt (estimated from the previous turn's prompt and reply
   * tokens, the new messages and 16 tokens of template) and {@code max_tokens} would exceed it is
   * not sent, and its session ends there (counted in {@code llm-run.json}: a conversation as {@code
   * conversations}' {@code ended_by_context_limit}, an agent session as {@code sessions}' {@code
   * ended.context_limit}), rather than drawing a 400 from the server on every later turn. Default:
   * no limit.
   *
   * @param tokens at least the first turn's system prompt, user message (or task), 16 tokens of
   *     template and {@code max_tokens} (checked when the feeder is made and before the first turn)
   * @return a new builder
   * @throws IllegalArgumentException naming {@code llm.maxContextTokens} when below 1
   */
  public B maxContextTokens(int tokens) {
    return with("maxContextTokens", tokens);
  }

  /**
   * A builder with a system prompt of {@code tokens} in {@code groups} groups, its size checked in
   * the builder's words.
   *
   * @param tokensKey the setting of the system prompt's tokens
   * @param tokens at least 1
   * @param groupsKey the setting of the groups
   * @param groups checked by the settings reader
   * @return a new builder
   * @throws IllegalArgumentException if {@code tokens} is below 1, naming {@code
   *     <dsl>.systemPrompt}
   */
  final B withSystemPrompt(String tokensKey, int tokens, String groupsKey, int groups) {
    if (tokens < 1) {
      throw new IllegalArgumentException(
          dslCall() + ".systemPrompt: got " + tokens + " tokens, expected >= 1");
    }
    return with(tokensKey, tokens, groupsKey, groups);
  }

  /**
   * A range of whole milliseconds as the settings read it: {@code min-max}.
   *
   * @param min the low end, never null
   * @param max the high end, never null
   * @return e.g. {@code 1000-3000}
   * @throws NullPointerException if either is null
   */
  static String millisRange(Duration min, Duration max) {
    return Objects.requireNonNull(min, "min").toMillis()
        + "-"
        + Objects.requireNonNull(max, "max").toMillis();
  }
}
