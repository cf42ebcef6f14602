package io.github.gatlingllm;

import io.github.gatlingllm.api.WireApi;
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
    return new LlmActionBuilder(name, WireApi.CHAT);
  }

  /**
   * A text completion: {@code POST {baseUrl}/completions} with the prompt as {@code prompt}.
   *
   * @return the request's action builder
   */
  public LlmActionBuilder completion() {
    return new LlmActionBuilder(name, WireApi.COMPLETIONS);
  }

  /**
   * A request to OpenAI's Responses API: {@code POST {baseUrl}/responses} with the prompt as {@code
   * input} and the limit as {@code max_output_tokens} (served by OpenAI, vLLM, SGLang and
   * llama.cpp). Timed on its events: TTFT at the first {@code response.output_text.delta}, {@code
   * response.reasoning_text.delta}, {@code response.reasoning_summary_text.delta} or {@code
   * response.function_call_arguments.delta}; counts and cached tokens from {@code
   * response.completed}'s {@code usage} (see docs/apis.md).
   *
   * @return the request's action builder
   */
  public LlmActionBuilder responses() {
    return new LlmActionBuilder(name, WireApi.RESPONSES);
  }

  /**
   * A request to Anthropic's Messages API: {@code POST {baseUrl}/messages} with the prompt as the
   * one user message, {@code max_tokens} always sent, the key as {@code x-api-key} and {@code
   * anthropic-version: 2023-06-01} (served by Anthropic, vLLM, SGLang and llama.cpp). Timed on its
   * events: TTFT at the first {@code text_delta}, {@code thinking_delta} or {@code
   * input_json_delta}; prompt tokens {@code input_tokens + cache_read_input_tokens +
   * cache_creation_input_tokens}, cached tokens {@code cache_read_input_tokens} (see docs/apis.md).
   *
   * @return the request's action builder
   */
  public LlmActionBuilder messages() {
    return new LlmActionBuilder(name, WireApi.MESSAGES);
  }

  /**
   * A request to the protocol's endpoint ({@code llm.endpoint}: {@code chat}, the default, {@code
   * completions}, {@code responses} or {@code messages}).
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
