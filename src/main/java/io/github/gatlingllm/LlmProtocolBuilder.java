package io.github.gatlingllm;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ProtocolBuilder;
import io.gatling.javaapi.http.HttpProtocolBuilder;
import io.github.gatlingllm.protocol.LlmProtocol;
import io.github.gatlingllm.protocol.ProtocolAssembly;
import io.github.gatlingllm.settings.BodyFields;
import io.github.gatlingllm.settings.LlmSettings;
import io.github.gatlingllm.simulator.SimulatorConfig;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;

/**
 * The LLM protocol: where requests go and what every request carries. Immutable, so all methods
 * return a new instance. Pass it to {@code setUp(...).protocols(...)}: a simulation with LLM
 * requests and no LLM protocol is refused when its scenarios are built (its requests would
 * otherwise go to defaults, the embedded simulator, rather than where the simulation says).
 *
 * <p>Its components own the run's lifecycle, as Gatling's HTTP protocol owns its engine: when the
 * simulation starts they start the embedded simulator (without {@link #baseUrl}), load the
 * tokenizer, ask the server what it is and open the run record; when Gatling terminates the run
 * (also when assertions fail or the run is interrupted) they write {@code llm-run.json}, {@code
 * llm-requests.csv}, {@code llm-report.html} and the link from Gatling's {@code index.html}, then
 * stop the simulator. Nothing to call in {@code after()}.
 *
 * <p>Every value can be set by a {@code -Dllm.*} system property of the same name, which wins; an
 * unknown {@code llm.*} property, or a bad value, is refused with a message naming the setting, the
 * value and what is allowed, before any request is sent.
 *
 * <p>Requests go through Gatling's own HTTP engine, with Gatling's HTTP settings given by {@link
 * #http(HttpProtocolBuilder)} (headers, proxy, TLS, DNS, HTTP/2, pool limits). The base URL is this
 * protocol's.
 */
public final class LlmProtocolBuilder extends LlmVerdictsBuilder implements ProtocolBuilder {

  /** How requests get their TCP connections ({@code llm.connections}). */
  public enum Connections {
    /**
     * One keep-alive pool shared by all virtual users (per Netty event loop), as an LLM client's
     * connection pool: N requests from C users use at most C connections in steady state.
     */
    SHARED("shared"),
    /** Each virtual user keeps its own keep-alive connection (Gatling's default). */
    PER_USER("per-user"),
    /**
     * A new connection for every request, closed after it ({@code Connection: close}): the TCP (and
     * TLS) handshake is inside each TTFT.
     */
    PER_REQUEST("per-request");

    private final String wireName;

    Connections(String wireName) {
      this.wireName = wireName;
    }

    /**
     * The setting's value.
     *
     * @return e.g. {@code per-request}
     */
    public String wireName() {
      return wireName;
    }

    /**
     * The value of a setting's name.
     *
     * @param wireName {@code shared}, {@code per-user} or {@code per-request}
     * @return the value
     * @throws IllegalArgumentException for any other name, naming the setting and the values
     */
    public static Connections of(String wireName) {
      for (Connections c : values()) {
        if (c.wireName.equals(wireName)) {
          return c;
        }
      }
      throw new IllegalArgumentException(
          "llm.connections: got \""
              + wireName
              + "\", expected one of shared, per-user, per-request");
    }
  }

  private final Map<String, String> values;
  private final SimulatorConfig simulator;
  private final Map<String, Object> extraBody;
  private final Map<String, String> headers;
  private final Class<?> simulationClass;
  private final HttpProtocolBuilder http;

  LlmProtocolBuilder(
      Map<String, String> values,
      SimulatorConfig simulator,
      Map<String, Object> extraBody,
      Map<String, String> headers,
      Class<?> simulationClass,
      HttpProtocolBuilder http) {
    this.values = Map.copyOf(values);
    this.simulator = simulator;
    this.extraBody = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(extraBody));
    this.headers = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(headers));
    this.simulationClass = simulationClass;
    this.http = http;
  }

  @Override
  LlmProtocolBuilder with(String key, Object value) {
    Map<String, String> next = new LinkedHashMap<>(values);
    next.put(key, String.valueOf(Objects.requireNonNull(value, key)));
    return new LlmProtocolBuilder(next, simulator, extraBody, headers, simulationClass, http);
  }

  /**
   * The OpenAI-compatible base URL, ending in {@code /v1} (for vLLM, SGLang, llama.cpp and Ollama);
   * unset, the embedded simulator is started on a free loopback port. {@code user:password@} is
   * never recorded.
   *
   * @param baseUrl an http or https URL without query
   * @return a new builder
   */
  public LlmProtocolBuilder baseUrl(String baseUrl) {
    return with("baseUrl", baseUrl);
  }

  /**
   * The bearer token sent as {@code Authorization: Bearer ...} (default: {@code OPENAI_API_KEY});
   * never logged or recorded.
   *
   * @param apiKey visible ASCII characters
   * @return a new builder
   */
  public LlmProtocolBuilder apiKey(String apiKey) {
    return with("apiKey", apiKey);
  }

  /**
   * The model name sent with each request (default: the simulator's, or the first the server lists
   * in {@code /v1/models}).
   *
   * @param model not blank
   * @return a new builder
   */
  public LlmProtocolBuilder model(String model) {
    return with("model", model);
  }

  /**
   * The endpoint of requests that do not name theirs ({@code llm(name).request()}): {@code chat}
   * (the default), {@code completions}, {@code responses} or {@code messages}.
   *
   * @param endpoint {@code chat}, {@code completions}, {@code responses} or {@code messages}
   * @return a new builder
   */
  public LlmProtocolBuilder endpoint(String endpoint) {
    return with("endpoint", endpoint);
  }

  /**
   * Where conversations and agent sessions keep their history on the Responses API ({@code
   * llm.responses.history}): {@code client} (the default: each turn sends the whole history as
   * input items) or {@code server} (turn 1 sends the whole history; each later turn sends only its
   * new items, the user message or the tool results, and {@code previous_response_id}, the id of
   * the previous reply, so the server threads the rest, as OpenAI's stored responses do). The
   * server's context, hence the cache plan, is the same either way. {@code server} is refused
   * before any load on a request of another API; a server that refuses {@code previous_response_id}
   * on its first use (llama.cpp answers HTTP 400) stops the run with one line naming this setting.
   *
   * @param history {@code client} or {@code server}
   * @return a new builder
   */
  public LlmProtocolBuilder responsesHistory(String history) {
    return with("responses.history", history);
  }

  /**
   * {@code max_tokens} of each request (default 128); a request may set its own.
   *
   * @param tokens at least 1
   * @return a new builder
   * @throws IllegalArgumentException if below 1
   */
  public LlmProtocolBuilder maxTokens(int tokens) {
    if (tokens < 1) {
      throw new IllegalArgumentException(
          "llm().maxTokens: got " + tokens + ", expected a whole number >= 1 (llm.outputTokens)");
    }
    return with("outputTokens", tokens);
  }

  /**
   * Send {@code ignore_eos: true} (vLLM, SGLang, llama.cpp) so each request generates exactly its
   * {@code max_tokens}.
   *
   * @param ignoreEos whether to send it
   * @return a new builder
   */
  public LlmProtocolBuilder ignoreEos(boolean ignoreEos) {
    return with("ignoreEos", ignoreEos);
  }

  /**
   * The sampling {@code temperature} (default: not sent).
   *
   * @param temperature a finite number >= 0
   * @return a new builder
   */
  public LlmProtocolBuilder temperature(double temperature) {
    return with("temperature", temperature);
  }

  /**
   * Stream the answers as server-sent events (the default); without streaming only E2E is measured.
   *
   * @param stream whether to stream
   * @return a new builder
   */
  public LlmProtocolBuilder stream(boolean stream) {
    return with("stream", stream);
  }

  /**
   * How long a request may take, from its start to its last byte (default 60 s); a request still
   * running then is a {@code timeout} and its connection is closed.
   *
   * @param timeout more than 0
   * @return a new builder
   */
  public LlmProtocolBuilder timeout(Duration timeout) {
    return with("timeout", Objects.requireNonNull(timeout, "timeout").toMillis() + "ms");
  }

  /**
   * The tokenizer the embedded simulator counts with, and whose identity the record names: {@code
   * estimate} (the default) or a local {@code tokenizer.json} (or its folder).
   *
   * @param tokenizer {@code estimate} or a path
   * @return a new builder
   */
  public LlmProtocolBuilder tokenizer(String tokenizer) {
    return with("tokenizer", tokenizer);
  }

  /**
   * How often the server's Prometheus metrics are scraped ({@code llm.metricsInterval}, default 5
   * s): {@code /metrics} beside the base URL's {@code /v1} (vLLM, SGLang, llama.cpp with {@code
   * --metrics}, the embedded simulator) is read when the run starts, every {@code interval} and
   * when it ends, on a thread of its own with a 2 s timeout; what is learnt (prefix-cache hit rate,
   * KV cache usage, running and waiting requests) is in {@code llm-run.json} under {@code
   * server_metrics} and on the report. A scrape that fails is recorded and never fails the run.
   *
   * @param interval {@link Duration#ZERO} to scrape nothing, else at least 100 ms
   * @return a new builder
   */
  public LlmProtocolBuilder metricsInterval(Duration interval) {
    return with("metricsInterval", Objects.requireNonNull(interval, "interval").toMillis() + "ms");
  }

  /**
   * How requests get their TCP connections (default {@link Connections#SHARED}).
   *
   * @param connections never null
   * @return a new builder
   */
  public LlmProtocolBuilder connections(Connections connections) {
    return with("connections", connections.wireName());
  }

  /**
   * A further top-level field of every request body, e.g. {@code body("top_k", 20)}; a request's
   * own fields win. A key the body sets itself ({@code model}, {@code messages}, {@code stream}...)
   * is refused here, or when the protocol is built for those set with the settings ({@code
   * temperature}, {@code ignore_eos}, {@code stream_options}).
   *
   * @param key the field
   * @param value a JSON scalar, map, list or anything Jackson can write
   * @return a new builder
   */
  public LlmProtocolBuilder body(String key, Object value) {
    BodyFields.check(
        "llm()", Objects.requireNonNull(key, "key"), value, BodyFields.alwaysReserved());
    Map<String, Object> next = new LinkedHashMap<>(extraBody);
    next.put(key, value);
    return new LlmProtocolBuilder(values, simulator, next, headers, simulationClass, http);
  }

  /**
   * A further header of every request.
   *
   * @param name the header's name
   * @param value its value
   * @return a new builder
   */
  public LlmProtocolBuilder header(String name, String value) {
    Map<String, String> next = new LinkedHashMap<>(headers);
    next.put(Objects.requireNonNull(name, "name"), Objects.requireNonNull(value, "value"));
    return new LlmProtocolBuilder(values, simulator, extraBody, next, simulationClass, http);
  }

  /**
   * The embedded simulator's timing model and cache, used without {@link #baseUrl}. Each value can
   * be set by a {@code -Dllm.simulator.NAME} property, which wins: {@code zeroDelay}, {@code
   * baseTtftMs}, {@code prefillUsPerToken}, {@code decodeMsPerToken}, {@code maxConcurrent}, {@code
   * blockSize}, {@code cacheBlocks}, {@code tokensPerChunk}, {@code contextLength}, {@code
   * reasoningTokens}.
   *
   * @param config never null; its token counter is replaced by the protocol's tokenizer
   * @return a new builder
   */
  public LlmProtocolBuilder simulator(SimulatorConfig config) {
    return new LlmProtocolBuilder(
        values,
        Objects.requireNonNull(config, "config"),
        extraBody,
        headers,
        simulationClass,
        http);
  }

  /**
   * Gatling's HTTP settings for the LLM requests, e.g. {@code http.proxy(Proxy("proxy",
   * 3128)).enableHttp2().maxConnectionsPerHost(64)}: its headers, proxy, TLS, DNS, HTTP/2, local
   * addresses and pool limits apply; its base URL does not ({@link #baseUrl} does). Its warm-up
   * call is turned off, and with {@link Connections#SHARED} (the default) its connections are
   * shared by all virtual users. Default: {@code http}.
   *
   * @param http Gatling's HTTP protocol builder, never null
   * @return a new builder
   */
  public LlmProtocolBuilder http(HttpProtocolBuilder http) {
    return new LlmProtocolBuilder(
        values,
        simulator,
        extraBody,
        headers,
        simulationClass,
        Objects.requireNonNull(http, "http"));
  }

  /**
   * The share of requests the client cancels ({@code llm.cancelRate}), as users who press stop or
   * close the tab: each chosen request's connection is closed {@link #cancelAfter} after the
   * request was fully written, and it is recorded with status {@code cancelled} (not a failure).
   * Which requests is a seeded, reproducible choice ({@code llm.seed}, the request name, phase and
   * index). See docs/cancelling.md.
   *
   * @param rate a share in [0, 1]; 0 (the default) cancels nothing
   * @return a new builder; a rate outside [0, 1] is refused, naming {@code llm.cancelRate}, when
   *     the protocol is built, before any load
   */
  public LlmProtocolBuilder cancelRate(double rate) {
    return with("cancelRate", rate);
  }

  /**
   * How long after a chosen request was fully written the client cancels it ({@code
   * llm.cancelAfterMs}); see {@link #cancelRate}.
   *
   * @param delay at least 0; 0 (the default) cancels at once, during the prefill
   * @return a new builder; a negative delay is refused, naming {@code llm.cancelAfterMs}, when the
   *     protocol is built, before any load
   * @throws NullPointerException if {@code delay} is null
   */
  public LlmProtocolBuilder cancelAfter(java.time.Duration delay) {
    java.util.Objects.requireNonNull(delay, "delay");
    return with("cancelAfterMs", delay.toNanos() / 1_000_000.0);
  }

  /**
   * Whether the run stops at the end of the first over-saturated load level ({@code
   * llm.stopWhenSaturated}, default false): a level over capacity against the level before, whose
   * latency grew by {@link #saturationThresholds} times while the server served no more (in a
   * closed loop, added users that gave less than {@link #saturationMinScaling} of the throughput
   * they would give unsaturated; in an open loop, fewer requests served than offered), or whose
   * errors are over the bound. The load generator is stopped gracefully (the run ends as if its
   * injection had ended; the levels so far and {@code saturation} are recorded with {@code
   * stopped_early} and {@code stop_reason}). Meant for a {@link LlmDsl#sweep()} or any stepped
   * profile of levels going up.
   *
   * @param stop true to stop
   * @return a new builder
   */
  public LlmProtocolBuilder stopWhenSaturated(boolean stop) {
    return with("stopWhenSaturated", stop);
  }

  /**
   * Whether the run stops by itself once its target is judged down ({@code llm.stopWhenTargetDown},
   * default true). The target is judged down when no request has been answered for {@link
   * #targetDownAfter} while at least {@link #targetDownMinErrors} requests failed to connect
   * (refused, reset before any response, DNS or TLS failure); timeouts, 429, 503 and other HTTP
   * errors never make it down. The run then says once when it happened ({@code TARGET DOWN at
   * ...}), stops the load generator gracefully and writes its record with {@code end_reason} {@code
   * target_down} and a {@code target_down} block. With false the run goes on (fault-injection
   * tests): it still says when the target went down and when it answered again. Either way, while
   * the target is not answering virtual users wait 100 ms before each request (1 s once it is
   * judged down and the run goes on) rather than hammer a closed port. The same setting stops the
   * run for a target gone silent ({@link #silentSeconds}).
   *
   * @param stop false to keep the run going
   * @return a new builder
   */
  public LlmProtocolBuilder stopWhenTargetDown(boolean stop) {
    return with("stopWhenTargetDown", stop);
  }

  /**
   * How long no request may be answered, while requests fail to connect, before the target is
   * judged down ({@code llm.targetDown.afterMs}, default 2 s); see {@link #stopWhenTargetDown}.
   *
   * @param after in [100 ms, 10 min], whole milliseconds; outside is refused, naming {@code
   *     llm.targetDown.afterMs}, when the protocol is built, before any load
   * @return a new builder
   * @throws NullPointerException if {@code after} is null
   */
  public LlmProtocolBuilder targetDownAfter(Duration after) {
    return with("targetDown.afterMs", Objects.requireNonNull(after, "after").toMillis());
  }

  /**
   * The least number of requests that failed to connect, with no request answered in between,
   * before the target is judged down ({@code llm.targetDown.minErrors}, default 10); see {@link
   * #stopWhenTargetDown}.
   *
   * @param errors at least 1
   * @return a new builder
   */
  public LlmProtocolBuilder targetDownMinErrors(int errors) {
    return with("targetDown.minErrors", errors);
  }

  /**
   * How long no byte may come from the target while streamed requests are in flight before the run
   * says the target is silent ({@code llm.silentSeconds}, default 10): a hung server, or one
   * stopped with SIGSTOP, whose connections stay open and whose requests would only time out. A
   * byte is any response head or body chunk of any request; the time counts only while at least one
   * streamed request is in flight. The run says it once per silent episode ({@code TARGET SILENT at
   * ...}) and records each in {@code llm-run.json}'s {@code target_silent}; with {@link
   * #stopWhenTargetDown} on (the default) the run stops as for a dead target, the requests in
   * flight cut and recorded. A server slower than this to its first token (a long prefill) is said
   * silent too: raise it for such runs.
   *
   * @param seconds whole seconds in [1, 3600], or 0 never to say it; outside is refused, naming
   *     {@code llm.silentSeconds}, when the protocol is built, before any load
   * @return a new builder
   */
  public LlmProtocolBuilder silentSeconds(int seconds) {
    return with("silentSeconds", seconds);
  }

  /**
   * Serves Prometheus' {@code /metrics} from the Gatling JVM while the run runs ({@code
   * llm.prometheusPort}, default none), on loopback unless {@link #prometheusHost} says another
   * address, through the official Prometheus Java client: request counts by request name, status
   * and phase, input, output and cached tokens, TTFT, ITL, TPOT and E2E histograms, and gauges of
   * the requests in flight, the current load level and the client's schedule lag and CPU share
   * (docs/live-metrics.md). Fed by the same per-request records as {@code llm-requests.jsonl}; the
   * figures there and in {@code llm-run.json} are exact, the live ones bucketed. After the run
   * record is written the final values stay served for {@link #prometheusLinger} (said once on the
   * console).
   *
   * @param port a TCP port in [1, 65535]; out of range, or in use when the run starts, is refused
   *     before any load, naming {@code llm.prometheusPort}
   * @return a new builder
   */
  public LlmProtocolBuilder prometheusPort(int port) {
    return with("prometheusPort", port);
  }

  /**
   * The address the live endpoint ({@link #prometheusPort}) binds ({@code llm.prometheusHost},
   * default {@code 127.0.0.1}: this machine only). {@code 0.0.0.0} serves every interface, as a
   * Prometheus on another machine or Kubernetes' pod scrapes need (deploy/kubernetes/job.yaml sets
   * it); the endpoint has no authentication, so choose who can reach it.
   *
   * @param host an IPv4 or IPv6 literal of this machine, or {@code localhost}; anything else is
   *     refused before any load, naming {@code llm.prometheusHost}
   * @return a new builder
   * @throws NullPointerException if {@code host} is null
   */
  public LlmProtocolBuilder prometheusHost(String host) {
    return with("prometheusHost", Objects.requireNonNull(host, "host"));
  }

  /**
   * How long the live endpoint ({@link #prometheusPort}) keeps serving the final values once the
   * run record is written ({@code llm.prometheusLinger}, default 10 s), so a scraper at a 1-5 s
   * interval sees every request; the JVM exits that much later.
   *
   * @param linger from 0 to 10 minutes, whole milliseconds
   * @return a new builder
   * @throws NullPointerException if {@code linger} is null
   */
  public LlmProtocolBuilder prometheusLinger(Duration linger) {
    return with("prometheusLinger", Objects.requireNonNull(linger, "linger").toMillis() + "ms");
  }

  /**
   * Whether one request goes to {@code llm.baseUrl} before any load ({@code llm.preflight}, default
   * true), as vLLM's {@code bench serve} sends one test request first: a target that refuses the
   * connection, answers 404, 401 or 403, or refuses the model stops the run at once with one line
   * naming the URL, the status and the server's message. The request is a chat (or completion) of
   * the prompt {@code Hi} with {@code max_tokens} 1, not streamed, with the run's model and
   * headers; it is not recorded. The embedded simulator gets none.
   *
   * @param preflight false to send no request before the load
   * @return a new builder
   */
  public LlmProtocolBuilder preflight(boolean preflight) {
    return with("preflight", preflight);
  }

  /**
   * Whether virtual users looping past their scenario's injection profile end there ({@code
   * llm.endWithProfile}, default true), rather than run on until killed: under a closed profile, a
   * user about to send an LLM request after the profile's end ends instead (its request in flight
   * ends first and is recorded); under an open profile that lasts (not only {@code atOnceUsers}), a
   * user that already sent one and comes back for another ends. A conversation under way ends
   * first. Said once per scenario on the console.
   *
   * @param end false to let users run on past their profile, as Gatling alone does
   * @return a new builder
   */
  public LlmProtocolBuilder endWithProfile(boolean end) {
    return with("endWithProfile", end);
  }

  /**
   * Whether the LLM figures are Gatling request rows ({@code llm.figuresAsRequests}, default
   * false). By default each figure ({@code NAME E2E}, {@code NAME TTFT}, {@code NAME TPOT}, {@code
   * NAME TTFO}, {@code NAME SLO}, {@code NAME CACHE}, {@code SLO LOAD}, {@code BASELINE metric}) is
   * a top-level Gatling group: {@code details("chat TTFT")} assertions read it, and Gatling's
   * Global Information, {@code global()} and {@code forAll()} count only the real requests. Gatling
   * 3.16 shows no group without requests in its console or HTML report: with {@code true} the
   * figures are request rows at the same paths, shown there, and counted in Global Information
   * (each request then counts several times) as before this setting.
   *
   * @param asRequests true for request rows
   * @return a new builder
   */
  public LlmProtocolBuilder figuresAsRequests(boolean asRequests) {
    return with("figuresAsRequests", asRequests);
  }

  /**
   * Where Gatling writes run folders (default {@code target/gatling}), to find this run's.
   *
   * @param folder a folder that exists or can be made
   * @return a new builder
   */
  public LlmProtocolBuilder resultsFolder(String folder) {
    return with("resultsFolder", folder);
  }

  /**
   * The settings as resolved now: system properties over this builder's values.
   *
   * @return the settings
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  public LlmSettings settings() {
    return LlmSettings.fromSystemPropertiesBesidePrompts(values);
  }

  /**
   * The run's assertions in one list, for one {@code setUp(...).assertions(...)} call (Gatling
   * keeps only the last call's: join the simulation's own with {@link LlmAssertions#and}; a later
   * call that drops these stops the run before any load, naming them): for each request name, fewer
   * than {@code failedPercentBelow}% of its measured requests failed ({@link LlmDsl#failedBelow},
   * on the {@code name E2E} figure, found wherever the request is in the user's groups), and with a
   * goodput ratio set ({@link #goodputRatio} or {@code -Dllm.assert.goodputRatio}), {@link
   * LlmDsl#goodputRatio(String, double)} for each name, and with a cache ratio set ({@link
   * #cacheAsPlanned} or {@code -Dllm.assert.cacheAsPlanned}), {@link LlmDsl#cacheAsPlanned(String,
   * double)} for each name, and with a least load meeting the SLO ({@link #sloLoadAtLeast} or
   * {@code -Dllm.assert.sloLoadAtLeast}), {@link LlmDsl#sloLoadMet()} once, and with a baseline and
   * a regression bound ({@link #baseline}, {@link #noRegressionPct}), {@link
   * LlmDsl#noRegression(String)} for each gated metric.
   *
   * @param failedPercentBelow the failure percentage to stay under, e.g. 1.0
   * @param requestNames the LLM request names, e.g. {@code "chat"}
   * @return the assertions
   * @throws IllegalArgumentException naming a bad setting
   */
  public LlmAssertions assertions(double failedPercentBelow, String... requestNames) {
    LlmSettings s = settings();
    List<Assertion> list = new ArrayList<>();
    for (String name : requestNames) {
      list.add(LlmDsl.failedBelow(name, failedPercentBelow));
      if (s.goodputRatio() != null) {
        list.add(LlmDsl.goodputRatio(name, s.goodputRatio()));
      }
      if (s.cacheAsPlanned() != null) {
        list.add(LlmDsl.cacheAsPlanned(name, s.cacheAsPlanned()));
      }
    }
    if (s.saturation().sloLoadAtLeast() != null) {
      list.add(LlmDsl.sloLoadMet());
    }
    String capacity = System.getProperty(LlmSettings.PREFIX + "assert.capacityAtLeast");
    if (capacity != null && !capacity.isBlank()) {
      // read and checked by capacitySearch(); its figure row is asserted here
      list.add(LlmDsl.capacityMet());
    }
    if (s.baseline().gated()) {
      for (String metric : io.github.gatlingllm.protocol.BaselineGate.gated(s.slo().isSet())) {
        list.add(LlmDsl.noRegression(metric));
      }
    }
    io.github.gatlingllm.protocol.MadeAssertions.made(
        simulationClass, list.stream().map(Assertion::asScala).toList());
    return new LlmAssertions(list);
  }

  /**
   * Gatling's protocol: the settings resolved and checked now, the results folder listed (to find
   * the run's folder later).
   *
   * @return the protocol
   * @throws IllegalArgumentException naming a bad setting, its value and what is allowed
   */
  @Override
  public LlmProtocol protocol() {
    return ProtocolAssembly.assemble(
        settings(), simulator, extraBody, headers, simulationClass, http, System.getProperties());
  }
}
