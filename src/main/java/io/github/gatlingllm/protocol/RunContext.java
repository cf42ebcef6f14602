package io.github.gatlingllm.protocol;

import io.gatling.core.CoreComponents;
import io.gatling.http.protocol.HttpComponents;
import io.github.gatlingllm.api.Dialect;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.api.WireApi;
import io.github.gatlingllm.cache.CacheAggregator;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.feeder.ConversationWorkload;
import io.github.gatlingllm.feeder.Shard;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.internal.GatlingInjector;
import io.github.gatlingllm.levels.Injection;
import io.github.gatlingllm.live.LiveEndpoint;
import io.github.gatlingllm.live.LiveMetrics;
import io.github.gatlingllm.metrics.AggregatorThread;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.Slo;
import io.github.gatlingllm.record.RunInfo;
import io.github.gatlingllm.record.RunRecord;
import io.github.gatlingllm.report.Console;
import io.github.gatlingllm.report.ExitLine;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.settings.SettingUse;
import io.github.gatlingllm.simulator.Simulator;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicBoolean;
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
 * <p>Its parts: {@link RunStart} (what is read from Gatling and checked at the start), {@link
 * RunTarget} (tokenizer, simulator or probe, cache plan), {@link RequestShape} (what every request
 * carries), {@link RunTally} (per-request bookkeeping) and {@link RunFinish} (the run record and
 * the closing console lines).
 *
 * <p>Thread-safe: the LLM action calls it from every event loop.
 */
public final class RunContext {

  private static final Logger LOG = LoggerFactory.getLogger(RunContext.class);

  private final LlmProtocol protocol;
  private final LlmSettings settings;
  private final GatlingCore gatling;
  private final RunTarget target;
  private final RunRecorder recorder;
  private final ServerWatch serverWatch;
  private final HttpComponents http;
  private final RunTally tally = new RunTally();
  private final Shard shard;
  private final Long startAt;
  private final Long lateMs;
  private final AtomicBoolean crashed = new AtomicBoolean();
  private final AtomicBoolean historyChecked = new AtomicBoolean();
  private final java.util.concurrent.atomic.AtomicReference<String> refusal =
      new java.util.concurrent.atomic.AtomicReference<>();

  /** Whether the run's {@code -Dllm.*} properties were checked for settings nothing reads. */
  private volatile boolean settingsChecked;

  private final AtomicBoolean contextChecked = new AtomicBoolean();
  private final Map<WireApi, CachePlan.Server> cacheServers;
  private final RunFinish end;
  private final Thread shutdownHook;
  private final List<Injection> injections;
  private final String injectionUnknown;
  private final LevelWatch levels;
  private final ClientWatch client;
  private final OpenRequests openRequests = new OpenRequests();
  private final RunClosing closing = new RunClosing();
  private final java.util.concurrent.atomic.AtomicLong cutByRunEnd =
      new java.util.concurrent.atomic.AtomicLong();
  private final java.util.concurrent.atomic.AtomicLong cutBeforeSent =
      new java.util.concurrent.atomic.AtomicLong();
  private final RunEnd runEnd;
  private final Map<String, Double> failedPercentBelow;
  private final BudgetStop budgetStop;
  private final ProfileEnd profileEnd;
  private final BaselineGate baseline;
  private final AssertionCheck assertionCheck;
  private final RequestShape requests;
  private final TargetWatch targetWatch;
  private final SilenceWatch silence;
  private final AtomicBoolean silenceStop = new AtomicBoolean();
  private final LiveEndpoint live;
  private volatile SearchWatch search;
  private final List<List<String>> assertedPaths;

  /** The thread the run record's and the load levels' per-request bookkeeping runs on. */
  public static final String AGGREGATOR_THREAD = "gatling-llm-aggregator";

  /**
   * Records queued for the aggregator thread at most (64 s of 1,000 requests a second); past that
   * the event loop that ends a request aggregates itself.
   */
  static final int AGGREGATOR_QUEUE = 65_536;

  private final Object aggregating = new Object();
  private final AggregatorThread<Done> aggregator;

  private RunContext(LlmProtocol protocol, CoreComponents core) {
    this.protocol = protocol;
    this.settings = protocol.settings();
    this.gatling = new GatlingCore(core);
    gatling.figuresAsRequests(settings.figuresAsRequests());
    RunStart.Injections profiles = RunStart.injections(core);
    List<Injection> read = profiles.read();
    String unknown = profiles.unknown();
    this.injections = read;
    this.injectionUnknown = unknown;
    this.budgetStop =
        new BudgetStop(unknown == null ? read.stream().map(Injection::scenario).toList() : null);
    this.levels =
        new LevelWatch(
            read, settings, gatling, tally::inFlight, s -> GatlingInjector.injectionStart(core, s));
    levels.announce(unknown);
    RunStart.checkSloLoad(settings, core, read, unknown);
    this.assertionCheck = AssertionCheck.start(core, protocol.simulationClass());
    this.assertedPaths = RunStart.assertedPaths(core);
    this.baseline = BaselineGate.start(settings.baseline(), settings.slo(), assertedPaths);
    this.client =
        new ClientWatch(
            settings,
            read,
            unknown,
            gatling::nowMillis,
            scenario -> GatlingInjector.injectionStart(core, scenario));
    this.shard = Shard.current();
    this.live =
        LiveEndpoint.start(
            settings.live(),
            shard,
            new LiveMetrics.Gauges(
                tally::inFlight, () -> levels.current(gatling.nowMillis()), client::cpuShareNow));
    this.startAt = StartBarrier.startAt(System.getProperties());
    if (startAt != null) {
      StartBarrier.check(startAt, System.currentTimeMillis());
    }
    this.http = GatlingHttp.newComponents(core, protocol.http());
    this.target = RunTarget.start(protocol);
    this.recorder = RunStart.recorder(protocol, target);
    this.aggregator =
        new AggregatorThread<>(AGGREGATOR_THREAD, AGGREGATOR_QUEUE, aggregating, this::aggregate);
    levels.aggregatedBy(aggregator::drain);
    Simulator simulator = target.simulator();
    this.serverWatch =
        ServerWatch.start(
            settings, target.baseUrl(), simulator == null ? null : simulator.config());
    if (settings.cancel().isSet()) {
      serverWatch.cancelRelease(
          new io.github.gatlingllm.server.CancelRelease(
              target.baseUrl(), settings.apiKey(), tally::inFlight));
    }
    this.cacheServers = target.planCache();
    this.end =
        new RunFinish(
            protocol,
            gatling,
            target,
            tally,
            recorder,
            serverWatch,
            levels,
            client,
            cacheServers.get(WireApi.CHAT),
            shard,
            startAt);
    this.shutdownHook = new Thread(() -> finish(true), "gatling-llm-run-record");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    gatling.onTermination(this::terminate);
    RunStart.warnOnLowFileLimit();
    this.lateMs =
        startAt == null
            ? null
            : StartBarrier.await(
                startAt,
                shard.single() ? "the run" : "shard " + shard,
                System::currentTimeMillis,
                Thread::sleep);
    client.start();
    this.runEnd = new RunEnd(RunStart.maxDurationMs(core), gatling.nowMillis());
    this.failedPercentBelow = RunStart.failedPercentBelow(core);
    this.profileEnd =
        new ProfileEnd(
            settings.endWithProfile(), injections, levels::profileEndMs, client::sentBefore);
    end.baseline(baseline, this::judgeBaseline);
    this.requests = new RequestShape(protocol, target);
    this.targetWatch =
        new TargetWatch(
            settings.targetDown(), gatling.nowMillis(), java.time.ZoneId.systemDefault());
    end.targetWatch(targetWatch);
    this.silence =
        new SilenceWatch(
            settings.targetDown().silentSeconds(),
            settings.targetDown().stop(),
            System.nanoTime(),
            gatling.nowMillis(),
            targetWatch::runStartMs,
            java.time.ZoneId.systemDefault());
    end.silenceWatch(silence);
    silence.start(openRequests::streamed, this::silenceSaid);
  }

  /**
   * Says a silent target's episode, or its end; stops the run the first time with {@code
   * llm.stopWhenTargetDown}, as for a dead target: the gate ends every user from then on, the run
   * closes ({@link #stopping}: the requests in flight are cut and recorded) and the load generator
   * stops.
   */
  private void silenceSaid(SilenceWatch.Change change) {
    if (change instanceof SilenceWatch.Silent silent) {
      boolean stop = settings.targetDown().stop() && silenceStop.compareAndSet(false, true);
      if (stop) {
        runEnd.targetSilent();
        silence.stopping();
        targetWatch.stopping();
      }
      Console.line(LOG, silence.silentText(silent));
      if (stop) {
        // As a gate's stop (LlmAction): nothing more is sent and every request in flight is cut
        // while Gatling still takes rows.
        stopping(false);
        loadOver();
        gatling.stopLoadGenerator(Gate.TARGET_SILENT);
      }
    } else if (change instanceof SilenceWatch.Spoke spoke) {
      Console.line(LOG, silence.spokeText(spoke));
    }
  }

  /**
   * The run's silence watch: every response head and body chunk is stamped on it.
   *
   * @return never null
   */
  public SilenceWatch silence() {
    return silence;
  }

  /**
   * A virtual user starts. The first one, before any request is sent (Gatling has built every
   * scenario and feeder by then), checks each workload's longest prompt against the context the
   * server reports ({@link ContextCheck}) and warns once per workload that does not fit.
   */
  void userStarting() {
    if (contextChecked.compareAndSet(false, true)) {
      Integer context = target.contextTokens();
      if (context == null) {
        return;
      }
      CachePlan.Server plan = cacheServers.get(settings.endpointKind());
      int lead = plan != null && plan.templateKnown() ? plan.templateTokens() : 0;
      for (String line :
          ContextCheck.warnings(
              io.github.gatlingllm.feeder.PhasedWorkload.openCeilings(),
              context,
              target.contextSource(),
              lead,
              settings.outputTokens())) {
        Console.warning(LOG, line);
      }
    }
  }

  /**
   * The load is over and Gatling still takes rows (every prompt budget spent and every request
   * ended, or a saturation stop about to be made): compares the run with its baseline ({@code
   * llm.baseline}) and logs the regression gate's rows. Does nothing without a baseline, or the
   * second time.
   */
  public void loadOver() {
    judgeBaseline(true);
  }

  private void judgeBaseline(boolean rowsTaken) {
    if (baseline == null) {
      return;
    }
    try {
      aggregator.drain();
      recorder.close();
      baseline.judge(
          recorder.requestsFolder(),
          RunRecord.create()
              .withTarget(
                  new RunInfo.Target(
                      null, null, this.target.model(), settings.endpoint(), null, null, null)),
          rowsTaken ? gatling : null,
          injections.isEmpty() ? "llm" : injections.get(0).scenario());
    } catch (RuntimeException e) {
      LOG.error("could not compare the run with its baseline: {}", e.toString(), e);
    }
  }

  /**
   * A request was cancelled by the client ({@code llm.cancelRate}) now: the server's release of it
   * may be probed.
   *
   * @param nanos when its connection was closed, {@link System#nanoTime()}
   */
  public void cancelled(long nanos) {
    serverWatch.cancelled(nanos);
  }

  /**
   * Counts a reasoning text's tokens with the run's tokenizer ({@code llm.tokenizer}), for servers
   * that report no {@code usage.completion_tokens_details.reasoning_tokens}.
   *
   * @return the counter, or null without a real tokenizer (reasoning is then counted in chunks)
   */
  public java.util.function.ToIntFunction<String> reasoningCounter() {
    io.github.gatlingllm.token.TokenCounter counter = target.exactCounter();
    return counter == null ? null : counter::count;
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
   * @throws IllegalStateException when the running Gatling is not a supported one
   */
  static RunContext start(LlmProtocol protocol, CoreComponents core) {
    io.github.gatlingllm.internal.GatlingVersions.requireSupported();
    FedRuns.runStarted(protocol);
    return new RunContext(protocol, core);
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
   * The run's tokenizer ({@code llm.tokenizer} of the protocol), loaded before any load: counts the
   * prompts of requests that bring their own ({@code .prompt(...)}).
   *
   * @return never null
   */
  public io.github.gatlingllm.token.TokenCounter counter() {
    return target.counter();
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
  public String url(WireApi endpoint) {
    return requests.url(endpoint);
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
      WireApi endpoint, Integer maxTokens, Map<String, Object> extra) {
    return requests.requestSettings(endpoint, maxTokens, extra);
  }

  /**
   * The protocol's further headers of every request, and the bearer token's.
   *
   * @return header name to value, in order
   */
  public Map<String, String> headers() {
    return requests.headers();
  }

  /**
   * The headers of a request in an API: the protocol's own, the key in the API's header ({@code
   * Authorization: Bearer}, or {@code x-api-key} and {@code anthropic-version} for Anthropic's
   * Messages API: {@link Dialect#headers}) and {@code Connection: close} with {@code
   * llm.connections=per-request}.
   *
   * @param dialect the request's API
   * @return the headers in order, never null
   */
  public Map<String, String> headers(Dialect dialect) {
    return requests.headers(dialect);
  }

  /**
   * Whether requests take connections from the pool shared by all virtual users.
   *
   * @return true unless {@code llm.connections=per-user}
   */
  public boolean shareConnections() {
    return requests.shareConnections();
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
  public CachePlan.Server cacheServer(WireApi endpoint) {
    return cacheServers.get(endpoint);
  }

  /**
   * Names a request of this run, for the goodput report.
   *
   * @param name the request name
   */
  public void addRequestName(String name) {
    tally.addRequestName(name);
  }

  /**
   * A request is about to be sent, in this order: places its scenario's load levels on the clock at
   * the scenario's first request and counts the request in its level ({@link LevelWatch}), counts
   * it in flight and notes its workload, and a conversation turn's workload joins the run record's
   * {@code conversations}. Every request counted here ends with one {@link #record} or {@link
   * #notSent}.
   *
   * @param scenario the virtual user's scenario, never null
   * @param request the request's name, never null
   * @param workload the fed prompt's workload, or null (a conversation turn, or a request with its
   *     own prompt and no feeder)
   * @param conversations a conversation turn's workload, or null
   */
  public void sending(
      String scenario, String request, Workload workload, ConversationWorkload conversations) {
    long now = gatling.nowMillis();
    levels.started(scenario, request, now);
    SearchWatch searchWatch = search;
    if (searchWatch != null) {
      searchWatch.sending(scenario, request, now);
    }
    if (!targetWatch.started()) {
      targetWatch.firstSent(now);
    }
    tally.started(workload, request);
    if (conversations != null) {
      tally.conversationStarted(conversations);
    }
  }

  /**
   * Whether a virtual user about to send an LLM request must stop, and why, for the whole run: a
   * saturation stop ({@code llm.stopWhenSaturated}: judges the levels that ended), the target
   * ({@link TargetWatch}: send, wait while it is not answering, stop the run once it is judged down
   * with {@code llm.stopWhenTargetDown}, or end the user while the run stops), then the end of its
   * scenario's injection profile ({@link ProfileEnd}). Each stop is answered once; each question is
   * asked only when the ones before let the user through ({@link Gate#ofRun}).
   *
   * @param session the user's session, never null
   * @param mayWait false after the user has waited once for a target that is not answering
   * @return never null: {@link Gate#GO}, {@link Gate.Wait}, {@link Gate.EndUser} or a {@link
   *     Gate.StopRun} that is no crash (the caller calls {@link #loadOver()} and stops the load)
   */
  public Gate gate(io.gatling.core.session.Session session, boolean mayWait) {
    if (!settingsChecked) {
      // The first request: Gatling has built every scenario, so every part of the run is made.
      settingsChecked = true;
      String unused = SettingUse.RUN.unusedLineOnce(System.getProperties());
      if (unused != null) {
        LOG.warn("{}", unused);
      }
    }
    String ended = ended();
    if (ended != null) {
      // The run has ended: nothing more is sent; a prompt this user holds is recorded at the end.
      // The user waits before it ends, so that a closed loop does not spin while the run stops.
      close(ended);
      return new Gate.EndUser(Gate.END_PAUSE_MS);
    }
    return Gate.ofRun(
        this::saturationStop,
        targetWatch::gate,
        mayWait,
        () -> profileEnd.past(session, gatling.nowMillis()));
  }

  /**
   * Whether the run has ended, and why: it was closed ({@link #stopping}, the record being
   * written), or Gatling's statistics take no more rows (its controller stopped the run: {@code
   * maxDuration}, a stop of the load generator). A request that ends now is cut by the run's end
   * rather than recorded as it ended, as Gatling counts it in no row.
   *
   * @return the reason ({@code end_reason}'s words, e.g. {@code max_duration}), or null while the
   *     run goes on
   */
  public String ended() {
    String closed = closing.reason();
    if (closed != null) {
      return closed;
    }
    if (gatling.takesRows()) {
      return null;
    }
    return runEnd.reason(crashed.get(), false, gatling.nowMillis()).wireName();
  }

  /**
   * Begins adding a request to the run (a send, from its sender to Gatling's HTTP engine): refused
   * once the run has ended ({@link RunClosing}).
   *
   * @return true when admitted (call {@link #admitted()} when done), false when the run has ended:
   *     nothing is sent, the user ends, a prompt it holds is recorded by the run's end
   */
  public boolean admit() {
    return ended() == null && closing.enter();
  }

  /** Ends an admission that {@link #admit()} began on this thread. */
  public void admitted() {
    closing.exit();
  }

  /**
   * The run is stopping now ({@link Gate.StopRun}: a saturation stop, a target down, every budget
   * spent, or a crash), before the load generator is told: nothing more is sent or handed out, and
   * every request in flight is cut and recorded now, while Gatling still takes rows, so Gatling's
   * counts and the run record agree ({@code docs/run-end.md}).
   *
   * @param crash whether the run stops as a crash
   */
  public void stopping(boolean crash) {
    if (crash) {
      crashed.set(true);
    }
    String reason = runEnd.reason(crash, false, gatling.nowMillis()).wireName();
    close(reason);
    openRequests.cutAll(System.nanoTime(), reason);
  }

  /**
   * Closes the run: no more admissions (waits for those in progress), no more prompts handed out.
   */
  private void close(String reason) {
    closing.close(reason);
    io.github.gatlingllm.feeder.PhasedWorkload.stopHandingOut();
  }

  /**
   * A virtual user holding a fed prompt ends without sending it, the run going on (its scenario's
   * profile is over, or the target watch ends it): the prompt was handed out, so it is recorded
   * now, once, with status {@code cut_by_run_end}, in the phase's counts and digest as it was
   * already. Nothing when a request was sent with it (its own record counts), or when the run has
   * ended (the run's end records it).
   *
   * @param fed the user's fed prompt, or null
   * @param request the request it was fed for
   * @param session the user's session, for the record's reason (its scenario's profile over, or the
   *     target down)
   */
  public void notSent(
      io.github.gatlingllm.feeder.FedPrompt fed,
      String request,
      io.gatling.core.session.Session session) {
    if (fed == null || fed.spent() || fed.claim() == null || fed.claim().get()) {
      return;
    }
    String why =
        profileEnd.past(session, gatling.nowMillis())
            ? "the injection profile of scenario " + session.scenario() + " was over"
            : "its virtual user ended while the target was down";
    if (!admit()) {
      return;
    }
    try {
      if (fed.claim().compareAndSet(false, true)
          && fed.workload().recorded(fed.phase(), fed.index())) {
        io.github.gatlingllm.prompt.Prompt p = fed.prompt();
        recordNotSent(
            fed.workload(),
            new io.github.gatlingllm.metrics.RequestIdentity(
                request,
                fed.phase(),
                fed.index(),
                p.promptId(),
                p.digest(),
                p.prefixGroup(),
                p.sharedPrefixTokens(),
                p.plannedCount().value()),
            why);
      }
    } finally {
      admitted();
    }
  }

  /** The record of a prompt handed out and never sent: {@code cut_by_run_end}, nothing measured. */
  private void recordNotSent(
      Workload workload, io.github.gatlingllm.metrics.RequestIdentity identity, String why) {
    long now = gatling.nowMillis();
    long nanos = System.nanoTime();
    RequestRecord record =
        RequestRecord.of(
                identity,
                io.github.gatlingllm.metrics.RequestTimer.unanswered(
                        now, nanos, nanos, identity.plannedTokens())
                    .timings(),
                null,
                io.github.gatlingllm.metrics.RequestStatus.CUT_BY_RUN_END,
                "not sent: " + why)
            .withCache(workload.name(), null);
    tally.fedBy(workload, identity.request());
    cutBeforeSent.incrementAndGet();
    cutByRunEnd.incrementAndGet();
    aggregator.add(new Done(record, null));
    live.record(record);
    levels.notSent(record);
  }

  /**
   * At the run's end, once nothing is sent or handed out any more and every request sent has ended
   * or been cut: each prompt handed out by a workload of the run and never sent (its user ended
   * without it, waited for the warmup, or had not reached its request yet) is recorded as not sent.
   */
  private void recordUnsent(String reason) {
    for (Workload w : tally.workloads()) {
      String request = tally.firstRequest(w);
      for (boolean warmup : new boolean[] {true, false}) {
        String phase =
            (warmup
                    ? io.github.gatlingllm.prompt.Phase.WARMUP
                    : io.github.gatlingllm.prompt.Phase.MEASURED)
                .wireName();
        for (long index : w.unrecorded(warmup)) {
          if (!w.recorded(phase, index)) {
            continue;
          }
          io.github.gatlingllm.prompt.Prompt p = w.promptAgain(warmup, index);
          recordNotSent(
              w,
              new io.github.gatlingllm.metrics.RequestIdentity(
                  request,
                  phase,
                  index,
                  p.promptId(),
                  p.digest(),
                  p.prefixGroup(),
                  p.sharedPrefixTokens(),
                  p.plannedCount().value()),
              "the run ended (" + reason + ") before it was sent");
        }
      }
    }
  }

  private String saturationStop() {
    String stop = levels.stopNow(gatling.nowMillis());
    if (stop != null) {
      runEnd.saturationStop();
    }
    return stop;
  }

  /**
   * A virtual user fed a conversation workload arrives at its conversation: the workload joins the
   * run record's {@code conversations} even if no turn is ever sent (every one ended by the context
   * window).
   *
   * @param workload the conversations' workload, never null
   */
  public void conversationStarted(ConversationWorkload workload) {
    tally.conversationStarted(workload);
  }

  /**
   * A virtual user fed an agent workload arrives at its session: the workload joins the run
   * record's {@code sessions} (issue 32) even if no turn is ever sent.
   *
   * @param workload the agent workload, never null
   */
  public void agentsStarted(io.github.gatlingllm.feeder.AgentWorkload workload) {
    tally.agentsStarted(workload);
  }

  /**
   * Records a finished request; call once per request {@link #sending}.
   *
   * @param record the request, never null
   */
  public void record(RequestRecord record) {
    record(null, record);
  }

  /**
   * Records a finished request of a workload; call once per request {@link #sending}.
   *
   * @param workload the request's workload, or null when it was not fed one
   * @param record the request, never null
   */
  public void record(Workload workload, RequestRecord record) {
    if (workload != null && record.index() != null) {
      workload.recorded(record.phase(), record.index());
    }
    if (record.status() == io.github.gatlingllm.metrics.RequestStatus.CUT_BY_RUN_END) {
      cutByRunEnd.incrementAndGet();
    }
    // The level's figures go with the record to the aggregator thread (issue 43: about a tenth of
    // the event loop's time at 64 streams); the level is placed and judged here, after the record
    // is queued: a level's verdict rows (SLO LOAD) must reach Gatling while it still takes rows,
    // before the run's last user ends, and its judgement applies what is queued first.
    LevelWatch.Placement level = levels.placement(record);
    aggregator.add(new Done(record, level.slot()));
    live.record(record);
    client.recorded(record);
    serverWatch.record(workload, record);
    tally.ended();
    levels.record(level, gatling.nowMillis());
    SearchWatch searchWatch = search;
    if (searchWatch != null) {
      searchWatch.record(record);
    }
    targetEnded(record);
  }

  /**
   * The run's capacity search (issue 44), made by the first search gate Gatling builds: its
   * controller moves on a timer of its own and stops the run once it is over ({@code end_reason}
   * {@code search_over}).
   *
   * @param settings the search's settings, never null
   * @return the search's watch, the same for every gate of the run
   * @throws IllegalArgumentException if no SLO is set, or a second search with other settings is
   *     asked for
   */
  public synchronized SearchWatch capacitySearch(
      io.github.gatlingllm.capacity.SearchSettings settings) {
    if (search != null) {
      if (!search.search().settings().equals(settings)) {
        throw new IllegalArgumentException(
            "llm.search: one capacity search a run, but a second one with other settings was"
                + " built ("
                + settings.describe()
                + " beside "
                + search.search().settings().describe()
                + "); expected one capacitySearch() builder shared by the scenario's gates");
      }
      return search;
    }
    Double bound = settings.capacityAtLeast();
    if (bound != null
        && assertedPaths != null
        && assertedPaths.stream().noneMatch(p -> p.equals(List.of(LlmProtocol.CAPACITY_ROW)))) {
      throw new IllegalArgumentException(
          "llm.assert.capacityAtLeast: got "
              + io.github.gatlingllm.levels.LoadLevel.describeNumber(bound)
              + ", but setUp(...) has no assertion on the "
              + LlmProtocol.CAPACITY_ROW
              + " row, so the run would pass whatever capacity it finds: add llm.assertions(...)"
              + " to setUp (with -Dllm.assert.capacityAtLeast), or LlmDsl.capacityMet() to its"
              + " assertions");
    }
    search =
        new SearchWatch(
            settings,
            this.settings,
            gatling,
            levels::exclude,
            () -> {
              // As a gate's stop (LlmAction): nothing more is sent, every request in flight is cut
              // while Gatling still takes rows; the search waited for its own to end.
              runEnd.searchOver();
              stopping(false);
              loadOver();
              gatling.stopLoadGenerator("gatling-llm: the capacity search is over");
            });
    end.search(search);
    return search;
  }

  /**
   * The per-request bookkeeping that takes time (the run record's exact tables, its load level's,
   * and the JSONL line), on the aggregator thread ({@link AggregatorThread}), off the event loops:
   * the run record sees a request a few milliseconds after it ended; {@link #finish}, the
   * baseline's judgement and a level's judgement drain the queue first, so nothing is lost.
   */
  private void aggregate(Done done) {
    RequestRecord record = done.record();
    if (done.level() != null) {
      done.level().aggregate(record);
    }
    recorder.record(record);
    if (record.warmStart() && tally.warmStart()) {
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
   * A finished request on its way to the aggregator thread, with its load level's slot (null when
   * it is in none).
   */
  private record Done(RequestRecord record, io.github.gatlingllm.levels.LevelTracker.Slot level) {}

  /**
   * Feeds the target watch with a request's ending; says once when the target goes or comes back.
   */
  private void targetEnded(RequestRecord record) {
    TargetWatch.Kind kind = TargetWatch.kind(record.status(), record.httpStatus());
    if (kind == TargetWatch.Kind.NEUTRAL) {
      return;
    }
    TargetWatch.Change change = targetWatch.ended(kind, record.error(), gatling.nowMillis());
    if (change instanceof TargetWatch.Down down) {
      if (settings.targetDown().stop()) {
        runEnd.targetDown();
      }
      Console.line(LOG, targetWatch.downText(down));
    } else if (change instanceof TargetWatch.Back back) {
      Console.line(LOG, targetWatch.backText(back));
    }
  }

  /**
   * A request was sent once more on a new connection because the pooled connection it was first
   * written to closed before any answer (Gatling's client retries stale keep-alive connections);
   * counted in the run record as {@code load.stale_connection_resends}.
   */
  public void staleConnectionResend() {
    tally.staleConnectionResend();
  }

  /** A request counted by {@link #sending} ended without a record: in flight no more. */
  public void notSent() {
    tally.ended();
  }

  /**
   * A virtual user was fed past its workload's budget and ends. What a spent budget stops is {@link
   * BudgetStop}'s: the run's injection only when every scenario was fed a budget, so scenarios
   * without one run to the end of their injection.
   *
   * @param scenario the user's scenario, never null
   * @return true once, when every workload made in this JVM is spent and every scenario of the
   *     simulation was fed one (or the scenarios are unknown): the caller stops the run's injection
   */
  public boolean userEndedByBudget(String scenario) {
    BudgetStop.Decision decision = budgetStop.userEnded(scenario, tally.userEndedByBudget());
    if (decision == BudgetStop.Decision.RUN_ON) {
      Console.line(LOG, budgetStop.runOnText());
    }
    if (decision != BudgetStop.Decision.STOP) {
      return false;
    }
    runEnd.budgetSpent();
    return true;
  }

  /**
   * The run is about to be stopped as a crash (a scenario that cannot work): its record says it was
   * interrupted, not that it ended.
   */
  public void crashed() {
    crashed.set(true);
  }

  /**
   * Checks {@code llm.responses.history=server} against the server before any load, once per run:
   * called when a conversation's or agent session's request on the Responses API is built.
   *
   * @throws IllegalArgumentException with the one line when the server refuses {@code
   *     previous_response_id} (see {@link RunTarget#preflightServerHistory})
   */
  public void checkServerHistory() {
    if (settings.historyOnServer() && historyChecked.compareAndSet(false, true)) {
      target.preflightServerHistory(protocol.headers());
    }
  }

  /**
   * The run is stopped by a refusal found at a request (a session loop fed the wrong workload, the
   * server's refusal of {@code llm.responses.history=server}): its record says it crashed, as
   * {@link #crashed()}; the stop is Gatling's orderly one (its log closed, its report written) and
   * the JVM ends with the line alone and status 1 ({@link ExitLine}). The first refusal wins.
   *
   * @param line the refusal's one line, never null
   * @return true for the first refusal of the run: its caller stops the load
   */
  public boolean refused(String line) {
    if (!refusal.compareAndSet(null, java.util.Objects.requireNonNull(line, "line"))) {
      return false;
    }
    crashed.set(true);
    return true;
  }

  private void terminate() {
    // A refused run's load was stopped in order: Gatling closed its log, the run was not cut.
    try {
      finish(crashed.get() && refusal.get() == null);
    } catch (RuntimeException | AssertionError e) {
      // Gatling's termination runs its tasks one after the other and then stops its thread pools:
      // a task that throws leaves them, and the JVM, running forever.
      LOG.error("could not finish the run record: {}", e.toString(), e);
    }
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
    silence.close();
    // Every record queued so far; the requests cut at the end are then aggregated by their caller.
    aggregator.close();
    end.finish(
        interrupted,
        crashed.get(),
        refusal.get(),
        lateMs,
        runEnd,
        new RunFinish.Ending() {
          @Override
          public void cutAll(String reason) {
            // Nothing sent or handed out from here; then every request in flight is cut (each
            // one ending now is waited for), then every prompt handed out and never sent.
            close(reason);
            openRequests.cutAll(System.nanoTime(), reason);
            recordUnsent(reason);
          }

          @Override
          public long cut() {
            return cutByRunEnd.get();
          }

          @Override
          public long cutBeforeSent() {
            return cutBeforeSent.get();
          }
        },
        failedPercentBelow,
        assertionCheck);
    live.runRecorded();
  }
}
