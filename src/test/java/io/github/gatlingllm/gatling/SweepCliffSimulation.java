package io.github.gatlingllm.gatling;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.workingSetSweep;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;

/**
 * A working-set sweep against the embedded simulator whose prefix cache is {@value #CACHE_BLOCKS}
 * blocks of 16 tokens (1,536 tokens): prompts of 256 tokens (estimate), 90% of them a group prefix
 * of about 230 tokens, so the cache holds about 6.7 prefixes; steps of 1, 2, 4, 8 and 16 groups, 48
 * measured requests each from 2 users.
 */
public class SweepCliffSimulation extends Simulation {

  static final int CACHE_BLOCKS = 96;

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(4)
          .metricsInterval(Duration.ofMillis(500))
          .simulator(
              SimulatorConfig.defaults()
                  .withCacheBlocks(CACHE_BLOCKS)
                  .withBlockSize(16)
                  .withBaseTtftMs(2)
                  .withPrefillUsPerToken(100)
                  .withDecodeMsPerToken(1));

  {
    setUp(
            workingSetSweep(
                    prompts().sharedPrefix(0.9, 1).inputTokens(256).requests(48), 1, 2, 4, 8, 16)
                .populations(
                    step ->
                        scenario(step.name())
                            .forever()
                            .on(feed(step.prompts()).exec(llm("chat").chatCompletion()))
                            .injectOpen(atOnceUsers(2))))
        .protocols(llm);
  }
}
