package io.github.gatlingllm.examples;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.jsonPath;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.status;
import static io.github.gatlingllm.LlmDsl.concurrency;
import static io.github.gatlingllm.LlmDsl.llm;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.LlmProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;

/**
 * Gatling's own {@code http()} fed by {@code prompts()}: {@code llm.concurrency} virtual users
 * (default 4) post {@code llm.requests} deterministic unique prompts (default 40) to {@code
 * /completions} with a body of their own, the prompt taken from the session key {@code llm.text}.
 * Registering the LLM protocol beside the HTTP one ({@code .protocols(httpProtocol, llm)}) is what
 * makes the run write {@code llm-run.json} (the prompts handed out and their digests) and {@code
 * llm-report.html}, linked from Gatling's {@code index.html}; Gatling's report has the response
 * times. Posts to {@code -Dllm.baseUrl} (with {@code -Dllm.model}); without it, to an embedded
 * simulator this simulation starts itself. See {@code docs/gatling-http.md}.
 */
public class HttpPromptsSimulation extends Simulation {

  /** The embedded simulator, when no {@code llm.baseUrl} is given. */
  private final Simulator simulator =
      System.getProperty("llm.baseUrl") == null
          ? Simulator.start(SimulatorConfig.defaults().withDecodeMsPerToken(1), 0)
          : null;

  HttpProtocolBuilder httpProtocol =
      http.baseUrl(simulator == null ? System.getProperty("llm.baseUrl") : simulator.baseUrl())
          .contentTypeHeader("application/json")
          .acceptHeader("application/json");

  LlmProtocolBuilder llm = llm();

  PromptFeederBuilder prompts = prompts().unique().inputTokens(128).requests(40);

  ScenarioBuilder complete =
      scenario("complete")
          .forever()
          .on(
              feed(prompts)
                  // Past the budget the feeder hands out llm.done = true and no prompt.
                  .exitHereIf(session -> session.getBoolean("llm.done"))
                  // Gatling's EL reads #{llm.text} as the field "text" of an attribute "llm": copy
                  // the prompt to a key without a dot for the body template.
                  .exec(session -> session.set("prompt", session.getString("llm.text")))
                  .exec(
                      http("complete")
                          .post("/completions")
                          .body(
                              StringBody(
                                  "{\"model\": \""
                                      + System.getProperty("llm.model", "gatling-llm-simulator")
                                      + "\", \"prompt\": #{prompt.jsonStringify()},"
                                      + " \"max_tokens\": 32}"))
                          .check(status().is(200), jsonPath("$.choices[0].text").exists())));

  {
    // Each user loops until the prompts are spent, then ends: the run ends with the last one.
    setUp(complete.injectOpen(atOnceUsers(concurrency(4)))).protocols(httpProtocol, llm);
  }

  @Override
  public void after() {
    if (simulator != null) {
      simulator.close();
    }
  }
}
