package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;
import static io.github.gatlingllm.LlmDsl.workingSetSweep;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.WorkingSetSweep;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * Where does the server's prefix cache start evicting? The same shared-prefix workload (prompts of
 * 1,024 tokens, 90% of them a group prefix) with 1, 2, 4, 8 and 16 prefix groups, one step after
 * another, 64 measured requests each from a closed loop of {@code llm.concurrency} users (default
 * 4). The report's working-set sweep section shows each step's hit ratio and TTFT p50/p99 against
 * the number of groups, and the cliff.
 *
 * <p>Against the embedded simulator its prefix cache is made small (384 blocks of 16 tokens: 6,144
 * tokens, room for 6.7 prefixes of about 920 tokens), so the cliff shows between 4 and 8 groups. A
 * real server ({@code -Dllm.baseUrl=...}) has its own cache: size the prompts and the steps so the
 * largest working set (groups x prefix tokens) exceeds it.
 */
public class WorkingSetSweepSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().maxTokens(16).simulator(SimulatorConfig.defaults().withCacheBlocks(384));

  WorkingSetSweep sweep =
      workingSetSweep(
          prompts().sharedPrefix(0.9, 1).inputTokens(1024).requests(64), 1, 2, 4, 8, 16);

  {
    setUp(
            sweep.populations(
                step ->
                    scenario(step.name())
                        .forever()
                        .on(feed(step.prompts()).exec(llm("chat").request()))
                        .injectOpen(atOnceUsers(concurrency(4)))))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
