package io.github.gatlingllm.simulator;

import com.fasterxml.jackson.databind.node.JsonNodeFactory;
import com.fasterxml.jackson.databind.node.ObjectNode;

/**
 * An error answer: in OpenAI's shape {@code {"error": {"message", "type", "param", "code"}}}, with
 * {@code code} the HTTP status (as vLLM and llama.cpp send it); on the Messages API in Anthropic's
 * shape {@code {"type": "error", "error": {"type", "message"}}} ({@link #body(ServedEndpoint)}).
 * (Named apart from {@code api.ApiError}, the client's reading of such a body.)
 */
final class ErrorReply extends RuntimeException {

  private static final long serialVersionUID = 1L;

  static final String INVALID_REQUEST = "invalid_request_error";

  /** llama.cpp's type for a prompt longer than the context. */
  static final String EXCEED_CONTEXT_SIZE = "exceed_context_size_error";

  private final int status;
  private final transient ObjectNode body;

  private ErrorReply(int status, String message, ObjectNode body) {
    super(message, null, false, false);
    this.status = status;
    this.body = body;
  }

  /** An error with a type and, optionally, the request field it is about. */
  static ErrorReply of(int status, String type, String message, String param) {
    ObjectNode error = JsonNodeFactory.instance.objectNode();
    error.put("message", message);
    error.put("type", type);
    error.put("param", param);
    error.put("code", status);
    ObjectNode body = JsonNodeFactory.instance.objectNode();
    body.set("error", error);
    return new ErrorReply(status, message, body);
  }

  /** HTTP 400 {@code invalid_request_error} about a request field (or null). */
  static ErrorReply badRequest(String message, String param) {
    return of(400, INVALID_REQUEST, message, param);
  }

  /**
   * HTTP 400 as llama.cpp answers a prompt longer than the context: type {@code
   * exceed_context_size_error}, plus {@code n_prompt_tokens} and {@code n_ctx}.
   */
  static ErrorReply exceedContext(int promptTokens, int contextLength) {
    ErrorReply error =
        of(
            400,
            EXCEED_CONTEXT_SIZE,
            "request ("
                + promptTokens
                + " tokens) exceeds the available context size ("
                + contextLength
                + " tokens), try increasing it",
            null);
    ObjectNode inner = (ObjectNode) error.body.get("error");
    inner.remove("param");
    inner.put("n_prompt_tokens", promptTokens);
    inner.put("n_ctx", contextLength);
    return error;
  }

  int status() {
    return status;
  }

  ObjectNode body() {
    return body;
  }

  /** The body in the endpoint's shape: Anthropic's for {@link ServedEndpoint#MESSAGES}. */
  ObjectNode body(ServedEndpoint endpoint) {
    if (endpoint != ServedEndpoint.MESSAGES) {
      return body;
    }
    ObjectNode error = JsonNodeFactory.instance.objectNode();
    error.put("type", anthropicType());
    error.put("message", getMessage());
    ObjectNode anthropic = JsonNodeFactory.instance.objectNode();
    anthropic.put("type", "error");
    anthropic.set("error", error);
    return anthropic;
  }

  /** Anthropic's error type for this status (its documented list). */
  private String anthropicType() {
    return switch (status) {
      case 401 -> "authentication_error";
      case 403 -> "permission_error";
      case 404 -> "not_found_error";
      case 413 -> "request_too_large";
      case 429 -> "rate_limit_error";
      case 529 -> "overloaded_error";
      default -> status >= 500 ? "api_error" : "invalid_request_error";
    };
  }
}
