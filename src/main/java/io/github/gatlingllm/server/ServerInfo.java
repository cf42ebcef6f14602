package io.github.gatlingllm.server;

import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * What an OpenAI-compatible server said about itself before a run, recorded in {@code llm-run.json}
 * as {@code target.server}. Every field is what the server reported, never a guess: a field the
 * server did not report is null (or empty).
 *
 * @param engine the serving engine: {@code llama.cpp} (from {@code /props}' {@code build_info} or a
 *     model {@code owned_by: llamacpp}), {@code vLLM} ({@code owned_by: vllm}), {@code SGLang}
 *     ({@code owned_by: sglang}), {@code gatling-llm simulator} ({@code owned_by: gatling-llm}: the
 *     embedded simulator started on its own); null if not recognized
 * @param version the engine's build or version: llama.cpp's {@code /props} {@code build_info} (e.g.
 *     {@code b11669-Debian}), else {@code /version}'s {@code version}; null if not reported
 * @param models the served model ids of {@code /v1/models}' {@code data[].id}, in the server's
 *     order; never null, empty if not reported
 * @param contextTokens the context one request can use, in tokens: llama.cpp's {@code /v1/models}
 *     {@code meta.n_ctx} or, when smaller, its {@code /props} {@code
 *     default_generation_settings.n_ctx} (a slot's share of {@code -c}), else vLLM's {@code
 *     max_model_len}; null if not reported
 * @param slots llama.cpp's {@code /props} {@code total_slots} (parallel sequences, {@code -np});
 *     null if not reported
 * @param answers each probed path (e.g. {@code /v1/models}) to its HTTP status, or 0 when it did
 *     not answer within the timeout; never null
 */
public record ServerInfo(
    String engine,
    String version,
    List<String> models,
    Integer contextTokens,
    Integer slots,
    Map<String, Integer> answers) {

  /**
   * Checks and copies the fields.
   *
   * @throws IllegalArgumentException if models or answers is null, or a count is below 1
   */
  public ServerInfo {
    if (models == null) {
      throw new IllegalArgumentException("models: got null, expected a list (empty if unknown)");
    }
    if (answers == null) {
      throw new IllegalArgumentException("answers: got null, expected a map (empty if unknown)");
    }
    if (contextTokens != null && contextTokens < 1) {
      throw new IllegalArgumentException(
          "contextTokens: got " + contextTokens + ", expected >= 1 or null");
    }
    if (slots != null && slots < 1) {
      throw new IllegalArgumentException("slots: got " + slots + ", expected >= 1 or null");
    }
    models = List.copyOf(models);
    answers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(answers));
  }

  /**
   * Whether no probed path got any HTTP answer (refused, silent or timed out): a wrong {@code
   * llm.baseUrl} or a server that is down.
   *
   * @return true when paths were probed and every one of them got none
   */
  public boolean answeredNothing() {
    return !answers.isEmpty() && answers.values().stream().allMatch(status -> status == 0);
  }

  /**
   * The first served model id, the one a server without {@code model} routing would use.
   *
   * @return the id, or null if the server listed none
   */
  public String firstModel() {
    return models.isEmpty() ? null : models.get(0);
  }

  /**
   * The record's JSON shape: {@code engine}, {@code version}, {@code models}, {@code
   * context_tokens}, {@code slots}, {@code answers}.
   *
   * @return an ordered, JSON-ready map
   */
  public Map<String, Object> toRecord() {
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("engine", engine);
    m.put("version", version);
    m.put("models", models);
    m.put("context_tokens", contextTokens);
    m.put("slots", slots);
    m.put("answers", answers);
    return m;
  }
}
