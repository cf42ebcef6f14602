package io.github.gatlingllm.api;

import com.fasterxml.jackson.core.JsonProcessingException;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;

/**
 * What goes into every request body besides the prompt: the endpoint, the model and the generation
 * settings. Bodies are built by {@link RequestBodies#body(RequestSettings, String)}.
 *
 * <p>Immutable: {@code extraBody} is deep-copied (through Jackson, into maps, lists and JSON
 * scalars) and the copy cannot be changed.
 *
 * @param endpoint the endpoint, never null
 * @param model the model name sent as {@code model}, not blank
 * @param maxTokens the output token limit, at least 1
 * @param maxTokensField the name of the limit's field: {@code "max_tokens"} (accepted by vLLM,
 *     SGLang, TGI, llama.cpp, Ollama) or {@code "max_completion_tokens"} (OpenAI's newer name)
 * @param stream whether to ask for a server-sent event stream ({@code "stream"} is always sent)
 * @param includeUsage with {@code stream}, send {@code "stream_options":{"include_usage":true}} so
 *     the server reports {@code usage} in the stream; ignored without {@code stream}
 * @param ignoreEos {@code ignore_eos} (vLLM, SGLang, llama.cpp: generate exactly {@code maxTokens}
 *     tokens), or null not to send it
 * @param temperature {@code temperature}, at least 0, or null not to send it
 * @param extraBody further top-level fields, written last in their map order; null means none; a
 *     key must not be one this body sets itself (see {@link #reservedKeys()}); values are JSON
 *     scalars, maps, lists or anything else Jackson can serialize
 */
public record RequestSettings(
    WireApi endpoint,
    String model,
    int maxTokens,
    String maxTokensField,
    boolean stream,
    boolean includeUsage,
    Boolean ignoreEos,
    Double temperature,
    Map<String, Object> extraBody) {

  /** {@code "max_tokens"}: the output limit's field name understood by most servers. */
  public static final String MAX_TOKENS = "max_tokens";

  /** {@code "max_completion_tokens"}: OpenAI's newer name for the output limit. */
  public static final String MAX_COMPLETION_TOKENS = "max_completion_tokens";

  private static final Set<String> ALWAYS_RESERVED =
      Set.of("model", "messages", "prompt", "stream", MAX_TOKENS, MAX_COMPLETION_TOKENS);

  /**
   * Checks the settings and freezes {@code extraBody}.
   *
   * @throws IllegalArgumentException if a field is out of range or an extra key is reserved or its
   *     value cannot be written as JSON; the message names the field, the value and what is allowed
   */
  public RequestSettings {
    if (endpoint == null) {
      throw new IllegalArgumentException(
          "endpoint must be one of CHAT, COMPLETIONS, RESPONSES, MESSAGES, got null");
    }
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException(
          "model must be a non-blank name, got " + (model == null ? "null" : "\"" + model + "\""));
    }
    if (maxTokens < 1) {
      throw new IllegalArgumentException("maxTokens must be >= 1, got " + maxTokens);
    }
    if (!MAX_TOKENS.equals(maxTokensField) && !MAX_COMPLETION_TOKENS.equals(maxTokensField)) {
      throw new IllegalArgumentException(
          "maxTokensField must be \"max_tokens\" or \"max_completion_tokens\", got "
              + (maxTokensField == null ? "null" : "\"" + maxTokensField + "\""));
    }
    if (temperature != null && !(temperature >= 0 && Double.isFinite(temperature))) {
      throw new IllegalArgumentException(
          "temperature must be a finite number >= 0 (or null not to send it), got " + temperature);
    }
    extraBody = freeze(extraBody, reservedKeys(stream, includeUsage, ignoreEos, temperature));
  }

  /**
   * Settings with the usual choices: {@code max_tokens}, streaming with usage, no {@code
   * ignore_eos}, no temperature, no extra fields.
   *
   * @param endpoint the endpoint, never null
   * @param model the model name, not blank
   * @param maxTokens the output token limit, at least 1
   * @return the settings
   * @throws IllegalArgumentException as the canonical constructor
   */
  public static RequestSettings streaming(WireApi endpoint, String model, int maxTokens) {
    return new RequestSettings(
        endpoint, model, maxTokens, MAX_TOKENS, true, true, null, null, null);
  }

  /**
   * These settings with another output limit (a trace row's {@code output_length}, a prompts file
   * row's own {@code max_tokens}).
   *
   * @param tokens the output token limit, at least 1
   * @return this when the limit is already {@code tokens}, else a copy
   * @throws IllegalArgumentException if {@code tokens} is below 1
   */
  public RequestSettings withMaxTokens(int tokens) {
    if (tokens == maxTokens) {
      return this;
    }
    return new RequestSettings(
        endpoint,
        model,
        tokens,
        maxTokensField,
        stream,
        includeUsage,
        ignoreEos,
        temperature,
        extraBody);
  }

  /**
   * The top-level keys the body sets from these settings, which {@code extraBody} must not repeat:
   * always {@code model}, {@code messages}, {@code prompt}, {@code stream}, {@code max_tokens} and
   * {@code max_completion_tokens}; {@code stream_options} when streaming with usage; {@code
   * ignore_eos} and {@code temperature} when they are set. (So a server-specific {@code
   * stream_options} such as vLLM's {@code continuous_usage_stats} goes in {@code extraBody} with
   * {@code includeUsage} false.)
   *
   * @return the keys, in a fixed order, unmodifiable
   */
  public List<String> reservedKeys() {
    return reservedKeys(stream, includeUsage, ignoreEos, temperature);
  }

  /**
   * Whether the body carries {@code "stream_options":{"include_usage":true}}.
   *
   * @return {@code stream && includeUsage}
   */
  public boolean sendsStreamOptions() {
    return stream && includeUsage;
  }

  private static List<String> reservedKeys(
      boolean stream, boolean includeUsage, Boolean ignoreEos, Double temperature) {
    List<String> keys = new ArrayList<>(9);
    keys.add("model");
    keys.add("messages");
    keys.add("prompt");
    keys.add("stream");
    if (stream && includeUsage) {
      keys.add("stream_options");
    }
    keys.add(MAX_TOKENS);
    keys.add(MAX_COMPLETION_TOKENS);
    if (ignoreEos != null) {
      keys.add("ignore_eos");
    }
    if (temperature != null) {
      keys.add("temperature");
    }
    return Collections.unmodifiableList(keys);
  }

  private static Map<String, Object> freeze(Map<String, Object> extra, List<String> reserved) {
    if (extra == null || extra.isEmpty()) {
      return Map.of();
    }
    Map<String, Object> copy = new LinkedHashMap<>();
    for (Map.Entry<String, Object> e : extra.entrySet()) {
      String key = e.getKey();
      if (key == null) {
        throw new IllegalArgumentException("extraBody keys must not be null");
      }
      if (reserved.contains(key)) {
        throw new IllegalArgumentException(
            "extraBody must not set \""
                + key
                + "\": the request settings set it ("
                + (ALWAYS_RESERVED.contains(key) ? "always" : "with these settings")
                + "); reserved keys here: "
                + String.join(", ", reserved));
      }
      copy.put(key, frozenCopy(key, e.getValue()));
    }
    return Collections.unmodifiableMap(copy);
  }

  private static Object frozenCopy(String key, Object value) {
    if (value instanceof Double d && !Double.isFinite(d)) {
      throw new IllegalArgumentException(
          "extraBody value of \"" + key + "\" must be a finite number, got " + d);
    }
    if (value == null
        || value instanceof String
        || value instanceof Boolean
        || value instanceof Integer
        || value instanceof Long
        || value instanceof Double) {
      return value;
    }
    Object plain;
    try {
      plain = Json.MAPPER.readValue(Json.MAPPER.writeValueAsString(value), Object.class);
    } catch (JsonProcessingException | RuntimeException e) {
      throw new IllegalArgumentException(
          "extraBody value of \""
              + key
              + "\" must be writable as JSON (scalars, maps, lists, beans), got "
              + value.getClass().getName()
              + ": "
              + e.getMessage(),
          e);
    }
    return deepUnmodifiable(plain);
  }

  private static Object deepUnmodifiable(Object value) {
    if (value instanceof Map<?, ?> map) {
      Map<String, Object> copy = new LinkedHashMap<>();
      for (Map.Entry<?, ?> e : map.entrySet()) {
        copy.put((String) e.getKey(), deepUnmodifiable(e.getValue()));
      }
      return Collections.unmodifiableMap(copy);
    }
    if (value instanceof List<?> list) {
      List<Object> copy = new ArrayList<>(list.size());
      for (Object v : list) {
        copy.add(deepUnmodifiable(v));
      }
      return Collections.unmodifiableList(copy);
    }
    return value;
  }
}
