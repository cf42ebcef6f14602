package io.github.gatlingllm.bench;

import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.token.EstimatedTokenCounter;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.concurrent.TimeUnit;
import org.openjdk.jmh.annotations.Benchmark;
import org.openjdk.jmh.annotations.BenchmarkMode;
import org.openjdk.jmh.annotations.Fork;
import org.openjdk.jmh.annotations.Level;
import org.openjdk.jmh.annotations.Measurement;
import org.openjdk.jmh.annotations.Mode;
import org.openjdk.jmh.annotations.OperationsPerInvocation;
import org.openjdk.jmh.annotations.OutputTimeUnit;
import org.openjdk.jmh.annotations.Param;
import org.openjdk.jmh.annotations.Scope;
import org.openjdk.jmh.annotations.Setup;
import org.openjdk.jmh.annotations.State;
import org.openjdk.jmh.annotations.TearDown;
import org.openjdk.jmh.annotations.Warmup;
import org.openjdk.jmh.infra.Blackhole;

/**
 * JMH benchmarks of the prompt generator: whole phases of unique and shared-prefix prompts, and the
 * one-off build of a repeat prompt.
 *
 * <p>{@link #phase} builds one phase of {@value #PHASE_PROMPTS} prompts on a fresh {@link
 * PromptSource} per operation, {@link PromptSource#warm()} included, as a feeder would hand them
 * out: {@code take(i)}, read the digest and the text, {@code forget(i)}, and the phase digest at
 * the end. Its score is microseconds per prompt. {@link #repeatPrompt} builds one {@value
 * #REPEAT_TOKENS}-token repeat prompt on a fresh source per shot, in milliseconds.
 *
 * <p>Iterations last one second or one operation, whichever is longer: a phase of {@value
 * #PHASE_PROMPTS} prompts takes from about half a second to over ten seconds on one core, so most
 * iterations are a single operation. Two warmup iterations (at least 200,000 prompts) cover the JIT
 * and the heap's growth; the whole suite takes about eight minutes on one core.
 *
 * <p>The {@code qwen3} counter is read from {@code <test.tokenizers>/qwen3/tokenizer.json} (default
 * {@code .cache/tokenizers}, where {@code scripts/fetch-tokenizers.sh} puts it). Run through {@link
 * PromptBenchmarks} or {@code scripts/bench-prompts.sh}.
 */
@Fork(
    value = 1,
    jvmArgsAppend = {"-Dai.djl.offline=true"})
public class PromptSourceBenchmark {

  /** Prompts per phase operation. */
  public static final int PHASE_PROMPTS = 100_000;

  /** The size of the repeat prompt, in tokens. */
  public static final int REPEAT_TOKENS = 8_192;

  /** The seed of every source. */
  public static final long SEED = 0;

  /** The phase of every source. */
  public static final String PHASE = "measured";

  /** The shared-prefix ratio. */
  public static final double SHARED_PREFIX_RATIO = 0.5;

  /** The shared-prefix groups. */
  public static final int SHARED_PREFIX_GROUPS = 4;

  /** How many prompts of a phase {@link #averageUtf8Bytes} reads. */
  public static final int BYTES_SAMPLE = 1_000;

  /** The counter name that selects the Qwen3 tokenizer. */
  public static final String QWEN3 = "qwen3";

  /** The counter name that selects the estimated counter. */
  public static final String ESTIMATE = "estimate";

  /** The state of a phase benchmark: its settings and its counter, loaded once per trial. */
  @State(Scope.Benchmark)
  public static class PhaseState {

    /** The prompt mode: {@code unique} or {@code shared-prefix}. */
    @Param({"unique", "shared-prefix"})
    public String mode;

    /** The prompt size, in tokens of the counter. */
    @Param({"512", "2048", "8192"})
    public int inputTokens;

    /** The counter: {@code estimate} or {@code qwen3}. */
    @Param({ESTIMATE, QWEN3})
    public String counter;

    TokenCounter tokenCounter;
    PromptSpec spec;
    String caseId;

    /** Loads the counter and reports the prompts' average size. */
    @Setup(Level.Trial)
    public void setUp() {
      tokenCounter = counter(counter);
      spec = spec(mode);
      caseId = caseId(inputTokens);
      double bytes = averageUtf8Bytes(mode, inputTokens, tokenCounter);
      System.out.printf(
          "%n# %s, %d tokens, %s: %.1f UTF-8 bytes a prompt (first %d prompts)%n",
          mode, inputTokens, counter, bytes, BYTES_SAMPLE);
    }

    /** Frees a native tokenizer. */
    @TearDown(Level.Trial)
    public void tearDown() {
      close(tokenCounter);
    }
  }

  /** The state of the repeat benchmark: its counter, loaded once per trial. */
  @State(Scope.Benchmark)
  public static class RepeatState {

    /** The counter: {@code estimate} or {@code qwen3}. */
    @Param({ESTIMATE, QWEN3})
    public String counter;

    TokenCounter tokenCounter;

    /** Loads the counter. */
    @Setup(Level.Trial)
    public void setUp() {
      tokenCounter = counter(counter);
    }

    /** Frees a native tokenizer. */
    @TearDown(Level.Trial)
    public void tearDown() {
      close(tokenCounter);
    }
  }

  /**
   * One phase of {@value #PHASE_PROMPTS} prompts on a fresh source; the score is per prompt.
   *
   * @param state the settings and the counter
   * @param blackhole takes every digest and text, and the phase digest
   */
  @Benchmark
  @BenchmarkMode(Mode.AverageTime)
  @OutputTimeUnit(TimeUnit.MICROSECONDS)
  @OperationsPerInvocation(PHASE_PROMPTS)
  @Warmup(iterations = 2, time = 1, timeUnit = TimeUnit.SECONDS)
  @Measurement(iterations = 5, time = 1, timeUnit = TimeUnit.SECONDS)
  public void phase(PhaseState state, Blackhole blackhole) {
    PromptSource source =
        new PromptSource(
            state.spec, state.tokenCounter, SEED, state.caseId, PHASE, state.inputTokens);
    source.warm();
    for (int i = 0; i < PHASE_PROMPTS; i++) {
      Prompt prompt = source.take(i);
      blackhole.consume(prompt.digest());
      blackhole.consume(prompt.text());
      source.forget(i);
    }
    blackhole.consume(source.digest());
  }

  /**
   * One {@value #REPEAT_TOKENS}-token repeat prompt on a fresh source.
   *
   * @param state the counter
   * @return the prompt, its text and digest built
   */
  @Benchmark
  @BenchmarkMode(Mode.SingleShotTime)
  @OutputTimeUnit(TimeUnit.MILLISECONDS)
  @Warmup(iterations = 3)
  @Measurement(iterations = 10)
  public Prompt repeatPrompt(RepeatState state) {
    PromptSource source =
        new PromptSource(
            PromptSpec.repeat(),
            state.tokenCounter,
            SEED,
            caseId(REPEAT_TOKENS),
            PHASE,
            REPEAT_TOKENS);
    return source.take(0);
  }

  /**
   * The counter a benchmark parameter names.
   *
   * @param name {@code estimate} or {@code qwen3}
   * @return the counter; a Qwen3 counter must be closed
   * @throws IllegalArgumentException for another name, or if the tokenizer cannot be loaded
   */
  public static TokenCounter counter(String name) {
    switch (name) {
      case ESTIMATE:
        return EstimatedTokenCounter.INSTANCE;
      case QWEN3:
        return HuggingFaceTokenCounter.load(
            Path.of(System.getProperty("test.tokenizers", ".cache/tokenizers"))
                .resolve(QWEN3)
                .resolve("tokenizer.json"));
      default:
        throw new IllegalArgumentException(
            "counter must be " + ESTIMATE + " or " + QWEN3 + ", got \"" + name + "\"");
    }
  }

  /**
   * Closes a counter that holds native memory.
   *
   * @param counter the counter, or null
   */
  public static void close(TokenCounter counter) {
    if (counter instanceof HuggingFaceTokenCounter hf) {
      hf.close();
    }
  }

  /**
   * The spec of a mode parameter.
   *
   * @param mode {@code unique} or {@code shared-prefix}
   * @return the spec; shared-prefix has ratio {@value #SHARED_PREFIX_RATIO} and {@value
   *     #SHARED_PREFIX_GROUPS} groups
   * @throws IllegalArgumentException for another mode
   */
  public static PromptSpec spec(String mode) {
    switch (mode) {
      case "unique":
        return PromptSpec.unique();
      case "shared-prefix":
        return PromptSpec.sharedPrefix(SHARED_PREFIX_RATIO, SHARED_PREFIX_GROUPS);
      default:
        throw new IllegalArgumentException(
            "mode must be unique or shared-prefix, got \"" + mode + "\"");
    }
  }

  /**
   * The case id of a prompt size: {@code c1_in<tokens>_out128}.
   *
   * @param inputTokens the prompt size, in tokens
   * @return the case id
   */
  public static String caseId(int inputTokens) {
    return "c1_in" + inputTokens + "_out128";
  }

  /**
   * The average UTF-8 size of the first {@value #BYTES_SAMPLE} prompts of a phase, built as {@link
   * #phase} builds them.
   *
   * @param mode {@code unique} or {@code shared-prefix}
   * @param inputTokens the prompt size, in tokens
   * @param counter the counter
   * @return bytes a prompt
   */
  public static double averageUtf8Bytes(String mode, int inputTokens, TokenCounter counter) {
    PromptSource source =
        new PromptSource(spec(mode), counter, SEED, caseId(inputTokens), PHASE, inputTokens);
    long bytes = 0;
    for (int i = 0; i < BYTES_SAMPLE; i++) {
      bytes += source.take(i).text().getBytes(StandardCharsets.UTF_8).length;
      source.forget(i);
    }
    return (double) bytes / BYTES_SAMPLE;
  }
}
