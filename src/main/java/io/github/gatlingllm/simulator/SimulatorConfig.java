package io.github.gatlingllm.simulator;

import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.TokenCounter;

/**
 * How the embedded {@link Simulator} behaves: its model name, how it counts prompt tokens, its
 * prefix cache, its timing model and its limits. Immutable; each {@code with...} method returns a
 * new instance.
 *
 * <p>The timing fields feed the timing model described on {@link Simulator}. {@link #defaults()}
 * resembles a small model on a fast GPU; {@link #zeroDelay()} answers as fast as it can, for
 * benchmarks of the load generator itself.
 *
 * @param model the model id served and echoed in every response, never blank; default {@value
 *     #DEFAULT_MODEL}
 * @param tokenCounter counts prompt tokens and, for a {@link
 *     io.github.gatlingllm.token.HuggingFaceTokenCounter}, gives the token ids the prefix cache
 *     works on; never null; default {@link EstimatedTokenCounter#INSTANCE}. The simulator uses it
 *     but does not own it: close a Hugging Face counter after the simulator
 * @param blockSize prefix-cache block size, in tokens, at least 1; default 16 (as vLLM)
 * @param cacheBlocks prefix-cache capacity, in blocks, at least 0 (0 turns the cache off); least
 *     recently used blocks are evicted first; default 65,536
 * @param baseTtftMs fixed part of the time to first token, in milliseconds, finite and at least 0;
 *     default 20
 * @param prefillUsPerToken prefill time per uncached prompt token, in microseconds, finite and at
 *     least 0; default 50 (20,000 prompt tokens per second)
 * @param decodeMsPerToken time between two output tokens, in milliseconds, finite and at least 0;
 *     default 10 (100 tokens per second per sequence)
 * @param maxConcurrent sequences generating at once, at least 1; requests beyond it wait in FIFO
 *     order; default 64
 * @param tokensPerChunk output tokens per streamed chunk after the first, at least 1; default 1
 * @param contextLength the largest prompt accepted, in tokens, at least 1; longer prompts get HTTP
 *     400 {@code exceed_context_size_error}; also the largest {@code max_tokens} accepted; default
 *     32,768
 * @param defaultMaxTokens output tokens of a request that names neither {@code max_tokens} nor
 *     {@code max_completion_tokens}, between 1 and {@code contextLength}; default 16 (as OpenAI's
 *     completions)
 * @param recordCapacity how many {@link ServedRequest}s the simulator keeps (the newest), at least
 *     0; default 10,000
 * @param recordSendTimes whether each {@link ServedRequest} of a streamed request keeps the time
 *     each of its token chunks was sent ({@link ServedRequest#sentNanos()}: 8 bytes a chunk, for
 *     checking a client's TTFT and inter-token latencies against the server's own clock); default
 *     false
 * @param reasoningTokens the reasoning mode: each reply starts with this many reasoning tokens
 *     (chat: {@code reasoning_content} deltas, as vLLM, SGLang and llama.cpp send them;
 *     completions: text inside {@code <think>...</think>}), then the answer; they count towards
 *     {@code max_tokens}, so a reply of at most this many tokens never answers; {@code usage}
 *     reports them in {@code completion_tokens_details.reasoning_tokens}. At least 0; 0 (the
 *     default) turns the mode off
 */
public record SimulatorConfig(
    String model,
    TokenCounter tokenCounter,
    int blockSize,
    int cacheBlocks,
    double baseTtftMs,
    double prefillUsPerToken,
    double decodeMsPerToken,
    int maxConcurrent,
    int tokensPerChunk,
    int contextLength,
    int defaultMaxTokens,
    int recordCapacity,
    boolean recordSendTimes,
    int reasoningTokens) {

  /** The default model id. */
  public static final String DEFAULT_MODEL = "gatling-llm-simulator";

  private static final SimulatorConfig DEFAULTS =
      new SimulatorConfig(
          DEFAULT_MODEL,
          EstimatedTokenCounter.INSTANCE,
          16,
          65_536,
          20,
          50,
          10,
          64,
          1,
          32_768,
          16,
          10_000,
          false,
          0);

  /**
   * Checks every field.
   *
   * @throws IllegalArgumentException if a field is out of range; the message names the field, the
   *     value and what is allowed
   */
  public SimulatorConfig {
    if (model == null || model.isBlank()) {
      throw new IllegalArgumentException(
          "model must be a non-blank model id, got "
              + (model == null ? "null" : "\"" + model + "\""));
    }
    if (tokenCounter == null) {
      throw new IllegalArgumentException(
          "tokenCounter must be a token counter (e.g. EstimatedTokenCounter.INSTANCE), got null");
    }
    atLeast("blockSize", blockSize, 1, "tokens");
    atLeast("cacheBlocks", cacheBlocks, 0, "blocks; 0 turns the prefix cache off");
    nonNegative("baseTtftMs", baseTtftMs, "milliseconds");
    nonNegative("prefillUsPerToken", prefillUsPerToken, "microseconds per token");
    nonNegative("decodeMsPerToken", decodeMsPerToken, "milliseconds per token");
    atLeast("maxConcurrent", maxConcurrent, 1, "sequences");
    atLeast("tokensPerChunk", tokensPerChunk, 1, "tokens");
    atLeast("contextLength", contextLength, 1, "tokens");
    if (defaultMaxTokens < 1 || defaultMaxTokens > contextLength) {
      throw new IllegalArgumentException(
          "defaultMaxTokens must be between 1 and contextLength ("
              + contextLength
              + ") tokens, got "
              + defaultMaxTokens);
    }
    atLeast("recordCapacity", recordCapacity, 0, "records");
    atLeast("reasoningTokens", reasoningTokens, 0, "tokens; 0 turns the reasoning mode off");
  }

  /**
   * A copy with the reasoning mode: {@code reasoningTokens} reasoning tokens before each answer.
   *
   * @param reasoningTokens reasoning tokens a reply starts with, at least 0 (0: off)
   * @return the new configuration
   * @throws IllegalArgumentException if {@code reasoningTokens} is negative
   */
  public SimulatorConfig withReasoningTokens(int reasoningTokens) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  private static void atLeast(String field, int value, int min, String unit) {
    if (value < min) {
      throw new IllegalArgumentException(
          field + " must be >= " + min + " (" + unit + "), got " + value);
    }
  }

  private static void nonNegative(String field, double value, String unit) {
    if (!(value >= 0) || Double.isInfinite(value)) {
      throw new IllegalArgumentException(
          field + " must be a finite number >= 0 (" + unit + "), got " + value);
    }
  }

  /**
   * The documented defaults: model {@value #DEFAULT_MODEL}, whitespace-word token estimate, blocks
   * of 16 tokens, 65,536 cached blocks, 20 ms base TTFT, 50 µs prefill per uncached prompt token,
   * 10 ms per output token, 64 concurrent sequences, 1 token per chunk, 32,768-token context, 16
   * output tokens by default, 10,000 records kept, without send times.
   *
   * @return the default configuration
   */
  public static SimulatorConfig defaults() {
    return DEFAULTS;
  }

  /**
   * The defaults with every time set to 0: each request is answered as soon as it is admitted,
   * still one SSE event per chunk (all flushed together). For benchmarks of the load generator, not
   * for latency figures.
   *
   * @return the zero-delay configuration
   */
  public static SimulatorConfig zeroDelay() {
    return DEFAULTS.withBaseTtftMs(0).withPrefillUsPerToken(0).withDecodeMsPerToken(0);
  }

  /**
   * Whether every time of the timing model is 0.
   *
   * @return true if base TTFT, prefill and decode times are all 0
   */
  public boolean isZeroDelay() {
    return baseTtftMs == 0 && prefillUsPerToken == 0 && decodeMsPerToken == 0;
  }

  /**
   * A copy with another model id.
   *
   * @param model the model id, never blank
   * @return the new configuration
   * @throws IllegalArgumentException if the id is null or blank
   */
  public SimulatorConfig withModel(String model) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another prompt token counter.
   *
   * @param tokenCounter the counter, never null; the caller keeps ownership
   * @return the new configuration
   * @throws IllegalArgumentException if the counter is null
   */
  public SimulatorConfig withTokenCounter(TokenCounter tokenCounter) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another prefix-cache block size.
   *
   * @param blockSize tokens per block, at least 1
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withBlockSize(int blockSize) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another prefix-cache capacity.
   *
   * @param cacheBlocks capacity in blocks, at least 0 (0 turns the cache off)
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withCacheBlocks(int cacheBlocks) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another base time to first token.
   *
   * @param baseTtftMs milliseconds, finite and at least 0
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withBaseTtftMs(double baseTtftMs) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another prefill time.
   *
   * @param prefillUsPerToken microseconds per uncached prompt token, finite and at least 0
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withPrefillUsPerToken(double prefillUsPerToken) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another decode time.
   *
   * @param decodeMsPerToken milliseconds per output token, finite and at least 0
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withDecodeMsPerToken(double decodeMsPerToken) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another concurrency limit.
   *
   * @param maxConcurrent sequences generating at once, at least 1
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withMaxConcurrent(int maxConcurrent) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another chunk size.
   *
   * @param tokensPerChunk output tokens per streamed chunk after the first, at least 1
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withTokensPerChunk(int tokensPerChunk) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another context length.
   *
   * @param contextLength tokens, at least 1 and at least {@link #defaultMaxTokens()}
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withContextLength(int contextLength) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy with another default output length.
   *
   * @param defaultMaxTokens tokens, between 1 and {@link #contextLength()}
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withDefaultMaxTokens(int defaultMaxTokens) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy that keeps another number of request records.
   *
   * @param recordCapacity records kept, at least 0
   * @return the new configuration
   * @throws IllegalArgumentException if out of range
   */
  public SimulatorConfig withRecordCapacity(int recordCapacity) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /**
   * A copy that records, or not, when each token chunk of a streamed request was sent.
   *
   * @param recordSendTimes whether {@link ServedRequest#sentNanos()} is filled
   * @return the new configuration
   */
  public SimulatorConfig withRecordSendTimes(boolean recordSendTimes) {
    return new SimulatorConfig(
        model,
        tokenCounter,
        blockSize,
        cacheBlocks,
        baseTtftMs,
        prefillUsPerToken,
        decodeMsPerToken,
        maxConcurrent,
        tokensPerChunk,
        contextLength,
        defaultMaxTokens,
        recordCapacity,
        recordSendTimes,
        reasoningTokens);
  }

  /** Base time to first token, in nanoseconds (rounded). */
  long baseTtftNanos() {
    return Math.round(baseTtftMs * 1_000_000.0);
  }

  /** Prefill time of {@code tokens} uncached prompt tokens, in nanoseconds (rounded). */
  long prefillNanos(int tokens) {
    return Math.round(prefillUsPerToken * 1_000.0 * tokens);
  }

  /** Time per output token, in nanoseconds (rounded). */
  long decodeNanos() {
    return Math.round(decodeMsPerToken * 1_000_000.0);
  }
}
