package io.github.gatlingllm.action;

import static io.gatling.javaapi.core.CoreDsl.ByteArrayBody;
import static io.gatling.javaapi.http.HttpDsl.http;

import io.gatling.core.action.Action;
import io.gatling.core.action.builder.ActionBuilder;
import io.gatling.core.structure.ScenarioContext;
import io.gatling.javaapi.http.HttpRequestActionBuilder;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.protocol.LlmProtocol;
import io.github.gatlingllm.protocol.RunContext;
import java.util.Map;
import java.util.Objects;

/**
 * Not API. Gatling's builder of the LLM action: when the scenario is built it finds the run in the
 * LLM protocol's components, resolves the request's body settings (an extra field the body sets
 * itself is refused here, before any load) and builds the HTTP request once with Gatling's own DSL
 * against the scenario's HTTP protocol.
 */
public final class LlmScalaActionBuilder implements ActionBuilder {

  /** Session key of the request body's bytes, set only on the copy the request is built from. */
  static final String BODY = "llm.body";

  /**
   * Session key of a conversation turn's session id, the value of {@code llm.sessionHeader}; set
   * only on the copy the request is built from.
   */
  static final String SESSION_ID = "llm.sessionId";

  private final LlmActionSpec spec;

  /**
   * A builder of the action a spec describes.
   *
   * @param spec never null
   */
  public LlmScalaActionBuilder(LlmActionSpec spec) {
    this.spec = Objects.requireNonNull(spec, "spec");
  }

  /**
   * The line that refuses {@code llm.responses.history=server} for a request of an API that keeps
   * no history on the server.
   */
  static String historyRefusal(String name, String api) {
    return "llm.responses.history: got \"server\", but llm(\""
        + name
        + "\") speaks "
        + api
        + ", which keeps no history on the server (only the Responses API has"
        + " previous_response_id): use llm.endpoint=responses (or llm(\""
        + name
        + "\").responses()), or llm.responses.history=client";
  }

  /**
   * The line that refuses an agent session on an API without tools (the completions API), before
   * any load: it names {@code llm.endpoint} and its value when the API came from that setting, else
   * the request's own {@code .completion()}.
   *
   * @param name the request's name
   * @param fromSetting whether the API is the protocol's {@code llm.endpoint} (the request named
   *     none)
   * @param value the setting's value, e.g. {@code completions}
   * @return the line
   */
  static String agentRefusal(String name, boolean fromSetting, String value) {
    String needs =
        "agentSession(llm(\""
            + name
            + "\")...) sends tools and reads tool calls, which the completions API (a raw text"
            + " prompt) has not";
    if (fromSetting) {
      return "llm.endpoint: got \""
          + value
          + "\", but "
          + needs
          + "; expected chat, responses or messages (or llm(\""
          + name
          + "\").chatCompletion() for this request)";
    }
    return "agentSession(llm(\""
        + name
        + "\").completion()): "
        + needs
        + "; expected llm(\""
        + name
        + "\").chatCompletion(), .responses() or .messages()";
  }

  @Override
  public Action build(ScenarioContext ctx, Action next) {
    RunContext run;
    try {
      run = ctx.protocolComponentsRegistry().components(LlmProtocol.KEY).run();
    } catch (IllegalArgumentException e) {
      String m = String.valueOf(e.getMessage());
      if (m.startsWith("llm.") || m.startsWith("llm pre-flight")) {
        // The run's own line (a setting, the target): not about this request.
        throw e;
      }
      throw new IllegalArgumentException("llm(\"" + spec.name() + "\"): " + m, e);
    }
    WireApi endpoint = spec.endpoint() != null ? spec.endpoint() : run.settings().endpointKind();
    if (spec.kind() == LlmActionSpec.Kind.AGENT && endpoint == WireApi.COMPLETIONS) {
      throw new IllegalArgumentException(
          agentRefusal(spec.name(), spec.endpoint() == null, run.settings().endpoint()));
    }
    Dialect dialect = endpoint.dialect();
    if (run.settings().historyOnServer() && !dialect.keepsHistoryOnServer()) {
      throw new IllegalArgumentException(historyRefusal(spec.name(), endpoint.settingName()));
    }
    if (spec.sessionTurn() && dialect.keepsHistoryOnServer()) {
      // Before any load: a server that refuses previous_response_id stops the run here.
      run.checkServerHistory();
    }
    RequestSettings body;
    try {
      body = run.requestSettings(endpoint, spec.maxTokens(), spec.body());
      dialect.check(body);
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm(\"" + spec.name() + "\"): " + e.getMessage(), e);
    }
    HttpRequestActionBuilder request =
        http(spec.name())
            .post(run.url(endpoint))
            .header("Content-Type", "application/json")
            .header("Accept", body.stream() ? "text/event-stream" : "application/json")
            .body(ByteArrayBody(session -> (byte[]) session.get(BODY)))
            .requestTimeout(run.settings().timeout());
    for (Map.Entry<String, String> h : run.headers(dialect).entrySet()) {
      request = request.header(h.getKey(), h.getValue());
    }
    String sessionHeader = run.settings().sessionHeader();
    if (spec.sessionTurn() && sessionHeader != null) {
      // Every turn of a session carries its id, as AIPerf's X-Session-Affinity (issue 32).
      request =
          request.header(
              sessionHeader,
              session -> {
                Object id = session.get(SESSION_ID);
                return id == null ? "" : id.toString();
              });
    }
    run.addRequestName(spec.name());
    GatlingHttp gatlingHttp = GatlingHttp.of(ctx, run.http(), request);
    // Before the load starts: the first users must not pay for the JVM's warm-up (issue 29).
    ClientWarmUp.run(spec.name(), body, gatlingHttp::clientRequest);
    return new LlmAction(spec, run, body, gatlingHttp, next);
  }
}
