package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * The three prompt modes one after another, each a closed loop of {@code llm.concurrency} users
 * (default 4) over its own workload (4 warmup and 60 measured requests), so their prefix cache
 * effect shows side by side in the report: {@code repeat} (almost all cached after the first
 * request), {@code shared-prefix} (the group prefix cached), {@code unique} (nothing cached).
 * Request names are {@code chat repeat}, {@code chat shared-prefix} and {@code chat unique}.
 */
public class PromptModesSimulation extends Simulation {

  LlmProtocolBuilder llm = llm().maxTokens(16);

  PromptFeederBuilder base = prompts().inputTokens(512).warmup(4).requests(60);

  PopulationBuilder modes(String mode, PromptFeederBuilder prompts) {
    return scenario(mode)
        .forever()
        .on(feed(prompts.caseId("c4_in512_out16-" + mode)).exec(llm("chat " + mode).request()))
        .injectOpen(atOnceUsers(concurrency(4)));
  }

  {
    setUp(
            modes("repeat", base.repeat())
                .andThen(modes("shared-prefix", base.sharedPrefix(0.5, 4)))
                .andThen(modes("unique", base.unique())))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat repeat", "chat shared-prefix", "chat unique"));
  }
}
