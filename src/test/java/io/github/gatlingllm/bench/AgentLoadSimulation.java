package io.github.gatlingllm.bench;

import static io.gatling.javaapi.core.CoreDsl.constantConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.rampConcurrentUsers;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.github.gatlingllm.LlmDsl.agentSession;
import static io.github.gatlingllm.LlmDsl.agents;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.Simulation;
import io.github.gatlingllm.LlmProtocolBuilder;
import java.time.Duration;

/**
 * The end-to-end side of {@code scripts/bench-agent-sessions.sh}: a closed loop of {@code
 * -Dbench.users} virtual users against {@code -Dllm.baseUrl} (the simulator in another process,
 * zero delay), for {@code -Dbench.warmupSeconds} of warmup (users ramped up over its first quarter)
 * then {@code -Dbench.seconds} measured. Not a test.
 *
 * <ul>
 *   <li>{@code -Dbench.workload=agent} (default): each user runs one agent session after another
 *       ({@code agents()}: 4 tools, a {@code -Dbench.taskTokens} task, {@code
 *       -Dbench.toolResultTokens} tool results, at most {@code -Dbench.toolCalls} loops, no tool
 *       latency, {@code tool_choice} {@code -Dbench.toolChoice}); the {@link CpuSampler} counts
 *       sessions, so its figures are a session's.
 *   <li>{@code -Dbench.workload=prompts}: each user sends one chat request after another, unique
 *       prompts of {@code -Dbench.inputTokens}; the sampler counts requests.
 * </ul>
 *
 * Both ask {@code -Dbench.outputTokens} (64) at most a reply.
 */
public class AgentLoadSimulation extends Simulation {

  private static final String WORKLOAD = System.getProperty("bench.workload", "agent");
  private static final int USERS = Integer.getInteger("bench.users", 64);
  private static final int WARMUP_S = Integer.getInteger("bench.warmupSeconds", 30);
  private static final int MEASURED_S = Integer.getInteger("bench.seconds", 30);
  private static final int OUTPUT_TOKENS = Integer.getInteger("bench.outputTokens", 64);

  private final CpuSampler cpu = new CpuSampler(WARMUP_S);

  LlmProtocolBuilder llm = llm().maxTokens(OUTPUT_TOKENS).timeout(Duration.ofSeconds(60));

  {
    ChainBuilder one;
    if (WORKLOAD.equals("agent")) {
      one =
          feed(agents()
                  .tools(4, 48)
                  .taskTokens(Integer.getInteger("bench.taskTokens", 128))
                  .toolResultTokens(Integer.getInteger("bench.toolResultTokens", 192))
                  .toolCalls(Integer.getInteger("bench.toolCalls", 4))
                  .toolLatency(Duration.ZERO)
                  .toolChoice(System.getProperty("bench.toolChoice", "auto"))
                  .sessions(Integer.MAX_VALUE)
                  .maxContextTokens(32_768))
              .exec(agentSession(llm("agent").request()));
    } else if (WORKLOAD.equals("prompts")) {
      one =
          feed(prompts()
                  .unique()
                  .inputTokens(Integer.getInteger("bench.inputTokens", 1024))
                  .requests(Integer.MAX_VALUE))
              .exec(llm("chat").request());
    } else {
      throw new IllegalArgumentException(
          "bench.workload must be agent or prompts, got \"" + WORKLOAD + "\"");
    }
    setUp(
            scenario(WORKLOAD)
                .asLongAs(session -> cpu.before(WARMUP_S + MEASURED_S), false)
                .on(
                    exec(cpu::started)
                        .exec(one)
                        .exec(session -> cpu.finished(session, !session.isFailed())))
                .injectClosed(
                    rampConcurrentUsers(0).to(USERS).during(Duration.ofSeconds(WARMUP_S / 4)),
                    constantConcurrentUsers(USERS)
                        .during(Duration.ofSeconds(WARMUP_S - WARMUP_S / 4 + MEASURED_S))))
        .protocols(llm);
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
