package io.github.gatlingllm.gatling;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.goodputRatio;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.List;

/**
 * Run by the forked-JVM tests in a Gatling JVM of its own: a closed loop of {@code llm.concurrency}
 * (default 4) virtual users against the embedded simulator with a timing model simple enough to
 * check measured timings against (TTFT 60 ms, 20 ms a token, no prefill cost, no queueing), 8
 * output tokens, unique prompts of 128 tokens, 4 warmup then 40 measured requests. Everything else
 * comes from {@code -Dllm.*} (e.g. {@code llm.baseUrl} to aim it at a test server). Its only
 * assertion is the goodput ratio, when {@code llm.assert.goodputRatio} is set: failed requests do
 * not fail the run (the fault corpus is made of them).
 */
public class OracleSimulation extends Simulation {

  static final double BASE_TTFT_MS = 60;
  static final double DECODE_MS = 20;
  static final int OUTPUT_TOKENS = 8;
  static final String CASE_ID = "c4_in128_out8";

  private static final int USERS = Integer.getInteger("llm.concurrency", 4);

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(OUTPUT_TOKENS)
          .simulator(
              SimulatorConfig.defaults()
                  .withBaseTtftMs(BASE_TTFT_MS)
                  .withPrefillUsPerToken(0)
                  .withDecodeMsPerToken(DECODE_MS)
                  .withMaxConcurrent(64));

  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(128).warmup(4).requests(40).caseId(CASE_ID);

  ScenarioBuilder chat =
      scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));

  {
    Double ratio = llm.settings().goodputRatio();
    List<Assertion> assertions = ratio == null ? List.of() : List.of(goodputRatio("chat", ratio));
    setUp(chat.injectClosed(constantConcurrentUsers(USERS).during(Duration.ofMinutes(10))))
        .protocols(llm)
        .assertions(assertions);
  }
}
