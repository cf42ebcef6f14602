package io.github.gatlingllm.protocol;

import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.settings.LlmSettings;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * Not API. What every LLM request of a run carries, from the protocol and the started target: the
 * URL of each endpoint, what the body holds besides the prompt, the headers and how connections are
 * taken. {@link RunContext} hands these out to the LLM action. Immutable.
 */
final class RequestShape {

  private final LlmProtocol protocol;
  private final LlmSettings settings;
  private final RunTarget target;

  /**
   * The shape of a run's requests.
   *
   * @param protocol the protocol, never null
   * @param target the started target (its base URL and model), never null
   */
  RequestShape(LlmProtocol protocol, RunTarget target) {
    this.protocol = protocol;
    this.settings = protocol.settings();
    this.target = target;
  }

  /** See {@link RunContext#url(WireApi)}. */
  String url(WireApi endpoint) {
    return target.baseUrl() + "/" + endpoint.path();
  }

  /** See {@link RunContext#requestSettings(WireApi, Integer, Map)}. */
  RequestSettings requestSettings(WireApi endpoint, Integer maxTokens, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>(protocol.extraBody());
    body.putAll(extra);
    return new RequestSettings(
        endpoint,
        target.model(),
        maxTokens == null ? settings.outputTokens() : maxTokens,
        RequestSettings.MAX_TOKENS,
        settings.stream(),
        true,
        settings.ignoreEos() ? Boolean.TRUE : null,
        settings.temperature(),
        body.isEmpty() ? null : body);
  }

  /** See {@link RunContext#headers()}. */
  Map<String, String> headers() {
    return headers(WireApi.CHAT.dialect());
  }

  /** See {@link RunContext#headers(Dialect)}. */
  Map<String, String> headers(Dialect dialect) {
    Map<String, String> headers = new LinkedHashMap<>(protocol.headers());
    headers.putAll(dialect.headers(settings.apiKey()));
    if (settings.connectionPerRequest()) {
      headers.put("Connection", "close");
    }
    return headers;
  }

  /** See {@link RunContext#shareConnections()}. */
  boolean shareConnections() {
    return settings.sharesConnections();
  }
}
