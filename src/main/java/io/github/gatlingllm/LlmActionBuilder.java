package io.github.gatlingllm;

import io.gatling.javaapi.core.ActionBuilder;
import io.gatling.javaapi.core.Session;
import io.github.gatlingllm.action.LlmActionSpec;
import io.github.gatlingllm.action.LlmScalaActionBuilder;
import io.github.gatlingllm.action.ReplySaves;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.settings.BodyFields;
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

  private final LlmActionSpec spec;

  LlmActionBuilder(String name, WireApi endpoint) {
    this(LlmActionSpec.of(name, endpoint));
  }

  private LlmActionBuilder(LlmActionSpec spec) {
    this.spec = spec;
  }

  /**
   * This request as the turns of {@link LlmDsl#conversation(LlmActionBuilder)} or {@link
   * LlmDsl#agentSession(LlmActionBuilder)} (an agent's turn needs an API with tools, checked when
   * Gatling builds the scenario, before any load).
   *
   * @param turn {@code CONVERSATION} or {@code AGENT}
   * @throws IllegalArgumentException if the request has its own {@link #prompt}
   */
  LlmActionBuilder asTurn(LlmActionSpec.Kind turn) {
    if (spec.prompt() != null) {
      throw new IllegalArgumentException(
          "conversation(llm(\""
              + spec.name()
              + "\")...): a conversation sends its own messages (the fed conversation's turns);"
              + " remove .prompt(...) from this request");
    }
    return new LlmActionBuilder(spec.asTurn(turn));
  }

  /**
   * The prompt to send instead of the fed one, from the session.
   *
   * @param prompt returns the prompt text, never null
   * @return a new builder
   */
  public LlmActionBuilder prompt(Function<Session, String> prompt) {
    Objects.requireNonNull(prompt, "prompt");
    return new LlmActionBuilder(spec.withPrompt(session -> prompt.apply(new Session(session))));
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
          "llm(\""
              + spec.name()
              + "\").maxTokens: got "
              + tokens
              + ", expected a whole number >= 1");
    }
    return new LlmActionBuilder(spec.withMaxTokens(tokens));
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
        "llm(\"" + spec.name() + "\")",
        Objects.requireNonNull(key, "key"),
        value,
        BodyFields.alwaysReserved());
    return new LlmActionBuilder(spec.withBody(key, value));
  }

  /**
   * Saves the reply's text into the virtual user's session under {@code key}, as a check's {@code
   * saveAs} does, so that the scenario can go on with it: a tool call, a RAG step, a second request
   * ({@code .prompt(session -> "Summarise: " + session.getString("answer"))}) or Gatling's own
   * {@code http(...)}.
   *
   * <p>The text is the reply's content (streamed: the {@code delta.content} or {@code text} of
   * every event, joined; not streamed: {@code choices[0].message.content} or {@code
   * choices[0].text}); reasoning text and tool-call deltas are not in it; an OK reply without
   * content saves {@code ""}. It is kept while the request runs only when asked for here. A request
   * that does not end OK removes the key, so a loop never reads the previous iteration's reply.
   *
   * @param key the session key, a {@link String} value; not blank and not starting with {@code
   *     llm.} (the prompt feeders' keys)
   * @return a new builder
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public LlmActionBuilder saveReplyAs(String key) {
    return withSaves(spec.replySaves().withText(Objects.requireNonNull(key, "key")));
  }

  /**
   * Saves the server's {@code finish_reason} ({@code stop}, {@code length}, {@code tool_calls}...)
   * into the session under {@code key}, a {@link String}; removed when the request does not end OK
   * or the server sent none. On the Responses and Messages APIs it is that API's word ({@code
   * completed}, {@code max_output_tokens}; {@code end_turn}, {@code max_tokens}, {@code tool_use}):
   * {@link io.github.gatlingllm.api.FinishReason#of} reads each as one kind.
   *
   * @param key the session key; not blank and not starting with {@code llm.}
   * @return a new builder
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public LlmActionBuilder saveFinishReasonAs(String key) {
    return withSaves(spec.replySaves().withFinishReason(Objects.requireNonNull(key, "key")));
  }

  /**
   * Saves the prompt's token count into the session under {@code key}, an {@link Integer}: the
   * server's {@code usage.prompt_tokens}, else the run's tokenizer count (as in {@code
   * llm-requests.jsonl}'s {@code prompt_tokens}); removed when the request does not end OK.
   *
   * @param key the session key; not blank and not starting with {@code llm.}
   * @return a new builder
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public LlmActionBuilder savePromptTokensAs(String key) {
    return withSaves(spec.replySaves().withPromptTokens(Objects.requireNonNull(key, "key")));
  }

  /**
   * Saves the reply's token count into the session under {@code key}, an {@link Integer}: the
   * server's {@code usage.completion_tokens}, else the client's count (as in {@code
   * llm-requests.jsonl}'s {@code completion_tokens}); removed when the request does not end OK.
   *
   * @param key the session key; not blank and not starting with {@code llm.}
   * @return a new builder
   * @throws IllegalArgumentException if the key is blank or starts with {@code llm.}
   */
  public LlmActionBuilder saveCompletionTokensAs(String key) {
    return withSaves(spec.replySaves().withCompletionTokens(Objects.requireNonNull(key, "key")));
  }

  private LlmActionBuilder withSaves(ReplySaves saves) {
    return new LlmActionBuilder(spec.withReplySaves(saves));
  }

  @Override
  public io.gatling.core.action.builder.ActionBuilder asScala() {
    return new LlmScalaActionBuilder(spec);
  }

  /** The session key of the fed prompt, for {@code .prompt(...)} functions that adapt it. */
  public static final String PROMPT_KEY = PromptFeeder.TEXT;
}
