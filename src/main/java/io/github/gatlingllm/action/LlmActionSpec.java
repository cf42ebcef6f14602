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
 * @param kind what the request sends: a prompt, a conversation's turn or an agent session's turn
 *     (which sender its action holds), never null
 * @param replySaves the session keys the reply is saved under, never null ({@link ReplySaves#NONE})
 * @param agent whether the request is an agent session's turn ({@code LlmDsl.agentSession(...)}),
 *     which needs an API with tools; implies {@code conversation}
 */
public record LlmActionSpec(
    String name,
    WireApi endpoint,
    Function<Session, String> prompt,
    Integer maxTokens,
    Map<String, Object> body,
    Kind kind,
    ReplySaves replySaves) {

  /** What a request sends, and so the one sender its action holds. */
  public enum Kind {
    /** A fed prompt (generated, from a prompts file, or a trace row) or the request's own. */
    PROMPT,
    /** The fed conversation's next turn ({@code LlmDsl.conversation(...)}). */
    CONVERSATION,
    /** The fed agent session's next turn ({@code LlmDsl.agentSession(...)}). */
    AGENT
  }

  /** Checks the name and copies the body. */
  public LlmActionSpec {
    Objects.requireNonNull(name, "name");
    Objects.requireNonNull(kind, "kind");
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
    return new LlmActionSpec(name, endpoint, null, null, Map.of(), Kind.PROMPT, ReplySaves.NONE);
  }

  /**
   * This request with its own prompt.
   *
   * @param prompt the prompt from the session, never null
   * @return a new spec
   */
  public LlmActionSpec withPrompt(Function<Session, String> prompt) {
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, body, kind, replySaves);
  }

  /**
   * This request with its own {@code max_tokens}.
   *
   * @param tokens at least 1 (checked by the caller)
   * @return a new spec
   */
  public LlmActionSpec withMaxTokens(int tokens) {
    return new LlmActionSpec(name, endpoint, prompt, tokens, body, kind, replySaves);
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
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, more, kind, replySaves);
  }

  /**
   * This request as a session's turn.
   *
   * @param turn {@link Kind#CONVERSATION} or {@link Kind#AGENT}
   * @return a new spec
   */
  public LlmActionSpec asTurn(Kind turn) {
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, body, turn, replySaves);
  }

  /**
   * Whether the request is a session's turn (a conversation's or an agent session's): its requests
   * carry the session's id ({@code llm.sessionHeader}).
   *
   * @return false for a prompt
   */
  public boolean sessionTurn() {
    return kind != Kind.PROMPT;
  }

  /**
   * This request saving its reply under other keys.
   *
   * @param saves the keys, never null
   * @return a new spec
   */
  public LlmActionSpec withReplySaves(ReplySaves saves) {
    return new LlmActionSpec(name, endpoint, prompt, maxTokens, body, kind, saves);
  }
}
