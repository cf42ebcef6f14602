package io.github.gatlingllm.cli;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.io.PrintWriter;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.PrimitiveIterator;
import java.util.concurrent.Callable;
import java.util.stream.LongStream;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Option;
import picocli.CommandLine.ParameterException;

/**
 * {@code gatling-llm prompts}: previews or exports a run's prompts, and re-derives its digests.
 *
 * <p>Writes JSON lines to standard output: one per prompt, in the order taken ({@code index},
 * {@code prompt_id}, {@code prefix_group}, {@code shared_prefix_tokens}, {@code planned_tokens},
 * {@code digest}, and {@code text} with {@code --text}), then one summary line ({@code
 * phase_digest}, {@code prompts}, {@code spec}, {@code generator_version}, {@code seed}, {@code
 * case_id}, {@code phase}, {@code input_tokens}, {@code tokenizer}). Each prompt is taken and then
 * forgotten, so memory stays flat however many are asked for.
 */
@Command(
    name = "prompts",
    mixinStandardHelpOptions = true,
    sortOptions = false,
    description = {
      "Writes a run's prompts as JSON lines, then a summary line with the phase digest.",
      "The same settings give the same prompts and digests as a Gatling run and as the"
          + " reference generator."
    })
final class PromptsCommand implements Callable<Integer> {

  private static final ObjectMapper JSON = new ObjectMapper();

  @CommandLine.Spec private CommandLine.Model.CommandSpec spec;

  @Option(
      names = "--mode",
      paramLabel = "MODE",
      description = "repeat (default), unique or shared-prefix.")
  private String mode = PromptMode.REPEAT.wireName();

  @Option(
      names = "--shared-prefix-ratio",
      paramLabel = "RATIO",
      description =
          "Share of each prompt's tokens in its group prefix, in (0, 1); shared-prefix only, and required there.")
  private Double sharedPrefixRatio;

  @Option(
      names = "--prefix-groups",
      paramLabel = "N",
      description = "Number of group prefixes, >= 1 (default 1); shared-prefix only.")
  private Integer prefixGroups;

  @Option(names = "--seed", paramLabel = "SEED", description = "Prompt seed (default 0).")
  private long seed;

  @Option(
      names = "--case-id",
      paramLabel = "ID",
      description = "Case id (default c{concurrency}_in{input}_out{output}).")
  private String caseId;

  @Option(
      names = "--concurrency",
      paramLabel = "N",
      description = "Concurrency, for the default case id (default 1).")
  private int concurrency = 1;

  @Option(
      names = "--output-tokens",
      paramLabel = "N",
      description = "Output tokens, for the default case id (default 128).")
  private int outputTokens = 128;

  @Option(names = "--phase", paramLabel = "PHASE", description = "measured (default) or warmup.")
  private String phase = Phase.MEASURED.wireName();

  @Option(
      names = "--input-tokens",
      paramLabel = "N",
      description = "Prompt size to aim for, in tokens (default 512).")
  private int inputTokens = 512;

  @Option(
      names = "--requests",
      paramLabel = "N",
      description = "Prompts for indices 0..N-1 (default 1).")
  private Long requests;

  @Option(
      names = "--indices",
      paramLabel = "I,J,...",
      split = ",",
      description = "Prompts for these indices, in this order (instead of --requests).")
  private List<String> indices;

  @Option(
      names = "--tokenizer",
      paramLabel = "estimate|PATH",
      description = "estimate (default), or a local tokenizer.json or a folder holding one.")
  private String tokenizer = TokenCounters.ESTIMATE;

  @Option(names = "--text", description = "Include each prompt's text.")
  private boolean text;

  @Override
  public Integer call() throws JsonProcessingException {
    PromptSpec promptSpec = promptSpec();
    checkRange("--input-tokens", inputTokens, 1);
    if (inputTokens > LlmSettings.MAX_INPUT_TOKENS) {
      // A bigger one ran for minutes, then failed building the prompt.
      throw usage(
          "--input-tokens: must be <= " + LlmSettings.MAX_INPUT_TOKENS + ", got " + inputTokens);
    }
    checkRange("--concurrency", concurrency, 1);
    checkRange("--output-tokens", outputTokens, 1);
    if (!phase.equals(Phase.MEASURED.wireName()) && !phase.equals(Phase.WARMUP.wireName())) {
      throw usage("--phase: must be measured or warmup, got \"" + phase + "\"");
    }
    LongStream order = order();
    String id =
        caseId != null ? caseId : "c" + concurrency + "_in" + inputTokens + "_out" + outputTokens;
    TokenCounter counter = GatlingLlm.tokenCounter(spec.commandLine(), tokenizer);
    try {
      PromptSource source = new PromptSource(promptSpec, counter, seed, id, phase, inputTokens);
      PrintWriter out = spec.commandLine().getOut();
      long taken = 0;
      for (PrimitiveIterator.OfLong it = order.iterator(); it.hasNext(); ) {
        long index = it.nextLong();
        Prompt prompt = source.take(index);
        out.println(JSON.writeValueAsString(promptLine(index, prompt)));
        source.forget(index);
        taken++;
      }
      Map<String, Object> summary = new LinkedHashMap<>();
      summary.put("phase_digest", source.digest());
      summary.put("prompts", taken);
      summary.put("spec", promptSpec.toRecord());
      summary.put("generator_version", PromptSource.GENERATOR_VERSION);
      summary.put("seed", seed);
      summary.put("case_id", id);
      summary.put("phase", phase);
      summary.put("input_tokens", inputTokens);
      summary.put("tokenizer", counter.identity());
      out.println(JSON.writeValueAsString(summary));
      out.flush();
      return 0;
    } finally {
      GatlingLlm.close(counter);
    }
  }

  private Map<String, Object> promptLine(long index, Prompt prompt) {
    Map<String, Object> line = new LinkedHashMap<>();
    line.put("index", index);
    line.put("prompt_id", prompt.promptId());
    line.put("prefix_group", prompt.prefixGroup());
    line.put("shared_prefix_tokens", prompt.sharedPrefixTokens());
    line.put("planned_tokens", prompt.plannedCount().value());
    line.put("digest", prompt.digest());
    if (text) {
      line.put("text", prompt.text());
    }
    return line;
  }

  private PromptSpec promptSpec() {
    PromptMode promptMode;
    try {
      promptMode = PromptMode.fromWireName(mode);
    } catch (IllegalArgumentException e) {
      throw usage("--mode: must be one of " + PromptMode.allowed() + ", got \"" + mode + "\"");
    }
    boolean shared = promptMode == PromptMode.SHARED_PREFIX;
    if (shared && sharedPrefixRatio == null) {
      throw usage("--shared-prefix-ratio: required with --mode shared-prefix (a number in (0, 1))");
    }
    if (!shared && sharedPrefixRatio != null) {
      throw usage(
          "--shared-prefix-ratio: goes with --mode shared-prefix only, got it with --mode " + mode);
    }
    if (!shared && prefixGroups != null) {
      throw usage(
          "--prefix-groups: goes with --mode shared-prefix only, got it with --mode " + mode);
    }
    if (sharedPrefixRatio != null && !(sharedPrefixRatio > 0 && sharedPrefixRatio < 1)) {
      throw usage(
          "--shared-prefix-ratio: must be between 0 and 1 (exclusive), got " + sharedPrefixRatio);
    }
    if (prefixGroups != null && prefixGroups < 1) {
      throw usage("--prefix-groups: must be >= 1, got " + prefixGroups);
    }
    return new PromptSpec(promptMode, sharedPrefixRatio, prefixGroups);
  }

  private LongStream order() {
    if (requests != null && indices != null) {
      throw usage("--indices: give either --requests or --indices, not both");
    }
    if (indices != null) {
      List<Long> parsed = new ArrayList<>();
      for (String item : indices) {
        String trimmed = item.strip();
        long index;
        try {
          index = Long.parseLong(trimmed);
        } catch (NumberFormatException e) {
          throw usage("--indices: \"" + item + "\" is not a whole number (expected e.g. 5,2,9)");
        }
        if (index < 0) {
          throw usage("--indices: " + index + " is negative; request indices are >= 0");
        }
        parsed.add(index);
      }
      return parsed.stream().mapToLong(Long::longValue);
    }
    long count = requests == null ? 1 : requests;
    if (count < 1) {
      throw usage("--requests: must be >= 1, got " + count);
    }
    return LongStream.range(0, count);
  }

  private void checkRange(String option, long value, long min) {
    if (value < min) {
      throw usage(option + ": must be >= " + min + ", got " + value);
    }
  }

  private ParameterException usage(String message) {
    return new ParameterException(spec.commandLine(), message);
  }
}
