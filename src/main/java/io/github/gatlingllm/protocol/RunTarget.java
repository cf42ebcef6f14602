package io.github.gatlingllm.protocol;

import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.record.CacheSummary;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.report.Console;
import io.github.gatlingllm.server.Preflight;
import io.github.gatlingllm.server.ServerInfo;
import io.github.gatlingllm.server.ServerProbe;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.token.ChatTemplateLead;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.util.Collections;
import java.util.EnumMap;
import java.util.LinkedHashMap;
import java.util.Map;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. What a run loads against, started with the run ({@link RunContext}): the tokenizer, then
 * either the embedded simulator (no {@code llm.baseUrl}) or the server's answers to the probe, with
 * warnings about a target that looks wrong; and what the cache plan knows of it. Immutable once
 * started, except that {@link #close()} stops the embedded simulator.
 */
final class RunTarget {

  /** Logs under the run's name, as the console lines always did. */
  private static final Logger LOG = LoggerFactory.getLogger(RunContext.class);

  /** The cache granularity assumed of a server that does not say (vLLM's default block size). */
  static final int DEFAULT_CACHE_BLOCK_TOKENS = 16;

  /** The engine name the probe gives a separately started embedded simulator. */
  private static final String SIMULATOR_ENGINE = "gatling-llm simulator";

  private final LlmSettings settings;
  private final TokenCounter counter;
  private final Simulator simulator;
  private final String baseUrl;
  private final String model;
  private final ServerInfo server;

  /** The id of the pre-flight's Responses answer, for the server-history pre-flight; or null. */
  private volatile String preflightResponseId;

  /**
   * The run's tokenizer.
   *
   * @return never null
   */
  io.github.gatlingllm.token.TokenCounter counter() {
    return counter;
  }

  private RunTarget(
      LlmSettings settings,
      TokenCounter counter,
      Simulator simulator,
      String baseUrl,
      String model,
      ServerInfo server) {
    this.settings = settings;
    this.counter = counter;
    this.simulator = simulator;
    this.baseUrl = baseUrl;
    this.model = model;
    this.server = server;
  }

  /**
   * Loads the tokenizer, then starts the embedded simulator or probes {@code llm.baseUrl}.
   *
   * @param protocol the protocol, never null
   * @return the started target, never null
   * @throws IllegalArgumentException naming {@code llm.tokenizer} when it cannot be loaded
   */
  static RunTarget start(LlmProtocol protocol) {
    LlmSettings settings = protocol.settings();
    TokenCounter counter;
    try {
      counter = TokenCounters.shared(settings.tokenizer());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm.tokenizer: " + e.getMessage(), e);
    }
    if (settings.baseUrl() == null) {
      SimulatorConfig config = protocol.simulator().withTokenCounter(counter);
      if (settings.model() != null) {
        config = config.withModel(settings.model());
      }
      Simulator simulator = Simulator.start(config, 0);
      io.github.gatlingllm.settings.SettingUse.RUN.made(
          io.github.gatlingllm.settings.SettingUse.Part.SIMULATOR);
      String baseUrl = simulator.baseUrl();
      RunTarget target =
          new RunTarget(settings, counter, simulator, baseUrl, simulator.config().model(), null);
      LOG.info("llm.baseUrl is not set: started the embedded simulator at {}", baseUrl);
      return target;
    }
    String baseUrl = stripSlash(settings.baseUrl());
    ServerInfo server = ServerProbe.probe(baseUrl, settings.apiKey(), ServerProbe.DEFAULT_TIMEOUT);
    RunTarget target =
        new RunTarget(settings, counter, null, baseUrl, settings.modelFor(server), server);
    // The pre-flight first: a target that is not there stops the run with its one line, before
    // what the probe learnt (or could not learn) of it is said.
    if (settings.preflight()) {
      target.preflight(protocol.headers());
    }
    LOG.info(
        "server: engine {}, version {}, models {}, context {} tokens, slots {}",
        server.engine(),
        server.version(),
        server.models(),
        server.contextTokens(),
        server.slots());
    target.warnAboutTarget();
    return target;
  }

  /**
   * The pre-flight check: one small request ({@code max_tokens} 1, not streamed, the prompt {@code
   * Hi}) to the run's endpoint with the run's model and headers, before any load.
   *
   * @param headers the protocol's own headers; the bearer token is added here
   * @throws IllegalArgumentException with the one line of {@link Preflight#stopLine()} when the
   *     target is not there
   */
  private void preflight(Map<String, String> headers) {
    WireApi api = settings.endpointKind();
    // {"model":M, the prompt "Hi" in the API's shape, "stream":false, the limit 1}
    byte[] bytes =
        api.dialect()
            .body(
                new RequestSettings(
                    api, model, 1, RequestSettings.MAX_TOKENS, false, false, null, null, null),
                "Hi")
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.putAll(api.dialect().headers(settings.apiKey()));
    Preflight answer =
        ServerProbe.preflight(
            baseUrl + "/" + api.path(),
            stripSlash(settings.redactedBaseUrl()) + "/" + api.path(),
            model,
            bytes,
            all,
            settings.timeout(),
            api == WireApi.RESPONSES
                ? body -> preflightResponseId = responseIdOf(api, body)
                : null);
    String stop = answer.stopLine(server.models());
    if (stop != null) {
      // The run's one line (OneLineErrors prints it alone; -Dllm.debug=true adds the traces).
      throw new IllegalArgumentException(stop);
    }
    String warning = answer.warningLine();
    if (warning != null) {
      Console.warning(LOG, warning);
    }
  }

  /** The id of a Responses answer's body, or null when it has none (an error, not JSON). */
  private static String responseIdOf(WireApi api, String body) {
    try {
      return api.dialect().responseId(body);
    } catch (RuntimeException e) {
      return null;
    }
  }

  /**
   * The pre-flight of {@code llm.responses.history=server}, before any load: one more small request
   * that sends only a new user message and {@code previous_response_id}, the pre-flight's answer's
   * id. A server that refuses it (an HTTP 4xx other than 408 or 429; llama.cpp: 400) stops the run
   * with one line; anything else lets it go on. Sent only after a pre-flight to the Responses API
   * that answered with an id (not to the embedded simulator, not with {@code llm.preflight=false}).
   *
   * @param headers the protocol's own headers; the bearer token is added here
   * @throws IllegalArgumentException with the one line of {@link Preflight#historyStopLine()}
   */
  void preflightServerHistory(Map<String, String> headers) {
    String previous = preflightResponseId;
    if (previous == null || previous.isEmpty()) {
      return;
    }
    WireApi api = WireApi.RESPONSES;
    byte[] bytes =
        api.dialect()
            .body(
                new RequestSettings(
                    WireApi.RESPONSES,
                    model,
                    1,
                    RequestSettings.MAX_TOKENS,
                    false,
                    false,
                    null,
                    null,
                    null),
                java.util.List.of(new io.github.gatlingllm.api.Turn.Message("user", "Hi again")),
                previous)
            .getBytes(java.nio.charset.StandardCharsets.UTF_8);
    Map<String, String> all = new LinkedHashMap<>(headers);
    all.putAll(api.dialect().headers(settings.apiKey()));
    Preflight answer =
        ServerProbe.preflight(
            baseUrl + "/" + WireApi.RESPONSES.path(),
            stripSlash(settings.redactedBaseUrl()) + "/" + WireApi.RESPONSES.path(),
            model,
            bytes,
            all,
            settings.timeout(),
            null);
    String stop = answer.historyStopLine();
    if (stop != null) {
      throw new IllegalArgumentException(stop);
    }
  }

  /**
   * The run's token counter when it is a real tokenizer ({@code llm.tokenizer}), else null (the
   * whitespace estimate counts no reasoning tokens worth reporting).
   */
  TokenCounter exactCounter() {
    return counter instanceof HuggingFaceTokenCounter ? counter : null;
  }

  private void warnAboutTarget() {
    String url = settings.redactedBaseUrl();
    if (!baseUrl.endsWith("/v1")) {
      LOG.warn(
          "llm.baseUrl {} does not end in /v1: requests go to {}/chat/completions; most"
              + " OpenAI-compatible servers serve {}/v1/chat/completions",
          url,
          url,
          url);
    }
    if (server.answeredNothing()) {
      LOG.warn(
          "nothing answered at llm.baseUrl {} ({} asked, {} ms each: refused or silent): is the URL"
              + " right and the server up? The run goes on",
          url,
          String.join(", ", server.answers().keySet()),
          ServerProbe.DEFAULT_TIMEOUT.toMillis());
    }
    server.answers().entrySet().stream()
        .filter(e -> e.getValue() == 401 || e.getValue() == 403)
        .findFirst()
        .ifPresent(
            e ->
                LOG.warn(
                    "{} answered HTTP {} to the server probe: the server wants credentials"
                        + " (llm.apiKey or OPENAI_API_KEY{})",
                    e.getKey(),
                    e.getValue(),
                    settings.apiKey() == null ? ", neither is set" : ", check the key"));
    if (settings.model() == null) {
      if (server.firstModel() != null) {
        LOG.info("llm.model is not set: using the server's first model, {}", model);
      } else {
        LOG.warn(
            "llm.model is not set and {}/models lists no model: requests name the model {}",
            url,
            model);
      }
    } else if (!server.models().isEmpty() && !server.models().contains(model)) {
      LOG.warn(
          "llm.model {} is not among the models {}/models lists ({}): the server may refuse every"
              + " request",
          model,
          url,
          String.join(", ", server.models()));
    }
  }

  /**
   * The base URL requests go to, without a trailing slash.
   *
   * @return never null; credentials included when {@code llm.baseUrl} has them
   */
  String baseUrl() {
    return baseUrl;
  }

  /**
   * The model every request names.
   *
   * @return never null
   */
  String model() {
    return model;
  }

  /**
   * The context the server reports, for {@link ContextCheck}: the embedded simulator's {@code
   * contextLength}, else the probe's ({@link ServerInfo#contextTokens()}).
   *
   * @return tokens, or null when the server did not say
   */
  Integer contextTokens() {
    if (simulator != null) {
      return simulator.config().contextLength();
    }
    return server == null ? null : server.contextTokens();
  }

  /**
   * Where {@link #contextTokens()} comes from, in words.
   *
   * @return e.g. {@code llama.cpp: a slot's share of -c}, never null
   */
  String contextSource() {
    if (simulator != null) {
      return "the embedded simulator's llm.simulator.contextLength";
    }
    String engine = server == null ? null : server.engine();
    if ("llama.cpp".equals(engine)) {
      return "llama.cpp: a slot's share of -c";
    }
    if ("vLLM".equals(engine)) {
      return "vLLM's max_model_len";
    }
    return "the server's /v1/models";
  }

  /**
   * The embedded simulator, when the run started one.
   *
   * @return null when the run loads {@code llm.baseUrl}
   */
  Simulator simulator() {
    return simulator;
  }

  /**
   * The run record's {@code target}.
   *
   * @return never null; the base URL without credentials
   */
  RunInfo.Target toRecord() {
    return new RunInfo.Target(
        simulator != null ? baseUrl : settings.redactedBaseUrl(),
        simulator != null,
        model,
        settings.endpoint(),
        server == null ? null : server.toRecord());
  }

  /** Stops the embedded simulator, if the run started one. */
  void close() {
    if (simulator != null) {
      simulator.close();
    }
  }

  /**
   * What the cache plan knows of the server for each endpoint (see {@link
   * RunContext#cacheServer(WireApi)}); logs the chat endpoint's plan.
   *
   * @return one entry per endpoint, unmodifiable
   */
  Map<WireApi, CachePlan.Server> planCache() {
    Map<WireApi, CachePlan.Server> servers = new EnumMap<>(WireApi.class);
    for (WireApi endpoint : WireApi.values()) {
      servers.put(endpoint, cacheServer(endpoint, settings, counter, simulator, server));
    }
    Map<WireApi, CachePlan.Server> plan = Collections.unmodifiableMap(servers);
    CachePlan.Server chat = plan.get(WireApi.CHAT);
    LOG.info(
        "cache plan: blocks of {} ({}), a chat template lead of {}, counts {}",
        tokens(chat.blockTokens()),
        settings.cacheBlockTokens() != null ? "llm.cacheBlockTokens" : "the server's",
        chat.templateKnown() ? tokens(chat.templateTokens()) : "unknown tokens",
        chat.exact()
            ? "in the server's tokens"
            : "estimated (llm.tokenizer=estimate against a real server: give it the model's"
                + " tokenizer for exact plans)");
    return plan;
  }

  /**
   * What the cache plan knew of the server, for {@code llm-run.json}'s {@code cache}.
   *
   * @param chat the chat endpoint's plan, never null
   * @return {@code block_tokens}, {@code template_tokens} (null when unknown), {@code
   *     template_known}, {@code exact_counts}
   */
  static CacheSummary.Parameters cacheParameters(CachePlan.Server chat) {
    return new CacheSummary.Parameters(
        chat.blockTokens(),
        chat.templateKnown() ? chat.templateTokens() : null,
        chat.templateKnown(),
        chat.exact());
  }

  private static CachePlan.Server cacheServer(
      WireApi endpoint,
      LlmSettings settings,
      TokenCounter counter,
      Simulator simulator,
      ServerInfo server) {
    String engine = server == null ? null : server.engine();
    boolean simulated = simulator != null || SIMULATOR_ENGINE.equals(engine);
    int block;
    if (settings.cacheBlockTokens() != null) {
      block = settings.cacheBlockTokens();
    } else if (simulator != null) {
      block = simulator.config().blockSize();
    } else if ("llama.cpp".equals(engine)) {
      block = 1;
    } else {
      block = DEFAULT_CACHE_BLOCK_TOKENS;
    }
    ChatTemplateLead lead =
        endpoint == WireApi.COMPLETIONS
            ? ChatTemplateLead.NONE
            : simulated ? ChatTemplateLead.chatMl(counter) : ChatTemplateLead.ofTemplate(counter);
    boolean exact = simulated || counter instanceof HuggingFaceTokenCounter;
    return new CachePlan.Server(lead.tokens(), lead.known(), block, exact);
  }

  private static String tokens(int n) {
    return n + (n == 1 ? " token" : " tokens");
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
