package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.rampUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import java.time.Duration;

/**
 * The client load benchmark of {@code scripts/bench-streams.sh} and {@code
 * scripts/bench-open-streams.sh}: streamed chat completions with 64 output tokens each and every
 * LLM metric on, against {@code -Dllm.baseUrl} (a simulator in another process, on another core).
 * Not a test.
 *
 * <ul>
 *   <li>Open loop ({@code -Dbench.rate} streams/s, the default): {@code -Dbench.warmupSeconds} of
 *       warmup whose rate ramps up over its first three quarters (the prompt feeder's warmup phase:
 *       its rows in Gatling's group {@code warmup}), then {@code -Dbench.seconds} measured; the run
 *       ends when the measured prompt budget is spent.
 *   <li>Closed loop ({@code -Dbench.users=C}): C virtual users ramped up over the first quarter of
 *       the warmup, each sending one stream after another until warmup + measured seconds have
 *       passed; the streams that start after the warmup are the measured ones.
 * </ul>
 *
 * <p>Each request carries {@code X-Request-Id: RUN-PHASE-INDEX} ({@code -Dbench.runId}, the fed
 * record's phase and index), which the benchmark server records with its own send times ({@code
 * -Dbench.requestIds=false} leaves it out). The {@link CpuSampler} counts the streams that started
 * after the warmup; with {@code -Dbench.heapSampleSeconds=N} it also samples the used heap after a
 * full GC every N seconds.
 */
public class StreamLoadSimulation extends Simulation {

  private static final double RATE = Double.parseDouble(System.getProperty("bench.rate", "1000"));
  private static final int USERS = Integer.getInteger("bench.users", 0);
  private static final int WARMUP_S = Integer.getInteger("bench.warmupSeconds", 60);
  // The rate ramps up over three quarters of the warmup: a client at three quarters of its core
  // that meets the full rate while C2 still compiles on the same core falls behind for good.
  private static final int WARMUP_RAMP_S = WARMUP_S * 3 / 4;
  private static final int MEASURED_S = Integer.getInteger("bench.seconds", 30);
  private static final int OUTPUT_TOKENS = Integer.getInteger("bench.outputTokens", 64);
  private static final String RUN_ID = System.getProperty("bench.runId", "run");
  private static final boolean REQUEST_IDS =
      Boolean.parseBoolean(System.getProperty("bench.requestIds", "true"));

  // The fed record's session keys (PromptFeeder's).
  private static final String PHASE = "llm.phase";
  private static final String INDEX = "llm.index";

  private final CpuSampler cpu = new CpuSampler(WARMUP_S);

  LlmProtocolBuilder llm =
      llm()
          .maxTokens(OUTPUT_TOKENS)
          .timeout(Duration.ofSeconds(Integer.getInteger("bench.timeoutSeconds", 60)))
          .http(
              REQUEST_IDS
                  ? http.header(
                      "X-Request-Id",
                      session ->
                          RUN_ID + "-" + session.getString(PHASE) + "-" + session.getLong(INDEX))
                  : http);

  {
    ChainBuilder chat =
        exec(cpu::started)
            .exec(llm("chat").request())
            .exec(session -> cpu.finished(session, !session.isFailed()));
    PopulationBuilder load;
    if (USERS > 0) {
      // Measured: what starts after the warmup; the loop ends for all users at one deadline.
      PromptFeederBuilder prompts = prompts().unique().inputTokens(64).requests(Integer.MAX_VALUE);
      load =
          scenario("chat")
              .asLongAs(session -> cpu.before(WARMUP_S + MEASURED_S), false)
              .on(feed(prompts).exec(chat))
              .injectClosed(
                  rampConcurrentUsers(0).to(USERS).during(Duration.ofSeconds(WARMUP_S / 4)),
                  constantConcurrentUsers(USERS)
                      .during(Duration.ofSeconds(WARMUP_S - WARMUP_S / 4 + MEASURED_S)));
    } else {
      // One chain for both phases, so that the JIT has compiled the very code the measured phase
      // runs; the phase comes from the feeder: its warmup budget is the warmup injection's users.
      long warmup = Math.round((1 + RATE) / 2 * WARMUP_RAMP_S + RATE * (WARMUP_S - WARMUP_RAMP_S));
      PromptFeederBuilder prompts =
          prompts()
              .unique()
              .inputTokens(64)
              .warmup(Math.toIntExact(warmup))
              .requests((long) Math.ceil(RATE * MEASURED_S));
      load =
          scenario("chat")
              .feed(prompts)
              .exec(chat)
              .injectOpen(
                  rampUsersPerSec(1).to(RATE).during(Duration.ofSeconds(WARMUP_RAMP_S)),
                  constantUsersPerSec(RATE).during(Duration.ofSeconds(WARMUP_S - WARMUP_RAMP_S)),
                  constantUsersPerSec(RATE).during(Duration.ofSeconds(MEASURED_S)));
    }
    setUp(load).protocols(llm);
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
