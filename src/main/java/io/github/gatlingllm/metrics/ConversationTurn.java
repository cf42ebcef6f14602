package io.github.gatlingllm.metrics;

/**
 * Where a request stands in a conversation: the fields a conversation turn adds to its {@link
 * RequestRecord} ({@code conversation}, {@code turn}, {@code context_tokens}, {@code reply_digest}
 * in {@code llm-requests.jsonl}).
 *
 * @param conversation the conversation's index within its phase, at least 0
 * @param turn the turn, from 1
 * @param contextTokens the tokens before the new user message (system prompt, earlier messages and
 *     replies, their chat template): the previous turn's prompt and reply tokens as the server
 *     counted them, else the run's own count; 0 on turn 1 without a system prompt; null when
 *     unknown
 * @param replyDigest the first 16 hex digits of the SHA-256 of the reply text as received (UTF-8),
 *     or null when the turn got no reply
 */
public record ConversationTurn(
    long conversation, int turn, Integer contextTokens, String replyDigest) {

  /**
   * Checks the fields.
   *
   * @throws IllegalArgumentException naming a field out of range
   */
  public ConversationTurn {
    if (conversation < 0) {
      throw new IllegalArgumentException("conversation: got " + conversation + ", expected >= 0");
    }
    if (turn < 1) {
      throw new IllegalArgumentException("turn: got " + turn + ", expected >= 1");
    }
    if (contextTokens != null && contextTokens < 0) {
      throw new IllegalArgumentException(
          "context_tokens: got " + contextTokens + ", expected >= 0 or null");
    }
  }
}
