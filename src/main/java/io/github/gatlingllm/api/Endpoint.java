package io.github.gatlingllm.api;

/**
 * The endpoint a request goes to, and so the shape of its body: OpenAI's chat completions and
 * completions, OpenAI's Responses API and Anthropic's Messages API (their bodies and events are
 * {@code api/}'s dialects: {@code io.github.gatlingllm.api.WireApi#of(Endpoint)}).
 */
public enum Endpoint {
  /** {@code POST /v1/chat/completions}: the prompt is one user message. */
  CHAT("chat/completions"),
  /** {@code POST /v1/completions}: the prompt is sent as raw text. */
  COMPLETIONS("completions"),
  /** {@code POST /v1/responses}: OpenAI's Responses API. */
  RESPONSES("responses"),
  /** {@code POST /v1/messages}: Anthropic's Messages API. */
  MESSAGES("messages");

  private final String path;

  Endpoint(String path) {
    this.path = path;
  }

  /**
   * The path relative to the API base (for example {@code http://host:8000/v1/}), without a leading
   * slash.
   *
   * @return {@code "chat/completions"}, {@code "completions"}, {@code "responses"} or {@code
   *     "messages"}
   */
  public String path() {
    return path;
  }
}
