package io.github.gatlingllm.settings;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import java.util.Collection;
import java.util.List;
import java.util.Map;

/** The check of a further body field given to {@code llm().body} or {@code llm(name).body}. */
public final class BodyFields {

  private BodyFields() {}

  /**
   * Refuses a field the request body sets itself.
   *
   * @param call the DSL call, e.g. {@code llm("chat")}
   * @param key the field
   * @param value its value
   * @param reserved the fields the body sets itself
   * @throws IllegalArgumentException naming the call, the field, its value and what to use instead
   */
  public static void check(String call, String key, Object value, Collection<String> reserved) {
    if (!reserved.contains(key)) {
      return;
    }
    String instead = INSTEAD.get(key);
    throw new IllegalArgumentException(
        call
            + ".body(\""
            + key
            + "\", "
            + (value instanceof String ? "\"" + value + "\"" : String.valueOf(value))
            + "): the request body sets \""
            + key
            + "\" itself, expected another field (the body sets "
            + String.join(", ", reserved)
            + ")"
            + (instead == null ? "" : "; use " + instead));
  }

  /** The fields every request body sets, whatever the settings, in a fixed order. */
  public static Collection<String> alwaysReserved() {
    return ALWAYS_RESERVED;
  }

  private static final List<String> ALWAYS_RESERVED =
      new RequestSettings(
              WireApi.CHAT, "model", 1, RequestSettings.MAX_TOKENS, false, false, null, null, null)
          .reservedKeys();

  private static final Map<String, String> INSTEAD =
      Map.of(
          "model",
          "llm().model(...)",
          RequestSettings.MAX_TOKENS,
          "maxTokens(n)",
          RequestSettings.MAX_COMPLETION_TOKENS,
          "maxTokens(n)",
          "stream",
          "llm().stream(...)",
          "temperature",
          "llm().temperature(...)",
          "ignore_eos",
          "llm().ignoreEos(...)",
          "messages",
          "the prompt: feed(prompts()...) or .prompt(...)",
          "prompt",
          "the prompt: feed(prompts()...) or .prompt(...)");
}
