package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.details;

import io.gatling.javaapi.core.Assertion;
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

  /**
   * A Gatling assertion that at least {@code ratio} of the measured requests named {@code name} met
   * the run's SLO ({@code llm.slo.*}): {@code details(name + " SLO").successfulRequests().percent()
   * .gte(ratio * 100)}. Each request logs one {@code name SLO} row when an SLO is set (OK when it
   * met the SLO, KO naming what it missed); warmup rows are in the {@code warmup} group and do not
   * count. A failed assertion fails the build as any Gatling assertion does; the run's log then
   * names the criteria that were missed. Note that the KO rows also count in Gatling's global
   * failure figures: assert on failed requests with {@code details(name + " E2E")}.
   *
   * @param name the request name
   * @param ratio the least attainment, in (0, 1]
   * @return the assertion
   * @throws IllegalArgumentException if {@code ratio} is not in (0, 1]
   */
  public static Assertion goodputRatio(String name, double ratio) {
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException(
          "goodput ratio: got " + ratio + ", expected a share in (0, 1], e.g. 0.95");
    }
    return details(name + " SLO").successfulRequests().percent().gte(ratio * 100);
  }
}
