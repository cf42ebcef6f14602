package io.github.gatlingllm.openai;

/** The OpenAI-compatible endpoint a request goes to, and so the shape of its body. */
public enum Endpoint {
  /** {@code POST /v1/chat/completions}: the prompt is one user message. */
  CHAT("chat/completions"),
  /** {@code POST /v1/completions}: the prompt is sent as raw text. */
  COMPLETIONS("completions");

  private final String path;

  Endpoint(String path) {
    this.path = path;
  }

  /**
   * The path relative to the API base (for example {@code http://host:8000/v1/}), without a leading
   * slash.
   *
   * @return {@code "chat/completions"} or {@code "completions"}
   */
  public String path() {
    return path;
  }
}
