package io.github.gatlingllm.protocol;

import io.gatling.javaapi.http.HttpDsl;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.settings.BodyFields;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.settings.SimulatorSettings;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.util.List;
import java.util.Map;
import java.util.Properties;

/**
 * Not API: {@code LlmProtocolBuilder.protocol()}'s work. Puts the LLM protocol together from what
 * the builder holds, once the settings are resolved: the further body fields checked against the
 * fields the settings make the body set, Gatling's HTTP protocol prepared for the LLM requests, and
 * the {@code -Dllm.simulator.*} properties applied over the simulator's configuration.
 */
public final class ProtocolAssembly {

  private ProtocolAssembly() {}

  /**
   * The protocol; nothing is sent.
   *
   * @param settings the resolved, checked settings, never null
   * @param simulator the simulation's simulator configuration, or null for {@link
   *     SimulatorConfig#defaults()}
   * @param extraBody further top-level body fields of every request, never null; each is checked
   *     against the fields the body sets itself with these settings ({@code temperature}, {@code
   *     ignore_eos}, {@code stream_options}...)
   * @param headers further headers of every request, never null
   * @param simulationClass the simulation's class, or null when not known
   * @param http Gatling's HTTP protocol builder, or null for {@code http}; its warm-up call is
   *     turned off, and its connections are shared by all virtual users unless {@code
   *     llm.connections=per-user}
   * @param properties where {@code llm.simulator.*} are looked up, e.g. {@link
   *     System#getProperties()}
   * @return the protocol
   * @throws IllegalArgumentException naming a body field the body sets itself, a bad {@code
   *     llm.simulator.*} property, or a results folder that cannot be listed
   */
  public static LlmProtocol assemble(
      LlmSettings settings,
      SimulatorConfig simulator,
      Map<String, Object> extraBody,
      Map<String, String> headers,
      Class<?> simulationClass,
      HttpProtocolBuilder http,
      Properties properties) {
    // The fields the body sets with these settings (temperature, ignore_eos...), before any load.
    List<String> reserved =
        new RequestSettings(
                WireApi.CHAT,
                "model",
                settings.outputTokens(),
                RequestSettings.MAX_TOKENS,
                settings.stream(),
                true,
                settings.ignoreEos() ? Boolean.TRUE : null,
                settings.temperature(),
                null)
            .reservedKeys();
    extraBody.forEach((key, value) -> BodyFields.check("llm()", key, value, reserved));
    HttpProtocolBuilder base = (http == null ? HttpDsl.http : http).disableWarmUp();
    if (settings.sharesConnections()) {
      base = base.shareConnections();
    }
    return new LlmProtocol(
        settings,
        SimulatorSettings.apply(
            simulator == null ? SimulatorConfig.defaults() : simulator, properties),
        extraBody,
        headers,
        simulationClass,
        base);
  }
}
