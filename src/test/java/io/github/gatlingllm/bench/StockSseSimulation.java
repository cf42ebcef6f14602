package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.sse;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import java.time.Duration;

/**
 * The baseline of {@code scripts/bench-streams.sh}: stock Gatling SSE that measures nothing, the
 * same load (open loop at {@code -Dbench.rate}, or closed loop of {@code -Dbench.users}), body size
 * and stream as {@link StreamLoadSimulation} but without gatling-llm (no prompt feeder, no event
 * parsing, no records, no extra report rows). Not a test.
 */
public class StockSseSimulation extends Simulation {

  private static final double RATE = Double.parseDouble(System.getProperty("bench.rate", "1000"));
  private static final int USERS = Integer.getInteger("bench.users", 0);
  private static final int WARMUP_S = Integer.getInteger("bench.warmupSeconds", 60);
  // The rate ramps up over three quarters of the warmup: a client at three quarters of its core
  // that meets the full rate while C2 still compiles on the same core falls behind for good.
  private static final int WARMUP_RAMP_S = WARMUP_S * 3 / 4;
  private static final int MEASURED_S = Integer.getInteger("bench.seconds", 30);
  private static final String BASE_URL = System.getProperty("llm.baseUrl");
  private static final String BODY =
      "{\"model\":\"default\",\"messages\":[{\"role\":\"user\",\"content\":\""
          + "word ".repeat(64).trim()
          + "\"}],\"stream\":true,\"stream_options\":{\"include_usage\":true},\"max_tokens\":"
          + Integer.getInteger("bench.outputTokens", 64)
          + "}";

  private final CpuSampler cpu = new CpuSampler(WARMUP_S);

  {
    // One chain for both phases (see StreamLoadSimulation); the sampler tells them apart.
    ChainBuilder chat =
        exec(cpu::started)
            .exec(
                sse("chat")
                    .post("/chat/completions")
                    .body(StringBody(BODY))
                    .asJson()
                    .await(Duration.ofSeconds(60))
                    .on(sse.checkMessage("chat [DONE]").matching(substring("\"data\":[DONE]"))))
            .exec(sse("chat close").close())
            .exec(session -> cpu.finished(session, !session.isFailed()));
    PopulationBuilder load;
    if (USERS > 0) {
      load =
          scenario("chat")
              .asLongAs(session -> cpu.before(WARMUP_S + MEASURED_S), false)
              .on(chat)
              .injectClosed(
                  rampConcurrentUsers(0).to(USERS).during(Duration.ofSeconds(WARMUP_S / 4)),
                  constantConcurrentUsers(USERS)
                      .during(Duration.ofSeconds(WARMUP_S - WARMUP_S / 4 + MEASURED_S)));
    } else {
      load =
          scenario("chat")
              .exec(chat)
              .injectOpen(
                  rampUsersPerSec(1).to(RATE).during(Duration.ofSeconds(WARMUP_RAMP_S)),
                  constantUsersPerSec(RATE).during(Duration.ofSeconds(WARMUP_S - WARMUP_RAMP_S)),
                  constantUsersPerSec(RATE).during(Duration.ofSeconds(MEASURED_S)));
    }
    setUp(load)
        .protocols(
            http.baseUrl(BASE_URL)
                .sseUnmatchedInboundMessageBufferSize(
                    Integer.getInteger("bench.outputTokens", 64) + 36)
                .disableWarmUp());
  }

  @Override
  public void before() {
    cpu.start();
  }

  @Override
  public void after() {
    cpu.write(2);
  }
}
