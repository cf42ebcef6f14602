package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.capacitySearch;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.CapacitySearchBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;

/**
 * Capacity in one run (issue 44): the highest arrival rate whose requests meet the SLO (TTFT at
 * most 100 ms for 95% of them), found by coarse levels up to 32 users/s, a bisection down to 5%,
 * then held for 60 s. Streamed chat completions of 32 tokens on unique 256-token prompts. The
 * answer is the console's {@code CAPACITY:} line and {@code llm-run.json}'s {@code capacity}; each
 * level of the search is there with its figures and why it ended.
 *
 * <p>Without {@code -Dllm.baseUrl} it runs against the embedded simulator set up as a server of a
 * known knee: 4 sequences at once (more wait in line), 5 ms a token: a request holds a slot about
 * 188 ms (20 ms + 256 x 0.05 ms of prefill + 31 x 5 ms), so 4 slots serve about 21.3 requests/s;
 * below that nothing waits and TTFT stays near 35 ms, above it the line grows without end. Every
 * value can be changed with {@code -Dllm.*}: {@code -Dllm.slo.ttftMs=200}, {@code
 * -Dllm.search.maxRate=64}, {@code -Dllm.search.holdSeconds=30}, {@code
 * -Dllm.search.precision=0.1}, or {@code -Dllm.search.maxUsers=16} for a concurrency search (closed
 * loop: users loop, the search sets how many are in their loop at once).
 */
public class CapacitySearchSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(32)
          .sloTtftMs(100)
          .simulator(SimulatorConfig.defaults().withMaxConcurrent(4).withDecodeMsPerToken(5));

  CapacitySearchBuilder search = capacitySearch().maxRate(32).hold(Duration.ofSeconds(60));

  // One prompt per request; the budget is far above what the search sends.
  PromptFeederBuilder prompts =
      prompts().unique().inputTokens(256).requests(1_000_000).caseId("search_in256_out32");

  boolean closed = search.settings().closed();

  // The gate first: a user the current level does not take ends there, with no prompt.
  ScenarioBuilder chat =
      closed
          ? scenario("search")
              .forever()
              .on(exec(search.gate()).feed(prompts).exec(llm("chat").request()))
          : scenario("search").exec(search.gate()).feed(prompts).exec(llm("chat").request());

  {
    setUp(
            closed
                ? chat.injectClosed(search.closedProfile())
                : chat.injectOpen(search.openProfile()))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "chat"));
  }
}
