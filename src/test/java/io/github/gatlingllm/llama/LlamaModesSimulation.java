package io.github.gatlingllm.llama;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.global;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmActionBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.util.List;

/**
 * Run by {@link LlamaServerTest} in a Gatling JVM of its own against a real llama.cpp server
 * ({@code scripts/llama-server.sh}, one slot): the three prompt modes one after another, each one
 * virtual user looping over its own workload of {@value #REQUESTS} prompts of {@value
 * #INPUT_TOKENS} tokens, so requests reach the single slot one at a time in index order. Every
 * request is streamed and asks for {@value #OUTPUT_TOKENS} tokens with {@code ignore_eos}.
 *
 * <p>Request (and workload) names: {@code llama repeat}, {@code llama shared-prefix} (three
 * quarters of each prompt in one of two group prefixes) and {@code llama unique}. The base URL
 * comes from {@code -Dllm.baseUrl} (required); {@code -Dllm.endpoint} picks {@code chat} (the
 * default: {@code chatCompletion()}) or {@code completions} ({@code completion()}); the tokenizer
 * and the seed come from {@code -Dllm.tokenizer} and {@code -Dllm.seed}.
 */
public class LlamaModesSimulation extends Simulation {

  /** Share of each shared-prefix prompt in its group prefix. */
  static final double SHARED_RATIO = 0.75;

  /** Number of shared-prefix groups. */
  static final int GROUPS = 2;

  /** Prompt size, in tokens. */
  static final int INPUT_TOKENS = 1024;

  /** {@code max_tokens} of every request. */
  static final int OUTPUT_TOKENS = 16;

  /** Measured requests of each mode. */
  static final int REQUESTS = 12;

  /** The prompt modes, in the order they run. */
  static final List<String> MODES = List.of("repeat", "shared-prefix", "unique");

  private static final boolean COMPLETIONS =
      "completions".equals(System.getProperty("llm.endpoint"));

  LlmProtocolBuilder llm = llm().baseUrl(baseUrl()).maxTokens(OUTPUT_TOKENS).ignoreEos(true);

  PromptFeederBuilder prompts =
      prompts()
          .inputTokens(INPUT_TOKENS)
          .requests(REQUESTS)
          .caseId("c1_in" + INPUT_TOKENS + "_out" + OUTPUT_TOKENS);

  {
    setUp(
            oneUser("repeat", prompts.repeat())
                .andThen(oneUser("shared-prefix", prompts.sharedPrefix(SHARED_RATIO, GROUPS)))
                .andThen(oneUser("unique", prompts.unique())))
        .protocols(llm)
        .assertions(global().failedRequests().count().is(0L));
  }

  /** One virtual user sending the workload's prompts until it is spent. */
  private static PopulationBuilder oneUser(String mode, PromptFeederBuilder prompts) {
    String name = "llama " + mode;
    LlmActionBuilder request = COMPLETIONS ? llm(name).completion() : llm(name).chatCompletion();
    return scenario(mode).forever().on(feed(prompts).exec(request)).injectOpen(atOnceUsers(1));
  }

  /**
   * The required {@code -Dllm.baseUrl}.
   *
   * @throws IllegalArgumentException when it is not set
   */
  static String baseUrl() {
    String url = System.getProperty("llm.baseUrl");
    if (url == null || url.isBlank()) {
      throw new IllegalArgumentException(
          "the llama simulations run against a llama.cpp server: set -Dllm.baseUrl to its /v1 URL"
              + " (eval \"$(scripts/llama-server.sh start)\" prints LLAMA_BASE_URL)");
    }
    return url;
  }
}
