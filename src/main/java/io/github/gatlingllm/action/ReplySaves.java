package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;

/**
 * Not API. The session keys an LLM request saves its reply under, as Gatling's checks save values
 * ({@code .check(jsonPath(...).saveAs(key))}): what {@code LlmActionBuilder.saveReplyAs} and its
 * siblings asked for. Each key is null when not asked for; the reply's text is kept while the
 * request runs only when {@link #text} is set.
 *
 * <p>A request that ends OK sets every asked key (a value the response did not carry, for example
 * no {@code finish_reason}, removes its key); any other ending removes them, so that a loop never
 * reads the previous iteration's reply as this one's.
 *
 * @param text key of the reply's text (content deltas, or {@code message.content} / {@code text} of
 *     a whole response; reasoning text excluded), a {@link String}; or null
 * @param finishReason key of the server's {@code finish_reason}, a {@link String}; or null
 * @param promptTokens key of the prompt's tokens (the server's {@code usage.prompt_tokens}, else
 *     the run's tokenizer count), an {@link Integer}; or null
 * @param completionTokens key of the reply's tokens (the server's {@code usage.completion_tokens},
 *     else the count of token-bearing events or the tokenizer's), an {@link Integer}; or null
 */
public record ReplySaves(
    String text, String finishReason, String promptTokens, String completionTokens) {

  /** Nothing saved. */
  public static final ReplySaves NONE = new ReplySaves(null, null, null, null);

  /**
   * Checks the keys.
   *
   * @throws IllegalArgumentException if a key is blank or starts with {@code llm.} (the feeders'
   *     own keys)
   */
  public ReplySaves {
    check("saveReplyAs", text);
    check("saveFinishReasonAs", finishReason);
    check("savePromptTokensAs", promptTokens);
    check("saveCompletionTokensAs", completionTokens);
    String[] methods = {
      "saveReplyAs", "saveFinishReasonAs", "savePromptTokensAs", "saveCompletionTokensAs"
    };
    String[] keys = {text, finishReason, promptTokens, completionTokens};
    for (int i = 1; i < keys.length; i++) {
      for (int j = 0; j < i; j++) {
        if (keys[i] != null && keys[i].equals(keys[j])) {
          // one value would overwrite the other without a word
          throw new IllegalArgumentException(
              methods[i]
                  + ": got \""
                  + keys[i]
                  + "\", the key "
                  + methods[j]
                  + " already saves to; expected a key of its own");
        }
      }
    }
  }

  private static void check(String method, String key) {
    if (key == null) {
      return;
    }
    if (key.isBlank()) {
      throw new IllegalArgumentException(
          method + ": got a blank session key, expected a name such as \"answer\"");
    }
    if (key.startsWith("gatling.")) {
      throw new IllegalArgumentException(
          method
              + ": got \""
              + key
              + "\", a key in the gatling. namespace Gatling keeps its own state in (cookies,"
              + " loops); expected a key of your own, such as \"answer\"");
    }
    if (key.startsWith("llm.")) {
      throw new IllegalArgumentException(
          method
              + ": got \""
              + key
              + "\", a key in the llm. namespace the prompt feeders set; expected a key of"
              + " your own, such as \"answer\"");
    }
  }

  /**
   * These keys with the reply's text saved under {@code key}.
   *
   * @param key the session key, not blank, not in {@code llm.}
   * @return a new value
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public ReplySaves withText(String key) {
    return new ReplySaves(key, finishReason, promptTokens, completionTokens);
  }

  /**
   * These keys with the finish reason saved under {@code key}.
   *
   * @param key the session key
   * @return a new value
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public ReplySaves withFinishReason(String key) {
    return new ReplySaves(text, key, promptTokens, completionTokens);
  }

  /**
   * These keys with the prompt tokens saved under {@code key}.
   *
   * @param key the session key
   * @return a new value
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public ReplySaves withPromptTokens(String key) {
    return new ReplySaves(text, finishReason, key, completionTokens);
  }

  /**
   * These keys with the completion tokens saved under {@code key}.
   *
   * @param key the session key
   * @return a new value
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public ReplySaves withCompletionTokens(String key) {
    return new ReplySaves(text, finishReason, promptTokens, key);
  }

  /** Whether any key is asked for. */
  boolean any() {
    return text != null || finishReason != null || promptTokens != null || completionTokens != null;
  }

  /**
   * The session the virtual user goes on with after a request.
   *
   * @param session the session after the request's rows
   * @param record the request's record
   * @param reply the reply's text, or null when not kept or none came
   * @return the session with the asked keys set (OK) or removed (any other ending)
   */
  Session apply(Session session, RequestRecord record, String reply) {
    if (!any()) {
      return session;
    }
    boolean ok = record.status() == RequestStatus.OK;
    Session s = session;
    s = put(s, text, ok ? (reply == null ? "" : reply) : null);
    s = put(s, finishReason, ok ? record.finishReason() : null);
    s = put(s, promptTokens, ok ? record.promptTokens() : null);
    s = put(s, completionTokens, ok ? record.completionTokens() : null);
    return s;
  }

  private static Session put(Session session, String key, Object value) {
    if (key == null) {
      return session;
    }
    return value == null ? session.remove(key) : session.set(key, value);
  }
}
