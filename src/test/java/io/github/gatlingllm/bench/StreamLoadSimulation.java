package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;

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
  private static final int WARMUP_S = Integer.getInteger("bench.warmupSeconds", 40);
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
  private final CpuSampler cpu = new CpuSampler();

  {
    LlmRun.Workload workload = run.workload();
    var warmup =
        scenario("warmup")
            .feed(workload.warmupFeeder())
            .exitHereIf(session -> session.getBoolean(PromptFeeder.DONE))
            .exec(run.request("warmup chat"))
            .injectOpen(
                rampUsersPerSec(1).to(RATE).during(Duration.ofSeconds(WARMUP_S / 2)),
                constantUsersPerSec(RATE).during(Duration.ofSeconds(WARMUP_S - WARMUP_S / 2)));
    var measured =
        scenario("measured")
            .feed(workload.measuredFeeder())
            .exitHereIf(session -> session.getBoolean(PromptFeeder.DONE))
            .exec(run.request("chat"))
            .exec(
                session -> {
                  cpu.finished(!session.isFailed());
                  return session;
                })
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
