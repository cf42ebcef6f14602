package io.github.gatlingllm.cli;

import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.io.PrintWriter;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code gatling-llm simulator}: runs the embedded OpenAI-compatible server until the process is
 * stopped (SIGINT or SIGTERM).
 *
 * <p>Prints one line, {@code simulator listening on http://127.0.0.1:PORT/v1}, on standard output
 * once it accepts requests. Options left out keep {@link SimulatorConfig#defaults()} (or, with
 * {@code --zero-delay}, {@link SimulatorConfig#zeroDelay()}); the timing model is described on
 * {@link Simulator}.
 */
@Command(
    name = "simulator",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Runs the embedded OpenAI-compatible LLM server on 127.0.0.1 until stopped (Ctrl-C).",
      "Serves POST /v1/chat/completions, /v1/completions, /v1/responses (OpenAI's Responses API)"
          + " and /v1/messages (Anthropic's Messages API), streamed or not; GET /v1/models, /health"
          + " and /metrics (Prometheus text)."
    })
final class SimulatorCommand implements Callable<Integer> {

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--port",
      required = true,
      paramLabel = "PORT",
      description = "TCP port on 127.0.0.1, 0 for a free one.")
  private int port;

  @Option(
      names = "--model",
      paramLabel = "NAME",
      description = "Model id served (default " + SimulatorConfig.DEFAULT_MODEL + ").")
  private String model;

  @Option(
      names = "--tokenizer",
      paramLabel = "estimate|PATH",
      description = "estimate (default), or a local tokenizer.json or a folder holding one.")
  private String tokenizer = TokenCounters.ESTIMATE;

  @Option(
      names = "--zero-delay",
      description = "Start from all times 0 (for load-generator benchmarks); timing options win.")
  private boolean zeroDelay;

  @Option(
      names = "--base-ttft-ms",
      paramLabel = "MS",
      description = "Fixed part of the time to first token, in milliseconds (default 20).")
  private Double baseTtftMs;

  @Option(
      names = "--prefill-us-per-token",
      paramLabel = "US",
      description = "Prefill time per uncached prompt token, in microseconds (default 50).")
  private Double prefillUsPerToken;

  @Option(
      names = "--decode-ms-per-token",
      paramLabel = "MS",
      description = "Time per output token, in milliseconds (default 10).")
  private Double decodeMsPerToken;

  @Option(
      names = "--max-concurrent",
      paramLabel = "N",
      description = "Sequences generating at once; more wait in FIFO order (default 64).")
  private Integer maxConcurrent;

  @Option(
      names = "--block-size",
      paramLabel = "TOKENS",
      description = "Prefix-cache block size, in tokens (default 16).")
  private Integer blockSize;

  @Option(
      names = "--cache-blocks",
      paramLabel = "N",
      description = "Prefix-cache capacity, in blocks; 0 turns it off (default 65536).")
  private Integer cacheBlocks;

  @Option(
      names = "--tokens-per-chunk",
      paramLabel = "N",
      description = "Output tokens per streamed chunk after the first (default 1).")
  private Integer tokensPerChunk;

  @Option(
      names = "--context-length",
      paramLabel = "TOKENS",
      description = "Longest prompt accepted, in tokens; longer gets HTTP 400 (default 32768).")
  private Integer contextLength;

  @Option(
      names = "--reasoning-tokens",
      paramLabel = "N",
      description =
          "Reasoning mode: each reply starts with N reasoning tokens (chat: reasoning_content;"
              + " completions: inside <think>; responses: a reasoning item; messages: a thinking"
              + " block), counted in usage (default 0: off).")
  private Integer reasoningTokens;

  private volatile Simulator running;
  private volatile boolean stopRequested;

  @Override
  public Integer call() throws InterruptedException {
    if (port < 0 || port > 65_535) {
      throw usage("--port: must be between 0 and 65535, got " + port);
    }
    if (model != null && model.isBlank()) {
      throw usage("--model: must not be blank");
    }
    checkTime("--base-ttft-ms", baseTtftMs);
    checkTime("--prefill-us-per-token", prefillUsPerToken);
    checkTime("--decode-ms-per-token", decodeMsPerToken);
    checkMin("--max-concurrent", maxConcurrent, 1);
    checkMin("--block-size", blockSize, 1);
    checkMin("--cache-blocks", cacheBlocks, 0);
    checkMin("--tokens-per-chunk", tokensPerChunk, 1);
    checkMin("--context-length", contextLength, 1);
    checkMin("--reasoning-tokens", reasoningTokens, 0);
    SimulatorConfig base = zeroDelay ? SimulatorConfig.zeroDelay() : SimulatorConfig.defaults();
    if (contextLength != null && contextLength < base.defaultMaxTokens()) {
      throw usage(
          "--context-length: must be >= "
              + base.defaultMaxTokens()
              + " (the default max_tokens), got "
              + contextLength);
    }
    TokenCounter counter = GatlingLlm.tokenCounter(spec.commandLine(), tokenizer);
    try {
      SimulatorConfig config = configure(base.withTokenCounter(counter));
      Simulator simulator = Simulator.start(config, port);
      running = simulator;
      Thread hook = new Thread(simulator::close, "gatling-llm-simulator-shutdown");
      try {
        Runtime.getRuntime().addShutdownHook(hook);
        PrintWriter out = spec.commandLine().getOut();
        out.println("simulator listening on " + simulator.baseUrl());
        out.flush();
        if (stopRequested) {
          simulator.close();
        }
        simulator.awaitClosed();
      } finally {
        running = null;
        simulator.close();
        try {
          Runtime.getRuntime().removeShutdownHook(hook);
        } catch (IllegalStateException shuttingDown) {
          // The JVM is stopping: the hook has run or is running.
        }
      }
      return 0;
    } finally {
      GatlingLlm.close(counter);
    }
  }

  private SimulatorConfig configure(SimulatorConfig config) {
    SimulatorConfig result = config;
    if (model != null) {
      result = result.withModel(model);
    }
    if (baseTtftMs != null) {
      result = result.withBaseTtftMs(baseTtftMs);
    }
    if (prefillUsPerToken != null) {
      result = result.withPrefillUsPerToken(prefillUsPerToken);
    }
    if (decodeMsPerToken != null) {
      result = result.withDecodeMsPerToken(decodeMsPerToken);
    }
    if (maxConcurrent != null) {
      result = result.withMaxConcurrent(maxConcurrent);
    }
    if (blockSize != null) {
      result = result.withBlockSize(blockSize);
    }
    if (cacheBlocks != null) {
      result = result.withCacheBlocks(cacheBlocks);
    }
    if (tokensPerChunk != null) {
      result = result.withTokensPerChunk(tokensPerChunk);
    }
    if (reasoningTokens != null) {
      result = result.withReasoningTokens(reasoningTokens);
    }
    if (contextLength != null) {
      result = result.withContextLength(contextLength);
    }
    return result;
  }

  /** Stops a running simulator (as the shutdown hook does); for tests. */
  void stop() {
    stopRequested = true;
    Simulator simulator = running;
    if (simulator != null) {
      simulator.close();
    }
  }

  /** The running simulator, or null; for tests. */
  Simulator simulator() {
    return running;
  }

  private void checkTime(String option, Double value) {
    if (value != null && !(value >= 0 && !value.isInfinite())) {
      throw usage(option + ": must be a finite number >= 0, got " + value);
    }
  }

  private void checkMin(String option, Integer value, int min) {
    if (value != null && value < min) {
      throw usage(option + ": must be >= " + min + ", got " + value);
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
