package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.WireApi;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Not API. What one LLM request of a scenario is, as {@code LlmActionBuilder} built it: the one
 * immutable value that builder wraps, each of its methods a {@code with...} here.
 *
 * @param name the request name, never blank
 * @param endpoint the wire API, or null for the protocol's ({@code llm.endpoint})
 * @param prompt the prompt from the session, or null for the fed one
 * @param maxTokens the request's {@code max_tokens}, or null for the protocol's
 * @param body further body fields over the protocol's, never null
 * @param conversation whether the request is a conversation's turn ({@code
 *     LlmDsl.conversation(...)}): it sends the fed conversation's next turn
 * @param replySaves the session keys the reply is saved under, never null ({@link ReplySaves#NONE})
 */
public record LlmActionSpec(
    String name,
    WireApi endpoint,
    Function<Session, String> prompt,
    Integer maxTokens,
    Map<String, Object> body,
    boolean conversation,
    ReplySaves replySaves) {

  /** Checks the name and copies the body. */
  public LlmActionSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(replySaves, "replySaves");
    body = Collections.unmodifiableMap(new LinkedHashMap<>(body));
  }

  /**
   * A request of the fed prompt, with the protocol's settings.
   *
   * @param name the request name, never blank
   * @param endpoint the wire API, or null for the protocol's
   * @return the spec
   */
  public static LlmActionSpec of(String name, WireApi endpoint) {
    return new LlmActionSpec(name, endpoint, null, null, Map.of(), false, ReplySaves.NONE);
  }

  /**
   * This request with its own prompt.
   *
   * @param prompt the prompt from the session, never null
   * @return a new spec
   */
  public LlmActionSpec withPrompt(Function<Session, String> prompt) {
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, body, conversation, replySaves);
  }

  /**
   * This request with its own {@code max_tokens}.
   *
   * @param tokens at least 1 (checked by the caller)
   * @return a new spec
   */
  public LlmActionSpec withMaxTokens(int tokens) {
    return new LlmActionSpec(name, endpoint, prompt, tokens, body, conversation, replySaves);
  }

  /**
   * This request with one more body field (checked by the caller).
   *
   * @param key the field
   * @param value its value
   * @return a new spec
   */
  public LlmActionSpec withBody(String key, Object value) {
    Map<String, Object> more = new LinkedHashMap<>(body);
    more.put(key, value);
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, more, conversation, replySaves);
  }

  /**
   * This request as a conversation's turn.
   *
   * @return a new spec
   */
  public LlmActionSpec asConversationTurn() {
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, body, true, replySaves);
  }

  /**
   * This request saving its reply under other keys.
   *
   * @param saves the keys, never null
   * @return a new spec
   */
  public LlmActionSpec withReplySaves(ReplySaves saves) {
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, body, conversation, saves);
  }
}
