package io.github.gatlingllm.server;

import io.github.gatlingllm.server.PrometheusText.Exposition;
import io.github.gatlingllm.server.PrometheusText.Sample;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * The servers whose Prometheus series gatling-llm knows, and what it reads of each: the prefix
 * cache's traffic, KV cache usage, running and waiting requests. Each {@link Role} names one
 * engine-independent quantity; each engine maps it to its own series, newest name first (the names
 * as the servers write them, checked against their sources: vLLM's {@code
 * vllm/v1/metrics/loggers.py}, SGLang's {@code python/sglang/srt/metrics/collector.py}, llama.cpp's
 * {@code llama-server --metrics} b11669 and {@link io.github.gatlingllm.simulator.Simulator}).
 */
public enum ServerEngine {

  /** vLLM (V1 engine names, then the names deprecated in 0.9). */
  VLLM(
      "vLLM",
      "vllm:",
      Map.of(
          Role.PREFIX_CACHE_QUERIES,
          List.of("vllm:prefix_cache_queries_total", "vllm:gpu_prefix_cache_queries_total"),
          Role.PREFIX_CACHE_HITS,
          List.of("vllm:prefix_cache_hits_total", "vllm:gpu_prefix_cache_hits_total"),
          Role.PROMPT_TOKENS,
          List.of("vllm:prompt_tokens_total"),
          Role.GENERATION_TOKENS,
          List.of("vllm:generation_tokens_total"),
          Role.PREEMPTIONS,
          List.of("vllm:num_preemptions_total"),
          Role.KV_CACHE_USAGE,
          List.of("vllm:kv_cache_usage_perc", "vllm:gpu_cache_usage_perc"),
          Role.REQUESTS_RUNNING,
          List.of("vllm:num_requests_running"),
          Role.REQUESTS_WAITING,
          List.of("vllm:num_requests_waiting"),
          Role.SERVER_HIT_RATE,
          List.of("vllm:gpu_prefix_cache_hit_rate")),
      "prefix_cache_hits / prefix_cache_queries (tokens)"),

  /** SGLang. */
  SGLANG(
      "SGLang",
      "sglang:",
      Map.of(
          Role.PROMPT_TOKENS,
          List.of("sglang:prompt_tokens_total"),
          Role.CACHED_PROMPT_TOKENS,
          List.of("sglang:cached_tokens_total"),
          Role.GENERATION_TOKENS,
          List.of("sglang:generation_tokens_total"),
          Role.KV_CACHE_USAGE,
          List.of("sglang:token_usage"),
          Role.REQUESTS_RUNNING,
          List.of("sglang:num_running_reqs"),
          Role.REQUESTS_WAITING,
          List.of("sglang:num_queue_reqs"),
          Role.SERVER_HIT_RATE,
          List.of("sglang:cache_hit_rate")),
      "cached_prompt_tokens / prompt_tokens"),

  /**
   * llama.cpp's {@code llama-server --metrics}; its prompt token counter leaves out cached ones.
   */
  LLAMA_CPP(
      "llama.cpp",
      "llamacpp:",
      Map.of(
          Role.PROMPT_TOKENS,
          List.of("llamacpp:prompt_tokens_total"),
          Role.CACHED_PROMPT_TOKENS,
          List.of("llamacpp:prompt_tokens_cached_total"),
          Role.GENERATION_TOKENS,
          List.of("llamacpp:tokens_predicted_total"),
          Role.KV_CACHE_USAGE,
          List.of("llamacpp:kv_cache_usage_ratio"),
          Role.REQUESTS_RUNNING,
          List.of("llamacpp:requests_processing"),
          Role.REQUESTS_WAITING,
          List.of("llamacpp:requests_deferred")),
      "cached_prompt_tokens / (prompt_tokens + cached_prompt_tokens): llama.cpp's prompt token"
          + " counter leaves out cached tokens"),

  /** The embedded simulator. */
  SIMULATOR(
      "gatling-llm simulator",
      "gatling_llm_simulator_",
      Map.of(
          Role.PROMPT_TOKENS,
          List.of("gatling_llm_simulator_prompt_tokens_total"),
          Role.CACHED_PROMPT_TOKENS,
          List.of("gatling_llm_simulator_cached_prompt_tokens_total"),
          Role.GENERATION_TOKENS,
          List.of("gatling_llm_simulator_generation_tokens_total"),
          Role.KV_CACHE_USAGE,
          List.of("gatling_llm_simulator_cache_usage_ratio"),
          Role.REQUESTS_RUNNING,
          List.of("gatling_llm_simulator_running_sequences"),
          Role.REQUESTS_WAITING,
          List.of("gatling_llm_simulator_waiting_sequences")),
      "cached_prompt_tokens / prompt_tokens");

  /** An engine-independent quantity read from a server's series. */
  public enum Role {
    /** Prompt tokens looked up in the prefix cache (counter). */
    PREFIX_CACHE_QUERIES("prefix_cache_queries", true),
    /** Prompt tokens found in the prefix cache (counter). */
    PREFIX_CACHE_HITS("prefix_cache_hits", true),
    /** Prompt tokens (counter; llama.cpp's leaves cached ones out). */
    PROMPT_TOKENS("prompt_tokens", true),
    /** Prompt tokens served from the prefix cache (counter). */
    CACHED_PROMPT_TOKENS("cached_prompt_tokens", true),
    /** Output tokens (counter). */
    GENERATION_TOKENS("generation_tokens", true),
    /** Preempted requests (counter). */
    PREEMPTIONS("preemptions", true),
    /** KV cache in use, 0 to 1 (gauge; mean over engines). */
    KV_CACHE_USAGE("kv_cache_usage", false),
    /** Requests being processed (gauge; sum over engines). */
    REQUESTS_RUNNING("requests_running", false),
    /** Requests queued, deferred or waiting (gauge; sum over engines). */
    REQUESTS_WAITING("requests_waiting", false),
    /** The server's own recent prefix-cache hit rate, 0 to 1 (gauge; mean over engines). */
    SERVER_HIT_RATE("server_hit_rate", false);

    private final String key;
    private final boolean counter;

    Role(String key, boolean counter) {
      this.key = key;
      this.counter = counter;
    }

    /**
     * The role's key in {@code llm-run.json}.
     *
     * @return e.g. {@code kv_cache_usage}
     */
    public String key() {
      return key;
    }

    /**
     * Whether the series is a counter (recorded as a delta too) rather than a gauge.
     *
     * @return true for counters
     */
    public boolean counter() {
      return counter;
    }

    /** Ratios are averaged over label sets (engines, ranks); counts are summed. */
    boolean averaged() {
      return this == KV_CACHE_USAGE || this == SERVER_HIT_RATE;
    }
  }

  private final String displayName;
  private final String prefix;
  private final Map<Role, List<String>> series;
  private final String hitRateFormula;

  ServerEngine(
      String displayName, String prefix, Map<Role, List<String>> series, String hitRateFormula) {
    this.displayName = displayName;
    this.prefix = prefix;
    this.series = series;
    this.hitRateFormula = hitRateFormula;
  }

  /**
   * The engine's name, as the server probe spells it.
   *
   * @return e.g. {@code vLLM}
   */
  public String displayName() {
    return displayName;
  }

  /**
   * How the server's prefix-cache hit rate is computed from the deltas of its counters.
   *
   * @return a formula over role keys
   */
  public String hitRateFormula() {
    return hitRateFormula;
  }

  /**
   * The engine whose series an exposition holds: the first of vLLM, SGLang, llama.cpp and the
   * simulator one of whose name prefixes it uses.
   *
   * @param exposition a parsed {@code /metrics} answer
   * @return the engine, or null for a server whose series are none of these
   */
  public static ServerEngine detect(Exposition exposition) {
    for (ServerEngine engine : values()) {
      for (String name : exposition.names()) {
        if (name.startsWith(engine.prefix)) {
          return engine;
        }
      }
    }
    return null;
  }

  /**
   * The series of each role that an exposition holds, with its value: the first of the role's names
   * present, summed over its label sets (averaged for ratios).
   *
   * @param exposition a parsed {@code /metrics} answer
   * @return role to (series name, value), in role order; roles without a series are absent
   */
  public Map<Role, Map.Entry<String, Double>> read(Exposition exposition) {
    Map<Role, Map.Entry<String, Double>> out = new LinkedHashMap<>();
    for (Role role : Role.values()) {
      for (String name : series.getOrDefault(role, List.of())) {
        Double value = role.averaged() ? exposition.mean(name) : exposition.sum(name);
        if (value != null) {
          out.put(role, Map.entry(name, value));
          break;
        }
      }
    }
    return out;
  }

  /**
   * The prefix-cache hit rate of the prompt tokens a server processed, from its counters' deltas.
   *
   * @param deltas role to the counter's increase over a window
   * @return hits / prompt tokens in [0, 1], or null when the counters are missing or no prompt
   *     token was processed
   */
  public Double hitRate(Map<Role, Double> deltas) {
    Double hits;
    Double total;
    switch (this) {
      case VLLM -> {
        hits = deltas.get(Role.PREFIX_CACHE_HITS);
        total = deltas.get(Role.PREFIX_CACHE_QUERIES);
      }
      case LLAMA_CPP -> {
        hits = deltas.get(Role.CACHED_PROMPT_TOKENS);
        Double processed = deltas.get(Role.PROMPT_TOKENS);
        total = hits == null || processed == null ? null : hits + processed;
      }
      default -> {
        hits = deltas.get(Role.CACHED_PROMPT_TOKENS);
        total = deltas.get(Role.PROMPT_TOKENS);
      }
    }
    if (hits == null || total == null || !(total > 0)) {
      return null;
    }
    return Math.max(0, Math.min(1, hits / total));
  }

  /**
   * What the server says of its KV cache: vLLM's {@code vllm:cache_config_info} labels ({@code
   * block_size}, {@code num_gpu_blocks}), SGLang's {@code sglang:max_total_num_tokens}, the
   * simulator's block size and capacity.
   *
   * @param exposition a parsed {@code /metrics} answer
   * @return {@code block_size_tokens} and {@code capacity_tokens} when known (each may be absent);
   *     empty when the server says neither
   */
  public Map<String, Object> cacheConfig(Exposition exposition) {
    Map<String, Object> out = new LinkedHashMap<>();
    switch (this) {
      case VLLM -> {
        for (Sample s : exposition.samples("vllm:cache_config_info")) {
          Long block = whole(s.labels().get("block_size"));
          Long blocks = whole(s.labels().get("num_gpu_blocks"));
          if (block != null) {
            out.put("block_size_tokens", block);
            if (blocks != null) {
              out.put("capacity_tokens", block * blocks);
            }
            break;
          }
        }
      }
      case SGLANG -> {
        Double tokens = exposition.sum("sglang:max_total_num_tokens");
        if (tokens != null && tokens > 0) {
          out.put("capacity_tokens", Math.round(tokens));
        }
      }
      case SIMULATOR -> {
        Double block = exposition.sum("gatling_llm_simulator_cache_block_size_tokens");
        Double blocks = exposition.sum("gatling_llm_simulator_cache_capacity_blocks");
        if (block != null) {
          out.put("block_size_tokens", Math.round(block));
          if (blocks != null) {
            out.put("capacity_tokens", Math.round(block * blocks));
          }
        }
      }
      default -> {
        // llama.cpp's metrics say nothing of it (its /props gives the context size).
      }
    }
    return out;
  }

  private static Long whole(String text) {
    if (text == null) {
      return null;
    }
    try {
      return Math.round(Double.parseDouble(text));
    } catch (NumberFormatException e) {
      return null;
    }
  }
}
