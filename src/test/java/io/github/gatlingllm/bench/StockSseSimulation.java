package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.sse;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * The baseline of {@code scripts/bench-streams.sh}: stock Gatling SSE that measures nothing, the
 * same open loop, body size and stream as {@link StreamLoadSimulation} but without gatling-llm (no
 * prompt feeder, no event parsing, no records, no extra report rows). Not a test.
 */
public class StockSseSimulation extends Simulation {

  private static final double RATE = Double.parseDouble(System.getProperty("bench.rate", "1000"));
  private static final int WARMUP_S = Integer.getInteger("bench.warmupSeconds", 60);
  // The rate ramps up over three quarters of the warmup: a client at three quarters of its core
  // that meets the full rate while C2 still compiles on the same core falls behind for good.
  private static final int WARMUP_RAMP_S = WARMUP_S * 3 / 4;
  private static final int MEASURED_S = Integer.getInteger("bench.seconds", 30);
  private static final String BASE_URL = System.getProperty("llm.baseUrl");
  private static final String BODY =
      "{\"model\":\"default\",\"messages\":[{\"role\":\"user\",\"content\":\""
          + "word ".repeat(64).trim()
          + "\"}],\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":64}";

  private static final String COUNTED = "bench.counted";
  private final CpuSampler cpu = new CpuSampler();

  {
    // One chain for both phases (see StreamLoadSimulation); a session flag tells them apart.
    ChainBuilder chat =
        exec(sse("chat")
                .post("/chat/completions")
                .body(StringBody(BODY))
                .asJson()
                .await(Duration.ofSeconds(10))
                .on(sse.checkMessage("chat [DONE]").matching(substring("\"data\":[DONE]"))))
            .exec(sse("chat close").close())
            .exec(
                session -> {
                  if (session.getBoolean(COUNTED)) {
                    cpu.finished(!session.isFailed());
                  }
                  return session;
                });
    setUp(
            scenario("warmup")
                .exec(session -> session.set(COUNTED, false))
                .exec(chat)
                .injectOpen(
                    rampUsersPerSec(1).to(RATE).during(Duration.ofSeconds(WARMUP_RAMP_S)),
                    constantUsersPerSec(RATE).during(Duration.ofSeconds(WARMUP_S - WARMUP_RAMP_S))),
            scenario("measured")
                .exec(session -> session.set(COUNTED, true))
                .exec(chat)
                .injectOpen(
                    nothingFor(Duration.ofSeconds(WARMUP_S)),
                    constantUsersPerSec(RATE).during(Duration.ofSeconds(MEASURED_S))))
        .protocols(
            http.baseUrl(BASE_URL).sseUnmatchedInboundMessageBufferSize(100).disableWarmUp());
  }

  @Override
  public void after() {
    cpu.write(2);
  }
}
