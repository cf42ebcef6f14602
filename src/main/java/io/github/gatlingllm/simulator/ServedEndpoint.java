package io.github.gatlingllm.simulator;

/** The generation endpoints the simulator serves. */
public enum ServedEndpoint {
  /** {@code POST /v1/chat/completions}: messages in, a chat completion out. */
  CHAT("/v1/chat/completions", "chatcmpl-"),
  /** {@code POST /v1/completions}: a prompt in, a text completion out. */
  COMPLETIONS("/v1/completions", "cmpl-"),
  /** {@code POST /v1/responses}: OpenAI's Responses API. */
  RESPONSES("/v1/responses", "resp_"),
  /** {@code POST /v1/messages}: Anthropic's Messages API. */
  MESSAGES("/v1/messages", "msg_");

  private final String path;
  private final String idPrefix;

  ServedEndpoint(String path, String idPrefix) {
    this.path = path;
    this.idPrefix = idPrefix;
  }

  /**
   * The request path.
   *
   * @return e.g. {@code "/v1/chat/completions"}
   */
  public String path() {
    return path;
  }

  /**
   * The response id of a request: this endpoint's prefix ({@code chatcmpl-}, {@code cmpl-}, {@code
   * resp_} or {@code msg_}) and the request's {@link ServedRequest#id()}.
   *
   * @param id the request id
   * @return e.g. {@code "chatcmpl-7"}
   */
  public String responseId(long id) {
    return idPrefix + id;
  }
}
