package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.StringBody;
import static io.gatling.javaapi.core.CoreDsl.atOnceUsers;
import static io.gatling.javaapi.core.CoreDsl.bodyString;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.feed;
import static io.gatling.javaapi.core.CoreDsl.group;
import static io.gatling.javaapi.core.CoreDsl.scenario;
import static io.gatling.javaapi.core.CoreDsl.substring;
import static io.gatling.javaapi.http.HttpDsl.header;
import static io.gatling.javaapi.http.HttpDsl.http;
import static io.gatling.javaapi.http.HttpDsl.sse;
import static io.gatling.javaapi.http.HttpDsl.status;

import io.gatling.http.action.sse.SseInboundMessage;
import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.gatling.javaapi.core.OpenInjectionStep;
import io.gatling.javaapi.core.PopulationBuilder;
import io.gatling.javaapi.core.ScenarioBuilder;
import io.gatling.javaapi.core.Session;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.internal.CutStreams;
import io.github.gatlingllm.internal.SseCrash;
import io.github.gatlingllm.internal.StatsHook;
import io.github.gatlingllm.metrics.Goodput;
import io.github.gatlingllm.metrics.GroupSummary;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestStatus;
import io.github.gatlingllm.metrics.RequestTimer;
import io.github.gatlingllm.metrics.RequestTimings;
import io.github.gatlingllm.metrics.StreamOutcome;
import io.github.gatlingllm.openai.Endpoint;
import io.github.gatlingllm.openai.ErrorBody;
import io.github.gatlingllm.openai.RequestBodies;
import io.github.gatlingllm.openai.RequestSettings;
import io.github.gatlingllm.openai.SseMessageData;
import io.github.gatlingllm.openai.StreamEvent;
import io.github.gatlingllm.prompt.PromptSource;
import io.github.gatlingllm.prompt.PromptSpec;
import io.github.gatlingllm.report.IndexLink;
import io.github.gatlingllm.report.ReportPage;
import io.github.gatlingllm.report.RunFolders;
import io.github.gatlingllm.report.RunRecorder;
import io.github.gatlingllm.report.ServerInfo;
import io.github.gatlingllm.report.ServerProbe;
import io.github.gatlingllm.simulator.Simulator;
import io.github.gatlingllm.simulator.SimulatorConfig;
import io.github.gatlingllm.token.TokenCounter;
import io.github.gatlingllm.token.TokenCounters;
import java.lang.management.ManagementFactory;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.UUID;
import java.util.concurrent.atomic.AtomicBoolean;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * One LLM load test inside a Gatling simulation: its settings, prompts, target, request chains and
 * run record. Create it in the simulation's constructor (or field initializer), use its chains and
 * scenarios in {@code setUp}, and call {@link #after()} from the simulation's {@code after()}.
 *
 * <p>Creating it does all the one-off work before the clock starts: the settings are checked, the
 * tokenizer is loaded, each phase's prompts are warmed, the embedded simulator is started when no
 * {@code llm.baseUrl} is set (otherwise the server is asked what it is, see {@link ServerProbe},
 * and {@code target.server} of the run record says what it answered), and Gatling's results folder
 * is listed so that the run's own folder can be found later. A JVM shutdown hook writes the run
 * record if the run is stopped before {@link #after()} (SIGINT, SIGTERM).
 */
public final class LlmRun {

  /** The session name of each request's SSE stream. */
  static final String STREAM = "llm.stream";

  private static final Logger LOG = LoggerFactory.getLogger(LlmRun.class);
  private static final String BODY = "llm.body";
  private static final String REQUEST_ID = "llm.requestId";
  private static final String START = "llm.startMs";
  private static final String TIMINGS = "llm.timings";
  private static final String OUTCOME = "llm.outcome";
  private static final String HTTP_STATUS = "llm.httpStatus";
  private static final String RESPONSE = "llm.response";
  private static final String ERROR_BODY_WANTED = "llm.errorBodyWanted";
  private static final String ERROR_STATUS = "llm.errorStatus";
  private static final String ERROR_BODY = "llm.errorBody";
  private static final String ERROR_TYPE = "llm.errorType";

  /**
   * The most error-body repeats a run sends per kind of failed answer (an HTTP status, or a wrong
   * content type): enough to show the server's message, never load in proportion to the errors.
   */
  static final int ERROR_BODY_REPEATS_PER_KIND = 3;

  /** What the record says of a stream whose connection the server closed before it ended. */
  private static final String CLOSED_EARLY = "closed while connected";

  /** Gatling's crash message for a response that ended cleanly without the awaited message. */
  private static final String END_OF_STREAM = "End of stream";

  /**
   * Gatling renders {@code data: [DONE]} as {@code "data":[DONE]}, unquoted and not JSON. Found as
   * a plain substring (a regex here cost a tenth of the client's CPU at 2,000 streams/s): the
   * sequence cannot occur inside a JSON string of another event, where its quotes are escaped.
   */
  private static final String DONE_DATA = "\"data\":[DONE]";

  private static volatile LlmRun current;

  private final LlmSettings settings;
  private final Class<?> simulationClass;
  private final TokenCounter counter;
  private final Simulator simulator;
  private final String baseUrl;
  private final String model;
  private final ServerInfo server;
  private final RequestSettings requestSettings;
  private final List<Workload> workloads = new ArrayList<>();
  private final RunRecorder recorder;
  private final AtomicBoolean finished = new AtomicBoolean();
  private final List<String> loadProfiles = new java.util.concurrent.CopyOnWriteArrayList<>();
  private final Thread shutdownHook;
  private final java.util.Set<String> requestNames =
      java.util.Collections.synchronizedSet(new java.util.LinkedHashSet<>());
  private volatile boolean assertionsTaken;
  private final Map<String, java.util.concurrent.atomic.AtomicInteger> errorBodyRepeats =
      new java.util.concurrent.ConcurrentHashMap<>();

  /** The prompts of one case: a spec with its warmup and measured feeders. */
  public static final class Workload {
    private final String name;
    private final PromptSpec spec;
    private final String caseId;
    private final PromptSource measured;
    private final PromptSource warmup;
    private final PromptFeeder measuredFeeder;
    private final PromptFeeder warmupFeeder;

    private Workload(String name, PromptSpec spec, String caseId, LlmSettings s, TokenCounter c) {
      this.name = name;
      this.spec = spec;
      this.caseId = caseId;
      this.measured = new PromptSource(spec, c, s.seed(), caseId, "measured", s.inputTokens());
      this.warmup = measured.forPhase("warmup");
      measured.warm();
      if (s.warmupRequests() > 0) {
        warmup.warm();
      }
      this.measuredFeeder = new PromptFeeder(measured, s.requests());
      this.warmupFeeder = new PromptFeeder(warmup, s.warmupRequests());
    }

    /**
     * The workload's name, used in scenario and request names.
     *
     * @return never null
     */
    public String name() {
      return name;
    }

    /**
     * The prompt spec.
     *
     * @return never null
     */
    public PromptSpec spec() {
      return spec;
    }

    /**
     * The measured phase's feeder: the records of requests 0, 1, 2, ...
     *
     * @return never null
     */
    public PromptFeeder measuredFeeder() {
      return measuredFeeder;
    }

    /**
     * The warmup phase's feeder.
     *
     * @return never null
     */
    public PromptFeeder warmupFeeder() {
      return warmupFeeder;
    }

    Map<String, Object> record(LlmSettings s, TokenCounter c) {
      Map<String, Object> prompts = new LinkedHashMap<>();
      prompts.put("workload", name);
      prompts.put("spec", spec.toRecord());
      prompts.put("generator_version", PromptSource.GENERATOR_VERSION);
      prompts.put("seed", s.seed());
      prompts.put("case_id", caseId);
      prompts.put("input_tokens", s.inputTokens());
      prompts.put("tokenizer", c.identity());
      Map<String, Object> phases = new LinkedHashMap<>();
      phases.put("warmup", phase(warmup));
      phases.put("measured", phase(measured));
      prompts.put("phases", phases);
      prompts.put(
          "planned_shared_share",
          spec.sharedPrefixRatio() == null ? null : spec.sharedPrefixRatio());
      return prompts;
    }

    private static Map<String, Object> phase(PromptSource source) {
      Map<String, Object> phase = new LinkedHashMap<>();
      phase.put("requests", source.handedOut());
      phase.put("digest", source.digest());
      return phase;
    }
  }

  private LlmRun(LlmSettings settings, Class<?> simulationClass, SimulatorConfig simulatorConfig) {
    this.settings = Objects.requireNonNull(settings, "settings");
    this.simulationClass = simulationClass;
    try {
      this.counter = TokenCounters.of(settings.tokenizer());
    } catch (IllegalArgumentException e) {
      throw new IllegalArgumentException("llm.tokenizer: " + e.getMessage(), e);
    }
    if (settings.baseUrl() == null) {
      SimulatorConfig config = simulatorConfig.withTokenCounter(counter);
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
      if (!baseUrl.endsWith("/v1")) {
        LOG.warn(
            "llm.baseUrl {} does not end in /v1: requests go to {}/chat/completions; most"
                + " OpenAI-compatible servers serve {}/v1/chat/completions",
            settings.redactedBaseUrl(),
            settings.redactedBaseUrl(),
            settings.redactedBaseUrl());
      }
      this.server = ServerProbe.probe(baseUrl, settings.apiKey(), ServerProbe.DEFAULT_TIMEOUT);
      if (server.answeredNothing()) {
        LOG.warn(
            "nothing answered at llm.baseUrl {} ({} asked, {} ms each: refused or silent): is the"
                + " URL right and the server up? The run goes on",
            settings.redactedBaseUrl(),
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
      this.model = settings.modelFor(server);
      if (settings.model() == null) {
        if (server.firstModel() != null) {
          LOG.info("llm.model is not set: using the server's first model, {}", model);
        } else {
          LOG.warn(
              "llm.model is not set and {}/models lists no model: requests name the model {}",
              settings.redactedBaseUrl(),
              model);
        }
      }
    }
    Endpoint endpoint = settings.endpoint().equals("chat") ? Endpoint.CHAT : Endpoint.COMPLETIONS;
    this.requestSettings = requestSettings(endpoint);
    workloads.add(
        new Workload(
            settings.promptMode().wireName(),
            settings.promptSpec(),
            settings.caseId(),
            settings,
            counter));
    Path results = Path.of(settings.resultsFolder());
    try {
      this.recorder = new RunRecorder(RunFolders.before(results, simulationClass), settings.slo());
    } catch (java.io.UncheckedIOException e) {
      if (simulator != null) {
        simulator.close();
      }
      throw new IllegalArgumentException(
          "llm.resultsFolder: cannot write run records under \""
              + results
              + "\" ("
              + e.getCause()
              + "), expected a folder that exists or can be made",
          e);
    }
    if (settings.stream()) {
      // A stream the server cuts must not be sent again by Gatling's SSE reconnect.
      SseCrash.preventReconnect();
    }
    this.shutdownHook = new Thread(() -> finish(true), "gatling-llm-run-record");
    Runtime.getRuntime().addShutdownHook(shutdownHook);
    current = this;
  }

  /**
   * Starts a run with the given settings; see the class description for what this does.
   *
   * @param settings the settings, never null
   * @param simulationClass the simulation's class, to find its run folder
   * @return the run
   * @throws IllegalArgumentException naming a bad setting (e.g. a tokenizer that cannot be loaded)
   */
  public static LlmRun start(LlmSettings settings, Class<?> simulationClass) {
    return new LlmRun(settings, simulationClass, SimulatorConfig.defaults());
  }

  /**
   * Starts a run whose embedded simulator (used when {@code llm.baseUrl} is unset) has the given
   * configuration; its token counter is replaced by the run's tokenizer.
   *
   * @param settings the settings, never null
   * @param simulationClass the simulation's class, to find its run folder
   * @param simulatorConfig the embedded simulator's timing model and cache, never null
   * @return the run
   * @throws IllegalArgumentException naming a bad setting
   */
  public static LlmRun start(
      LlmSettings settings, Class<?> simulationClass, SimulatorConfig simulatorConfig) {
    return new LlmRun(settings, simulationClass, Objects.requireNonNull(simulatorConfig));
  }

  /**
   * The run most recently started in this JVM, for {@link LlmDsl}'s static chains.
   *
   * @return the run
   * @throws IllegalStateException if no run was started
   */
  public static LlmRun current() {
    LlmRun run = current;
    if (run == null) {
      throw new IllegalStateException(
          "no LLM run was started: create one with LlmDsl.llmRun(...) in the simulation first");
    }
    return run;
  }

  /**
   * Adds a workload with its own prompt spec, e.g. to compare modes in one simulation. Its case id
   * is the settings' case id followed by {@code -} and the workload name.
   *
   * @param name the workload's name, e.g. {@code unique}
   * @param spec its prompt spec
   * @return the workload
   */
  public Workload addWorkload(String name, PromptSpec spec) {
    Workload workload = new Workload(name, spec, settings.caseId() + "-" + name, settings, counter);
    workloads.add(workload);
    return workload;
  }

  /**
   * The workload of the settings' prompt spec.
   *
   * @return never null
   */
  public Workload workload() {
    return workloads.get(0);
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
   * The base URL requests go to, {@code .../v1}.
   *
   * @return never null
   */
  public String baseUrl() {
    return baseUrl;
  }

  /**
   * The embedded simulator, when the run started one.
   *
   * @return the simulator, or null when {@code llm.baseUrl} is set
   */
  public Simulator simulator() {
    return simulator;
  }

  /**
   * Gatling's HTTP protocol for this run: the base URL, no warm-up call, an SSE buffer that holds
   * every event of a response ({@code 2 * max_tokens + 64}), and one connection pool shared by all
   * virtual users, as an LLM client's pool is (Gatling still opens a connection per SSE stream).
   * Without sharing, Gatling 3.16 keeps about 1.8 KB per virtual user of an open loop until the run
   * ends (its pool's per-user keys and closed channels): 43 MB in 10 minutes at 50 arrivals/s.
   *
   * @return the protocol
   */
  public HttpProtocolBuilder protocol() {
    return http.baseUrl(baseUrl)
        .disableWarmUp()
        .shareConnections()
        .acceptHeader("application/json, text/event-stream")
        .sseUnmatchedInboundMessageBufferSize(2 * settings.outputTokens() + 64);
  }

  /**
   * A chat-completions request chain named {@code name}; see {@link LlmDsl#chatCompletion}.
   *
   * @param name the request name in Gatling's report
   * @return the chain
   */
  public ChainBuilder chatCompletion(String name) {
    return request(name, Endpoint.CHAT);
  }

  /**
   * A completions request chain named {@code name}; see {@link LlmDsl#completion}.
   *
   * @param name the request name in Gatling's report
   * @return the chain
   */
  public ChainBuilder completion(String name) {
    return request(name, Endpoint.COMPLETIONS);
  }

  /**
   * The request chain of the settings' endpoint ({@code llm.endpoint}).
   *
   * @param name the request name in Gatling's report
   * @return the chain
   */
  public ChainBuilder request(String name) {
    return request(name, requestSettings.endpoint());
  }

  private ChainBuilder request(String name, Endpoint endpoint) {
    requestNames.add(name);
    RequestSettings body = requestSettings(endpoint);
    ChainBuilder prepare =
        exec(
            session -> {
              if (body.stream()) {
                CutStreams.watch(session);
              }
              return session
                  .markAsSucceeded()
                  .set(BODY, RequestBodies.body(body, session.getString(PromptFeeder.TEXT)))
                  .set(REQUEST_ID, UUID.randomUUID().toString())
                  .set(START, System.currentTimeMillis());
            });
    String path = "/" + endpoint.path();
    return body.stream() ? prepare.exec(streamed(name, path)) : prepare.exec(plain(name, path));
  }

  private ChainBuilder streamed(String name, String path) {
    var connect =
        sse(name, STREAM)
            .post(path)
            .header("X-Request-Id", session -> session.getString(REQUEST_ID))
            .body(StringBody(session -> session.getString(BODY)))
            .asJson();
    if (settings.apiKey() != null) {
      String authorization = "Bearer " + settings.apiKey();
      connect = connect.header("Authorization", session -> authorization);
    }
    return exec(connect
            .await(settings.timeout())
            .on(sse.checkMessage(name + " [DONE]").matching(substring(DONE_DATA).exists())))
        .exec(sse.processUnmatchedMessages(STREAM, this::collect))
        .exec(sse(name + " close", STREAM).close())
        .doIf(session -> session.contains(ERROR_BODY_WANTED))
        .then(exec(errorBodyRequest(name, path)))
        .exec(StatsHook.of((session, rows) -> finishStreamed(name, session, rows)));
  }

  /**
   * Gatling's SSE client drops the body of an answer that is not a 200 {@code text/event-stream}
   * one, so the server's error message would be lost: this sends the same request once more as a
   * plain, silent HTTP request (no row in Gatling's report) and keeps its status, content type and
   * body. At most {@value #ERROR_BODY_REPEATS_PER_KIND} such repeats per HTTP status (or wrong
   * content type) in a run, so that an overloaded server answering 429 or 503, or a server that
   * answers every stream with a whole non-streamed completion, is not sent more work.
   */
  private io.gatling.javaapi.http.HttpRequestActionBuilder errorBodyRequest(
      String name, String path) {
    var request =
        http(name + " error body")
            .post(path)
            .header("X-Request-Id", session -> session.getString(REQUEST_ID) + "-error-body")
            .body(StringBody(session -> session.getString(BODY)))
            .asJson()
            .requestTimeout(settings.timeout())
            .silent()
            .check(status().saveAs(ERROR_STATUS), bodyString().saveAs(ERROR_BODY))
            .check(header("Content-Type").optional().saveAs(ERROR_TYPE));
    if (settings.apiKey() != null) {
      String authorization = "Bearer " + settings.apiKey();
      request = request.header("Authorization", session -> authorization);
    }
    return request;
  }

  /** Whether another error-body repeat for this kind of failure fits in the run's budget. */
  private boolean errorBodyBudget(String kind) {
    return errorBodyRepeats
            .computeIfAbsent(kind, k -> new java.util.concurrent.atomic.AtomicInteger())
            .getAndIncrement()
        < ERROR_BODY_REPEATS_PER_KIND;
  }

  /** {@code HTTP 400: invalid_request_error (400): max_tokens is too large} and the like. */
  private static String httpError(int status, Session session, boolean repeated) {
    StringBuilder sb = new StringBuilder("HTTP ").append(status);
    if (!repeated) {
      return sb.append(" (body not read: it is read for the first ")
          .append(ERROR_BODY_REPEATS_PER_KIND)
          .append(" answers of each status only)")
          .toString();
    }
    Integer again = session.contains(ERROR_STATUS) ? session.getInt(ERROR_STATUS) : null;
    String body =
        ErrorBody.describe(
            session.contains(ERROR_BODY) ? session.getString(ERROR_BODY) : null,
            session.contains(ERROR_TYPE) ? session.getString(ERROR_TYPE) : null);
    if (again == null) {
      return sb.append(" (body not read: its repeat got no answer)").toString();
    }
    if (again != status) {
      sb.append(" (its repeat got ").append(again).append(')');
    }
    return body == null ? sb.toString() : sb.append(": ").append(body).toString();
  }

  /**
   * Times the stream from its messages' own timestamps, while the stream is still in the session.
   */
  private Session collect(List<SseInboundMessage> messages, Session session) {
    long start = session.getLong(START);
    // Gatling's SSE stamps are epoch milliseconds: scaled to nanoseconds of that same clock.
    RequestTimer timer = new RequestTimer(start, start * 1_000_000L);
    for (SseInboundMessage message : messages) {
      String data = SseMessageData.extract(message.message());
      if (data != null) {
        timer.onEvent(message.timestamp() * 1_000_000L, StreamEvent.parse(data));
      }
    }
    // Only a failed session can hold a crashed stream: no reflection on the common path.
    String crash = session.isFailed() ? SseCrash.message(session, STREAM).orElse(null) : null;
    if (crash != null && crash.contains(CutStreams.MESSAGE)) {
      // CutStreams ended the wait of a stream the server closed.
      crash = CLOSED_EARLY;
    } else if (crash == null
        && session.isFailed()
        && SseCrash.closedWhileConnected(session, STREAM)) {
      // The same, found only at the await's timeout.
      crash = CLOSED_EARLY;
      SseCrash.cancelReconnect(session, STREAM);
    }
    if (!session.isFailed() && crash == null && !messages.isEmpty()) {
      // The await's check consumed the [DONE] message: it arrived, after the last data event.
      timer.onEvent(timer.lastEventNanos(), StreamEvent.DONE);
    }
    long end =
        messages.isEmpty() ? System.currentTimeMillis() * 1_000_000L : timer.lastEventNanos();
    // Without usage from the server, the prompt's planned count (the run's tokenizer, without the
    // chat template) stands in, marked not exact.
    RequestTimings timings = timer.finish(end, session.getInt(PromptFeeder.PLANNED_TOKENS));
    Session next = session.set(TIMINGS, timings).set(OUTCOME, crash == null ? "" : crash);
    if (crash == null) {
      return next;
    }
    // An HTTP error or a wrong content type: Gatling dropped the answer's body.
    java.util.Optional<Integer> status = SseCrash.status(crash);
    boolean answerLost =
        status.isPresent() || crash.contains("ContentType") || crash.contains("content-type");
    String kind = status.map(String::valueOf).orElse("type");
    return answerLost && errorBodyBudget(kind) ? next.set(ERROR_BODY_WANTED, true) : next;
  }

  private Session finishStreamed(String name, Session session, StatsHook.Rows rows) {
    RequestTimings timings = (RequestTimings) session.get(TIMINGS);
    String crash = session.getString(OUTCOME);
    Integer httpStatus = null;
    RequestStatus status;
    String error = null;
    boolean failed = session.isFailed();
    if (crash != null && !crash.isEmpty()) {
      httpStatus = SseCrash.status(crash).orElse(null);
      boolean repeated = session.contains(ERROR_BODY_WANTED);
      if (httpStatus != null) {
        status = RequestStatus.classify(httpStatus, null, true, false, false, timings.outcome());
        error = httpError(httpStatus, session, repeated);
      } else if (crash.contains("ContentType") || crash.contains("content-type")) {
        // Gatling checks the content type of 200 answers only.
        httpStatus = 200;
        status = RequestStatus.STREAM_ERROR;
        int at = crash.indexOf("content-type ");
        String type = at < 0 ? "unknown" : crash.substring(at + "content-type ".length());
        String body =
            repeated && session.contains(ERROR_BODY)
                ? ErrorBody.describe(session.getString(ERROR_BODY), type)
                : null;
        error =
            "content type " + type + ", not text/event-stream" + (body == null ? "" : ": " + body);
      } else if (crash.equals(CLOSED_EARLY) || crash.equals(END_OF_STREAM)) {
        // The response head came (200, text/event-stream), then the stream ended early.
        httpStatus = 200;
        status = RequestStatus.STREAM_ERROR;
        error =
            timings.outcome() == StreamOutcome.NO_DONE
                ? (crash.equals(CLOSED_EARLY)
                        ? "connection closed by the server before [DONE]"
                        : "stream ended without [DONE]")
                    + " ("
                    + timings.completionTokens()
                    + (timings.completionTokens() == 1 ? " token" : " tokens")
                    + " received)"
                : timings.streamError();
      } else {
        status = RequestStatus.CONNECT_ERROR;
        error = crash;
      }
    } else {
      httpStatus = 200;
      long elapsed = System.currentTimeMillis() - session.getLong(START);
      boolean timedOut =
          failed
              && timings.outcome() == StreamOutcome.NO_DONE
              && elapsed >= settings.timeout().toMillis();
      status = RequestStatus.classify(200, null, true, false, timedOut, timings.outcome());
      if (status != RequestStatus.OK) {
        error =
            timedOut
                ? "no [DONE] within llm.timeout (" + settings.timeout().toMillis() + " ms)"
                : timings.streamError() != null
                    ? timings.streamError()
                    : "stream ended without [DONE]";
      }
    }
    return complete(
        name,
        session,
        rows,
        timings,
        httpStatus,
        status,
        error,
        TIMINGS,
        OUTCOME,
        ERROR_BODY_WANTED,
        ERROR_STATUS,
        ERROR_BODY,
        ERROR_TYPE);
  }

  private ChainBuilder plain(String name, String path) {
    var request =
        http(name)
            .post(path)
            .header("X-Request-Id", session -> session.getString(REQUEST_ID))
            .body(StringBody(session -> session.getString(BODY)))
            .asJson()
            .check(status().saveAs(HTTP_STATUS), bodyString().saveAs(RESPONSE))
            .check(header("Content-Type").optional().saveAs("llm.contentType"))
            .check(status().in(200, 201, 202, 203, 204, 205, 206));
    if (settings.apiKey() != null) {
      String authorization = "Bearer " + settings.apiKey();
      request = request.header("Authorization", session -> authorization);
    }
    return exec(request).exec(StatsHook.of((session, rows) -> finishPlain(name, session, rows)));
  }

  private Session finishPlain(String name, Session session, StatsHook.Rows rows) {
    long start = session.getLong(START);
    long end = System.currentTimeMillis();
    Integer httpStatus = session.contains(HTTP_STATUS) ? session.getInt(HTTP_STATUS) : null;
    String body = session.contains(RESPONSE) ? session.getString(RESPONSE) : null;
    StreamEvent response = body == null ? StreamEvent.EMPTY : StreamEvent.parseResponse(body);
    RequestTimings timings =
        RequestTimer.nonStreaming(
            start,
            start * 1_000_000L,
            end * 1_000_000L,
            response,
            session.getInt(PromptFeeder.PLANNED_TOKENS),
            null);
    RequestStatus status =
        RequestStatus.classify(
            httpStatus, null, false, httpStatus == null, false, timings.outcome());
    String error;
    if (status == RequestStatus.OK) {
      error = null;
    } else if (httpStatus != null && (httpStatus < 200 || httpStatus > 299)) {
      String contentType =
          session.contains("llm.contentType") ? session.getString("llm.contentType") : null;
      String described = ErrorBody.describe(body, contentType);
      error = "HTTP " + httpStatus + (described == null ? "" : ": " + described);
    } else {
      error =
          response.error() != null
              ? response.error().describe()
              : httpStatus == null ? "no response" : "HTTP " + httpStatus;
    }
    return complete(name, session, rows, timings, httpStatus, status, error, RESPONSE);
  }

  /**
   * Records a finished request, logs its rows, drops the request's scratch keys from the session
   * and marks a failed request's session as failed.
   */
  private Session complete(
      String name,
      Session session,
      StatsHook.Rows rows,
      RequestTimings timings,
      Integer httpStatus,
      RequestStatus status,
      String error,
      String... scratchKeys) {
    long timeoutMs = settings.timeout().toMillis();
    if (status == RequestStatus.OK && timings.e2eMs() > timeoutMs) {
      // Gatling's timer starts after the request is built and fires late on a busy or cold JVM:
      // llm.timeout counts from the request's own start.
      status = RequestStatus.TIMEOUT;
      error =
          "ended after llm.timeout (" + Math.round(timings.e2eMs()) + " ms > " + timeoutMs + " ms)";
    }
    RequestRecord record =
        RequestRecord.of(identity(name, session), timings, httpStatus, status, error);
    recorder.record(record);
    logRows(name, record, rows);
    Session next = session.remove(BODY).remove(PromptFeeder.TEXT);
    for (String key : scratchKeys) {
      next = next.remove(key);
    }
    return status == RequestStatus.OK ? next : next.markAsFailed();
  }

  private static RequestIdentity identity(String name, Session session) {
    return new RequestIdentity(
        name,
        session.getString(PromptFeeder.PHASE),
        session.getLong(PromptFeeder.INDEX),
        session.getString(PromptFeeder.PROMPT_ID),
        session.getString(PromptFeeder.DIGEST),
        session.contains(PromptFeeder.PREFIX_GROUP)
            ? session.getInt(PromptFeeder.PREFIX_GROUP)
            : null,
        session.contains(PromptFeeder.SHARED_PREFIX_TOKENS)
            ? session.getInt(PromptFeeder.SHARED_PREFIX_TOKENS)
            : null,
        session.getInt(PromptFeeder.PLANNED_TOKENS));
  }

  /**
   * TTFT, TPOT and E2E rows in Gatling's report, with their true start and end; with an SLO set, a
   * {@code name SLO} row spanning the request, OK when it met the SLO, KO naming what it missed.
   */
  private void logRows(String name, RequestRecord record, StatsHook.Rows rows) {
    if (settings.slo().isSet()) {
      List<String> missed = settings.slo().missed(record);
      List<String> described = new ArrayList<>();
      for (String c : missed) {
        described.add(settings.slo().describe(c));
      }
      rows.log(
          name + " SLO",
          record.startMs(),
          (long) Math.ceil(record.endMs()),
          missed.isEmpty(),
          missed.isEmpty() ? null : "missed " + String.join(", ", described));
    }
    boolean ok = record.status() == RequestStatus.OK;
    long start = record.startMs();
    if (record.ttftMs() != null) {
      long firstToken = start + Math.round(record.ttftMs());
      rows.log(name + " TTFT", start, firstToken, ok, ok ? null : record.error());
      if (record.tpotMs() != null) {
        rows.log(
            name + " TPOT",
            firstToken,
            firstToken + Math.round(record.tpotMs()),
            ok,
            ok ? null : record.error());
      }
    }
    if (record.e2eMs() != null) {
      rows.log(
          name + " E2E", start, start + Math.round(record.e2eMs()), ok, ok ? null : record.error());
    }
  }

  /**
   * A closed loop of {@code llm.concurrency} virtual users, each sending requests back to back
   * until the phase's budget is sent: first {@code llm.warmupRequests} warmup requests (in a
   * Gatling group {@code warmup}), then {@code llm.requests} measured ones, as the reference tool's
   * closed loop does.
   *
   * @param request the request chain, e.g. {@link #chatCompletion(String)}
   * @return the populations to pass to {@code setUp}
   */
  public PopulationBuilder closedLoop(ChainBuilder request) {
    return closedLoop(workload(), request, atOnceUsers(settings.concurrency()));
  }

  /**
   * A closed loop of one workload, its users started by {@code start} (e.g. {@code
   * rampUsers(8).during(10)} for a ramp of concurrency).
   *
   * @param workload the workload
   * @param request the request chain
   * @param start how the looping users start
   * @return the populations: warmup then measured
   */
  public PopulationBuilder closedLoop(
      Workload workload, ChainBuilder request, OpenInjectionStep start) {
    warnOnLowFileLimit(settings.concurrency());
    loadProfiles.add(
        "closed loop of "
            + workload.name()
            + ": each virtual user sends requests back to back; users start "
            + describe(start)
            + (settings.warmupRequests() > 0
                ? ", after a warmup of " + settings.warmupRequests() + " requests"
                : ""));
    ScenarioBuilder measured =
        scenario(workload.name() + " measured")
            .forever()
            .on(
                feed(workload.measuredFeeder())
                    .exitHereIf(session -> session.getBoolean(PromptFeeder.DONE))
                    .exec(request));
    if (settings.warmupRequests() == 0) {
      return measured.injectOpen(start);
    }
    ScenarioBuilder warmup =
        scenario(workload.name() + " warmup")
            .forever()
            .on(
                feed(workload.warmupFeeder())
                    .exitHereIf(session -> session.getBoolean(PromptFeeder.DONE))
                    .exec(group("warmup").on(request)));
    return warmup
        .injectOpen(atOnceUsers(settings.concurrency()))
        .andThen(measured.injectOpen(start));
  }

  /**
   * An open loop: each arriving virtual user sends one measured request; arrivals follow {@code
   * arrivals} (e.g. {@code constantUsersPerSec(5).during(60)}). Arrivals beyond {@code
   * llm.requests} end at once without a request.
   *
   * @param request the request chain
   * @param arrivals the injection profile
   * @return the population
   */
  public PopulationBuilder openLoop(ChainBuilder request, OpenInjectionStep... arrivals) {
    warnOnLowFileLimit(-1);
    List<String> steps = new ArrayList<>();
    for (OpenInjectionStep step : arrivals) {
      steps.add(describe(step));
    }
    loadProfiles.add(
        "open loop of "
            + workload().name()
            + ": one request per arrival, "
            + String.join(", then ", steps));
    return scenario(workload().name() + " open loop")
        .feed(workload().measuredFeeder())
        .exitHereIf(session -> session.getBoolean(PromptFeeder.DONE))
        .exec(request)
        .injectOpen(arrivals);
  }

  /**
   * Writes the run record into Gatling's run folder and stops the embedded simulator. Call it from
   * the simulation's {@code after()}.
   */
  public void after() {
    finish(false);
    try {
      Runtime.getRuntime().removeShutdownHook(shutdownHook);
    } catch (IllegalStateException e) {
      // The JVM is already shutting down; the hook has run or runs now.
    }
  }

  private void finish(boolean interrupted) {
    if (!finished.compareAndSet(false, true)) {
      return;
    }
    try {
      Path folder = recorder.finish(runInfo(), interrupted, ReportPage::render);
      reportGoodput();
      if (!interrupted) {
        IndexLink.onExit(folder);
      }
    } catch (RuntimeException e) {
      LOG.error("could not write the LLM run record: {}", e.toString());
    } finally {
      if (simulator != null) {
        simulator.close();
      }
      if (counter instanceof AutoCloseable closeable) {
        try {
          closeable.close();
        } catch (Exception e) {
          LOG.warn("could not close the tokenizer: {}", e.toString());
        }
      }
    }
  }

  /** The goodput line on the console, and the reason a goodput assertion is going to fail. */
  private void reportGoodput() {
    if (!settings.slo().isSet()) {
      return;
    }
    Goodput overall = recorder.summary().overall().goodput();
    LOG.info("{}", overall.describe());
    if (settings.goodputRatio() == null) {
      return;
    }
    for (String name : requestNames) {
      GroupSummary group = recorder.summary().group(name, "measured");
      Goodput g = group == null ? overall : group.goodput();
      String shortfall = g.shortfall(settings.goodputRatio());
      if (shortfall != null) {
        LOG.error("{} (llm.assert.goodputRatio, request {})", shortfall, name);
      }
    }
    if (!assertionsTaken) {
      LOG.warn(
          "llm.assert.goodputRatio is set but the simulation does not pass run.assertions() to"
              + " setUp(...).assertions: it cannot fail the build");
    }
  }

  /**
   * Gatling assertions of the settings: with {@code llm.assert.goodputRatio}, one {@link
   * LlmDsl#goodputRatio(String, double)} per request name made by this run so far. Pass them to
   * {@code setUp(...).assertions(...)} after the request chains are built, in the same call as any
   * other assertions: Gatling keeps only the last call's (see {@link #assertions(double)}).
   *
   * @return the assertions, empty when none is set
   */
  public List<Assertion> assertions() {
    assertionsTaken = true;
    List<Assertion> list = new ArrayList<>();
    if (settings.goodputRatio() != null) {
      for (String name : requestNames) {
        list.add(LlmDsl.goodputRatio(name, settings.goodputRatio()));
      }
    }
    return list;
  }

  /**
   * The run's assertions in one list, for a single {@code setUp(...).assertions(...)} call (a
   * second call replaces the first): {@link #failedRequestsBelow(double)} and {@link
   * #assertions()}.
   *
   * @param failedPercentBelow the failure percentage each request name must stay under, e.g. 1.0
   * @return the assertions
   */
  public List<Assertion> assertions(double failedPercentBelow) {
    List<Assertion> list = new ArrayList<>(failedRequestsBelow(failedPercentBelow));
    list.addAll(assertions());
    return list;
  }

  /**
   * Gatling assertions that fewer than {@code percent}% of the measured requests of each request
   * name made so far failed: {@code details(name + " E2E").failedRequests().percent().lt(percent)}.
   * The E2E row is KO exactly when the request failed, so, unlike {@code global()}, this is not
   * moved by the KO rows of requests that missed an SLO.
   *
   * @param percent the failure percentage to stay under, e.g. 1.0
   * @return one assertion per request name
   */
  public List<Assertion> failedRequestsBelow(double percent) {
    List<Assertion> list = new ArrayList<>();
    for (String name : requestNames) {
      list.add(
          io.gatling.javaapi.core.CoreDsl.details(name + " E2E")
              .failedRequests()
              .percent()
              .lt(percent));
    }
    return list;
  }

  private Map<String, Object> runInfo() {
    Map<String, Object> info = new LinkedHashMap<>();
    info.put("product", "gatling-llm");
    info.put("version", version());
    info.put("simulation", simulationClass.getName());
    info.put("prompts", workloads.get(0).record(settings, counter));
    if (workloads.size() > 1) {
      List<Map<String, Object>> all = new ArrayList<>();
      for (Workload w : workloads) {
        all.add(w.record(settings, counter));
      }
      info.put("workloads", all);
    }
    Map<String, Object> target = new LinkedHashMap<>();
    target.put("base_url", simulator != null ? baseUrl : settings.redactedBaseUrl());
    target.put("embedded_simulator", simulator != null);
    target.put("model", model);
    target.put("endpoint", settings.endpoint());
    if (server != null) {
      target.put("server", server.toRecord());
    }
    info.put("target", target);
    Map<String, Object> decoding = new LinkedHashMap<>();
    decoding.put("max_tokens", settings.outputTokens());
    decoding.put("ignore_eos", settings.ignoreEos());
    decoding.put("temperature", requestSettings.temperature());
    decoding.put("stream", settings.stream());
    decoding.put("include_usage", settings.stream());
    info.put("decoding", decoding);
    Map<String, Object> load = new LinkedHashMap<>();
    load.put("concurrency", settings.concurrency());
    load.put("warmup_requests", settings.warmupRequests());
    load.put("requests", settings.requests());
    load.put("timeout_ms", settings.timeout().toMillis());
    load.put("profiles", List.copyOf(loadProfiles));
    info.put("load", load);
    if (settings.slo().isSet()) {
      info.put("slo", settings.slo().toRecord());
      Map<String, Object> assertions = new LinkedHashMap<>();
      assertions.put("goodput_ratio", settings.goodputRatio());
      info.put("assertions", assertions);
    }
    if (!settings.stream()) {
      info.put("note", "llm.stream=false: no TTFT, ITL or TPOT are measured, only E2E");
    }
    return info;
  }

  /**
   * Gatling opens a socket per stream; out of file descriptors, a connect fails inside Gatling
   * 3.16's SSE state machine before its state is set (a NullPointerException in {@code
   * SseFsm.currentState()}, swallowed by Netty), and that virtual user never ends. Warns when the
   * process limit is in reach: below 4 sockets per closed-loop user, or below 16,384 for an open
   * loop, which holds up to (arrival rate x llm.timeout) sockets when the server or the client
   * falls behind.
   *
   * @param concurrency closed-loop users, or -1 for an open loop
   */
  private static void warnOnLowFileLimit(long concurrency) {
    if (!(ManagementFactory.getOperatingSystemMXBean()
        instanceof com.sun.management.UnixOperatingSystemMXBean unix)) {
      return;
    }
    long limit = unix.getMaxFileDescriptorCount();
    boolean low = concurrency < 0 ? limit < 16_384 : limit < 256 + 4 * concurrency;
    if (low) {
      LOG.warn(
          "the open-files limit of this JVM is {}: every SSE stream is a socket, and when they run"
              + " out ('Too many open files') Gatling 3.16 can leave virtual users stuck; raise it"
              + " in the shell that starts the run (ulimit -n 65536; ulimit -Hn shows the most"
              + " allowed)",
          limit);
    }
  }

  /** Gatling's own description of an injection step, e.g. {@code AtOnceOpenInjection(8)}. */
  private static String describe(OpenInjectionStep step) {
    try {
      return String.valueOf(step.asScala());
    } catch (RuntimeException e) {
      return String.valueOf(step);
    }
  }

  private static String version() {
    Package p = LlmRun.class.getPackage();
    String version = p == null ? null : p.getImplementationVersion();
    return version == null ? "development build" : version;
  }

  /** What every request body of this run holds besides the prompt, for one endpoint. */
  private RequestSettings requestSettings(Endpoint endpoint) {
    return new RequestSettings(
        endpoint,
        model,
        settings.outputTokens(),
        RequestSettings.MAX_TOKENS,
        settings.stream(),
        true,
        settings.ignoreEos() ? Boolean.TRUE : null,
        null,
        null);
  }

  private static String stripSlash(String url) {
    return url.endsWith("/") ? url.substring(0, url.length() - 1) : url;
  }
}
