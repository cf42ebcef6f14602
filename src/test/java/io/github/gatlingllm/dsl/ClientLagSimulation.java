package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.constantUsersPerSec;
import static io.gatling.javaapi.core.CoreDsl.nothingFor;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * A closed warm-up scenario ({@code -Dwarm} users for 2 s, default 4: a cold JVM sends its first
 * requests late, class loading and first connections on every event loop; a closed loop has no
 * schedule, so its lags do not count), and from 3 s, an open loop of {@code -Drate} users a second
 * for {@code -Dseconds} (default 6 a second for 3 s), each sending one request; with {@code
 * -DburnMs}, each open-loop user then keeps its event loop busy that long (a CPU-burning step, as a
 * heavy {@code exec} in a user's scenario would), so that users due later on the same event loop
 * start late: a starved client.
 */
public class ClientLagSimulation extends Simulation {

  static final long BURN_MS = Long.getLong("burnMs", 0);
  static final double RATE = Double.parseDouble(System.getProperty("rate", "6"));
  static final int SECONDS = Integer.getInteger("seconds", 3);
  static final int WARM = Integer.getInteger("warm", 4);

  LlmProtocolBuilder llm =
      llm().maxTokens(4).simulator(SimulatorConfig.defaults().withDecodeMsPerToken(1));

  PromptFeederBuilder prompts = prompts().inputTokens(32).requests(10_000);

  ScenarioBuilder warm = scenario("warm").feed(prompts).exec(llm("chat").chatCompletion());

  ScenarioBuilder open =
      scenario("open")
          .feed(prompts)
          .exec(llm("chat").chatCompletion())
          .exec(
              session -> {
                long end = System.nanoTime() + BURN_MS * 1_000_000;
                long spin = 0;
                while (System.nanoTime() < end) {
                  spin++;
                }
                return spin < 0 ? session.markAsFailed() : session;
              });

  {
    setUp(
            warm.injectClosed(constantConcurrentUsers(WARM).during(2)),
            open.injectOpen(nothingFor(3), constantUsersPerSec(RATE).during(SECONDS)))
        .protocols(llm);
  }
}
