package io.github.gatlingllm.api;

/**
 * An error reported by the server in a stream event or a response body, or the reason a payload
 * could not be read.
 *
 * <p>Read from {@code {"error":{"message":..,"type":..,"code":..}}} (OpenAI, llama.cpp, vLLM),
 * {@code {"object":"error","message":..,"type":..,"code":..}} (older vLLM) and {@code
 * {"error":"..","error_type":".."}} (TGI).
 *
 * @param message the error message, never null (possibly empty)
 * @param type the error type (for example {@code invalid_request_error}), or null
 * @param code the error code as text (numbers are written out, for example {@code "400"}), or null
 */
public record ApiError(String message, String type, String code) {

  /**
   * Checks the message.
   *
   * @throws NullPointerException if {@code message} is null
   */
  public ApiError {
    java.util.Objects.requireNonNull(message, "message");
  }

  /**
   * A one-line description: {@code "type (code): message"}, leaving out what is absent.
   *
   * @return the description, never null
   */
  public String describe() {
    StringBuilder sb = new StringBuilder();
    if (type != null) {
      sb.append(type);
    }
    if (code != null) {
      if (sb.length() > 0) {
        sb.append(' ');
      }
      sb.append('(').append(code).append(')');
    }
    if (sb.length() > 0) {
      sb.append(": ");
    }
    return sb.append(message).toString();
  }
}
