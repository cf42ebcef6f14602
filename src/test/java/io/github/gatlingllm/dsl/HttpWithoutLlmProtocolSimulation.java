package io.github.gatlingllm.dsl;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.github.gatlingllm.LlmDsl.prompts;

import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Simulation;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.PromptFeederBuilder;

/**
 * {@code prompts()} fed to Gatling's own {@code http()} with only the HTTP protocol registered: 2
 * users, 3 prompts each, to {@code -Dllm.baseUrl}.
 */
public class HttpWithoutLlmProtocolSimulation extends Simulation {

  HttpProtocolBuilder httpProtocol =
      http.baseUrl(System.getProperty("llm.baseUrl")).contentTypeHeader("application/json");

  PromptFeederBuilder prompts = prompts().unique().inputTokens(32).requests(6);

  ScenarioBuilder complete =
      scenario("complete")
          .repeat(3)
          .on(
              feed(prompts)
                  .exec(session -> session.set("prompt", session.getString("llm.text")))
                  .exec(
                      http("complete")
                          .post("/completions")
                          .body(
                              StringBody(
                                  "{\"model\": \"gatling-llm-simulator\", \"prompt\":"
                                      + " #{prompt.jsonStringify()}, \"max_tokens\": 2}"))));

  {
    setUp(complete.injectOpen(atOnceUsers(2))).protocols(httpProtocol);
  }
}
