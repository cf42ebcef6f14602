package io.github.gatlingllm.api;

import java.util.List;
import java.util.Objects;

/**
 * One message of a chat conversation, as the OpenAI chat API takes it.
 *
 * @param role {@code system}, {@code user} or {@code assistant}, never null
 * @param content the text, never null
 */
public record ChatMessage(String role, String content) {

  /** The separator that ends every message of a {@link #transcript}. */
  public static final String TRANSCRIPT_SEPARATOR = "\n\n";

  /**
   * Checks the fields.
   *
   * @throws NullPointerException if a field is null
   */
  public ChatMessage {
    Objects.requireNonNull(role, "role");
    Objects.requireNonNull(content, "content");
  }

  /**
   * A conversation as one completions prompt: every message's content followed by a blank line
   * ({@value #TRANSCRIPT_SEPARATOR}), in order, roles left out. A model's reply continues the
   * prompt after its blank line, so the next turn's transcript (the prompt, the reply as received,
   * a blank line, the new message, a blank line) starts with the previous prompt and reply
   * unchanged.
   *
   * @param messages the messages, never null
   * @return the transcript
   */
  public static String transcript(List<ChatMessage> messages) {
    StringBuilder text = new StringBuilder();
    for (ChatMessage m : messages) {
      text.append(m.content()).append(TRANSCRIPT_SEPARATOR);
    }
    return text.toString();
  }
}
