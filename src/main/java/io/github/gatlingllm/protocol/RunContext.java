package io.github.gatlingllm.protocol;

import io.gatling.core.CoreComponents;
import io.gatling.http.protocol.HttpComponents;
import io.github.gatlingllm.LlmSettings;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.internal.GatlingInjection;
import io.github.gatlingllm.internal.GatlingInjector;
import io.github.gatlingllm.metrics.CacheAggregator;
import io.github.gatlingllm.metrics.CachePlan;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.Injection;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.openai.Endpoint;
import io.github.gatlingllm.openai.RequestSettings;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.report.IndexLink;
import io.github.gatlingllm.report.ReportPage;
import io.github.gatlingllm.report.RunInfo;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.report.RunSummary;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.target.ServerInfo;
import io.github.gatlingllm.target.ServerProbe;
import io.github.gatlingllm.token.ChatTemplateLead;
import io.github.gatlingllm.token.HuggingFaceTokenCounter;
import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import java.util.concurrent.atomic.AtomicReference;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Not API. One simulation's LLM run: made by the LLM protocol's components when Gatling builds the
 * scenarios, before any load. Starting it checks nothing twice (the settings were checked when the
 * protocol was built), loads the tokenizer, starts the embedded simulator or asks the server what
 * it is, and opens the run record. It ends when Gatling terminates the run (after the load and
 * {@code after()}, before the HTML report and the assertions) or, for a run stopped with Ctrl+C or
 * SIGTERM, in a JVM shutdown hook: either way {@code llm-run.json}, the CSV and the report page are
 * written once, and the embedded simulator stops after the last request.
 *
 * <p>With {@code llm.startAt} (a test run on several machines), the start ends by waiting for that
 * barrier, so the shards' load starts together.
 *
 * <p>Thread-safe: the LLM action calls it from every event loop.
 */
public final class RunContext {

  private static final Logger LOG = LoggerFactory.getLogger(RunContext.class);

  private final LlmProtocol protocol;
  private final LlmSettings settings;
  private final GatlingCore gatling;
  private final TokenCounter counter;
  private final Simulator simulator;
  private final String baseUrl;
  private final String model;
  private final ServerInfo server;
  private final RunRecorder recorder;
  private final ServerWatch serverWatch;
  private final HttpComponents http;
  private final Set<String> requestNames =
      java.util.Collections.synchronizedSet(new LinkedHashSet<>());
  private final Map<Workload, Set<String>> workloads = new LinkedHashMap<>();
  private final Set<ConversationWorkload> conversations =
      java.util.Collections.synchronizedSet(new LinkedHashSet<>());
  private final Shard shard;
  private final Long startAt;
  private final Long lateMs;
  private final AtomicBoolean finished = new AtomicBoolean();
  private final AtomicBoolean stopping = new AtomicBoolean();
  private final AtomicBoolean crashed = new AtomicBoolean();
  private final AtomicLong inFlight = new AtomicLong();
  private final AtomicLong peakInFlight = new AtomicLong();
  private final AtomicLong usersEndedByBudget = new AtomicLong();
  private final AtomicLong warmStarts = new AtomicLong();
  private final Map<Endpoint, CachePlan.Server> cacheServers;
  private final AtomicLong staleConnectionResends = new AtomicLong();
  private final Thread shutdownHook;
  private final List<Injection> injections;
  private final String injectionUnknown;
  private final LevelWatch levels;
  private final ClientWatch client;
  private final OpenRequests openRequests = new OpenRequests();
  private final RunEnd runEnd;
  private final Map<String, Double> failedPercentBelow;

  private RunContext(LlmProtocol protocol, CoreComponents core) {
    this.protocol = protocol;
    this.settings = protocol.settings();
    this.gatling = new GatlingCore(core);
    List<Injection> read;
    String unknown;
    try {
      read = GatlingInjection.read(core);
      unknown = null;
    } catch (IllegalStateException e) {
      read = List.of();
      unknown = e.getMessage();
      LOG.warn(
          "The injection profiles cannot be read, so no load levels are computed: {}", unknown);
    }
    this.injections = read;
    this.injectionUnknown = unknown;
    this.levels = new LevelWatch(read, settings, gatling, inFlight::get);
    levels.announce(unknown);
    this.client =
        new ClientWatch(
            settings,
            read,
            unknown,
            gatling::nowMillis,
            scenario -> GatlingInjector.injectionStart(core, scenario));
    this.shard = Shard.current();
    this.startAt = StartBarrier.startAt(System.getProperties());
    if (startAt != null) {
      StartBarrier.check(startAt, System.currentTimeMillis());
    }
    this.http = GatlingHttp.newComponents(core, protocol.http());
    try {
      this.counter = TokenCounters.shared(settings.tokenizer());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm.tokenizer: " + e.getMessage(), e);
    }
    if (settings.baseUrl() == null) {
      SimulatorConfig config = protocol.simulator().withTokenCounter(counter);
      if (settings.model() != null) {
        config = config.withModel(settings.model());
      }
      this.simulator = Simulator.start(config, 0);
      this.baseUrl = simulator.baseUrl();
      this.model = simulator.config().model();
      this.server = null;
      LOG.info("llm.baseUrl is not set: started the embedded simulator at {}", baseUrl);
    } else {
      this.simulator = null;
      this.baseUrl = stripSlash(settings.baseUrl());
      this.server = ServerProbe.probe(baseUrl, settings.apiKey(), ServerProbe.DEFAULT_TIMEOUT);
      this.model = settings.modelFor(server);
      warnAboutTarget();
    }
    try {
      this.recorder =
          new RunRecorder(protocol.folders(), settings.slo(), settings.cacheTolerance());
    } catch (java.io.UncheckedIOException e) {
      if (simulator != null) {
        simulator.close();
      }
      throw new IllegalArgumentException(
          "llm.resultsFolder: cannot write run records under \""
              + settings.resultsFolder()
              + "\" ("
              + e.getCause()
              + "), expected a folder that exists or can be made",
          e);
    }
    this.serverWatch =
        ServerWatch.start(settings, baseUrl, simulator == null ? null : simulator.config());
    Map<Endpoint, CachePlan.Server> servers = new java.util.EnumMap<>(Endpoint.class);
    for (Endpoint endpoint : Endpoint.values()) {
      servers.put(endpoint, cacheServer(endpoint, settings, counter, simulator, server));
    }
    this.cacheServers = java.util.Collections.unmodifiableMap(servers);
    CachePlan.Server chat = cacheServers.get(Endpoint.CHAT);
    LOG.info(
        "cache plan: blocks of {} ({}), a chat template lead of {}, counts {}",
        tokens(chat.blockTokens()),
        settings.cacheBlockTokens() != null ? "llm.cacheBlockTokens" : "the server's",
        chat.templateKnown() ? tokens(chat.templateTokens()) : "unknown tokens",
        chat.exact()
            ? "in the server's tokens"
            : "estimated (llm.tokenizer=estimate against a real server: give it the model's"
                + " tokenizer for exact plans)");
    this.shutdownHook = new Thread(() -> finish(true), "gatling-llm-run-record");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    gatling.onTermination(this::terminate);
    warnOnLowFileLimit();
    this.lateMs =
        startAt == null
            ? null
            : StartBarrier.await(
                startAt,
                shard.single() ? "the run" : "shard " + shard,
                System::currentTimeMillis,
                Thread::sleep);
    client.start();
    this.runEnd = new RunEnd(maxDurationMs(core), gatling.nowMillis());
    this.failedPercentBelow = failedPercentBelow(core);
  }

  private static Map<String, Double> failedPercentBelow(CoreComponents core) {
    try {
      return GatlingInjection.failedPercentBelow(core);
    } catch (RuntimeException e) {
      LOG.warn(
          "Gatling's assertions cannot be read, so llm-run.json has no failed_percent_below: {}",
          e.toString());
      return null;
    }
  }

  private static Long maxDurationMs(CoreComponents core) {
    try {
      return GatlingInjection.maxDurationMs(core);
    } catch (IllegalStateException e) {
      LOG.warn("Gatling's maxDuration cannot be read, so no run ends as max_duration: {}", e);
      return null;
    }
  }

  /**
   * The requests in flight, each cut and recorded when the run record is written.
   *
   * @return never null
   */
  public OpenRequests openRequests() {
    return openRequests;
  }

  /**
   * Starts the run of a protocol.
   *
   * @param protocol the protocol, never null
   * @param core Gatling's core components, never null
   * @return the run
   * @throws IllegalArgumentException naming a bad setting (e.g. a tokenizer that cannot be loaded)
   */
  static RunContext start(LlmProtocol protocol, CoreComponents core) {
    return new RunContext(protocol, core);
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
   * The settings.
   *
   * @return never null
   */
  public LlmSettings settings() {
    return settings;
  }

  /**
   * The SLO requests are judged against.
   *
   * @return {@link Slo#NONE} when none is set
   */
  public Slo slo() {
    return settings.slo();
  }

  /**
   * The injection profile of every scenario of the simulation, read when the run started.
   *
   * @return one entry per scenario (roots first, each followed by those it starts with {@code
   *     andThen}); empty when Gatling's internals could not be read ({@link #injectionUnknown()})
   */
  public List<Injection> injections() {
    return injections;
  }

  /**
   * Whether the client kept up: the open-loop schedule lag and the client JVM's CPU share, for the
   * run ({@code llm-run.json}'s {@code client}) and for any window ({@link
   * ClientWatch#forWindow(long, long)}, a load level's {@code schedule_lag_ms} and {@code
   * client_cpu}).
   *
   * @return never null
   */
  public ClientWatch client() {
    return client;
  }

  /**
   * Why {@link #injections()} is empty when the simulation's profiles could not be read.
   *
   * @return the reason (naming the Gatling member or step kind), or null when they were read
   */
  public String injectionUnknown() {
    return injectionUnknown;
  }

  /**
   * Gatling's core internals of this simulation.
   *
   * @return never null
   */
  public GatlingCore gatling() {
    return gatling;
  }

  /**
   * Gatling's HTTP components of the LLM requests.
   *
   * @return never null
   */
  public HttpComponents http() {
    return http;
  }

  /**
   * The URL of an endpoint, e.g. {@code http://127.0.0.1:8000/v1/chat/completions}.
   *
   * @param endpoint the endpoint
   * @return the absolute URL, credentials included when the base URL has them
   */
  public String url(Endpoint endpoint) {
    return baseUrl + "/" + endpoint.path();
  }

  /**
   * What the body of a request holds besides the prompt.
   *
   * @param endpoint the request's endpoint
   * @param maxTokens the request's own {@code max_tokens}, or null for the protocol's
   * @param extra the request's own further fields (over the protocol's), never null
   * @return the settings
   * @throws IllegalArgumentException if an extra field is one the body sets itself
   */
  public RequestSettings requestSettings(
      Endpoint endpoint, Integer maxTokens, Map<String, Object> extra) {
    Map<String, Object> body = new LinkedHashMap<>(protocol.extraBody());
    body.putAll(extra);
    return new RequestSettings(
        endpoint,
        model,
        maxTokens == null ? settings.outputTokens() : maxTokens,
        RequestSettings.MAX_TOKENS,
        settings.stream(),
        true,
        settings.ignoreEos() ? Boolean.TRUE : null,
        settings.temperature(),
        body.isEmpty() ? null : body);
  }

  /**
   * The protocol's further headers of every request, and the bearer token's.
   *
   * @return header name to value, in order
   */
  public Map<String, String> headers() {
    Map<String, String> headers = new LinkedHashMap<>(protocol.headers());
    if (settings.apiKey() != null) {
      headers.put("Authorization", "Bearer " + settings.apiKey());
    }
    if ("per-request".equals(settings.connections())) {
      headers.put("Connection", "close");
    }
    return headers;
  }

  /**
   * Whether requests take connections from the pool shared by all virtual users.
   *
   * @return true unless {@code llm.connections=per-user}
   */
  public boolean shareConnections() {
    return !"per-user".equals(settings.connections());
  }

  /**
   * What the cache plan knows of the server for requests to an endpoint: its granularity ({@code
   * llm.cacheBlockTokens}, else the embedded simulator's block size, llama.cpp's single token, or
   * 16), the chat template's leading tokens (completions: none) and whether the prompts are counted
   * in the server's tokens.
   *
   * @param endpoint the request's endpoint
   * @return never null
   */
  public CachePlan.Server cacheServer(Endpoint endpoint) {
    return cacheServers.get(endpoint);
  }

  /** The engine name the probe gives a separately started embedded simulator. */
  private static final String SIMULATOR_ENGINE = "gatling-llm simulator";

  private static CachePlan.Server cacheServer(
      Endpoint endpoint,
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
        endpoint != Endpoint.CHAT
            ? ChatTemplateLead.NONE
            : simulated ? ChatTemplateLead.chatMl(counter) : ChatTemplateLead.ofTemplate(counter);
    boolean exact = simulated || counter instanceof HuggingFaceTokenCounter;
    return new CachePlan.Server(lead.tokens(), lead.known(), block, exact);
  }

  private static String tokens(int n) {
    return n + (n == 1 ? " token" : " tokens");
  }

  /** The cache granularity assumed of a server that does not say (vLLM's default block size). */
  static final int DEFAULT_CACHE_BLOCK_TOKENS = 16;

  /**
   * Names a request of this run, for the goodput report.
   *
   * @param name the request name
   */
  public void addRequestName(String name) {
    requestNames.add(name);
  }

  /**
   * A request is about to be sent: counts it in flight and notes its workload.
   *
   * @param workload the record's workload, or null for a request with its own prompt and no feeder
   * @param request the request's name
   */
  public void started(Workload workload, String request) {
    if (workload != null) {
      synchronized (workloads) {
        workloads.computeIfAbsent(workload, w -> new LinkedHashSet<>()).add(request);
      }
    }
    long now = inFlight.incrementAndGet();
    peakInFlight.accumulateAndGet(now, Math::max);
  }

  /**
   * A virtual user of a scenario is about to send an LLM request: places the scenario's load levels
   * on the clock at its first request and counts the request in its level. Call just before {@link
   * #started}.
   *
   * @param scenario the virtual user's scenario
   * @param request the request's name
   */
  public void levelStarted(String scenario, String request) {
    levels.started(scenario, request, gatling.nowMillis());
  }

  /**
   * Whether the run must stop now because a load level was over-saturated ({@code
   * llm.stopWhenSaturated}); judges the levels that ended. Returns a message once: the caller stops
   * the load generator with it.
   *
   * @return the message for Gatling, or null to go on
   */
  public String saturationStop() {
    String stop = levels.stopNow(gatling.nowMillis());
    if (stop != null) {
      runEnd.saturationStop();
    }
    return stop;
  }

  /**
   * A turn of a conversation workload is about to be sent (after {@link #started}): the workload
   * joins the run record's {@code conversations}.
   *
   * @param workload the conversations' workload, never null
   */
  public void conversationStarted(ConversationWorkload workload) {
    conversations.add(workload);
  }

  /**
   * Records a finished request; call once per request {@link #started}.
   *
   * @param record the request, never null
   */
  public void record(RequestRecord record) {
    record(null, record);
  }

  /**
   * Records a finished request of a workload; call once per request {@link #started}.
   *
   * @param workload the request's workload, or null when it was not fed one
   * @param record the request, never null
   */
  public void record(Workload workload, RequestRecord record) {
    recorder.record(record);
    client.recorded(record);
    serverWatch.record(workload, record);
    inFlight.decrementAndGet();
    levels.record(record, gatling.nowMillis());
    if (record.warmStart() && warmStarts.incrementAndGet() == 1) {
      LOG.warn(
          "WARM START: {}",
          CacheAggregator.warmStartText(recorder.cache().warmStarts())
              + " (request "
              + record.request()
              + ", "
              + record.phase()
              + " "
              + record.index()
              + ": "
              + record.cachedTokens()
              + " cached tokens, planned "
              + record.plannedCachedTokens()
              + ")");
    }
  }

  /**
   * A request was sent once more on a new connection because the pooled connection it was first
   * written to closed before any answer (Gatling's client retries stale keep-alive connections);
   * counted in the run record as {@code load.stale_connection_resends}.
   */
  public void staleConnectionResend() {
    staleConnectionResends.incrementAndGet();
  }

  /** A request counted by {@link #started} ended without a record: in flight no more. */
  public void notSent() {
    inFlight.decrementAndGet();
  }

  /**
   * A virtual user was fed past its workload's budget and ends.
   *
   * @return true when, with this, every workload made in this JVM is spent: the run then stops its
   *     injection (the caller does it, once)
   */
  public boolean userEndedByBudget() {
    usersEndedByBudget.incrementAndGet();
    boolean stop = Workload.allSpent() && stopping.compareAndSet(false, true);
    if (stop) {
      runEnd.budgetSpent();
    }
    return stop;
  }

  /**
   * The run is about to be stopped as a crash (a scenario that cannot work): its record says it was
   * interrupted, not that it ended.
   */
  public void crashed() {
    crashed.set(true);
  }

  private void terminate() {
    finish(crashed.get());
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is shutting down: the hook has run or runs now, and finds the run finished.
    }
  }

  /**
   * Writes the run record into Gatling's run folder and stops the embedded simulator; runs once.
   *
   * @param interrupted whether the run was stopped before its end
   */
  void finish(boolean interrupted) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    try {
      RunEnd.Reason reason =
          runEnd.reason(crashed.get(), interrupted && !crashed.get(), gatling.nowMillis());
      // Every request sent is in the record: those in flight now with what was measured so far.
      int cut = openRequests.cutAll(System.nanoTime(), reason.wireName());
      Map<String, Object> info = new LinkedHashMap<>(runInfo().toMap());
      info.put("end_reason", reason.wireName());
      info.put("requests_cut_by_run_end", cut);
      info.put("cache", cacheParameters());
      synchronized (conversations) {
        if (!conversations.isEmpty()) {
          info.put(
              "conversations", conversations.stream().map(ConversationWorkload::toRecord).toList());
        }
      }
      info.put("client", client.finish());
      serverWatch.addTo(info);
      try {
        // Each level's schedule lag (open loops) and client CPU share, from the client watch.
        levels.addTo(info, peakInFlight.get(), gatling.nowMillis(), client::forWindow);
      } catch (RuntimeException e) {
        LOG.error("could not compute the load levels: {}", e.toString(), e);
      }
      AtomicReference<Map<String, Object>> written = new AtomicReference<>();
      Path folder =
          recorder.finish(
              info,
              interrupted || reason.interrupted(),
              (record, requests) -> {
                written.set(record);
                return ReportPage.render(record, requests);
              });
      reportGoodput();
      reportCache();
      RunSummary.log(written.get());
      if (!interrupted) {
        IndexLink.onExit(folder);
      }
    } catch (RuntimeException e) {
      LOG.error("could not write the LLM run record: {}", e.toString());
    } finally {
      synchronized (workloads) {
        workloads.keySet().forEach(Workload::close);
      }
      synchronized (conversations) {
        conversations.forEach(ConversationWorkload::close);
      }
      if (simulator != null) {
        simulator.close();
      }
    }
  }

  private void reportGoodput() {
    if (!settings.slo().isSet()) {
      return;
    }
    Goodput overall = recorder.summary().overall().goodput();
    LOG.info("{}", overall.describe());
    if (settings.goodputRatio() == null) {
      return;
    }
    List<String> names;
    synchronized (requestNames) {
      names = new ArrayList<>(requestNames);
    }
    for (String name : names) {
      GroupSummary group = recorder.summary().group(name, "measured");
      Goodput g = group == null ? overall : group.goodput();
      String shortfall = g.shortfall(settings.goodputRatio());
      if (shortfall != null) {
        LOG.error("{} (llm.assert.goodputRatio, request {})", shortfall, name);
      }
    }
  }

  /** What the cache plan knew of the server, for {@code llm-run.json}'s {@code cache}. */
  private Map<String, Object> cacheParameters() {
    CachePlan.Server chat = cacheServers.get(Endpoint.CHAT);
    Map<String, Object> m = new LinkedHashMap<>();
    m.put("block_tokens", chat.blockTokens());
    m.put("template_tokens", chat.templateKnown() ? chat.templateTokens() : null);
    m.put("template_known", chat.templateKnown());
    m.put("exact_counts", chat.exact());
    return m;
  }

  private void reportCache() {
    String line = recorder.cache().describe();
    if (line == null) {
      return;
    }
    boolean asPlanned = CacheAggregator.AS_PLANNED.equals(recorder.cache().verdict());
    if (asPlanned && recorder.cache().warmStarts() == 0) {
      LOG.info("{}", line);
    } else {
      LOG.warn("{}", line);
    }
  }

  private RunInfo runInfo() {
    List<RunInfo.Prompts> prompts = new ArrayList<>();
    long warmup = 0;
    long measured = 0;
    synchronized (workloads) {
      for (Map.Entry<Workload, Set<String>> e : workloads.entrySet()) {
        Workload w = e.getKey();
        prompts.add(prompts(w, e.getValue()));
        warmup += w.warmup().handedOut();
        measured += w.measured().handedOut();
      }
    }
    synchronized (conversations) {
      for (ConversationWorkload w : conversations) {
        warmup += w.turnsSent("warmup");
        measured += w.turnsSent("measured");
      }
    }
    RunInfo.Target target =
        new RunInfo.Target(
            simulator != null ? baseUrl : settings.redactedBaseUrl(),
            simulator != null,
            model,
            settings.endpoint(),
            server == null ? null : server.toRecord());
    RunInfo.Decoding decoding =
        new RunInfo.Decoding(
            settings.outputTokens(),
            settings.ignoreEos(),
            settings.temperature(),
            settings.stream(),
            settings.stream());
    RunInfo.Load load =
        new RunInfo.Load(
            peakInFlight.get(),
            warmup,
            measured,
            settings.timeout().toMillis(),
            settings.connections(),
            usersEndedByBudget.get(),
            staleConnectionResends.get(),
            List.of());
    Class<?> simulation = protocol.simulationClass();
    return new RunInfo(
        "gatling-llm",
        version(),
        GatlingCore.version(),
        simulation == null ? null : simulation.getName(),
        prompts.isEmpty() ? null : prompts.get(0),
        prompts.size() > 1 ? prompts : null,
        target,
        decoding,
        load,
        settings.slo().isSet() ? settings.slo().toRecord() : null,
        RunInfo.Assertions.inForce(
            settings.slo().isSet(),
            settings.goodputRatio(),
            settings.cacheAsPlanned(),
            settings.saturation().sloLoadAtLeast(),
            failedPercentBelow),
        settings.stream() ? null : "llm.stream=false: no TTFT, ITL or TPOT are measured, only E2E",
        shard.single() && startAt == null
            ? null
            : new RunInfo.Shard(
                shard.index(),
                shard.count(),
                startAt == null ? null : java.time.Instant.ofEpochMilli(startAt).toString(),
                lateMs));
  }

  private static RunInfo.Prompts prompts(Workload w, Set<String> requestNames) {
    PromptSource m = w.measured();
    Map<String, RunInfo.Phase> phases = new LinkedHashMap<>();
    phases.put("warmup", new RunInfo.Phase(w.warmup().handedOut(), w.warmup().digest()));
    phases.put("measured", new RunInfo.Phase(m.handedOut(), m.digest()));
    Map<String, Object> spec = new LinkedHashMap<>(m.spec().toRecord());
    if (w.warmGroups()) {
      spec.put("warm_groups", true);
    }
    return new RunInfo.Prompts(
        w.name(),
        spec,
        PromptSource.GENERATOR_VERSION,
        m.seed(),
        m.caseId(),
        m.inputTokens(),
        m.counter().identity(),
        phases,
        m.spec().sharedPrefixRatio(),
        List.copyOf(requestNames),
        w.seedAuto() ? Boolean.TRUE : null);
  }

  /**
   * Warns when the process's open-files limit is in reach: every open stream is a socket, and an
   * open loop holds up to (arrival rate x {@code llm.timeout}) of them when the server or the
   * client falls behind.
   */
  private static void warnOnLowFileLimit() {
    if (ManagementFactory.getOperatingSystemMXBean()
            instanceof com.sun.management.UnixOperatingSystemMXBean unix
        && unix.getMaxFileDescriptorCount() < 16_384) {
      LOG.warn(
          "the open-files limit of this JVM is {}: every open LLM stream holds a socket; for more"
              + " streams in flight than that, raise it in the shell that starts the run (ulimit -n"
              + " 65536; ulimit -Hn shows the most allowed)",
          unix.getMaxFileDescriptorCount());
    }
  }

  private static String version() {
    Package p = RunContext.class.getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return version == null ? "development build" : version;
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
