package io.github.gatlingllm;

import static io.gatling.javaapi.core.CoreDsl.asLongAs;
import static io.gatling.javaapi.core.CoreDsl.details;
import static io.gatling.javaapi.core.CoreDsl.exec;
import static io.gatling.javaapi.core.CoreDsl.pause;

import io.gatling.javaapi.core.Assertion;
import io.gatling.javaapi.core.ChainBuilder;
import io.github.gatlingllm.action.LlmActionSpec;
import io.github.gatlingllm.feeder.AgentFeeder;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.protocol.LlmProtocol;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.function.ToLongFunction;

/**
 * The entry point of gatling-llm: {@code import static io.github.gatlingllm.LlmDsl.*;}. A user's
 * simulation is ordinary Gatling: a protocol, a feeder, a request, an injection profile.
 *
 * <pre>{@code
 * public class ChatSimulation extends Simulation {
 *   LlmProtocolBuilder llm = llm().maxTokens(32);
 *   PromptFeederBuilder prompts = prompts().sharedPrefix(0.5, 4).inputTokens(256).requests(200);
 *   ScenarioBuilder chat =
 *       scenario("chat").forever().on(feed(prompts).exec(llm("chat").chatCompletion()));
 *   {
 *     setUp(chat.injectClosed(constantConcurrentUsers(8).during(600))).protocols(llm);
 *   }
 * }
 * }</pre>
 */
public final class LlmDsl {

  static {
    // A run that stops on a bad input ends with its one line, not Gatling's stack traces.
    io.github.gatlingllm.internal.OneLineErrors.install();
  }

  private LlmDsl() {}

  /**
   * The LLM protocol, with its defaults: the embedded simulator, streamed chat completions of 128
   * tokens, a 60 s timeout, one shared keep-alive connection pool. {@code -Dllm.*} properties win
   * over every value set on it.
   *
   * @return the protocol builder
   */
  public static LlmProtocolBuilder llm() {
    return new LlmProtocolBuilder(Map.of(), null, Map.of(), Map.of(), callingSimulation(), null);
  }

  /**
   * A named LLM request: {@code llm("chat").chatCompletion()}. The name is the row's name in
   * Gatling's report and the {@code request} of its records.
   *
   * @param name the request name, not blank
   * @return the request
   * @throws IllegalArgumentException if the name is blank
   */
  public static LlmRequest llm(String name) {
    return new LlmRequest(name);
  }

  /**
   * A feeder of deterministic prompts, by default {@code repeat} prompts of 512 tokens ({@code
   * estimate} tokenizer), seed 0, 100 measured requests, no warmup; or with {@link
   * PromptFeederBuilder#fromFile(String)} (or {@code -Dllm.promptsFile}) the prompts of a JSONL,
   * CSV or ShareGPT file; see {@link PromptFeederBuilder}.
   *
   * @return the feeder builder
   */
  public static PromptFeederBuilder prompts() {
    return new PromptFeederBuilder(Map.of(), null);
  }

  /**
   * A feeder that replays a Mooncake-format JSONL trace, one request a row (see {@link
   * TraceFeederBuilder}): {@code feed(trace(path))}, injected with {@code
   * injectOpen(trace.arrivals())} so each row leaves at its timestamp. {@code -Dllm.trace} wins
   * over {@code path}.
   *
   * @param path the trace file, plain or gzip, never null
   * @return the feeder builder
   */
  public static TraceFeederBuilder trace(String path) {
    return new TraceFeederBuilder(
        Map.of("trace", java.util.Objects.requireNonNull(path, "path")), null);
  }

  /**
   * A trace feeder whose file is {@code -Dllm.trace}'s (see {@link #trace(String)}).
   *
   * @return the feeder builder; reading it fails naming {@code llm.trace} when that is unset
   */
  public static TraceFeederBuilder trace() {
    return new TraceFeederBuilder(Map.of(), null);
  }

  /**
   * A feeder of multi-turn conversations, by default 10 measured conversations of 4 turns, each new
   * user message 128 tokens ({@code estimate} tokenizer), no system prompt, no think time, seed 0;
   * see {@link ConversationFeederBuilder}. Run its turns with {@link
   * #conversation(LlmActionBuilder)}.
   *
   * @return the feeder builder
   */
  public static ConversationFeederBuilder conversations() {
    return new ConversationFeederBuilder(Map.of(), null);
  }

  /**
   * The turns of the fed conversation, one request each, with the conversation's think time (a
   * Gatling pause) between a reply and the next turn: {@code
   * feed(conversations()...).exec(conversation(llm("chat").chatCompletion()))}. The chain loops
   * while the conversation has turns to send: to its last turn, to a failed turn (no reply to send
   * back), or to a turn that would exceed {@code llm.maxContextTokens} (not sent). A virtual user
   * fed past the workload's budget ends here, as with {@code prompts()}.
   *
   * <p>Closed loop, one conversation at a time per virtual user: {@code
   * scenario("chat").forever().on(feed(chats).exec(conversation(request)))}; open loop,
   * conversations arriving at a rate: {@code
   * scenario("chat").feed(chats).exec(conversation(request))} with {@code
   * injectOpen(constantUsersPerSec(r).during(d))}.
   *
   * @param request the request each turn sends, without its own {@code .prompt(...)}
   * @return the chain
   * @throws IllegalArgumentException if the request has its own prompt
   */
  public static ChainBuilder conversation(LlmActionBuilder request) {
    return sessionTurns(
        Objects.requireNonNull(request, "request").asTurn(LlmActionSpec.Kind.CONVERSATION),
        ConversationFeeder.WORKLOAD,
        ConversationFeeder.DONE,
        ConversationFeeder.CONVERSATION,
        ConversationFeeder.LOOP_COUNTER,
        ConversationFeeder::goesOn,
        ConversationFeeder::thinkMs);
  }

  /**
   * A feeder of agent sessions (issue 32), by default 10 measured sessions of at most 4 tool loops
   * over 4 function tools; see {@link AgentFeederBuilder} and docs/agents.md. Run its turns with
   * {@link #agentSession(LlmActionBuilder)}.
   *
   * @return a new builder
   */
  public static AgentFeederBuilder agents() {
    return new AgentFeederBuilder(Map.of(), null);
  }

  /**
   * The turns of the fed agent session, one request each: the task, then, while the model's reply
   * calls tools, the reply with its tool calls as received and one tool result a call, sent after
   * the session's tool latency (a Gatling pause); {@code
   * feed(agents()...).exec(agentSession(llm("agent").chatCompletion()))}. The chain loops until the
   * session ends: a reply without tool call ({@code completed}), tool calls after {@code toolCalls}
   * loops ({@code loop_limit}), a failed turn ({@code error}) or a turn that would exceed {@code
   * llm.maxContextTokens} ({@code context_limit}, not sent). A virtual user fed past the workload's
   * budget ends here, as with {@code prompts()}. Every turn carries the session's id in {@code
   * llm.sessionHeader}.
   *
   * @param request the chat request each turn sends, without its own {@code .prompt(...)}
   * @return the chain
   * @throws IllegalArgumentException if the request has its own prompt
   */
  public static ChainBuilder agentSession(LlmActionBuilder request) {
    return sessionTurns(
        Objects.requireNonNull(request, "request").asTurn(LlmActionSpec.Kind.AGENT),
        AgentFeeder.WORKLOAD,
        AgentFeeder.DONE,
        AgentFeeder.SESSION,
        AgentFeeder.LOOP_COUNTER,
        AgentFeeder::goesOn,
        AgentFeeder::toolLatencyMs);
  }

  /** Whether a session loop runs (again): the feeder's {@code goesOn}. */
  private interface GoesOn {
    boolean test(boolean fed, Object done, Object held, boolean entering);
  }

  /**
   * The loop of a fed session's turns, {@code conversation(...)}'s and {@code agentSession(...)}'s:
   * {@code asLongAs(goesOn, counter)} around the turn and, while the pause before the next turn is
   * above 0, that pause.
   *
   * @param turn the request each turn sends
   * @param fed the session key of the fed workload
   * @param done the session key of the workload's {@code DONE} flag
   * @param held the session key of the fed session
   * @param counter the loop's counter, which also tells the action which loop holds it
   * @param goesOn whether the loop runs (again)
   * @param pauseMs the pause before the held session's next turn, milliseconds
   */
  private static ChainBuilder sessionTurns(
      LlmActionBuilder turn,
      String fed,
      String done,
      String held,
      String counter,
      GoesOn goesOn,
      ToLongFunction<Object> pauseMs) {
    return asLongAs(
            session ->
                goesOn.test(
                    session.contains(fed),
                    session.contains(done) ? session.get(done) : null,
                    session.contains(held) ? session.get(held) : null,
                    session.getInt(counter) == 0),
            counter)
        .on(
            exec(turn)
                .doIf(
                    session ->
                        pauseMs.applyAsLong(session.contains(held) ? session.get(held) : null) > 0)
                .then(pause(session -> Duration.ofMillis(pauseMs.applyAsLong(session.get(held))))));
  }

  /**
   * A working-set sweep: the shared-prefix workload of {@code prompts} run with each number of
   * prefix groups in turn, one step after another, to find where the server's prefix cache starts
   * evicting. See {@link WorkingSetSweep}:
   *
   * <pre>{@code
   * WorkingSetSweep sweep =
   *     workingSetSweep(prompts().sharedPrefix(0.9, 1).inputTokens(1024).requests(64), 1, 2, 4, 8, 16);
   * setUp(
   *         sweep.populations(
   *             step ->
   *                 scenario(step.name())
   *                     .forever()
   *                     .on(feed(step.prompts()).exec(llm("chat").chatCompletion()))
   *                     .injectOpen(atOnceUsers(4))))
   *     .protocols(llm);
   * }</pre>
   *
   * @param prompts the prompts of every step, shared-prefix (its groups are replaced by each
   *     step's)
   * @param groups the steps' group counts, ascending, each at least 1
   * @return the sweep
   * @throws IllegalArgumentException if the prompts are not shared-prefix, the group counts are not
   *     ascending, or {@code -Dllm.prefixGroups} or {@code -Dllm.caseId} is set
   */
  public static WorkingSetSweep workingSetSweep(PromptFeederBuilder prompts, int... groups) {
    return WorkingSetSweep.of(prompts, groups);
  }

  /**
   * A Gatling assertion that fewer than {@code percent}% of the measured requests named {@code
   * name} failed: {@code details(name + " E2E").failedRequests().percent().lt(percent)}. Each
   * measured request logs one {@code name E2E} figure, a top-level Gatling group (not a request:
   * Global Information does not count it) with the request's status and its end-to-end time,
   * wherever the request is in the user's groups, so this assertion holds for a request inside
   * {@code group("turn")} as for one outside (Gatling's own {@code details("turn", name)} needs the
   * group path). Warmup requests' figures are in the {@code warmup} group and do not count.
   *
   * @param name the request name
   * @param percent the failure percentage to stay under, e.g. 1.0
   * @return the assertion
   * @throws IllegalArgumentException if {@code percent} is not in (0, 100]
   */
  public static Assertion failedBelow(String name, double percent) {
    if (!(percent > 0 && percent <= 100)) {
      throw new IllegalArgumentException(
          "failed percentage bound: got "
              + percent
              + ", expected a percentage in (0, 100], e.g. 1.0");
    }
    return details(name + " E2E").failedRequests().percent().lt(percent);
  }

  /**
   * A Gatling assertion that at least {@code ratio} of the measured requests named {@code name} met
   * the run's SLO: {@code details(name + " SLO").successfulRequests().percent().gte(ratio * 100)}.
   * Each measured request logs one {@code name SLO} figure when an SLO is set: a top-level Gatling
   * group (never counted as a request in Global Information), OK when it met the SLO, KO when it
   * missed it (the LLM report says which part it missed); warmup figures are in the {@code warmup}
   * group and do not count.
   *
   * @param name the request name
   * @param ratio the least attainment, in (0, 1]
   * @return the assertion
   * @throws IllegalArgumentException if {@code ratio} is not in (0, 1]
   */
  public static Assertion goodputRatio(String name, double ratio) {
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException(
          "goodput ratio: got " + ratio + ", expected a share in (0, 1], e.g. 0.95");
    }
    return details(name + " SLO").successfulRequests().percent().gte(ratio * 100);
  }

  /**
   * A Gatling assertion that at least {@code ratio} of the measured requests named {@code name} got
   * from the server's prefix cache what the plan says: {@code details(name + "
   * CACHE").successfulRequests().percent().gte(ratio * 100)}. Each successful measured request logs
   * one {@code name CACHE} figure (a top-level Gatling group, never counted as a request) when
   * {@code llm.assert.cacheAsPlanned} is set: OK when its outcome is the planned one ({@code hit}
   * where the plan expects a hit, {@code miss} where it expects a miss), KO otherwise ({@code
   * partial}, {@code unplanned_hit}, or {@code unknown} when the server reports no cached tokens;
   * the LLM report counts each). Warmup figures are in the {@code warmup} group and do not count.
   *
   * @param name the request name
   * @param ratio the least share, in (0, 1]
   * @return the assertion
   * @throws IllegalArgumentException if {@code ratio} is not in (0, 1]
   */
  public static Assertion cacheAsPlanned(String name, double ratio) {
    if (!(ratio > 0 && ratio <= 1)) {
      throw new IllegalArgumentException(
          "cache as planned ratio: got " + ratio + ", expected a share in (0, 1], e.g. 0.95");
    }
    return details(name + " CACHE").successfulRequests().percent().gte(ratio * 100);
  }

  /**
   * A concurrency sweep: closed injection steps going from one user (the synchronous level) to
   * {@code maxConcurrency} users (the throughput level) through levels between, each held for a set
   * duration, as GuideLLM's sweep does with rates. See {@link SweepBuilder}:
   *
   * <pre>{@code
   * SweepBuilder sweep = sweep().maxConcurrency(16).levels(3).levelDuration(Duration.ofSeconds(30));
   * ScenarioBuilder chat = scenario("chat").feed(prompts).exec(llm("chat").chatCompletion());
   * setUp(chat.injectClosed(sweep.steps())).protocols(llm.stopWhenSaturated(true));
   * }</pre>
   *
   * @return the sweep builder with its defaults: 16 users at most, 3 levels between, 30 s levels,
   *     no ramps
   */
  public static SweepBuilder sweep() {
    return new SweepBuilder(null, null, null, null);
  }

  /**
   * A Gatling assertion that the highest load meeting the SLO reached {@code
   * llm.assert.sloLoadAtLeast}: {@code details("SLO
   * LOAD").successfulRequests().percent().gte(100)}. With that setting, the run logs one {@code SLO
   * LOAD} figure (a top-level Gatling group of no duration, never counted as a request) once the
   * load meeting the SLO is known (the first level missing the SLO has been measured, or the last
   * level): OK when it is at least the bound, KO otherwise (the console's error line names both).
   * Added by {@link LlmProtocolBuilder#assertions(double, String...)} when the setting is set.
   *
   * @return the assertion
   */
  public static Assertion sloLoadMet() {
    return details(SLO_LOAD_ROW).successfulRequests().percent().gte(100.0);
  }

  /**
   * A capacity search in one run (issue 44): the highest arrival rate, or number of users, meeting
   * the SLO, found inside Gatling's injection and then held. See {@link CapacitySearchBuilder} and
   * docs/capacity.md:
   *
   * <pre>{@code
   * CapacitySearchBuilder search = capacitySearch().maxRate(32);
   * ScenarioBuilder chat =
   *     scenario("search").exec(search.gate()).feed(prompts).exec(llm("chat").request());
   * setUp(chat.injectOpen(search.openProfile())).protocols(llm.sloTtftMs(100));
   * }</pre>
   *
   * @return the search builder with its defaults (no highest load yet: {@code maxRate}, {@code
   *     maxUsers} or {@code -Dllm.search.maxRate} must give one)
   */
  public static CapacitySearchBuilder capacitySearch() {
    return new CapacitySearchBuilder(
        null, null, null, null, null, null, null, null, null, null, null);
  }

  /**
   * A Gatling assertion that the capacity search found at least {@code llm.assert.capacityAtLeast}:
   * {@code details("CAPACITY").successfulRequests().percent().gte(100)}. The search logs one {@code
   * CAPACITY} figure (a Gatling group of no duration, OK or KO) when it is over; {@code
   * llm.assertions(...)} adds this assertion when the setting is a property.
   *
   * @return the assertion
   */
  public static Assertion capacityMet() {
    return details(CAPACITY_ROW).successfulRequests().percent().gte(100.0);
  }

  /** The name of the row {@link #capacityMet()} asserts on. */
  public static final String CAPACITY_ROW = LlmProtocol.CAPACITY_ROW;

  /** The name of the row {@link #sloLoadMet()} asserts on. */
  public static final String SLO_LOAD_ROW = LlmProtocol.SLO_LOAD_ROW;

  /**
   * The first word of the rows {@link #noRegression(String)} asserts on: {@code BASELINE
   * ttft_p50_ms} etc.
   */
  public static final String BASELINE_ROW = LlmProtocol.BASELINE_ROW;

  /**
   * A Gatling assertion that a metric is not worse than the baseline's ({@code llm.baseline})
   * beyond {@code llm.assert.noRegressionPct} with 95% confidence: {@code details("BASELINE " +
   * metric).successfulRequests().percent().gte(100)}. With both settings, the run logs one such
   * figure (a top-level Gatling group of no duration, never counted as a request) per gated metric
   * once its load is over (every prompt budget spent): KO when the whole 95% interval of the change
   * lies beyond the percentage on the worse side (the console's lines name the metric, both values,
   * the change and its interval). Added for each gated metric by {@link
   * LlmProtocolBuilder#assertions(double, String...)} when the settings are set. See {@code
   * docs/comparing.md}.
   *
   * @param metric a metric name, e.g. {@code ttft_p99_ms} ({@code
   *     io.github.gatlingllm.compare.RunComparison#metricNames()})
   * @return the assertion
   * @throws IllegalArgumentException naming an unknown metric
   */
  public static Assertion noRegression(String metric) {
    io.github.gatlingllm.compare.RunComparison.checkNames(List.of(metric), "noRegression");
    return details(BASELINE_ROW + " " + metric).successfulRequests().percent().gte(100.0);
  }

  /**
   * This machine's part of a test's virtual users, for the injection profile of a test run on
   * several machines: {@code constantConcurrentUsers(shardUsers(64))}. On one machine it is {@code
   * users}; as shard {@code I} of {@code N} ({@code -Dllm.shard=I/N}, or a Kubernetes Indexed Job's
   * {@code JOB_COMPLETION_INDEX} with {@code -Dllm.shards=N}) it is {@code users / N}, plus one for
   * the first {@code users % N} shards, so the shards' users add up to {@code users}. Each shard
   * sends only its own requests (indices {@code I, I + N, ...}; see {@link PromptFeederBuilder}):
   * give every shard at least one user over the run, or its requests are never sent.
   *
   * @param users the whole test's users, at least 0
   * @return this shard's users
   * @throws IllegalArgumentException if {@code users} is negative or the shard settings are bad
   */
  public static int shardUsers(int users) {
    return io.github.gatlingllm.feeder.Shard.current().users(users);
  }

  /**
   * This machine's virtual users of a closed loop, from {@code -Dllm.concurrency}: the property's
   * value when it is set, else {@code users}, shared among the machines of a test run on several as
   * {@link #shardUsers(int)} shares them: {@code
   * constantConcurrentUsers(concurrency(8)).during(600)}. Every example simulation takes its users
   * from here, so {@code -Dllm.concurrency=16} runs it with 16.
   *
   * @param users the whole test's users when {@code llm.concurrency} is not set, at least 1
   * @return this shard's users, at least 0 (0 for a shard past the whole test's users)
   * @throws IllegalArgumentException naming {@code llm.concurrency} when it is not a whole number
   *     >= 1, or if {@code users} is below 1 or the shard settings are bad
   */
  public static int concurrency(int users) {
    if (users < 1) {
      throw new IllegalArgumentException("concurrency: got " + users + ", expected >= 1");
    }
    return shardUsers(
        io.github.gatlingllm.settings.SettingUse.RUN.concurrency(System.getProperties(), users));
  }

  /**
   * This machine's part of a test's arrival rate, for the open injection profile of a test run on
   * several machines: {@code constantUsersPerSec(shardRate(10)).during(60)}. On one machine it is
   * {@code rate}; as shard {@code I} of {@code N} it is {@code rate / N} (see {@link
   * #shardUsers(int)}).
   *
   * @param rate the whole test's rate, users (or requests) per second, at least 0
   * @return this shard's rate
   * @throws IllegalArgumentException if {@code rate} is negative or not finite, or the shard
   *     settings are bad
   */
  public static double shardRate(double rate) {
    return io.github.gatlingllm.feeder.Shard.current().rate(rate);
  }

  /** The Gatling simulation whose construction calls {@link #llm()}, to find its run folder. */
  private static Class<?> callingSimulation() {
    return StackWalker.getInstance(StackWalker.Option.RETAIN_CLASS_REFERENCE)
        .walk(
            frames ->
                frames
                    .map(StackWalker.StackFrame::getDeclaringClass)
                    .filter(io.gatling.javaapi.core.Simulation.class::isAssignableFrom)
                    .findFirst()
                    .orElse(null));
  }
}
