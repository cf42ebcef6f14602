package io.github.gatlingllm;

import io.github.gatlingllm.openai.Endpoint;
import java.util.Objects;

/**
 * A named LLM request, before its endpoint is chosen: {@code llm("chat").chatCompletion()}.
 * Immutable.
 */
public final class LlmRequest {

  private final String name;

  LlmRequest(String name) {
    if (name == null || name.isBlank()) {
      throw new IllegalArgumentException(
          "llm(name): got "
              + (name == null ? "null" : "\"" + name + "\"")
              + ", expected a request name such as \"chat\"");
    }
    this.name = name;
  }

  /**
   * A chat completion: {@code POST {baseUrl}/chat/completions} with the prompt as the one user
   * message.
   *
   * @return the request's action builder
   */
  public LlmActionBuilder chatCompletion() {
    return new LlmActionBuilder(name, Endpoint.CHAT);
  }

  /**
   * A text completion: {@code POST {baseUrl}/completions} with the prompt as {@code prompt}.
   *
   * @return the request's action builder
   */
  public LlmActionBuilder completion() {
    return new LlmActionBuilder(name, Endpoint.COMPLETIONS);
  }

  /**
   * A request to the protocol's endpoint ({@code llm.endpoint}: {@code chat}, the default, or
   * {@code completions}).
   *
   * @return the request's action builder
   */
  public LlmActionBuilder request() {
    return new LlmActionBuilder(name, null);
  }

  /**
   * The request name.
   *
   * @return never null
   */
  public String name() {
    return Objects.requireNonNull(name);
  }
}
