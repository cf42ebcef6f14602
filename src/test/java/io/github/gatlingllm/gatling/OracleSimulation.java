package io.github.gatlingllm.gatling;

import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import io.github.gatlingllm.LlmSettings;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.util.Map;

/**
 * Run by {@link GatlingRunTest} in a Gatling JVM of its own: a closed loop against the embedded
 * simulator with a timing model simple enough to check measured timings against (TTFT 60 ms, 20 ms
 * a token, no prefill cost, no queueing). Settings come from {@code -Dllm.*}.
 */
public class OracleSimulation extends Simulation {

  static final double BASE_TTFT_MS = 60;
  static final double DECODE_MS = 20;

  private final LlmRun run =
      LlmRun.start(
          LlmSettings.fromSystemProperties(
              Map.of(
                  "concurrency", "4",
                  "promptMode", "unique",
                  "inputTokens", "128",
                  "outputTokens", "8",
                  "warmupRequests", "4",
                  "requests", "40")),
          OracleSimulation.class,
          SimulatorConfig.defaults()
              .withBaseTtftMs(BASE_TTFT_MS)
              .withPrefillUsPerToken(0)
              .withDecodeMsPerToken(DECODE_MS)
              .withMaxConcurrent(64));

  {
    setUp(run.closedLoop(run.request("chat")))
        .protocols(run.protocol())
        .assertions(run.assertions());
  }

  @Override
  public void after() {
    run.after();
  }
}
