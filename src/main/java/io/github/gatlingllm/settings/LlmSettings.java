package io.github.gatlingllm.settings;

import static io.github.gatlingllm.settings.SettingValues.*;

import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.levels.SaturationSettings;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.server.ServerInfo;
import java.net.URI;
import java.net.URISyntaxException;
import java.time.Duration;
import java.util.Map;
import java.util.Properties;
import java.util.function.Function;

/**
 * The settings of an LLM load test, read from {@code -Dllm.*} system properties.
 *
 * <p>Every value is checked before any request is sent; a bad one throws {@link
 * IllegalArgumentException} with one line naming the setting, the value and what is allowed.
 * Simulations may change defaults with {@link #withDefaults(Map)} before the properties are
 * applied.
 *
 * @param baseUrl the OpenAI-compatible base URL ending in {@code /v1}, http or https; null to start
 *     the embedded simulator on a free loopback port
 * @param apiKey the bearer token, or null; defaults to the {@code OPENAI_API_KEY} environment
 *     variable; never logged or recorded
 * @param model the model name sent in each request; null lets the embedded simulator name it, or
 *     for a {@code baseUrl}, the first model the server lists (see {@link #modelFor(ServerInfo)})
 * @param endpoint {@code chat} (chat/completions), {@code completions}, {@code responses} (OpenAI's
 *     Responses API) or {@code messages} (Anthropic's Messages API)
 * @param promptMode {@code repeat}, {@code unique} or {@code shared-prefix}
 * @param sharedPrefixRatio share of each prompt in its group prefix, in (0, 1); shared-prefix only
 * @param prefixGroups number of group prefixes, at least 1; shared-prefix only
 * @param inputTokens prompt size to aim for, in tokens of {@code tokenizer}, at least 1
 * @param outputTokens {@code max_tokens} of each request, at least 1
 * @param seed the prompt seed ({@code llm.seed=auto}: {@link #autoSeed()})
 * @param tokenizer {@code estimate} or a local tokenizer.json path
 * @param warmupRequests requests sent before the measured phase, at least 0
 * @param requests measured requests, at least 1
 * @param concurrency virtual users of the closed loop, at least 1
 * @param stream whether to stream (SSE); without it there is no TTFT
 * @param ignoreEos whether to send {@code ignore_eos: true}
 * @param timeout how long a request may take, more than 0
 * @param caseId the case id of the prompts; defaults to {@code
 *     c{concurrency}_in{input}_out{output}}
 * @param resultsFolder where Gatling writes run folders; defaults to {@code target/gatling}
 * @param slo the per-request objectives of goodput ({@code llm.slo.ttftMs}, {@code llm.slo.itlMs},
 *     {@code llm.slo.tpotMs}, {@code llm.slo.e2eMs}, {@code llm.slo.ttfoMs}, milliseconds, each > 0
 *     or unset); {@link Slo#NONE} when none is set
 * @param goodputRatio {@code llm.assert.goodputRatio}: the least share of the whole run's measured
 *     requests (of each request name) that must meet the SLO, in (0, 1], or null for no such
 *     assertion; needs an SLO. An assertion only: when a load level meets the SLO is {@code
 *     llm.slo.levelAttainment} ({@link SaturationSettings#sloLevelAttainment()})
 * @param temperature {@code temperature} sent with each request, a finite number >= 0, or null not
 *     to send it
 * @param connections how requests get TCP connections: {@code shared} (one keep-alive pool for all
 *     virtual users, per event loop, as an LLM client's pool), {@code per-user} (each virtual user
 *     its own keep-alive connection, Gatling's default) or {@code per-request} (a new connection
 *     for every request, closed after it: the handshake is inside TTFT)
 * @param metricsInterval how often the server's Prometheus {@code /metrics} is scraped during the
 *     run (besides once at its start and once at its end); {@link Duration#ZERO} turns scraping
 *     off; else at least 100 ms; default 5 s
 * @param warmGroups {@code llm.warmGroups}: whether the warmup phase sends the measured phase's
 *     group prefixes (round robin over the groups), so the measured phase starts on warm groups;
 *     shared-prefix only (ignored, with a warning when the workload is built, in other modes or
 *     without warmup requests)
 * @param seedAuto whether {@code llm.seed=auto} picked {@code seed} from the clock (once per JVM)
 * @param cacheBlockTokens {@code llm.cacheBlockTokens}: the server's prefix-cache granularity, in
 *     tokens, at least 1, or null for what the server says (the embedded simulator's block size;
 *     llama.cpp: 1), else 16
 * @param cacheTolerance {@code llm.cacheTolerance}: how far the observed cache-hit ratio may be
 *     from the planned one for the verdict {@code as planned}, a share of the prompt tokens in [0,
 *     1]; default 0.05
 * @param cacheAsPlanned {@code llm.assert.cacheAsPlanned}: the least share of measured requests
 *     whose cache outcome must be what the plan says, in (0, 1], or null for no such assertion
 * @param saturation the load levels' settings: {@code llm.stopWhenSaturated}, {@code
 *     llm.saturation.ttftGrowth}, {@code llm.saturation.throughputGain}, {@code
 *     llm.saturation.errorRatio}, {@code llm.saturation.minScaling} and {@code
 *     llm.assert.sloLoadAtLeast} (which needs an SLO); see {@link SaturationSettings}; null means
 *     {@link SaturationSettings#DEFAULT}
 * @param clientMaxLagP99Ms {@code llm.client.maxLagP99Ms}: the open-loop schedule lag p99 above
 *     which the client is said to have fallen behind (a warning: coordinated omission may hide in
 *     the server's figures), milliseconds, finite and > 0; default 10; judged on 100 open-loop
 *     users or more
 * @param clientMaxCpuShare {@code llm.client.maxCpuShare}: the client JVM's share of the machine's
 *     CPU (CPU time over wall time times available processors) above which the client is said to
 *     have fallen behind, in (0, 1]; default 0.9; judged on 10 s of samples or more
 * @param preflight {@code llm.preflight}: whether one request goes to {@code llm.baseUrl} before
 *     any load, stopping the run when the target is not there (refused, 404, 401/403, a model it
 *     does not serve); default true, never sent to the embedded simulator
 * @param endWithProfile {@code llm.endWithProfile}: whether virtual users looping past their
 *     scenario's injection profile end there (closed profiles, and open ones that last); default
 *     true
 * @param baseline {@code llm.baseline} and {@code llm.assert.noRegressionPct}: the run to compare
 *     this one with, and the regression gate on it; {@link BaselineSettings#NONE} when unset
 * @param cancel request cancellation ({@code llm.cancelRate} in [0, 1], default 0; {@code
 *     llm.cancelAfterMs} >= 0, default 0); {@link CancelSettings#NONE} when null
 * @param figuresAsRequests {@code llm.figuresAsRequests}: whether the LLM figures ({@code NAME
 *     E2E}, {@code NAME TTFT}, ..., {@code SLO LOAD}, {@code BASELINE ...}) are Gatling request
 *     rows (shown in Gatling's console and HTML report, counted in its Global Information) rather
 *     than Gatling groups (in assertions only); default false
 * @param targetDown when a target that stopped answering is judged down, when one that went silent
 *     is said to be, and whether the run then stops ({@code llm.stopWhenTargetDown}, {@code
 *     llm.targetDown.afterMs}, {@code llm.targetDown.minErrors}, {@code llm.silentSeconds}); {@link
 *     TargetDownSettings#DEFAULT} when null
 * @param live the live metrics endpoint ({@code llm.prometheusPort}, {@code llm.prometheusLinger});
 *     {@link LiveSettings#NONE} when null
 * @param sessionHeader the header that carries a session's id on each of its requests ({@code
 *     llm.sessionHeader}, default {@value AgentSettings#DEFAULT_SESSION_HEADER}, issue 32): a
 *     conversation's turns carry it, its value {@code {workload}-{phase}-{index}}; null when set
 *     empty (no header)
 * @param responsesHistory where a conversation's or agent session's history is kept on the
 *     Responses API ({@code llm.responses.history}): {@code client} (the default: each turn sends
 *     the whole history) or {@code server} (each later turn sends only its new items and {@code
 *     previous_response_id}, the id of the previous reply); null reads as {@code client}
 */
public record LlmSettings(
    String baseUrl,
    String apiKey,
    String model,
    String endpoint,
    PromptMode promptMode,
    Double sharedPrefixRatio,
    Integer prefixGroups,
    int inputTokens,
    int outputTokens,
    long seed,
    String tokenizer,
    int warmupRequests,
    int requests,
    int concurrency,
    boolean stream,
    boolean ignoreEos,
    Duration timeout,
    String caseId,
    String resultsFolder,
    Slo slo,
    Double goodputRatio,
    Double temperature,
    String connections,
    Duration metricsInterval,
    boolean warmGroups,
    boolean seedAuto,
    Integer cacheBlockTokens,
    double cacheTolerance,
    Double cacheAsPlanned,
    SaturationSettings saturation,
    double clientMaxLagP99Ms,
    double clientMaxCpuShare,
    boolean preflight,
    boolean endWithProfile,
    BaselineSettings baseline,
    CancelSettings cancel,
    boolean figuresAsRequests,
    TargetDownSettings targetDown,
    LiveSettings live,
    String sessionHeader,
    String responsesHistory) {

  /** The prefix of every setting's system property. */
  public static final String PREFIX = "llm.";

  /**
   * The largest {@code llm.inputTokens}: 4 Mi tokens, above any served context window, and the
   * bound of a trace row's {@code input_length}.
   */
  public static final int MAX_INPUT_TOKENS = 4 * 1024 * 1024;

  /**
   * Checks every setting.
   *
   * @throws IllegalArgumentException naming the first bad setting, its value and what is allowed
   */
  public LlmSettings {
    SettingChecks.target(baseUrl, apiKey, model, endpoint);
    SettingChecks.promptShape(promptMode, sharedPrefixRatio, prefixGroups);
    atLeast("inputTokens", inputTokens, 1);
    if (inputTokens > MAX_INPUT_TOKENS) {
      // A bigger one failed while the prompts were built, after the target was started.
      throw SettingValues.bad(
          "inputTokens", inputTokens, "a whole number of tokens from 1 to " + MAX_INPUT_TOKENS);
    }
    atLeast("outputTokens", outputTokens, 1);
    SettingChecks.tokenizer(tokenizer);
    atLeast("warmupRequests", warmupRequests, 0);
    atLeast("requests", requests, 1);
    atLeast("concurrency", concurrency, 1);
    SettingChecks.timeout(timeout);
    if (caseId == null) {
      caseId = "c" + concurrency + "_in" + inputTokens + "_out" + outputTokens;
    }
    if (resultsFolder == null || resultsFolder.isBlank()) {
      resultsFolder = DEFAULT_RESULTS_FOLDER;
    }
    slo = slo == null ? Slo.NONE : slo;
    cancel = cancel == null ? CancelSettings.NONE : cancel;
    targetDown = targetDown == null ? TargetDownSettings.DEFAULT : targetDown;
    live = live == null ? LiveSettings.NONE : live;
    responsesHistory = responsesHistory == null ? HISTORY_CLIENT : responsesHistory;
    if (!responsesHistory.equals(HISTORY_CLIENT) && !responsesHistory.equals(HISTORY_SERVER)) {
      throw bad(
          "responses.history",
          responsesHistory,
          "client (each turn sends the whole history) or server (previous_response_id; the"
              + " Responses API only)");
    }
    if (goodputRatio != null && !(goodputRatio > 0 && goodputRatio <= 1)) {
      throw bad("assert.goodputRatio", goodputRatio, "a share in (0, 1], e.g. 0.95");
    }
    if (temperature != null && !(temperature >= 0 && Double.isFinite(temperature))) {
      throw bad("temperature", temperature, "a finite number >= 0, or unset");
    }
    if (connections == null) {
      connections = "shared";
    }
    if (!CONNECTIONS.contains(connections)) {
      throw bad("connections", connections, String.join(", ", CONNECTIONS));
    }
    if (metricsInterval == null) {
      metricsInterval = Duration.ofSeconds(5);
    }
    SettingChecks.metricsInterval(metricsInterval);
    if (cacheBlockTokens != null && cacheBlockTokens < 1) {
      throw bad("cacheBlockTokens", cacheBlockTokens, "a whole number of tokens >= 1, or unset");
    }
    if (!(cacheTolerance >= 0 && cacheTolerance <= 1)) {
      throw bad("cacheTolerance", cacheTolerance, "a share of the prompt tokens in [0, 1]");
    }
    if (cacheAsPlanned != null && !(cacheAsPlanned > 0 && cacheAsPlanned <= 1)) {
      throw bad("assert.cacheAsPlanned", cacheAsPlanned, "a share in (0, 1], e.g. 0.95");
    }
    saturation = saturation == null ? SaturationSettings.DEFAULT : saturation;
    SettingChecks.needsSlo("assert.sloLoadAtLeast", saturation.sloLoadAtLeast(), slo);
    SettingChecks.needsSlo("slo.levelAttainment", saturation.sloLevelAttainment(), slo);
    if (!(clientMaxLagP99Ms > 0 && Double.isFinite(clientMaxLagP99Ms))) {
      throw bad("client.maxLagP99Ms", clientMaxLagP99Ms, "a number of milliseconds > 0, e.g. 10");
    }
    if (!(clientMaxCpuShare > 0 && clientMaxCpuShare <= 1)) {
      throw bad(
          "client.maxCpuShare",
          clientMaxCpuShare,
          "a share of the machine's CPU in (0, 1], e.g. 0.9");
    }
    SettingChecks.needsSlo("assert.goodputRatio", goodputRatio, slo);
  }

  /**
   * The settings from {@link System#getProperties()} and {@code OPENAI_API_KEY}.
   *
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting
   */
  public static LlmSettings fromSystemProperties() {
    return fromSystemProperties(Map.of());
  }

  /**
   * The settings from {@link System#getProperties()}, over the given defaults.
   *
   * @param defaults setting name (without {@code llm.}) to value, used where no property is set
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting
   */
  public static LlmSettings fromSystemProperties(Map<String, String> defaults) {
    return from(System.getProperties(), defaults, System::getenv);
  }

  /**
   * The settings from properties over defaults.
   *
   * @param properties where {@code llm.*} values are looked up first
   * @param defaults setting name (without {@code llm.}) to value, used where no property is set
   * @param environment where {@code OPENAI_API_KEY} is looked up
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting
   */
  public static LlmSettings from(
      Properties properties, Map<String, String> defaults, Function<String, String> environment) {
    return SettingsReader.read(properties, defaults, environment);
  }

  /**
   * The settings from system properties over defaults, for settings that make no generated prompts
   * (the protocol, {@code trace(...)}, {@code conversations()}): the prompt shape's properties
   * ({@code llm.promptMode}, {@code llm.sharedPrefixRatio}, {@code llm.prefixGroups}, {@code
   * llm.warmGroups}) are checked alone, not applied; the {@code prompts()} feeders apply them over
   * the shape the simulation set, where the combination is checked.
   *
   * @param defaults setting name (without {@code llm.}) to value, never null
   * @return the settings
   * @throws IllegalArgumentException naming a bad or unknown setting
   */
  public static LlmSettings fromSystemPropertiesBesidePrompts(Map<String, String> defaults) {
    return fromBesidePrompts(System.getProperties(), defaults, System::getenv);
  }

  /**
   * As {@link #fromSystemPropertiesBesidePrompts(Map)}, from these properties and environment.
   *
   * @param properties where {@code llm.*} values are looked up first, never null
   * @param defaults setting name (without {@code llm.}) to value, never null
   * @param environment where {@code OPENAI_API_KEY} is looked up, never null
   * @return the settings
   * @throws IllegalArgumentException naming a bad or unknown setting
   */
  public static LlmSettings fromBesidePrompts(
      Properties properties, Map<String, String> defaults, Function<String, String> environment) {
    return SettingsReader.read(properties, defaults, environment, false);
  }

  /**
   * The default of {@code llm.resultsFolder}: the Maven plugin's results folder, where the run's
   * files go when Gatling's own results folder cannot be known.
   */
  public static final String DEFAULT_RESULTS_FOLDER = "target/gatling";

  /** The default of {@code llm.client.maxLagP99Ms}, milliseconds. */
  public static final double DEFAULT_CLIENT_MAX_LAG_P99_MS = 10;

  /** The default of {@code llm.client.maxCpuShare}. */
  public static final double DEFAULT_CLIENT_MAX_CPU_SHARE = 0.9;

  /** The value of {@code llm.seed} that picks a fresh seed from the clock. */
  public static final String AUTO_SEED = "auto";

  /** The default of {@code llm.cacheTolerance}. */
  public static final double DEFAULT_CACHE_TOLERANCE = 0.05;

  private static final java.util.concurrent.atomic.AtomicLong AUTO_SEED_VALUE =
      new java.util.concurrent.atomic.AtomicLong(Long.MIN_VALUE);

  /**
   * The seed {@code llm.seed=auto} stands for: the clock's epoch milliseconds when first asked in
   * this JVM, the same for every workload of the run, and recorded with the run's prompts, so a
   * cold run can be repeated with {@code -Dllm.seed=<that value>}.
   *
   * @return the JVM's auto seed
   */
  public static long autoSeed() {
    AUTO_SEED_VALUE.compareAndSet(Long.MIN_VALUE, System.currentTimeMillis());
    return AUTO_SEED_VALUE.get();
  }

  /**
   * The endpoint as a value.
   *
   * @return the {@link WireApi} of {@code chat}, {@code completions}, {@code responses} or {@code
   *     messages}
   */
  public WireApi endpointKind() {
    return switch (endpoint) {
      case "completions" -> WireApi.COMPLETIONS;
      case "responses" -> WireApi.RESPONSES;
      case "messages" -> WireApi.MESSAGES;
      default -> WireApi.CHAT;
    };
  }

  /** {@code llm.responses.history=client}: each turn sends its whole history (the default). */
  public static final String HISTORY_CLIENT = "client";

  /**
   * {@code llm.responses.history=server}: a later turn sends its new items and {@code
   * previous_response_id} (the Responses API only).
   */
  public static final String HISTORY_SERVER = "server";

  /**
   * Whether conversations and agent sessions keep their history on the server ({@code
   * llm.responses.history=server}).
   *
   * @return true for {@code server}
   */
  public boolean historyOnServer() {
    return responsesHistory.equals(HISTORY_SERVER);
  }

  /**
   * Whether virtual users share one keep-alive pool ({@code llm.connections} {@code shared} or
   * {@code per-request}), rather than each keeping its own ({@code per-user}).
   *
   * @return false only for {@code per-user}
   */
  public boolean sharesConnections() {
    return !connections.equals("per-user");
  }

  /**
   * Whether each request gets a new connection, closed after it ({@code llm.connections} {@code
   * per-request}: {@code Connection: close}).
   *
   * @return true only for {@code per-request}
   */
  public boolean connectionPerRequest() {
    return connections.equals("per-request");
  }

  /** The values of {@code llm.connections}. */
  public static final java.util.List<String> CONNECTIONS =
      java.util.List.of("shared", "per-user", "per-request");

  /**
   * Every setting name, without the {@code llm.} prefix. {@code shard}, {@code shards} and {@code
   * startAt} (a test run on several machines) are read by {@code feeder.Shard} and the run's start
   * barrier, and {@code sweep.*} by {@code SweepBuilder}, not held here.
   */
  public static final java.util.List<String> KNOWN = SettingNames.ALL;

  /**
   * The prompt spec of these settings.
   *
   * @return the spec
   */
  public PromptSpec promptSpec() {
    return new PromptSpec(promptMode, sharedPrefixRatio, prefixGroups);
  }

  /**
   * The model name to send to a server: {@code llm.model} when set, else the first id the server
   * lists in {@code /v1/models}, else {@code default} (which llama.cpp accepts; vLLM wants its
   * served name).
   *
   * @param server what the server said about itself, or null if it was not asked
   * @return the model name, never null
   */
  public String modelFor(ServerInfo server) {
    if (model != null) {
      return model;
    }
    return server != null && server.firstModel() != null ? server.firstModel() : "default";
  }

  /**
   * The base URL without user info, for records and logs.
   *
   * @return the URL with any {@code user:password@} removed, or null when unset
   */
  public String redactedBaseUrl() {
    if (baseUrl == null) {
      return null;
    }
    try {
      URI uri = new URI(baseUrl);
      return new URI(uri.getScheme(), null, uri.getHost(), uri.getPort(), uri.getPath(), null, null)
          .toString();
    } catch (URISyntaxException e) {
      return "(unparseable URL)";
    }
  }

  @Override
  public String toString() {
    // Never the API key, never URL credentials.
    return "LlmSettings[baseUrl="
        + redactedBaseUrl()
        + ", apiKey="
        + (apiKey == null ? "unset" : "set")
        + ", model="
        + model
        + ", endpoint="
        + endpoint
        + ", prompts="
        + promptSpec()
        + ", inputTokens="
        + inputTokens
        + ", outputTokens="
        + outputTokens
        + ", seed="
        + seed
        + ", tokenizer="
        + tokenizer
        + ", warmupRequests="
        + warmupRequests
        + ", requests="
        + requests
        + ", concurrency="
        + concurrency
        + ", stream="
        + stream
        + ", ignoreEos="
        + ignoreEos
        + ", timeout="
        + timeout
        + ", caseId="
        + caseId
        + ", resultsFolder="
        + resultsFolder
        + ", slo="
        + slo
        + ", goodputRatio="
        + goodputRatio
        + ", metricsInterval="
        + metricsInterval
        + ", warmGroups="
        + warmGroups
        + ", seedAuto="
        + seedAuto
        + ", cacheBlockTokens="
        + cacheBlockTokens
        + ", cacheTolerance="
        + cacheTolerance
        + ", cacheAsPlanned="
        + cacheAsPlanned
        + ", saturation="
        + saturation
        + ", clientMaxLagP99Ms="
        + clientMaxLagP99Ms
        + ", clientMaxCpuShare="
        + clientMaxCpuShare
        + ", preflight="
        + preflight
        + ", endWithProfile="
        + endWithProfile
        + ", baseline="
        + baseline
        + ", cancel="
        + cancel
        + ", figuresAsRequests="
        + figuresAsRequests
        + ", sessionHeader="
        + sessionHeader
        + ", responsesHistory="
        + responsesHistory
        + "]";
  }
}
