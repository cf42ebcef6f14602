package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exitHereIf;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmRun;
import io.github.gatlingllm.LlmSettings;
import io.github.gatlingllm.feeder.PromptFeeder;
import java.time.Duration;
import java.util.Map;

/**
 * The client load benchmark, run by {@code scripts/bench-streams.sh}: an open loop of streamed chat
 * completions (64 output tokens each, all LLM metrics on) at {@code -Dbench.rate} streams/s, first
 * {@code -Dbench.warmupSeconds} of warmup (JIT), then {@code -Dbench.seconds} measured, against
 * {@code -Dllm.baseUrl} (a zero-delay simulator pinned to another core). Not a test.
 */
public class StreamLoadSimulation extends Simulation {

  private static final double RATE = Double.parseDouble(System.getProperty("bench.rate", "1000"));
  private static final int WARMUP_S = Integer.getInteger("bench.warmupSeconds", 60);
  // The rate ramps up over three quarters of the warmup: a client at three quarters of its core
  // that meets the full rate while C2 still compiles on the same core falls behind for good.
  private static final int WARMUP_RAMP_S = WARMUP_S * 3 / 4;
  private static final int MEASURED_S = Integer.getInteger("bench.seconds", 30);

  private final LlmRun run =
      LlmRun.start(
          LlmSettings.fromSystemProperties(
              Map.of(
                  "promptMode", "unique",
                  "inputTokens", "64",
                  "outputTokens", "64",
                  "warmupRequests", String.valueOf((long) Math.ceil(RATE * WARMUP_S)),
                  "requests", String.valueOf((long) Math.ceil(RATE * MEASURED_S)),
                  "timeout", "10s")),
          StreamLoadSimulation.class);
  private static final String MEASURED = "measured";
  private final CpuSampler cpu = new CpuSampler();

  {
    LlmRun.Workload workload = run.workload();
    // One chain for both phases, so that the JIT has compiled the very code the measured phase runs
    // (two chains made a 2-3 s backlog at the switch: TTFT up to 460 ms); the phase comes from the
    // feeder, and llm-run.json keeps the phases apart.
    ChainBuilder chat =
        exitHereIf(session -> session.getBoolean(PromptFeeder.DONE))
            .exec(run.request("chat"))
            .exec(
                session -> {
                  if (MEASURED.equals(session.getString(PromptFeeder.PHASE))) {
                    cpu.finished(!session.isFailed());
                  }
                  return session;
                });
    var warmup =
        scenario("warmup")
            .feed(workload.warmupFeeder())
            .exec(chat)
            .injectOpen(
                rampUsersPerSec(1).to(RATE).during(Duration.ofSeconds(WARMUP_RAMP_S)),
                constantUsersPerSec(RATE).during(Duration.ofSeconds(WARMUP_S - WARMUP_RAMP_S)));
    var measured =
        scenario("measured")
            .feed(workload.measuredFeeder())
            .exec(chat)
            .injectOpen(
                nothingFor(Duration.ofSeconds(WARMUP_S)),
                constantUsersPerSec(RATE).during(Duration.ofSeconds(MEASURED_S)));
    // Both scenarios start together; the measured one's arrivals begin as the warmup's end, so the
    // rate never pauses (andThen would wait for the warmup's last stream).
    setUp(warmup, measured).protocols(run.protocol());
  }

  @Override
  public void after() {
    cpu.write(2);
    run.after();
  }
}
