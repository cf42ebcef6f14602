package io.github.gatlingllm.action;

import io.gatling.core.action.Action;
import io.gatling.core.session.Session;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.TraceReplay;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.internal.GatlingCore;
import io.github.gatlingllm.internal.GatlingHttp;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.openai.ChatMessage;
import io.github.gatlingllm.openai.RequestBodies;
import io.github.gatlingllm.openai.RequestSettings;
import io.github.gatlingllm.prompt.PromptMode;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.RunContext;
import io.github.gatlingllm.protocol.TargetWatch;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicLong;
import org.slf4j.LoggerFactory;
import scala.Option;

/**
 * Not API. The LLM request action: takes the fed prompt (or the request's own), builds the body,
 * sends it once through Gatling's HTTP engine from the virtual user's event loop and hands the
 * response to a {@link ResponseListener}, which records it and lets the virtual user go on.
 *
 * <p>Crashes in here never kill a virtual user silently: a request that cannot be built is recorded
 * and logged as a KO row with the reason, and the user goes on; a scenario that gives the request
 * no prompt at all stops the run at once with a message naming what is missing (rather than
 * recording a failure per request).
 */
final class LlmAction implements Action {

  /** How long a virtual user fed past its workload's budget waits before it ends, in ms. */
  static final long SPENT_USER_PAUSE_MS = 1_000;

  private static final org.slf4j.Logger LOG = LoggerFactory.getLogger(LlmAction.class);

  private final LlmActionSpec spec;
  private final RunContext run;
  private final RequestSettings body;
  private final GatlingHttp http;
  private final GatlingCore gatling;
  private final Action next;
  private final AtomicLong unfedIndex = new AtomicLong();
  private final AtomicBoolean stopped = new AtomicBoolean();
  private final ConversationSender conversations = new ConversationSender(this);
  private com.typesafe.scalalogging.Logger logger =
      com.typesafe.scalalogging.Logger$.MODULE$.apply(LOG);

  LlmAction(
      LlmActionSpec spec, RunContext run, RequestSettings body, GatlingHttp http, Action next) {
    this.spec = spec;
    this.run = run;
    this.body = body;
    this.http = http;
    this.gatling = run.gatling();
    this.next = next;
  }

  @Override
  public String name() {
    return spec.name();
  }

  @Override
  public com.typesafe.scalalogging.Logger logger() {
    return logger;
  }

  @Override
  public void com$typesafe$scalalogging$StrictLogging$_setter_$logger_$eq(
      com.typesafe.scalalogging.Logger logger) {
    this.logger = logger;
  }

  RequestSettings body() {
    return body;
  }

  RunContext run() {
    return run;
  }

  Action next() {
    return next;
  }

  LlmActionSpec spec() {
    return spec;
  }

  GatlingHttp http() {
    return http;
  }

  @Override
  public void execute(Session session) {
    execute(session, true);
  }

  /**
   * The request's way from the gate to the wire.
   *
   * @param mayWait false after the user has waited once for a target that is not answering: it then
   *     sends (or ends, or stops the run), never waits again
   */
  private void execute(Session session, boolean mayWait) {
    try {
      String saturated = run.saturationStop();
      if (saturated != null) {
        run.loadOver();
        gatling.stopLoadGenerator(session, saturated, false);
        return;
      }
      if (targetGate(session, mayWait)) {
        return;
      }
      if (run.pastProfileEnd(session)) {
        // Past its scenario's injection profile: the user ends rather than loop on (ProfileEnd).
        gatling.exit().$bang(session);
        return;
      }
      if (!spec.conversation() && session.attributes().contains(ConversationFeeder.WORKLOAD)) {
        stop(
            session,
            "llm(\""
                + spec.name()
                + "\"): the virtual user was fed a conversations() feeder, but this request is not"
                + " inside conversation(...), so it would send the first turn only: wrap it,"
                + " feed(conversations()...).exec(conversation(llm(\""
                + spec.name()
                + "\")...))");
        return;
      }
      if (spec.conversation()) {
        conversations.execute(session);
        return;
      }
      Option<Object> workloadAttribute = session.attributes().get(PromptFeeder.WORKLOAD);
      Workload workload = workloadAttribute.isDefined() ? (Workload) workloadAttribute.get() : null;
      if (workload == null && spec.prompt() == null) {
        stop(
            session,
            "llm(\""
                + spec.name()
                + "\"): the virtual user has no prompt to send: feed a prompts() feeder before this"
                + " request (feed(prompts()...).exec(llm(\""
                + spec.name()
                + "\")...)) or give the request its own .prompt(...)");
        return;
      }
      if (workload != null
          && Boolean.TRUE.equals(session.attributes().get(PromptFeeder.DONE).get())) {
        endSpentUser(session);
        return;
      }
      String phase = workload == null ? "measured" : attribute(session, PromptFeeder.PHASE);
      if (workload != null) {
        // One record may carry several requests: each is counted in flight from here to its end.
        workload.begin(
            (java.util.concurrent.atomic.AtomicBoolean)
                session.attributes().get(PromptFeeder.CLAIM).get(),
            phase);
      }
      if (workload != null
          && !"warmup".equals(phase)
          && workload.holdUntilWarmedUp(
              () -> session.eventLoop().execute(() -> send(session, workload, phase, null)))) {
        // Held until the warmup ends: the wait is the test's own, not a schedule lag.
        run.client().unscheduled(session);
        return;
      }
      if (workload != null && workload.replay() != null) {
        sendTraceRow(session, workload, phase);
        return;
      }
      send(session, workload, phase, null);
    } catch (RuntimeException e) {
      LOG.error("llm(\"{}\"): {}", spec.name(), e.toString(), e);
      next.$bang(session.markAsFailed());
    }
  }

  /**
   * A trace row goes at its due time, whichever user carries it: held on the user's event loop
   * until then (a user starts up to one arrival window early), sent at once when late.
   */
  private void sendTraceRow(Session session, Workload workload, String phase) {
    Option<Object> due = session.attributes().get(TraceReplay.DUE_NANOS);
    ClientWatch.First first =
        due.isDefined() ? run.client().traceRow(session, (Long) due.get()) : null;
    Long dueNanos = first == null ? null : run.client().dueNanos(first);
    long wait = dueNanos == null ? 0 : dueNanos - System.nanoTime();
    if (wait > 0) {
      session
          .eventLoop()
          .schedule(() -> send(session, workload, phase, first), wait, TimeUnit.NANOSECONDS);
      return;
    }
    send(session, workload, phase, first);
  }

  private void send(
      Session session, Workload workload, String phase, ClientWatch.First traceFirst) {
    boolean started = false;
    ResponseListener listener = null;
    try {
      String prompt =
          spec.prompt() != null
              ? spec.prompt().apply(session)
              : attribute(session, PromptFeeder.TEXT);
      if (prompt == null) {
        throw new IllegalArgumentException("the prompt is null");
      }
      RequestIdentity identity =
          spec.prompt() != null
              ? ownPromptIdentity(session, phase, prompt)
              : identity(session, phase);
      byte[] bytes = body(session, prompt).getBytes(StandardCharsets.UTF_8);
      io.gatling.http.client.Request request =
          http.clientRequest(session.set(LlmScalaActionBuilder.BODY, bytes));
      // Marked as sent in the order requests go out: the first sent of a group plans a miss.
      // A prompts file plans no prefix sharing: its requests are judged against no plan.
      CachePlan.Sent sent =
          workload == null || spec.prompt() != null || workload.measured().file() != null
              ? null
              : workload.replay() != null
                  ? traceSent(session, workload, identity)
                  : new CachePlan.Sent(
                      workload.spec().mode(),
                      workload.sentBefore(attribute(session, PromptFeeder.PREFIX_KEY)),
                      identity.sharedPrefixTokens(),
                      identity.plannedTokens(),
                      !workload.shard().single());
      listener =
          new ResponseListener(
              this,
              session,
              identity,
              workload,
              body.stream(),
              sent,
              run.cacheServer(body.endpoint()),
              null,
              traceFirst != null ? traceFirst : run.client().firstSend(session));
      run.levelStarted(session.scenario(), spec.name());
      run.started(workload, spec.name());
      started = true;
      http.send(request, session, run.shareConnections(), listener);
    } catch (RuntimeException e) {
      // Nothing reached the wire: a KO row with the reason, the user goes on.
      LOG.error("llm(\"{}\"): the request could not be sent: {}", spec.name(), e.toString());
      long now = gatling.nowMillis();
      RequestRows.logFailed(gatling, session, spec.name(), now, now, "not sent: " + e.getMessage());
      if (listener != null) {
        listener.abandon();
      }
      if (started) {
        run.notSent();
      }
      if (workload != null) {
        workload.ended(phase);
      }
      next.$bang(session.markAsFailed());
    }
  }

  /**
   * Asks the target watch whether this user may send ({@link RunContext#targetGate()}): returns
   * true when the user was held back (waits, ends, or stops the run) rather than let through.
   */
  private boolean targetGate(Session session, boolean mayWait) {
    TargetWatch.Gate gate = run.targetGate();
    switch (gate) {
      case STOP_RUN:
        run.loadOver();
        gatling.stopLoadGenerator(
            session, "gatling-llm: the target is down, stopping (llm.stopWhenTargetDown)", false);
        return true;
      case END_USER:
        // The run is stopping: the pause keeps a closed loop from spinning until it has.
        session
            .eventLoop()
            .schedule(
                () -> gatling.exit().$bang(session), SPENT_USER_PAUSE_MS, TimeUnit.MILLISECONDS);
        return true;
      case WAIT:
      case WAIT_DOWN:
        if (!mayWait) {
          return false;
        }
        // Not answering: wait rather than hammer a closed port; the wait is not a schedule lag.
        run.client().unscheduled(session);
        session
            .eventLoop()
            .schedule(
                () -> execute(session, false),
                gate == TargetWatch.Gate.WAIT
                    ? TargetWatch.SUSPECT_PAUSE_MS
                    : TargetWatch.DOWN_PAUSE_MS,
                TimeUnit.MILLISECONDS);
        return true;
      default:
        return false;
    }
  }

  void endSpentUser(Session session) {
    if (run.userEndedByBudget(session.scenario())) {
      LOG.info(
          "every prompt feeder's budget is spent and every request has ended: stopping the"
              + " injection (every scenario of the simulation was fed a budget)");
      run.loadOver();
      gatling.stopLoadGenerator(session, "gatling-llm: every prompt budget is spent", false);
      return;
    }
    // A closed loop replaces an ended user at once: the pause keeps that from spinning.
    session
        .eventLoop()
        .schedule(() -> gatling.exit().$bang(session), SPENT_USER_PAUSE_MS, TimeUnit.MILLISECONDS);
  }

  void stop(Session session, String message) {
    if (stopped.compareAndSet(false, true)) {
      LOG.error("{}", message);
      run.crashed();
      gatling.stopLoadGenerator(session, message, true);
    }
  }

  /**
   * The body of a request: the fed record's chat messages (a prompts file's {@code messages} row;
   * on the completions endpoint, their transcript) or the prompt as one user message, with the
   * row's own {@code max_tokens} when it has one.
   */
  private String body(Session session, String prompt) {
    RequestSettings settings = body;
    Option<Object> traceOutputTokens = session.attributes().get(TraceReplay.OUTPUT_TOKENS);
    if (traceOutputTokens.isDefined()) {
      settings = settings.withMaxTokens((Integer) traceOutputTokens.get());
    }
    Option<Object> rowMaxTokens = session.attributes().get(PromptFeeder.MAX_TOKENS);
    if (rowMaxTokens.isDefined()
        && rowMaxTokens.get() instanceof Integer tokens
        && tokens > 0
        && spec.maxTokens() == null) {
      settings = settings.withMaxTokens(tokens);
    }
    Option<Object> messages = session.attributes().get(PromptFeeder.MESSAGES);
    if (spec.prompt() == null
        && messages.isDefined()
        && messages.get() instanceof java.util.List<?> list
        && !list.isEmpty()) {
      java.util.List<ChatMessage> chat = new java.util.ArrayList<>();
      for (Object m : (java.util.List<?>) messages.get()) {
        java.util.Map<?, ?> map = (java.util.Map<?, ?>) m;
        chat.add(new ChatMessage((String) map.get("role"), (String) map.get("content")));
      }
      return settings.endpoint() == io.github.gatlingllm.openai.Endpoint.CHAT
          ? RequestBodies.body(settings, chat)
          : RequestBodies.body(settings, ChatMessage.transcript(chat));
    }
    return RequestBodies.body(settings, prompt);
  }

  /**
   * The identity of a request that brings its own prompt ({@code .prompt(...)}): the fed record's
   * phase and index when there is one, the digest of the text sent and its count with the run's
   * tokenizer, as a fed prompt's.
   */
  private RequestIdentity ownPromptIdentity(Session session, String phase, String prompt) {
    Option<Object> index = session.attributes().get(PromptFeeder.INDEX);
    return new RequestIdentity(
        spec.name(),
        phase,
        index.isDefined() ? (Long) index.get() : unfedIndex.getAndIncrement(),
        null,
        io.github.gatlingllm.prompt.Prompt.digestOf(prompt),
        null,
        null,
        run.counter().count(prompt));
  }

  private RequestIdentity identity(Session session, String phase) {
    if (!session.attributes().contains(PromptFeeder.WORKLOAD)) {
      return new RequestIdentity(
          spec.name(), phase, unfedIndex.getAndIncrement(), null, null, null, null, null);
    }
    return new RequestIdentity(
        spec.name(),
        phase,
        (Long) session.attributes().get(PromptFeeder.INDEX).get(),
        attribute(session, PromptFeeder.PROMPT_ID),
        attribute(session, PromptFeeder.DIGEST),
        (Integer) session.attributes().get(PromptFeeder.PREFIX_GROUP).getOrElse(() -> null),
        (Integer) session.attributes().get(PromptFeeder.SHARED_PREFIX_TOKENS).getOrElse(() -> null),
        (Integer) session.attributes().get(PromptFeeder.PLANNED_TOKENS).getOrElse(() -> null));
  }

  /** A trace row's plan: the tokens of its leading blocks that earlier requests sent. */
  private static CachePlan.Sent traceSent(
      Session session, Workload workload, RequestIdentity identity) {
    long[] ids = (long[]) session.attributes().get(TraceReplay.HASH_IDS).get();
    int input = (Integer) session.attributes().get(TraceReplay.INPUT_TOKENS).get();
    int shared = workload.replay().sentBefore(ids, input);
    return new CachePlan.Sent(
        PromptMode.TRACE,
        shared > 0,
        shared,
        identity.plannedTokens(),
        !workload.shard().single(),
        workload.replay().warmPrefixTokens(identity.index().intValue()));
  }

  private static String attribute(Session session, String key) {
    Option<Object> value = session.attributes().get(key);
    return value.isDefined() ? (String) value.get() : null;
  }
}
