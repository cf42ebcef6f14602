package io.github.gatlingllm.action;

import io.gatling.core.session.Session;
import io.github.gatlingllm.api.RequestSettings;
import io.github.gatlingllm.cache.CachePlan;
import io.github.gatlingllm.cache.PrefixLedger;
import io.github.gatlingllm.feeder.ConversationFeeder;
import io.github.gatlingllm.feeder.FedPrompt;
import io.github.gatlingllm.feeder.PromptFeeder;
import io.github.gatlingllm.feeder.TraceReplay;
import io.github.gatlingllm.feeder.Workload;
import io.github.gatlingllm.metrics.RequestIdentity;
import io.github.gatlingllm.metrics.RequestRecord;
import io.github.gatlingllm.metrics.RequestRecordBuilder;
import io.github.gatlingllm.prompt.Phase;
import io.github.gatlingllm.prompt.Prompt;
import io.github.gatlingllm.protocol.ClientWatch;
import io.github.gatlingllm.protocol.Gate;
import io.github.gatlingllm.protocol.RunContext;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.Predicate;
import scala.Option;

/**
 * Not API. Sends a fed prompt ({@link FedPrompt}: generated, from a prompts file, or a trace row,
 * which is a prompt with a due time) or the request's own ({@code .prompt(...)}), with the fed
 * record's phase and index when there is one.
 */
final class PromptSender implements Sender {

  private final LlmActionSpec spec;
  private final RunContext run;
  private final RequestSettings settings;
  private final Dispatcher dispatcher;
  private final Predicate<String> userEndedByBudget;
  private final AtomicLong unfedIndex = new AtomicLong();

  /**
   * A sender of an action's prompts.
   *
   * @param spec the request
   * @param run the run (its client watch, tokenizer)
   * @param settings the request's body settings
   * @param dispatcher the way to the wire
   * @param userEndedByBudget the run's answer to a user fed past its budget, by scenario ({@link
   *     RunContext#userEndedByBudget})
   */
  PromptSender(
      LlmActionSpec spec,
      RunContext run,
      RequestSettings settings,
      Dispatcher dispatcher,
      Predicate<String> userEndedByBudget) {
    this.spec = spec;
    this.run = run;
    this.settings = settings;
    this.dispatcher = dispatcher;
    this.userEndedByBudget = userEndedByBudget;
  }

  /**
   * The prompt a virtual user was fed.
   *
   * @param session the user's session
   * @return the fed value ({@link FedPrompt#spent} on a record handed out after the budgets), or
   *     null when the user was fed no prompts feeder
   */
  static FedPrompt fed(Session session) {
    scala.collection.immutable.Map<String, Object> attributes = session.attributes();
    Option<Object> workload = attributes.get(PromptFeeder.WORKLOAD);
    if (workload.isEmpty()) {
      return null;
    }
    // A record after the budgets holds no fed value: the session's is the previous record's.
    if (Boolean.TRUE.equals(attributes.get(PromptFeeder.DONE).getOrElse(() -> null))) {
      return FedPrompt.spent((Workload) workload.get());
    }
    return (FedPrompt) attributes.get(FedPrompt.KEY).get();
  }

  @Override
  public Gate gate(Session session) {
    return admit(session, () -> send(session));
  }

  /**
   * {@link #admit(boolean, FedPrompt, String, Runnable)} for a session.
   *
   * @param session the user's session
   * @param send sends the request, run on the user's event loop once the warmup has ended
   * @return never null
   */
  Gate admit(Session session, Runnable send) {
    return admit(
        session.attributes().contains(ConversationFeeder.WORKLOAD),
        fed(session),
        session.scenario(),
        () -> session.eventLoop().execute(send));
  }

  /**
   * The answer for a prompt: the run stops when the user holds a conversation outside {@code
   * conversation(...)} or has no prompt at all; the user ends when its workload is spent; a fed
   * prompt begins (counted in flight from here to its end) and a measured one is held until the
   * warmup has ended.
   *
   * @param conversationFed whether the user was fed a conversations() feeder
   * @param fed the fed prompt, or null
   * @param scenario the user's scenario
   * @param resume sends the request once the warmup has ended (when this returns {@link Gate#HELD})
   * @return never null
   */
  Gate admit(boolean conversationFed, FedPrompt fed, String scenario, Runnable resume) {
    if (conversationFed) {
      return new Gate.StopRun(
          "llm(\""
              + spec.name()
              + "\"): the virtual user was fed a conversations() feeder, but this request is not"
              + " inside conversation(...), so it would send the first turn only: wrap it,"
              + " feed(conversations()...).exec(conversation(llm(\""
              + spec.name()
              + "\")...))",
          true);
    }
    if (fed == null) {
      return spec.prompt() != null
          ? Gate.GO
          : new Gate.StopRun(
              "llm(\""
                  + spec.name()
                  + "\"): the virtual user has no prompt to send: feed a prompts() feeder before"
                  + " this request (feed(prompts()...).exec(llm(\""
                  + spec.name()
                  + "\")...)) or give the request its own .prompt(...)",
              true);
    }
    if (fed.spent()) {
      return LlmAction.spentUser(userEndedByBudget.test(scenario));
    }
    if (fed.prompt().images() != null
        && settings.endpoint() == io.github.gatlingllm.api.WireApi.COMPLETIONS) {
      // Refused before the first request is sent, not one failed request each.
      return new Gate.StopRun(
          "llm(\""
              + spec.name()
              + "\"): completions takes no images, and its prompts carry them (llm.images.count, a"
              + " prompts file's images); expected llm.endpoint=chat, responses or messages",
          true);
    }
    // One record may carry several requests: each is counted in flight from here to its end.
    fed.workload().begin(fed.claim(), fed.phase());
    if (!Phase.isWarmup(fed.phase()) && fed.workload().holdUntilWarmedUp(resume)) {
      // Held until the warmup ends: the wait is the test's own, not a schedule lag.
      return Gate.HELD;
    }
    return Gate.GO;
  }

  /** Sends the fed prompt, or the request's own; a trace row at its due time ({@link #sendRow}). */
  @Override
  public void send(Session session) {
    FedPrompt fed = fed(session);
    if (fed != null && fed.trace() != null) {
      sendRow(session, fed);
    } else {
      send(session, fed, null);
    }
  }

  /**
   * Sends a trace row: a prompt with a due time. The row goes at its due time, whichever user
   * carries it: held on the user's event loop until then (a user starts up to one arrival window
   * early), sent at once when late. A session's later row (issue 32) waits for its session's
   * previous row to end, then goes at {@link TraceReplay#sessionDueNanos}.
   */
  private void sendRow(Session session, FedPrompt fed) {
    TraceReplay replay = fed.workload().replay();
    if (replay != null
        && replay.afterPrevious(
            (int) fed.index(),
            fed.workload().shard(),
            earliest -> session.eventLoop().execute(() -> sendRowAt(session, fed, earliest)))) {
      return;
    }
    sendRowAt(session, fed, null);
  }

  /**
   * Sends the row at its due time: its timestamp's, or for a session's later row the later of that
   * and {@code earliest} ({@link TraceReplay#sessionDueNanos}), which is then its schedule.
   *
   * @param earliest the session's previous row's end plus the row's delay ({@link
   *     System#nanoTime()}), or null for a row that waits for no other
   */
  private void sendRowAt(Session session, FedPrompt fed, Long earliest) {
    Long due = fed.trace().dueNanos();
    ClientWatch.First first = due != null ? run.client().traceRow(session, due) : null;
    Long dueNanos = first == null ? null : run.client().dueNanos(first);
    if (earliest != null) {
      if (dueNanos == null) {
        dueNanos = earliest; // no timestamp (or no injection start): no schedule of its own
      } else {
        long sessionDue = TraceReplay.sessionDueNanos(dueNanos, earliest, 0);
        if (sessionDue != dueNanos) {
          // the schedule (scheduled_ms, schedule lag) is the session's due time, not the timestamp
          first = run.client().traceRow(session, due + (sessionDue - dueNanos));
          dueNanos = sessionDue;
        }
      }
    }
    long wait = dueNanos == null ? 0 : dueNanos - System.nanoTime();
    ClientWatch.First schedule = first;
    if (wait > 0) {
      session.eventLoop().schedule(() -> send(session, fed, schedule), wait, TimeUnit.NANOSECONDS);
      return;
    }
    send(session, fed, first);
  }

  /**
   * Sends the prompt.
   *
   * @param session the user's session
   * @param fed the fed prompt, or null
   * @param traceFirst a trace row's schedule, or null for the user's own
   */
  private void send(Session session, FedPrompt fed, ClientWatch.First traceFirst) {
    String phase = fed == null ? "measured" : fed.phase();
    dispatcher.send(
        session,
        LlmAction.LOG,
        "request",
        () -> outgoing(session, fed, phase, traceFirst),
        endMs -> {
          if (fed != null) {
            PromptPart.over(fed, System.nanoTime());
          }
        });
  }

  private Outgoing outgoing(
      Session session, FedPrompt fed, String phase, ClientWatch.First traceFirst) {
    boolean own = spec.prompt() != null;
    String prompt = own ? spec.prompt().apply(session) : fed == null ? null : fed.prompt().text();
    if (prompt == null) {
      throw new IllegalArgumentException("the prompt is null");
    }
    RequestIdentity identity = own ? ownPromptIdentity(fed, phase, prompt) : identity(fed, phase);
    RequestSettings requestSettings =
        fed == null ? settings : fed.settings(settings, spec.maxTokens() != null);
    if (own && fed != null) {
      // The request sends its own text: the fed prompt's JSON string, if prepared, is not kept.
      fed.prompt().takeJson();
    }
    // A fed prompt built ahead brings its text's JSON string: the body is copied around it.
    io.github.gatlingllm.api.BodyParts body =
        own || fed == null
            ? io.github.gatlingllm.api.BodyParts.of(
                requestSettings
                    .endpoint()
                    .dialect()
                    .body(requestSettings, prompt)
                    .getBytes(StandardCharsets.UTF_8))
            : fed.bodyParts(requestSettings);
    // Marked as sent in the order requests go out: the first sent of a group plans a miss.
    RequestPart part = fed == null ? UNFED : new PromptPart(fed, own ? null : fed.planSent());
    return Outgoing.of(
        identity, body, part, traceFirst != null ? traceFirst : run.client().firstSend(session));
  }

  /**
   * The identity of a request that brings its own prompt ({@code .prompt(...)}): the fed record's
   * phase and index when there is one, the digest of the text sent and its count with the run's
   * tokenizer, as a fed prompt's.
   */
  private RequestIdentity ownPromptIdentity(FedPrompt fed, String phase, String prompt) {
    return new RequestIdentity(
        spec.name(),
        phase,
        fed != null ? fed.index() : unfedIndex.getAndIncrement(),
        null,
        Prompt.digestOf(prompt),
        null,
        null,
        run.counter().count(prompt));
  }

  private RequestIdentity identity(FedPrompt fed, String phase) {
    if (fed == null) {
      return new RequestIdentity(
          spec.name(), phase, unfedIndex.getAndIncrement(), null, null, null, null, null);
    }
    Prompt prompt = fed.prompt();
    return new RequestIdentity(
        spec.name(),
        phase,
        fed.index(),
        prompt.promptId(),
        prompt.digest(),
        prompt.prefixGroup(),
        prompt.sharedPrefixTokens(),
        prompt.plannedCount().value());
  }

  /** The part of a request with its own prompt and no feeder: counted in the run, nothing else. */
  static final RequestPart UNFED =
      new RequestPart() {
        @Override
        public void sending(RunContext run, String scenario, String request) {
          run.sending(scenario, request, null, null);
        }

        @Override
        public RequestRecord complete(
            RequestRecord record, CachePlan.Server server, long endNanos) {
          return record;
        }
      };

  /**
   * A fed prompt on its way: its workload counts it in flight until it is over, its record gets the
   * workload's name and the cache plan it was judged against, a trace row's record its row and
   * session, and a trace session's next row waits for its end, however it ended.
   */
  static final class PromptPart implements RequestPart {

    private final FedPrompt fed;
    private final CachePlan.Sent sent;
    private final PrefixLedger.Ticket ticket;

    /**
     * A fed prompt's part.
     *
     * @param fed the fed prompt, never null
     * @param sending the cache plan's input as sent and the prompt's prefix ticket ({@link
     *     FedPrompt#planSent}), or null when the request sent its own prompt (judged against no
     *     plan) or the prompts file plans none
     */
    PromptPart(FedPrompt fed, Workload.Sending sending) {
      this.fed = fed;
      this.sent = sending == null ? null : sending.sent();
      this.ticket = sending == null ? null : sending.ticket();
    }

    @Override
    public void sending(RunContext run, String scenario, String request) {
      run.sending(scenario, request, fed.workload(), null);
    }

    @Override
    public Workload workload() {
      return fed.workload();
    }

    @Override
    public RequestRecord complete(RequestRecord record, CachePlan.Server server, long endNanos) {
      Workload workload = fed.workload();
      learnImageTokens(fed.prompt(), record, server);
      CachePlan.Sent planned = replanned(sent, fed.prompt());
      record =
          record.withCache(
              workload.name(),
              planned == null
                  ? null
                  : CachePlan.of(
                      server,
                      workload.planEnded(fed, planned, ticket, endNanos),
                      record.promptTokens(),
                      record.cachedTokens()));
      io.github.gatlingllm.image.PromptImages images = fed.prompt().images();
      if (images != null) {
        record = record.toBuilder().images(images.count()).imageBytes(images.bytes()).build();
      }
      if (fed.trace() == null) {
        return record;
      }
      RequestRecordBuilder withRow = record.toBuilder().traceRow((long) fed.trace().row());
      if (workload.replay() != null) {
        withRow.sessionId(workload.replay().trace().sessionId((int) fed.index()));
      }
      return withRow.build();
    }

    /**
     * A prompt with images whose token rule learns from the server ({@code
     * llm.images.tokens=server}) learns from its first answered request: its images' tokens are the
     * server's prompt tokens less the template's and the text's ({@link
     * io.github.gatlingllm.image.ImageTokens#learn}).
     */
    static void learnImageTokens(Prompt prompt, RequestRecord record, CachePlan.Server server) {
      io.github.gatlingllm.image.PromptImages images = prompt.images();
      if (images == null
          || !images.tokens().learns()
          || record.promptTokens() == null
          || !record.promptTokensExact()
          || server == null) {
        return;
      }
      int text = prompt.planned() != null ? prompt.planned().value() : prompt.count().value();
      images.tokens().learn(record.promptTokens(), server.templateTokens() + text, images.count());
    }

    /**
     * The plan's input as sent, its prompt's counts read again at the request's end when its
     * images' tokens are learnt from the server ({@code llm.images.tokens=server}): a request sent
     * before the first answer taught them was planned with its text alone (its group prefix without
     * its shared images), and would be judged against a prefix, and a warm ceiling, short of the
     * images the server did cache.
     *
     * @param sent the plan's input as sent, or null
     * @param prompt the request's prompt, never null
     * @return {@code sent}, or the same with the group prefix's and the prompt's tokens as now
     *     known (a trace row's leading blocks stay: its images come after its text)
     */
    static CachePlan.Sent replanned(CachePlan.Sent sent, Prompt prompt) {
      io.github.gatlingllm.image.PromptImages images = prompt.images();
      if (sent == null || images == null || !images.tokens().learns()) {
        return sent;
      }
      Integer shared =
          sent.mode() == io.github.gatlingllm.prompt.PromptMode.TRACE
              ? sent.sharedPrefixTokens()
              : prompt.sharedPrefixTokens();
      return new CachePlan.Sent(
          sent.mode(),
          sent.sentBefore(),
          shared,
          prompt.plannedCount().value(),
          sent.sharded(),
          sent.warmPrefixTokens(),
          sent.sentInFlight(),
          sent.readyPrefixTokens());
    }

    @Override
    public void firstToken() {
      if (ticket != null) {
        ticket.prefillEnded();
      }
    }

    @Override
    public void closed(long endNanos, boolean computed) {
      fed.workload().ended(fed.phase());
      if (ticket != null) {
        ticket.ended(computed);
      }
      rowEnded(fed, endNanos);
    }

    /**
     * A fed prompt's request is over, sent or not: its workload counts it out of flight, and a
     * trace session's next row may go.
     */
    static void over(FedPrompt fed, long endNanos) {
      fed.workload().ended(fed.phase());
      rowEnded(fed, endNanos);
    }

    /** A trace session's next row goes after this one, however it ended. */
    private static void rowEnded(FedPrompt fed, long endNanos) {
      if (fed.trace() != null && fed.workload().replay() != null) {
        fed.workload().replay().rowEnded((int) fed.index(), endNanos);
      }
    }
  }
}
