package io.github.gatlingllm.server;

import static org.junit.jupiter.api.Assertions.assertEquals;
import static org.junit.jupiter.api.Assertions.assertNull;

import io.github.gatlingllm.server.ServerEngine.Role;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link ServerEngine}: each engine's series, read from expositions as the servers write them. */
class ServerEngineTest {

  /** vLLM V1 with two data-parallel engines, trimmed. */
  private static final String VLLM =
      """
      # HELP vllm:num_requests_running Number of requests in model execution batches.
      # TYPE vllm:num_requests_running gauge
      vllm:num_requests_running{engine="0",model_name="Qwen/Qwen3-0.6B"} 3.0
      vllm:num_requests_running{engine="1",model_name="Qwen/Qwen3-0.6B"} 2.0
      vllm:num_requests_waiting{engine="0",model_name="Qwen/Qwen3-0.6B"} 1.0
      vllm:num_requests_waiting{engine="1",model_name="Qwen/Qwen3-0.6B"} 0.0
      vllm:gpu_cache_usage_perc{engine="0",model_name="Qwen/Qwen3-0.6B"} 0.2
      vllm:kv_cache_usage_perc{engine="0",model_name="Qwen/Qwen3-0.6B"} 0.25
      vllm:kv_cache_usage_perc{engine="1",model_name="Qwen/Qwen3-0.6B"} 0.75
      # TYPE vllm:prefix_cache_queries counter
      vllm:prefix_cache_queries_total{engine="0",model_name="Qwen/Qwen3-0.6B"} 1000.0
      vllm:prefix_cache_queries_total{engine="1",model_name="Qwen/Qwen3-0.6B"} 24.0
      vllm:prefix_cache_queries_created{engine="0",model_name="Qwen/Qwen3-0.6B"} 1.7e9
      vllm:prefix_cache_hits_total{engine="0",model_name="Qwen/Qwen3-0.6B"} 512.0
      vllm:prefix_cache_hits_total{engine="1",model_name="Qwen/Qwen3-0.6B"} 0.0
      vllm:prompt_tokens_total{engine="0",model_name="Qwen/Qwen3-0.6B"} 1024.0
      vllm:cache_config_info{block_size="16",cache_dtype="auto",enable_prefix_caching="True",\
      engine="0",num_gpu_blocks="2048"} 1.0
      """;

  private static final String SGLANG =
      """
      sglang:num_running_reqs{model_name="m",tp_rank="0"} 4.0
      sglang:num_queue_reqs{model_name="m",tp_rank="0"} 7.0
      sglang:token_usage{model_name="m",tp_rank="0"} 0.5
      sglang:cache_hit_rate{model_name="m",tp_rank="0"} 0.4
      sglang:prompt_tokens_total{model_name="m"} 900.0
      sglang:cached_tokens_total{model_name="m"} 300.0
      sglang:max_total_num_tokens{model_name="m",tp_rank="0"} 500000.0
      """;

  private static final String LLAMA =
      """
      llamacpp:prompt_tokens_total 26
      llamacpp:prompt_tokens_cached_total 24
      llamacpp:tokens_predicted_total 8
      llamacpp:requests_processing 1
      llamacpp:requests_deferred 2
      """;

  private static final String SIMULATOR =
      """
      gatling_llm_simulator_requests_total{status="200"} 2
      gatling_llm_simulator_prompt_tokens_total 200
      gatling_llm_simulator_cached_prompt_tokens_total 96
      gatling_llm_simulator_running_sequences 0
      gatling_llm_simulator_waiting_sequences 0
      gatling_llm_simulator_cache_capacity_blocks 65536
      gatling_llm_simulator_cache_block_size_tokens 16
      gatling_llm_simulator_cache_usage_ratio 0.000091552734375
      """;

  private static Map<String, Object> read(ServerEngine engine, String text) {
    Map<String, Object> out = new LinkedHashMap<>();
    engine
        .read(PrometheusText.parse(text))
        .forEach((role, e) -> out.put(role.key(), e.getKey() + "=" + e.getValue()));
    return out;
  }

  @Test
  void detectsEachEngineByItsPrefix() {
    assertEquals(ServerEngine.VLLM, ServerEngine.detect(PrometheusText.parse(VLLM)));
    assertEquals(ServerEngine.SGLANG, ServerEngine.detect(PrometheusText.parse(SGLANG)));
    assertEquals(ServerEngine.LLAMA_CPP, ServerEngine.detect(PrometheusText.parse(LLAMA)));
    assertEquals(ServerEngine.SIMULATOR, ServerEngine.detect(PrometheusText.parse(SIMULATOR)));
    assertNull(ServerEngine.detect(PrometheusText.parse("process_cpu_seconds_total 3\nup 1\n")));
  }

  @Test
  void vllmSumsCountsAndAveragesUsageOverEngines() {
    assertEquals(
        Map.of(
            "prefix_cache_queries", "vllm:prefix_cache_queries_total=1024.0",
            "prefix_cache_hits", "vllm:prefix_cache_hits_total=512.0",
            "prompt_tokens", "vllm:prompt_tokens_total=1024.0",
            "kv_cache_usage", "vllm:kv_cache_usage_perc=0.5",
            "requests_running", "vllm:num_requests_running=5.0",
            "requests_waiting", "vllm:num_requests_waiting=1.0"),
        read(ServerEngine.VLLM, VLLM));
  }

  @Test
  void vllmDeprecatedNamesWhenTheNewOnesAreMissing() {
    assertEquals(
        Map.of(
            "prefix_cache_queries", "vllm:gpu_prefix_cache_queries_total=10.0",
            "prefix_cache_hits", "vllm:gpu_prefix_cache_hits_total=4.0",
            "kv_cache_usage", "vllm:gpu_cache_usage_perc=0.3",
            "server_hit_rate", "vllm:gpu_prefix_cache_hit_rate=0.4"),
        read(
            ServerEngine.VLLM,
            "vllm:gpu_prefix_cache_queries_total 10\nvllm:gpu_prefix_cache_hits_total 4\n"
                + "vllm:gpu_cache_usage_perc 0.3\nvllm:gpu_prefix_cache_hit_rate 0.4\n"));
  }

  @Test
  void sglangSeries() {
    assertEquals(
        Map.of(
            "prompt_tokens", "sglang:prompt_tokens_total=900.0",
            "cached_prompt_tokens", "sglang:cached_tokens_total=300.0",
            "kv_cache_usage", "sglang:token_usage=0.5",
            "requests_running", "sglang:num_running_reqs=4.0",
            "requests_waiting", "sglang:num_queue_reqs=7.0",
            "server_hit_rate", "sglang:cache_hit_rate=0.4"),
        read(ServerEngine.SGLANG, SGLANG));
  }

  @Test
  void llamaCppSeries() {
    assertEquals(
        Map.of(
            "prompt_tokens", "llamacpp:prompt_tokens_total=26.0",
            "cached_prompt_tokens", "llamacpp:prompt_tokens_cached_total=24.0",
            "generation_tokens", "llamacpp:tokens_predicted_total=8.0",
            "requests_running", "llamacpp:requests_processing=1.0",
            "requests_waiting", "llamacpp:requests_deferred=2.0"),
        read(ServerEngine.LLAMA_CPP, LLAMA));
  }

  @Test
  void hitRateFormulas() {
    assertEquals(
        0.5,
        ServerEngine.VLLM.hitRate(
            Map.of(Role.PREFIX_CACHE_QUERIES, 1024.0, Role.PREFIX_CACHE_HITS, 512.0)));
    assertEquals(
        0.25,
        ServerEngine.SGLANG.hitRate(
            Map.of(Role.PROMPT_TOKENS, 400.0, Role.CACHED_PROMPT_TOKENS, 100.0)));
    // llama.cpp: 24 cached of 26 processed + 24 cached.
    assertEquals(
        0.48,
        ServerEngine.LLAMA_CPP.hitRate(
            Map.of(Role.PROMPT_TOKENS, 26.0, Role.CACHED_PROMPT_TOKENS, 24.0)));
    assertEquals(
        0.48,
        ServerEngine.SIMULATOR.hitRate(
            Map.of(Role.PROMPT_TOKENS, 200.0, Role.CACHED_PROMPT_TOKENS, 96.0)));
  }

  @Test
  void noHitRateWithoutTokensOrCounters() {
    assertNull(
        ServerEngine.VLLM.hitRate(
            Map.of(Role.PREFIX_CACHE_QUERIES, 0.0, Role.PREFIX_CACHE_HITS, 0.0)));
    assertNull(ServerEngine.SGLANG.hitRate(Map.of(Role.PROMPT_TOKENS, 400.0)));
    assertNull(ServerEngine.LLAMA_CPP.hitRate(Map.of()));
  }

  @Test
  void cacheConfigOfEachEngine() {
    assertEquals(
        Map.of("block_size_tokens", 16L, "capacity_tokens", 32768L),
        ServerEngine.VLLM.cacheConfig(PrometheusText.parse(VLLM)));
    assertEquals(
        Map.of("capacity_tokens", 500000L),
        ServerEngine.SGLANG.cacheConfig(PrometheusText.parse(SGLANG)));
    assertEquals(
        Map.of("block_size_tokens", 16L, "capacity_tokens", 1048576L),
        ServerEngine.SIMULATOR.cacheConfig(PrometheusText.parse(SIMULATOR)));
    assertEquals(Map.of(), ServerEngine.LLAMA_CPP.cacheConfig(PrometheusText.parse(LLAMA)));
    assertEquals(List.of(), PrometheusText.parse(VLLM).errors());
  }
}
