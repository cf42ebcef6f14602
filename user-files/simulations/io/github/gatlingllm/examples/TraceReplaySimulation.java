package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.trace;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.TraceFeederBuilder;

/**
 * Replays a Mooncake-format trace: each row is one streamed chat completion sent at the row's
 * timestamp, its prompt one 512-token block per hash id (rows sharing leading ids share exactly
 * those blocks, so the server's prefix cache can serve them), asking for the row's {@code
 * output_length} tokens ({@code ignore_eos}, so servers that honour it generate all of them).
 *
 * <p>By default the 60-row sample {@code user-files/resources/traces/sample_trace.jsonl} (6
 * sessions whose prompts grow turn by turn, over 30 s). Run any trace with {@code -Dllm.trace=PATH}
 * (plain or gzip JSONL), faster or slower with {@code -Dllm.trace.timeScale=2.0}, with another
 * block size with {@code -Dllm.trace.blockTokens=...}; against a server with {@code
 * -Dllm.baseUrl=http://host:port/v1} and its tokenizer ({@code -Dllm.tokenizer=...}) for blocks of
 * exactly its tokens.
 */
public class TraceReplaySimulation extends Simulation {

  LlmProtocolBuilder llm = llm().ignoreEos(true);

  TraceFeederBuilder trace =
      trace("user-files/resources/traces/sample_trace.jsonl").blockTokens(512).timeScale(1.0);

  ScenarioBuilder replay = scenario("replay").feed(trace).exec(llm("replay").request());

  {
    setUp(replay.injectOpen(trace.arrivals()))
        .protocols(llm)
        .assertions(llm.assertions(1.0, "replay"));
  }
}
