package io.github.gatlingllm;

import io.gatling.javaapi.core.ChainBuilder;
import java.util.Map;

/**
 * The entry point of gatling-llm: {@code import static io.github.gatlingllm.LlmDsl.*;}.
 *
 * <pre>{@code
 * public class MySimulation extends Simulation {
 *   private final LlmRun run = llmRun(MySimulation.class, Map.of("concurrency", "8"));
 *   {
 *     setUp(run.closedLoop(chatCompletion("chat"))).protocols(run.protocol());
 *   }
 *   public void after() { run.after(); }
 * }
 * }</pre>
 */
public final class LlmDsl {

  private LlmDsl() {}

  /**
   * Starts an LLM run from the {@code -Dllm.*} system properties over the given defaults.
   *
   * @param simulationClass the simulation's class, to find its run folder
   * @param defaults setting name (without {@code llm.}) to value, used where no property is set
   * @return the run
   * @throws IllegalArgumentException naming a bad setting, before any request is sent
   */
  public static LlmRun llmRun(Class<?> simulationClass, Map<String, String> defaults) {
    return LlmRun.start(LlmSettings.fromSystemProperties(defaults), simulationClass);
  }

  /**
   * A streamed (or, with {@code llm.stream=false}, plain) chat-completions request of the current
   * run: {@code POST {baseUrl}/chat/completions} with the fed prompt as the user message.
   *
   * <p>Gatling's report gets the SSE rows ({@code name} for the connect, {@code name [DONE]},
   * {@code name close}) and three LLM rows with their true start and end: {@code name TTFT}
   * (request start to the first token-bearing event), {@code name TPOT} (first token, lasting the
   * time per output token) and {@code name E2E} (request start to the last event). Assertions work
   * on them, e.g. {@code details("chat TTFT").responseTime().percentile(99).lt(500)}.
   *
   * @param name the request name
   * @return the chain; feed it from the run's feeder first
   * @throws IllegalStateException if no run was started
   */
  public static ChainBuilder chatCompletion(String name) {
    return LlmRun.current().chatCompletion(name);
  }

  /**
   * As {@link #chatCompletion(String)}, to {@code POST {baseUrl}/completions} with {@code prompt}.
   *
   * @param name the request name
   * @return the chain
   * @throws IllegalStateException if no run was started
   */
  public static ChainBuilder completion(String name) {
    return LlmRun.current().completion(name);
  }
}
