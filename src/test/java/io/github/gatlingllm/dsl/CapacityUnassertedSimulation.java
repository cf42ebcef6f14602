package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.capacitySearch;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.CapacitySearchBuilder;

/**
 * A capacity search whose {@code setUp} has no assertions: {@code llm.assert.capacityAtLeast} set
 * on it could never fail the build, so the run refuses it before any load.
 */
public class CapacityUnassertedSimulation extends Simulation {

  CapacitySearchBuilder search = capacitySearch().maxRate(8).capacityAtLeast(4);

  ScenarioBuilder chat =
      scenario("search")
          .exec(search.gate())
          .feed(prompts().unique().inputTokens(64).requests(100_000))
          .exec(llm("chat").request());

  {
    setUp(chat.injectOpen(search.openProfile())).protocols(llm().maxTokens(8).sloTtftMs(100));
  }
}
