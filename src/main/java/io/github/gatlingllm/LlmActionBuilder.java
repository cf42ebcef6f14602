package io.github.gatlingllm;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import io.github.gatlingllm.action.LlmActionSpec;
import io.github.gatlingllm.action.LlmScalaActionBuilder;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.openai.Endpoint;
import io.github.gatlingllm.settings.BodyFields;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Objects;
import java.util.function.Function;

/**
 * An LLM request as a Gatling action: {@code exec(llm("chat").chatCompletion())}. Immutable, so all
 * methods return a new instance.
 *
 * <p>Each execution sends one request, exactly once, through Gatling's HTTP engine from the virtual
 * user's event loop, stamps every body chunk with {@link System#nanoTime()} as it arrives, parses
 * the server-sent events from the bytes and records the request in {@code llm-requests.jsonl}.
 * Gatling's report gets one row named {@code NAME} (request start to last event; KO with the error
 * when the request failed), {@code NAME TTFT} and {@code NAME TPOT} with their true start and end,
 * and {@code NAME SLO} when an SLO is set; warmup requests' rows are in the group {@code warmup}.
 *
 * <p>The prompt is the fed one ({@code feed(prompts()...)} before the request), or {@link
 * #prompt}'s. The fed record is not consumed: two LLM requests on one record send the same prompt.
 * A virtual user whose feeder's budget is spent ends here, without a request. A request with no
 * prompt to send stops the run at once with a message saying what is missing.
 */
public final class LlmActionBuilder implements ActionBuilder {

  private final String name;
  private final Endpoint endpoint;
  private final Function<Session, String> prompt;
  private final Integer maxTokens;
  private final Map<String, Object> body;
  private final boolean conversation;

  LlmActionBuilder(String name, Endpoint endpoint) {
    this(name, endpoint, null, null, Map.of());
  }

  private LlmActionBuilder(
      String name,
      Endpoint endpoint,
      Function<Session, String> prompt,
      Integer maxTokens,
      Map<String, Object> body) {
    this(name, endpoint, prompt, maxTokens, body, false);
  }

  private LlmActionBuilder(
      String name,
      Endpoint endpoint,
      Function<Session, String> prompt,
      Integer maxTokens,
      Map<String, Object> body,
      boolean conversation) {
    this.name = name;
    this.endpoint = endpoint;
    this.prompt = prompt;
    this.maxTokens = maxTokens;
    this.body = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(body));
    this.conversation = conversation;
  }

  /**
   * This request as the turns of {@link LlmDsl#conversation(LlmActionBuilder)}.
   *
   * @throws IllegalArgumentException if the request has its own {@link #prompt}
   */
  LlmActionBuilder asConversationTurn() {
    if (prompt != null) {
      throw new IllegalArgumentException(
          "conversation(llm(\""
              + name
              + "\")...): a conversation sends its own messages (the fed conversation's turns);"
              + " remove .prompt(...) from this request");
    }
    return new LlmActionBuilder(name, endpoint, null, maxTokens, body, true);
  }

  /**
   * The prompt to send instead of the fed one, from the session.
   *
   * @param prompt returns the prompt text, never null
   * @return a new builder
   */
  public LlmActionBuilder prompt(Function<Session, String> prompt) {
    return new LlmActionBuilder(
        name, endpoint, Objects.requireNonNull(prompt, "prompt"), maxTokens, body);
  }

  /**
   * A fixed prompt to send instead of the fed one.
   *
   * @param text the prompt text, never null
   * @return a new builder
   */
  public LlmActionBuilder prompt(String text) {
    Objects.requireNonNull(text, "prompt");
    return prompt(session -> text);
  }

  /**
   * This request's {@code max_tokens}, over the protocol's.
   *
   * @param tokens at least 1
   * @return a new builder
   * @throws IllegalArgumentException if below 1
   */
  public LlmActionBuilder maxTokens(int tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException(
          "llm(\"" + name + "\").maxTokens: got " + tokens + ", expected a whole number >= 1");
    }
    return new LlmActionBuilder(name, endpoint, prompt, tokens, body);
  }

  /**
   * A further top-level body field of this request, over the protocol's.
   *
   * @param key the field; one the body sets itself is refused: {@code model}, {@code messages}...
   *     here, those set with the protocol's settings ({@code temperature}...) when the scenario is
   *     built
   * @param value a JSON scalar, map, list or anything Jackson can write
   * @return a new builder
   * @throws IllegalArgumentException if the body sets {@code key} itself
   */
  public LlmActionBuilder body(String key, Object value) {
    BodyFields.check(
        "llm(\"" + name + "\")",
        Objects.requireNonNull(key, "key"),
        value,
        BodyFields.alwaysReserved());
    Map<String, Object> next = new LinkedHashMap<>(body);
    next.put(key, value);
    return new LlmActionBuilder(name, endpoint, prompt, maxTokens, next);
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    Function<Session, String> text = prompt;
    return new LlmScalaActionBuilder(
        new LlmActionSpec(
            name,
            endpoint,
            text == null ? null : session -> text.apply(new Session(session)),
            maxTokens,
            body,
            conversation));
  }

  /** The session key of the fed prompt, for {@code .prompt(...)} functions that adapt it. */
  public static final String PROMPT_KEY = PromptFeeder.TEXT;
}
