package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.Endpoint;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * Not API. What one LLM request of a scenario is, as {@code LlmActionBuilder} built it.
 *
 * @param name the request name, never blank
 * @param endpoint the endpoint, or null for the protocol's
 * @param prompt the prompt from the session, or null for the fed one
 * @param maxTokens the request's {@code max_tokens}, or null for the protocol's
 * @param body further body fields over the protocol's, never null
 * @param conversation whether the request is a conversation's turn ({@code
 *     LlmDsl.conversation(...)}): it sends the fed conversation's next turn
 * @param replySaves the session keys the reply is saved under, never null ({@link ReplySaves#NONE})
 * @param agent whether the request is an agent session's turn ({@code LlmDsl.agentSession(...)}),
 *     which needs an API with tools; implies {@code conversation}
 */
public record LlmActionSpec(
    String name,
    Endpoint endpoint,
    Function<Session, String> prompt,
    Integer maxTokens,
    Map<String, Object> body,
    boolean conversation,
    ReplySaves replySaves,
    boolean agent) {

  /**
   * A request that is no agent session's turn.
   *
   * @param name the request name, never blank
   * @param endpoint the endpoint, or null for the protocol's
   * @param prompt the prompt from the session, or null for the fed one
   * @param maxTokens the request's {@code max_tokens}, or null for the protocol's
   * @param body further body fields over the protocol's, never null
   * @param conversation whether the request is a conversation's turn
   * @param replySaves the session keys the reply is saved under, never null
   */
  public LlmActionSpec(
      String name,
      Endpoint endpoint,
      Function<Session, String> prompt,
      Integer maxTokens,
      Map<String, Object> body,
      boolean conversation,
      ReplySaves replySaves) {
    this(name, endpoint, prompt, maxTokens, body, conversation, replySaves, false);
  }

  /**
   * A request that saves nothing of its reply.
   *
   * @param name the request name, never blank
   * @param endpoint the endpoint, or null for the protocol's
   * @param prompt the prompt from the session, or null for the fed one
   * @param maxTokens the request's {@code max_tokens}, or null for the protocol's
   * @param body further body fields over the protocol's, never null
   * @param conversation whether the request is a conversation's turn
   */
  public LlmActionSpec(
      String name,
      Endpoint endpoint,
      Function<Session, String> prompt,
      Integer maxTokens,
      Map<String, Object> body,
      boolean conversation) {
    this(name, endpoint, prompt, maxTokens, body, conversation, ReplySaves.NONE);
  }

  /**
   * A request that is not a conversation's turn.
   *
   * @param name the request name, never blank
   * @param endpoint the endpoint, or null for the protocol's
   * @param prompt the prompt from the session, or null for the fed one
   * @param maxTokens the request's {@code max_tokens}, or null for the protocol's
   * @param body further body fields over the protocol's, never null
   */
  public LlmActionSpec(
      String name,
      Endpoint endpoint,
      Function<Session, String> prompt,
      Integer maxTokens,
      Map<String, Object> body) {
    this(name, endpoint, prompt, maxTokens, body, false);
  }

  /** Checks the name and copies the body. */
  public LlmActionSpec {
    Objects.requireNonNull(name, "name");
    conversation = conversation || agent;
    Objects.requireNonNull(replySaves, "replySaves");
    body = java.util.Collections.unmodifiableMap(new java.util.LinkedHashMap<>(body));
  }
}
