package io.github.gatlingllm.trace;

import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.trace;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.TraceFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * A trace ({@code -Dllm.trace}, 64-token blocks) replayed against the embedded simulator at its
 * timestamps, one request a row.
 */
public class TraceRunSimulation extends Simulation {

  LlmProtocolBuilder llm =
      llm().ignoreEos(true).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  TraceFeederBuilder trace = trace().blockTokens(64);

  ScenarioBuilder replay = scenario("replay").feed(trace).exec(llm("replay").chatCompletion());

  {
    setUp(replay.injectOpen(trace.arrivals())).protocols(llm);
  }
}
