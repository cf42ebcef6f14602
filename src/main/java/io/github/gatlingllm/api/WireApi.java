package io.github.gatlingllm.api;

import java.util.Arrays;
import java.util.Locale;
import java.util.stream.Collectors;

/**
 * The wire APIs a request can speak, and so the endpoint it goes to and the shape of its body:
 * OpenAI's chat completions and completions, OpenAI's Responses API and Anthropic's Messages API,
 * each with its {@link Dialect}.
 */
public enum WireApi {
  /** OpenAI's {@code POST /v1/chat/completions}. */
  CHAT("chat", "chat/completions"),
  /** OpenAI's {@code POST /v1/completions}: the prompt as raw text. */
  COMPLETIONS("completions", "completions"),
  /** OpenAI's Responses API, {@code POST /v1/responses}. */
  RESPONSES("responses", "responses"),
  /** Anthropic's Messages API, {@code POST /v1/messages}. */
  MESSAGES("messages", "messages");

  private final String settingName;
  private final String path;

  WireApi(String settingName, String path) {
    this.settingName = settingName;
    this.path = path;
  }

  /**
   * The name the settings use ({@code -Dllm.endpoint}).
   *
   * @return {@code "chat"}, {@code "completions"}, {@code "responses"} or {@code "messages"}
   */
  public String settingName() {
    return settingName;
  }

  /**
   * The path relative to the API base (for example {@code http://host:8000/v1/}), without a leading
   * slash.
   *
   * @return for example {@code "chat/completions"} or {@code "messages"}
   */
  public String path() {
    return path;
  }

  /**
   * This API's dialect.
   *
   * @return the dialect, never null; one shared, stateless instance an API
   */
  public Dialect dialect() {
    return switch (this) {
      case CHAT -> OpenAiDialect.CHAT;
      case COMPLETIONS -> OpenAiDialect.COMPLETIONS;
      case RESPONSES -> ResponsesDialect.INSTANCE;
      case MESSAGES -> MessagesDialect.INSTANCE;
    };
  }

  /**
   * The API of a setting's value, case-insensitive, surrounding blanks ignored.
   *
   * @param setting the name of the setting read, for the error message (for example {@code
   *     "llm.endpoint"})
   * @param value the value, for example {@code "responses"}
   * @return the API
   * @throws IllegalArgumentException if the value names no API; the message names the setting, the
   *     value and the allowed values
   */
  public static WireApi of(String setting, String value) {
    if (value != null) {
      String v = value.strip().toLowerCase(Locale.ROOT);
      for (WireApi api : values()) {
        if (api.settingName.equals(v)) {
          return api;
        }
      }
    }
    throw new IllegalArgumentException(
        setting
            + " must be one of "
            + Arrays.stream(values()).map(WireApi::settingName).collect(Collectors.joining(", "))
            + ", got "
            + (value == null ? "null" : "\"" + value + "\""));
  }
}
